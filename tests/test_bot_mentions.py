"""End-to-end: signed Events API requests → real slack_bolt → real WebClient → local Slack.

Exactly once, which messages are answered, request verification and long answers.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.render import escape
from tests.slack_standin import event_body
from tests.slack_standin.fake_service import FakeAnswerService
from tests.slack_standin.harness import BotEnv, open_env
from tests.slack_standin.methods import check_blocks


@pytest.fixture
def bot_env(tmp_path: Path) -> Iterator[BotEnv]:
    with open_env(tmp_path) as env:
        yield env


PARENT = "1718000000.000100"


def posts(env: BotEnv) -> list[dict[str, object]]:
    return [c.args for c in env.slack.calls_to("chat.postMessage")]


def test_mention_gets_one_threaded_reply_with_sources(bot_env: BotEnv) -> None:
    assert bot_env.send(event_body("app_mention")) == 200
    bot_env.settle()
    (post,) = posts(bot_env)
    assert post["thread_ts"] == PARENT and post["channel"] == "C0FAKEPOL1"
    text = str(post["blocks"])
    assert "16 weeks" in text and "hr/parental-leave.md" in text and "p. 12" in text


def test_redelivered_event_answered_once(bot_env: BotEnv) -> None:
    body = event_body("app_mention")
    assert bot_env.send(body) == 200
    for n in (1, 2, 3):
        assert bot_env.send(body, retry_num=n) == 200
    bot_env.settle()
    assert len(posts(bot_env)) == 1
    assert len(bot_env.service.calls) == 1


def test_app_mention_and_message_for_same_post_answered_once(bot_env: BotEnv) -> None:
    mention = event_body("app_mention")
    as_message = event_body("message_channel_thread_reply", text=mention["event"]["text"],
                            ts=PARENT, thread_ts=None, event_ts=PARENT)
    bot_env.send(as_message)
    bot_env.send(mention)
    bot_env.settle()
    assert len(posts(bot_env)) == 1


def test_dm_gets_reply_in_its_thread(bot_env: BotEnv) -> None:
    bot_env.send(event_body("message_im"))
    bot_env.settle()
    (post,) = posts(bot_env)
    assert post["channel"] == "D0FAKEDM01" and post["thread_ts"] == "1718000200.000400"
    assert "25 vacation days" in str(post["blocks"])


def test_plain_channel_message_without_mention_is_ignored(bot_env: BotEnv) -> None:
    bot_env.send(event_body("message_channel_thread_reply", thread_ts=None, ts="1718000900.000100"))
    bot_env.settle()
    assert posts(bot_env) == [] and bot_env.service.calls == []


def test_other_bots_messages_get_no_reply(bot_env: BotEnv) -> None:
    classic = event_body("message_bot_message_classic", text="<@U0FAKEBOT1> what is the vacation policy?")
    app_bot = event_body("app_mention", bot_id="B0FAKEOTH1", ts="1718000950.000100")
    assert bot_env.send(classic) == 200 and bot_env.send(app_bot) == 200
    bot_env.settle()
    assert posts(bot_env) == []


def test_own_reply_coming_back_gets_no_reply(bot_env: BotEnv) -> None:
    bot_env.send(event_body("message_bot_own_reply"))
    bot_env.settle()
    assert posts(bot_env) == []


def test_edit_of_answered_question_does_not_answer_again(bot_env: BotEnv) -> None:
    bot_env.send(event_body("app_mention"))
    bot_env.settle()
    edited = event_body("message_changed")
    edited["event"]["message"]["text"] = "<@U0FAKEBOT1> what is the vacation policy?"
    assert bot_env.send(edited) == 200
    bot_env.settle()
    assert len(posts(bot_env)) == 1


def test_deleted_message_and_broadcast_thanks_get_no_reply(bot_env: BotEnv) -> None:
    bot_env.send(event_body("app_mention"))
    bot_env.settle()
    previous = {"ts": PARENT, "text": "x", "user": "U0FAKEUSR1"}
    deleted = event_body("message_changed", subtype="message_deleted", message=None,
                         deleted_ts=PARENT, previous_message=previous)
    assert bot_env.send(deleted) == 200
    assert bot_env.send(event_body("message_thread_broadcast")) == 200
    bot_env.settle()
    assert len(posts(bot_env)) == 1


def test_bad_signature_gets_401_and_no_processing(bot_env: BotEnv) -> None:
    d = bot_env.driver.send_event(event_body("app_mention"), secret="not-the-secret")
    bot_env.settle()
    assert d.status == 401
    assert posts(bot_env) == [] and bot_env.service.calls == []


def test_stale_timestamp_gets_401_and_no_processing(bot_env: BotEnv) -> None:
    d = bot_env.driver.send_event(event_body("app_mention"), timestamp=int(time.time()) - 600)
    bot_env.settle()
    assert d.status == 401
    assert posts(bot_env) == [] and bot_env.service.calls == []


def test_six_thousand_character_answer_posts_valid_blocks_with_nothing_lost(tmp_path: Path) -> None:
    service = FakeAnswerService(long_answer=6000, extra_text=" Tell <!channel> and <@U0FAKEUSR2> & co.")
    with open_env(tmp_path, service) as env:
        env.send(event_body("app_mention"))
        env.settle()
        sent = posts(env)
        assert sent and all(p["thread_ts"] == PARENT for p in sent)
        sections = [b["text"]["text"] for p in sent for b in p["blocks"] if b["type"] == "section"]  # type: ignore[attr-defined]
        for p in sent:
            check_blocks(p["blocks"])
        answer = env.answer_log.thread("C0FAKEPOL1", PARENT)[0].answer
        assert len(answer) > 6000
        body = "".join(s for s in sections if not s.startswith("*Sources*"))
        assert body == escape(answer)
        assert "<!channel>" not in body and "<@U0FAKEUSR2>" not in body
