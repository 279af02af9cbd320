"""Test harness: a bolt app built by ``bot.app.build_app`` against the local Slack, served over HTTP.

:func:`open_env` yields a :class:`BotEnv` with the Web API stand-in, the fake answer service, the
answer log (real LanceDB in ``tmp_path``), the app's HTTP server and a signed-event driver.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slack_bolt import App

from bot.app import build_app
from bot.home import HomeSection, Topics
from bot.runner import EVENTS_PATH, make_http_server
from bot.work import BackgroundWork
from core.answer_log import AnswerLog
from core.blobs import LocalBlobStore
from core.cache import AnswerCache
from core.cache.service import CachedAnswerService
from core.config import ChannelSettings, LinksSettings, Secrets, Settings, SlackSettings
from core.service import AnswerService
from core.store import Store
from tests.slack_standin.events import EventsDriver
from tests.slack_standin.fake_service import FakeAnswerService
from tests.slack_standin.web_api import APP_TOKEN, BOT_TOKEN, SlackStandIn

SIGNING_SECRET = "fake-signing-secret-0123456789"


@dataclass
class BotEnv:
    """Everything a bot test touches."""

    slack: SlackStandIn
    service: Any
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


def make_settings(tmp_path: Path, slack: SlackStandIn, links: str | None = None,
                  **slack_overrides: Any) -> Settings:
    """Settings whose Web API base URL is the stand-in; ``slack_overrides`` go into SlackSettings."""
    channels = {"C0FAKEHR01": ChannelSettings(scope=("hr/**",)),
                "C0FAKEQUIET": ChannelSettings(mention_only=True)}
    fields: dict[str, Any] = {"api_base_url": slack.base_url, "channels": channels, "stream": False,
                              "admins": ("U0FAKEADMIN",)}
    fields.update(slack_overrides)
    return Settings(data_dir=tmp_path / "data", slack=SlackSettings(**fields),
                    links=LinksSettings(base_url=links))


def secrets() -> Secrets:
    """Fake tokens the stand-in accepts."""
    return Secrets(slack_bot_token=BOT_TOKEN, slack_app_token=APP_TOKEN, slack_signing_secret=SIGNING_SECRET)


@contextmanager
def open_env(tmp_path: Path, service: AnswerService | None = None,
             slack: SlackStandIn | None = None, cache: AnswerCache | None = None, *,
             workers: int = 4, links: str | None = None, topics: Topics | None = None,
             home_sections: Sequence[HomeSection] = (), **slack_overrides: Any) -> Iterator[BotEnv]:
    """A :class:`BotEnv`: the bot (real bolt + WebClient, built by ``build_app``) served over HTTP on a
    random port against a local Slack (a new one unless ``slack`` is given). ``slack_overrides`` go
    into :class:`SlackSettings`; ``links`` is ``links.base_url``. With ``cache``, the app answers
    through a :class:`~core.cache.service.CachedAnswerService` around ``service`` and votes feed the
    cache. Dedupe claims live in ``<data_dir>/blobs`` (as ``App.blobs``), so a second env on the same
    ``tmp_path`` is a restarted process. On exit, background work is drained and everything stopped."""
    with ExitStack() as stack:
        if slack is None:
            slack = stack.enter_context(SlackStandIn())
        settings = make_settings(tmp_path, slack, links=links, **slack_overrides)
        service = service or FakeAnswerService()
        work = BackgroundWork(workers=workers)
        stack.callback(work.shutdown)
        answer_log = AnswerLog(Store(settings.data_dir).db)
        served = CachedAnswerService(service, cache) if cache is not None else service
        blobs = LocalBlobStore(settings.data_dir / "blobs")
        app = build_app(settings, secrets(), served, answer_log, blobs=blobs, work=work, cache=cache,
                        topics=topics, home_sections=home_sections,
                        status=lambda: "index: 3 documents, 42 chunks",
                        reindex=lambda path: f"reindexed {path or 'everything'}")
        server = make_http_server(app, 0, host="127.0.0.1")
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        stack.callback(server.server_close)
        stack.callback(server.shutdown)
        url = f"http://127.0.0.1:{server.server_address[1]}{EVENTS_PATH}"
        driver = EventsDriver(url, SIGNING_SECRET, slack)
        stack.callback(driver.close)
        stack.callback(work.drain, 60)
        yield BotEnv(slack, service, answer_log, app, work, driver, settings)
