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


def test_unanswered_thread_message_from_events_is_in_the_follow_ups_history(bot_env: BotEnv) -> None:
    ask_plan_a(bot_env, channel="C0FAKEQUIET")  # mention-only: the colleague's remark gets no answer
    bot_env.send(event_body("message_channel_thread_reply", text="I think it changed last year",
                            user="U0FAKEUSR2", ts="1718000050.000000", channel="C0FAKEQUIET"))
    bot_env.settle()
    follow_up(bot_env, channel="C0FAKEQUIET", text="<@U0FAKEBOT1> And for Plan B?")
    assert len(bot_env.service.calls) == 2
    history = bot_env.service.calls[1].history
    assert [t.role for t in history] == ["user", "assistant", "user"]
    assert history[2] == Turn("user", "I think it changed last year")
    assert bot_env.slack.calls_to("conversations.replies", ok_only=False) == []


def test_follow_up_has_its_context_while_replies_are_rate_limited(tmp_path: Path) -> None:
    with open_env(tmp_path) as env:
        env.slack.fail("conversations.replies", Fault(status=429, retry_after=30, times=1000))
        ask_plan_a(env)
        env.send(event_body("message_channel_thread_reply", text="thanks!", ts="1718000060.000000"))
        env.settle()
        follow_up(env)
        assert "fifteen days" in replies_text(env)[1]
        assert [t.role for t in env.service.calls[1].history] == ["user", "assistant"]


def test_thread_joined_late_is_topped_up_from_replies_once(bot_env: BotEnv) -> None:
    bot_env.slack.add_message("C0FAKEPOL1", "What is the grace period for Plan A?", "U0FAKEUSR2", ts=PARENT)
    bot_env.send(event_body("message_channel_thread_reply", text="<@U0FAKEBOT1> and for plan B?"))
    bot_env.settle()
    follow_up(bot_env, text="<@U0FAKEBOT1> And for Plan A?")
    assert Turn("user", "What is the grace period for Plan A?") in bot_env.service.calls[0].history
    assert "fifteen days" in replies_text(bot_env)[0]
    assert len(bot_env.slack.calls_to("conversations.replies")) == 1


def test_replies_top_up_can_be_turned_off(tmp_path: Path) -> None:
    with open_env(tmp_path, replies_top_up=False) as env:
        env.slack.add_message("C0FAKEPOL1", "What is the grace period for Plan A?", "U0FAKEUSR2", ts=PARENT)
        env.send(event_body("message_channel_thread_reply", text="<@U0FAKEBOT1> and for plan B?"))
        env.settle()
        assert env.slack.calls_to("conversations.replies", ok_only=False) == []
        assert env.service.calls[0].history == ()


def test_thread_broadcast_in_the_bots_thread_is_a_follow_up(bot_env: BotEnv) -> None:
    ask_plan_a(bot_env)
    bot_env.send(event_body("message_thread_broadcast", text="And for Plan B?"))
    bot_env.settle()
    texts = replies_text(bot_env)
    assert len(texts) == 2 and "fifteen days" in texts[1]
    assert bot_env.slack.calls_to("chat.postMessage")[1].args["thread_ts"] == PARENT


def test_thread_broadcast_respects_mention_only_channels(bot_env: BotEnv) -> None:
    ask_plan_a(bot_env, channel="C0FAKEQUIET")
    bot_env.send(event_body("message_thread_broadcast", text="And for Plan B?", channel="C0FAKEQUIET"))
    bot_env.settle()
    assert len(replies_text(bot_env)) == 1


def test_rate_limited_top_up_is_not_waited_for_nor_retried(bot_env: BotEnv) -> None:
    bot_env.slack.fail("conversations.replies", Fault(status=429, retry_after=30, times=1000))
    bot_env.slack.add_message("C0FAKEPOL1", "What is the grace period for Plan A?", "U0FAKEUSR2", ts=PARENT)
    other = "1718000500.000100"
    bot_env.slack.add_message("C0FAKEPOL1", "What is the grace period for Plan B?", "U0FAKEUSR2", ts=other)
    for thread, ts in ((PARENT, "1718000100.000300"), (other, "1718000600.000300")):
        bot_env.send(event_body("message_channel_thread_reply", text="<@U0FAKEBOT1> is that right?",
                                thread_ts=thread, ts=ts))
        bot_env.settle()
    assert len(bot_env.slack.calls_to("chat.postMessage")) == 2
    calls = bot_env.slack.calls_to("conversations.replies", ok_only=False)
    assert len(calls) == 1 and calls[0].status == 429  # once, no retry; the second thread skips it
