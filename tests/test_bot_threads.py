"""Thread memory: follow-ups without a mention are answered with the thread's history."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.types import Turn
from tests.slack_standin import Fault, event_body
from tests.slack_standin.harness import BotEnv, open_env


@pytest.fixture
def bot_env(tmp_path: Path) -> Iterator[BotEnv]:
    with open_env(tmp_path) as env:
        yield env


PARENT = "1718000000.000100"
FOLLOW_UP = "1718000100.000300"


def ask_plan_a(env: BotEnv, channel: str = "C0FAKEPOL1") -> None:
    env.send(event_body("app_mention", text="<@U0FAKEBOT1> What is the grace period for Plan A?",
                        channel=channel))
    env.settle()


def follow_up(env: BotEnv, channel: str = "C0FAKEPOL1", text: str = "And for Plan B?") -> None:
    env.send(event_body("message_channel_thread_reply", text=text, channel=channel))
    env.settle()


def replies_text(env: BotEnv) -> list[str]:
    return [str(c.args.get("blocks")) for c in env.slack.calls_to("chat.postMessage")]


def test_follow_up_without_mention_is_answered_from_history(bot_env: BotEnv) -> None:
    ask_plan_a(bot_env)
    follow_up(bot_env)
    texts = replies_text(bot_env)
    assert len(texts) == 2 and "thirty days" in texts[0] and "fifteen days" in texts[1]
    assert bot_env.slack.calls_to("chat.postMessage")[1].args["thread_ts"] == PARENT
    history = bot_env.service.calls[1].history
    assert history[0] == Turn("user", "What is the grace period for Plan A?")
    assert history[1].role == "assistant" and "thirty days" in history[1].text


def test_reply_in_a_thread_the_bot_never_answered_is_ignored(bot_env: BotEnv) -> None:
    bot_env.slack.add_message("C0FAKEPOL1", "just chatting", ts=PARENT)
    follow_up(bot_env)
    assert replies_text(bot_env) == []


def test_mention_only_channel_needs_a_mention_for_follow_ups(bot_env: BotEnv) -> None:
    ask_plan_a(bot_env, channel="C0FAKEQUIET")
    follow_up(bot_env, channel="C0FAKEQUIET")
    assert len(replies_text(bot_env)) == 1
    bot_env.send(event_body("message_channel_thread_reply", text="<@U0FAKEBOT1> And for Plan B?",
                            channel="C0FAKEQUIET", ts="1718000200.000300"))
    bot_env.settle()
    assert len(replies_text(bot_env)) == 2


def test_history_is_topped_up_with_other_thread_messages(bot_env: BotEnv) -> None:
    ask_plan_a(bot_env)
    colleague = bot_env.slack.add_message("C0FAKEPOL1", "I think it changed last year", "U0FAKEUSR2",
                                          ts="1718000050.000000", thread_ts=PARENT)
    follow_up(bot_env)
    history = bot_env.service.calls[1].history
    assert Turn("user", "I think it changed last year") in history
    assert [t.role for t in history] == ["user", "assistant", "user"] and colleague


def test_history_comes_from_the_log_when_replies_are_refused(tmp_path: Path) -> None:
    with open_env(tmp_path) as env:
        ask_plan_a(env)
        env.slack.fail("conversations.replies", Fault(error="missing_scope", times=5))
        follow_up(env)
        assert "fifteen days" in replies_text(env)[1]
