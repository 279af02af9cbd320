"""Pytest fixtures: a bolt app built by ``bot.app.build_app`` against the local Slack, served over HTTP.

``bot_env`` yields a :class:`BotEnv` with the Web API stand-in, the fake answer service, the answer
log (real LanceDB in ``tmp_path``), the app's HTTP server and a signed-event driver. Import the fixture
into a test module (``from tests.slack_standin.harness import bot_env``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from slack_bolt import App

from bot.app import build_app
from bot.runner import EVENTS_PATH, make_http_server
from bot.work import BackgroundWork
from core.answer_log import AnswerLog
from core.config import ChannelSettings, Secrets, Settings, SlackSettings
from core.store import Store
from tests.slack_standin.events import EventsDriver
from tests.slack_standin.fake_service import FakeAnswerService
from tests.slack_standin.web_api import APP_TOKEN, BOT_TOKEN, SlackStandIn

SIGNING_SECRET = "fake-signing-secret-0123456789"


@dataclass
class BotEnv:
    """Everything a bot test touches."""

    slack: SlackStandIn
    service: FakeAnswerService
    answer_log: AnswerLog
    app: App
    work: BackgroundWork
    driver: EventsDriver
    settings: Settings

    def send(self, body: dict[str, Any], **kw: Any) -> int:
        """Deliver one signed event; returns the HTTP status."""
        return self.driver.send_event(body, **kw).status

    def settle(self) -> None:
        """Wait for all background work the deliveries so far started."""
        assert self.work.drain(timeout=60)


def make_settings(tmp_path: Path, slack: SlackStandIn, **slack_overrides: Any) -> Settings:
    """Settings whose Web API base URL is the stand-in; ``slack_overrides`` go into SlackSettings."""
    channels = {"C0FAKEHR01": ChannelSettings(scope=("hr/**",)),
                "C0FAKEQUIET": ChannelSettings(mention_only=True)}
    fields: dict[str, Any] = {"api_base_url": slack.base_url, "channels": channels, "stream": False,
                              "admins": ("U0FAKEADMIN",)}
    fields.update(slack_overrides)
    return Settings(data_dir=tmp_path / "data", slack=SlackSettings(**fields))


def secrets() -> Secrets:
    """Fake tokens the stand-in accepts."""
    return Secrets(slack_bot_token=BOT_TOKEN, slack_app_token=APP_TOKEN, slack_signing_secret=SIGNING_SECRET)


@pytest.fixture
def slack() -> Iterator[SlackStandIn]:
    """A running Web API stand-in."""
    with SlackStandIn() as s:
        yield s


@pytest.fixture
def bot_env(tmp_path: Path, slack: SlackStandIn, request: pytest.FixtureRequest) -> Iterator[BotEnv]:
    """The bot (real bolt + WebClient) served on a random port; ``@pytest.mark.slack_settings(...)``
    is not used — tests needing other settings build their own env with :func:`start_env`."""
    with start_env(tmp_path, slack) as env:
        yield env


class start_env:  # noqa: N801 (used like a function)
    """Context manager building a :class:`BotEnv` with ``service`` and slack settings overrides."""

    def __init__(self, tmp_path: Path, slack: SlackStandIn, service: FakeAnswerService | None = None,
                 **slack_overrides: Any) -> None:
        self.settings = make_settings(tmp_path, slack, **slack_overrides)
        self.slack = slack
        self.service = service or FakeAnswerService()
        self.work = BackgroundWork(workers=4)
        self.answer_log = AnswerLog(Store(self.settings.data_dir).db)
        self.status_calls: list[str | None] = []
        self.app = build_app(self.settings, secrets(), self.service, self.answer_log, work=self.work,
                             status=lambda: "index: 3 documents, 42 chunks",
                             reindex=self._reindex)
        self.server = make_http_server(self.app, 0, host="127.0.0.1")
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _reindex(self, path: str | None) -> str:
        self.status_calls.append(path)
        return f"reindexed {path or 'everything'}"

    def __enter__(self) -> BotEnv:
        self.thread.start()
        url = f"http://127.0.0.1:{self.server.server_address[1]}{EVENTS_PATH}"
        self.driver = EventsDriver(url, SIGNING_SECRET, self.slack)
        return BotEnv(self.slack, self.service, self.answer_log, self.app, self.work, self.driver, self.settings)

    def __exit__(self, *exc: object) -> None:
        self.work.drain(timeout=60)
        self.driver.close()
        self.server.shutdown()
        self.server.server_close()
        self.work.shutdown()
