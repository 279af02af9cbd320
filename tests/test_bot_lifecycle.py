"""Issue 16 against the local Slack: dedupe that outlives the process, deletions that propagate.

- A signed event answered, the bolt app rebuilt on the same data dir (a new process's objects over the
  same blob store), the same event redelivered with ``X-Slack-Retry-Num: 2`` → one answer in total.
  (The process-level version — ``policybot run --http-port`` stopped and started — is
  ``tests/test_run_http.py::test_a_retry_after_the_process_restarted_is_not_answered_again``; this test
  drives the same ``build_app`` + ``App.blobs`` contract in one process.)
- A deleted bot answer (``message_deleted``, or ``message_changed`` to a tombstone) loses its votes, its
  log entry and its verified-answer cache entry; a later 👍 on it is not recorded.
- A question deleted while its answer is still queued is never answered.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.cache import make_answer_cache
from core.cache.types import Miss
from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import Store
from tests.slack_standin import event_body
from tests.slack_standin.fake_service import FakeAnswerService
from tests.slack_standin.harness import BotEnv, open_env
from tests.slack_standin.web_api import SlackStandIn
from tests.test_cache_slack_e2e import QUESTION, CitingService, index_facts

PARENT = "1718000000.000100"
BOT = {"user": "U0FAKEBOT1", "bot_id": "B0FAKEBOT1", "text": "answer"}


def deleted(ts: str, channel: str = "C0FAKEPOL1") -> dict[str, Any]:
    """A ``message_deleted`` event for the message ``ts`` (the bot's own, as Slack sends it)."""
    return event_body("message_changed", subtype="message_deleted", message=None, deleted_ts=ts,
                      previous_message={**BOT, "ts": ts}, channel=channel, ts="1718000990.000100")


def tombstoned(ts: str) -> dict[str, Any]:
    """A ``message_changed`` turning the message ``ts`` into a tombstone (deleted with replies)."""
    return event_body("message_changed", message={"type": "message", "subtype": "tombstone", "ts": ts,
                                                  "text": "This message was deleted.", "hidden": True},
                      previous_message={**BOT, "ts": ts}, ts="1718000991.000100")


def react_up(env: BotEnv, ts: str, user: str = "U0FAKEUSR2") -> None:
    env.send(event_body("reaction_added", user=user, reaction="+1",
                        item={"type": "message", "channel": "C0FAKEPOL1", "ts": ts}))
    env.settle()


def test_retry_after_a_restart_is_not_answered_again(tmp_path: Path) -> None:
    body = event_body("app_mention")
    as_message = event_body("message_channel_thread_reply", text=body["event"]["text"], ts=PARENT,
                            thread_ts=None, event_ts=PARENT)
    with SlackStandIn() as slack:
        with open_env(tmp_path, slack=slack) as first:
            assert first.send(body) == 200
        with open_env(tmp_path, slack=slack) as restarted:  # a new app, process objects, same data dir
            assert restarted.send(body, retry_num=2) == 200
            assert restarted.send(as_message) == 200  # same post, other event type and id
            restarted.settle()
            assert restarted.service.calls == []
        assert len(slack.calls_to("chat.postMessage")) == 1


def test_deleted_answer_loses_votes_and_log_entry_and_later_votes(tmp_path: Path) -> None:
    with open_env(tmp_path) as env:
        env.send(event_body("app_mention"))
        env.settle()
        (rec,) = env.answer_log.thread("C0FAKEPOL1", PARENT)
        react_up(env, rec.message_ts)
        assert env.answer_log.votes(rec.answer_id) == {"U0FAKEUSR2": "up"}
        env.send(deleted(rec.message_ts))
        env.settle()
        assert env.answer_log.votes(rec.answer_id) == {} and env.answer_log.get(rec.answer_id) is None
        react_up(env, rec.message_ts, user="U0FAKEUSR3")
        assert env.answer_log.votes(rec.answer_id) == {}


def test_deleted_answer_stops_being_a_verified_answer(tmp_path: Path) -> None:
    embedder = FakeEmbedder(dimension=256)
    store = Store(tmp_path / "data")
    service = CitingService(index_facts(store, embedder))
    cache = make_answer_cache(store, embedder, Settings(), fingerprint="fp-deletions")
    with open_env(tmp_path, service=service, cache=cache) as env:
        env.send(event_body("app_mention", text=f"<@U0FAKEBOT1> {QUESTION}"))
        env.settle()
        (rec,) = env.answer_log.thread("C0FAKEPOL1", PARENT)
        react_up(env, rec.message_ts)
        assert not isinstance(cache.lookup(QUESTION), Miss)
        env.send(tombstoned(rec.message_ts))
        env.settle()
        assert isinstance(cache.lookup(QUESTION), Miss)
        react_up(env, rec.message_ts, user="U0FAKEUSR3")
        assert isinstance(cache.lookup(QUESTION), Miss)  # a later 👍 does not bring it back


def test_question_deleted_while_queued_is_not_answered(tmp_path: Path) -> None:
    with open_env(tmp_path, FakeAnswerService(delay_s=2.5), workers=1) as env:
        second = "1718000100.000100"
        env.send(event_body("app_mention"))
        env.send(event_body("app_mention", ts=second, event_ts=second,
                            text="<@U0FAKEBOT1> how many vacation days do I get?"))
        env.send(deleted(second))
        env.settle()
        assert [c.question for c in env.service.calls] == ["what is the parental leave policy?"]
        threads = [p.args["thread_ts"] for p in env.slack.calls_to("chat.postMessage")]
        assert threads == [PARENT]
