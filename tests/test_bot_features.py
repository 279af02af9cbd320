"""Scoping, the /policy command, rate limits, 429 retries and streaming."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.slack_standin import Fault, event_body
from tests.slack_standin.fake_service import FakeAnswerService
from tests.slack_standin.harness import BotEnv, open_env


@pytest.fixture
def bot_env(tmp_path: Path) -> Iterator[BotEnv]:
    with open_env(tmp_path) as env:
        yield env


PARENT = "1718000000.000100"


def test_channel_scope_is_passed_to_the_service(bot_env: BotEnv) -> None:
    bot_env.send(event_body("app_mention", channel="C0FAKEHR01"))
    bot_env.send(event_body("app_mention", ts="1718000000.000900"))
    bot_env.settle()
    scopes = sorted(c.scope for c in bot_env.service.calls)
    assert scopes == [("**",), ("hr/**",)]


def test_dm_uses_default_scope(tmp_path: Path) -> None:
    with open_env(tmp_path, default_scope=("public/**",)) as env:
        env.send(event_body("message_im"))
        env.settle()
        assert [c.scope for c in env.service.calls] == [("public/**",)]


def test_slash_command_answers_ephemerally(bot_env: BotEnv) -> None:
    d = bot_env.driver.send_command("/policy", "how many vacation days?")
    bot_env.settle()
    assert d.status == 200
    (eph,) = bot_env.slack.state.ephemerals
    assert eph["user"] == "U0FAKEUSR1" and "25 vacation days" in str(eph["blocks"])
    assert bot_env.slack.calls_to("chat.postMessage") == []


def test_admin_status_and_reindex(bot_env: BotEnv) -> None:
    bot_env.driver.send_command("/policy", "status", user="U0FAKEADMIN")
    bot_env.driver.send_command("/policy", "reindex hr/leave.pdf", user="U0FAKEADMIN")
    bot_env.settle()
    texts = sorted(e["text"] for e in bot_env.slack.state.ephemerals)
    assert texts == ["index: 3 documents, 42 chunks", "reindexed hr/leave.pdf"]


def test_non_admin_cannot_reindex(bot_env: BotEnv) -> None:
    bot_env.driver.send_command("/policy", "reindex", user="U0FAKEUSR1")
    bot_env.settle()
    (eph,) = bot_env.slack.state.ephemerals
    assert "Only policybot admins" in eph["text"]


def test_user_rate_limit_gets_a_polite_ephemeral_reply(tmp_path: Path) -> None:
    with open_env(tmp_path, user_rate_per_minute=2) as env:
        for i in range(3):
            env.send(event_body("app_mention", ts=f"1718000000.00{i}100"))
            env.settle()
        assert len(env.slack.calls_to("chat.postMessage")) == 2
        (eph,) = env.slack.state.ephemerals
        assert "try again in a minute" in eph["text"] and eph["user"] == "U0FAKEUSR1"


def test_outgoing_429_is_retried_after_retry_after(bot_env: BotEnv) -> None:
    bot_env.slack.fail("chat.postMessage", Fault(status=429, retry_after=1))
    bot_env.send(event_body("app_mention"))
    bot_env.settle()
    calls = bot_env.slack.calls_to("chat.postMessage", ok_only=False)
    assert [c.status for c in calls] == [429, 200]
    assert calls[1].at - calls[0].at >= 0.9  # the SDK waited Retry-After seconds (ordering, not speed)
    assert len(bot_env.slack.bot_messages()) == 1


def test_streams_with_the_chat_stream_api(tmp_path: Path) -> None:
    service = FakeAnswerService(stream_words=True, long_answer=1200)
    with open_env(tmp_path, service, stream=True) as env:
        slack = env.slack
        env.send(event_body("app_mention"))
        env.settle()
        assert len(slack.calls_to("chat.startStream")) == 1
        assert len(slack.calls_to("chat.appendStream")) >= 2
        assert slack.calls_to("chat.postMessage") == []
        (msg,) = slack.bot_messages()
        assert msg["thread_ts"] == PARENT and slack.state.streams[("C0FAKEPOL1", msg["ts"])] == "stopped"
        assert msg["text"] == env.answer_log.thread("C0FAKEPOL1", PARENT)[0].answer
        assert "hr/parental-leave.md" in str(msg["blocks"])


def test_stream_falls_back_to_chat_update(tmp_path: Path) -> None:
    with open_env(tmp_path, FakeAnswerService(stream_words=True), stream=True) as env:
        slack = env.slack
        slack.fail("chat.startStream", Fault(error="unknown_method"))
        env.send(event_body("app_mention"))
        env.settle()
        (msg,) = slack.bot_messages()
        assert len(slack.calls_to("chat.postMessage")) == 1 and slack.calls_to("chat.update")
        assert "16 weeks" in str(msg["blocks"]) and "hr/parental-leave.md" in str(msg["blocks"])
