"""Hostile input at the Slack surface, found by trying to break ``policybot run``: tokens Slack refuses,
unsigned requests with a malformed timestamp or body, event types nobody subscribed to, and signed
events missing their channel or ts.

Tokens: the real command in a child process against the local Slack (``tests/slack_standin``). Events:
the bolt app built by ``bot.app.build_app``, served over HTTP and driven by the signed-event driver.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest

from tests.cli_helpers import LEAVE, cli_env, policy_folder, run_cli, write_config
from tests.slack_standin import SlackStandIn, event_body
from tests.slack_standin.harness import BotEnv, open_env
from tests.slack_standin.web_api import APP_TOKEN, BOT_TOKEN


# ---- tokens Slack refuses --------------------------------------------------------------------------
def _run_with(tmp_path: Path, slack: SlackStandIn, *args: str, **env: str) -> tuple[int, str]:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    cfg = write_config(tmp_path, root, slack={"api_base_url": slack.base_url, "stream": False})
    out = run_cli("--config", str(cfg), "run", *args, env=cli_env(**env))
    return out.returncode, out.stderr


def test_a_bot_token_slack_refuses_is_one_error_line_naming_it(tmp_path: Path) -> None:
    with SlackStandIn() as slack:
        code, err = _run_with(tmp_path, slack, "--http-port", "0", "--host", "127.0.0.1",
                              SLACK_BOT_TOKEN="xoxb-not-this-app", SLACK_SIGNING_SECRET="s")
    assert code == 2 and "Traceback" not in err
    assert "refused SLACK_BOT_TOKEN (invalid_auth" in err and slack.base_url in err


def test_an_app_token_slack_refuses_is_one_error_line_naming_it(tmp_path: Path) -> None:
    with SlackStandIn() as slack:
        code, err = _run_with(tmp_path, slack, SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_APP_TOKEN=APP_TOKEN + "x")
    assert code == 2 and "Traceback" not in err
    assert "refused SLACK_APP_TOKEN (invalid_auth" in err


# ---- requests at /slack/events -------------------------------------------------------------------------
def _post(env: BotEnv, body: bytes, timestamp: str, signature: str) -> int:
    headers = {"Content-Type": "application/json", "X-Slack-Request-Timestamp": timestamp,
               "X-Slack-Signature": signature}
    return env.driver.http.post(env.driver.url, content=body, headers=headers).status_code


def test_an_unsigned_request_with_a_timestamp_that_is_no_number_gets_401(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with open_env(tmp_path) as env:
        status = _post(env, json.dumps(event_body("app_mention")).encode(), "abc", "v0=00")
    assert status == 401 and not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_request_body_that_is_not_utf8_gets_400(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with open_env(tmp_path) as env:
        status = _post(env, b'{"type": "\xff"}', str(int(time.time())), "v0=00")
    assert status == 400 and not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_signed_event_of_a_type_the_bot_does_not_use_is_acknowledged(tmp_path: Path) -> None:
    body = event_body("app_mention")
    body["event"] = {"type": "member_joined_channel", "user": "U0FAKEUSR1", "channel": "C0FAKEPOL1"}
    with open_env(tmp_path) as env:
        assert env.send(body) == 200
    assert not env.slack.calls_to("chat.postMessage")


def test_slacks_app_rate_limited_notice_is_acknowledged(tmp_path: Path) -> None:
    notice = {"token": "x", "type": "app_rate_limited", "team_id": "T0FAKETEAM",
              "minute_rate_limited": 1518467820, "api_app_id": "A0FAKEAPP1"}
    with open_env(tmp_path) as env:
        assert env.send(notice) == 200


@pytest.mark.parametrize("missing", ["channel", "ts"])
def test_a_signed_mention_without_channel_or_ts_is_acknowledged_and_ignored(
        tmp_path: Path, missing: str, caplog: pytest.LogCaptureFixture) -> None:
    body = event_body("app_mention", text="<@U0FAKEBOT1> how long is parental leave?")
    del body["event"][missing]
    with open_env(tmp_path) as env:
        assert env.send(body) == 200
        env.settle()
    assert not env.service.calls and not [r for r in caplog.records if r.levelno >= logging.ERROR]
