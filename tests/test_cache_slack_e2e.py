"""End to end: Slack reactions feed the verified-answer cache, and the bot serves verified answers.

Real slack_bolt + slack_sdk against the local Slack (tests/slack_standin), a real AnswerCache on
LanceDB in tmp_path whose cited chunks are indexed in the same store, and a fake inner answer service
that counts its calls (a call = a retrieval). The paraphrase test uses the real all-MiniLM-L6-v2 at the
configured (calibrated) threshold; the others repeat the question verbatim with the FakeEmbedder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from core.answer_log import AnswerRecord
from core.cache import AnswerCache, make_answer_cache
from core.config import Settings
from core.embedder import Embedder, FakeEmbedder, make_embedder
from core.store import Store
from core.types import Answer, Chunk, Turn
from tests.cache_helpers import citation, index_file
from tests.slack_standin import event_body
from tests.slack_standin.fake_service import FACTS, FakeAnswerService
from tests.slack_standin.harness import BotEnv, open_env

CHANNEL = "C0FAKEPOL1"
QUESTION = "What is the grace period for premium payment under Plan A?"
PARAPHRASE = "Under Plan A, how long is the grace period for paying the premium?"
LABEL = re.compile(r"✅ Verified answer · (\d+) 👍 · confirmed \d{4}-\d{2}-\d{2} · sources unchanged")


class CitingService(FakeAnswerService):
    """The fake answer service, citing the indexed chunk whose text is the answer (with its content
    hash, as the real answerer does), so its answers are admissible to the cache."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        super().__init__()
        self.chunks = {c.text: c for c in chunks}

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)) -> Answer:
        answer = super().ask(question, history=history, scope=scope)
        chunk = self.chunks.get(answer.answer)
        return replace(answer, citations=[citation(chunk)]) if chunk else answer


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    """The real embedder of config.yaml (loaded once for the module)."""
    return make_embedder(Settings().embedding)


def index_facts(store: Store, embedder: Embedder) -> list[Chunk]:
    """Index every fake fact as a chunk of hr/<subject>.md in the real chunks table."""
    chunks: list[Chunk] = []
    for subject in ("grace period", "parental leave", "vacation"):
        texts = [text for (s, _), text in FACTS.items() if s == subject]
        chunks += index_file(store, embedder, f"hr/{subject.replace(' ', '-')}.md", texts)
    return chunks


@pytest.fixture
def env_factory(tmp_path: Path) -> Iterator[Callable[[Embedder], tuple[BotEnv, AnswerCache, Store]]]:
    """``make(embedder) -> (BotEnv, AnswerCache, Store)`` with the cache at the configured threshold."""
    with ExitStack() as stack:

        def make(embedder: Embedder) -> tuple[BotEnv, AnswerCache, Store]:
            store = Store(tmp_path / "data")
            chunks = index_facts(store, embedder)
            cache = make_answer_cache(store, embedder, Settings(), fingerprint="fp-e2e")
            env = stack.enter_context(open_env(tmp_path, service=CitingService(chunks), cache=cache))
            return env, cache, store

        yield make


def ask(env: BotEnv, text: str, ts: str) -> AnswerRecord:
    """Mention the bot with ``text`` as a new thread at ``ts``; returns the logged answer."""
    env.send(event_body("app_mention", text=f"<@U0FAKEBOT1> {text}", ts=ts, event_ts=ts, channel=CHANNEL))
    env.settle()
    (rec,) = env.answer_log.thread(CHANNEL, ts)
    return rec


def react(env: BotEnv, rec: AnswerRecord, user: str, name: str = "+1") -> None:
    item = {"type": "message", "channel": CHANNEL, "ts": rec.message_ts}
    env.send(event_body("reaction_added", user=user, reaction=name, item=item))
    env.settle()


def context_line(env: BotEnv, rec: AnswerRecord) -> str:
    """The context block text of the reply ``rec`` (its last message)."""
    msg = env.slack.state.messages[CHANNEL][rec.parts[-1]]
    return str(next(b for b in msg["blocks"] if b["type"] == "context")["elements"][0]["text"])


def sources(env: BotEnv, rec: AnswerRecord) -> list[str]:
    msg = env.slack.state.messages[CHANNEL][rec.parts[-1]]
    texts = [b["text"]["text"] for b in msg["blocks"] if b["type"] == "section"]
    return [t for t in texts if "Sources" in t]


def test_upvoted_answer_is_served_for_a_paraphrase_without_retrieval(env_factory: Any,
                                                                     minilm: Embedder) -> None:
    env, _, _ = env_factory(minilm)
    first = ask(env, QUESTION, "1718000000.000100")
    react(env, first, "U0FAKEUSR2")
    second = ask(env, PARAPHRASE, "1718000200.000100")
    assert len(env.service.calls) == 1  # the paraphrase never reached retrieval
    assert second.cached and second.details["cache_id"] == first.answer_id
    assert second.answer == first.answer and sources(env, second) == sources(env, first)
    label = LABEL.search(context_line(env, second))
    assert label is not None and label.group(1) == "1"


def test_other_plan_is_not_served_the_cached_answer(env_factory: Any, minilm: Embedder) -> None:
    env, cache, _ = env_factory(minilm)
    react(env, ask(env, QUESTION, "1718000000.000100"), "U0FAKEUSR2")
    other = ask(env, QUESTION.replace("Plan A", "Plan B"), "1718000200.000100")
    assert len(env.service.calls) == 2 and not other.cached and "fifteen days" in other.answer
    assert cache.stats().misses == {"empty": 1, "names": 1}


def test_downvote_on_cached_answer_invalidates_it(env_factory: Any) -> None:
    env, cache, _ = env_factory(FakeEmbedder(dimension=256))
    react(env, ask(env, QUESTION, "1718000000.000100"), "U0FAKEUSR2")
    served = ask(env, QUESTION, "1718000200.000100")
    assert served.cached and len(env.service.calls) == 1
    react(env, served, "U0FAKEUSR3", "-1")
    again = ask(env, QUESTION, "1718000400.000100")
    assert not again.cached and len(env.service.calls) == 2
    assert cache.stats().invalidations == {"downvote": 1}


def test_cached_reply_keeps_collecting_votes(env_factory: Any) -> None:
    env, _, _ = env_factory(FakeEmbedder(dimension=256))
    react(env, ask(env, QUESTION, "1718000000.000100"), "U0FAKEUSR2")
    react(env, ask(env, QUESTION, "1718000200.000100"), "U0FAKEUSR3")
    third = ask(env, QUESTION, "1718000400.000100")
    label = LABEL.search(context_line(env, third))
    assert third.cached and label is not None and label.group(1) == "2"


def test_votes_from_several_users_are_each_counted_once(env_factory: Any) -> None:
    env, cache, _ = env_factory(FakeEmbedder(dimension=256))
    first = ask(env, QUESTION, "1718000000.000100")
    for user, name in [("U1", "+1"), ("U2", "+1"), ("U3", "thumbsup"), ("U1", "white_check_mark"),
                       ("U2", "+1"), ("U4", "+1")]:
        item = {"type": "message", "channel": CHANNEL, "ts": first.message_ts}
        env.send(event_body("reaction_added", user=user, reaction=name, item=item))
    env.settle()
    entry = cache.lookup(QUESTION)
    assert isinstance(entry, Answer) and entry.details["upvotes"] == "4"


def test_edited_cited_source_invalidates_the_entry(env_factory: Any) -> None:
    embedder = FakeEmbedder(dimension=256)
    env, cache, store = env_factory(embedder)
    react(env, ask(env, QUESTION, "1718000000.000100"), "U0FAKEUSR2")
    index_file(store, embedder, "hr/grace-period.md", ["Plan A allows a grace period of 45 days."])
    again = ask(env, QUESTION, "1718000200.000100")
    assert not again.cached and len(env.service.calls) == 2
    assert cache.stats().invalidations == {"stale": 1}


def test_follow_up_is_not_looked_up_nor_admitted(env_factory: Any) -> None:
    env, cache, _ = env_factory(FakeEmbedder(dimension=256))
    react(env, ask(env, QUESTION, "1718000000.000100"), "U0FAKEUSR2")
    env.send(event_body("message_channel_thread_reply", text=QUESTION, channel=CHANNEL))
    env.settle()
    follow = env.answer_log.thread(CHANNEL, "1718000000.000100")[-1]
    react(env, follow, "U0FAKEUSR3")
    assert not follow.cached and len(env.service.calls) == 2
    assert cache.stats().entries["active"] == 1 and cache.stats().misses == {"empty": 1, "follow-up": 1}


def test_admin_cache_stats_and_forget(env_factory: Any) -> None:
    env, _, _ = env_factory(FakeEmbedder(dimension=256))
    first = ask(env, QUESTION, "1718000000.000100")
    react(env, first, "U0FAKEUSR2")
    env.driver.send_command("/policy", "cache stats", user="U0FAKEADMIN")
    env.driver.send_command("/policy", f"cache forget {first.answer_id}", user="U0FAKEADMIN")
    env.settle()
    stats, forgot = (e["text"] for e in env.slack.state.ephemerals)
    assert stats.startswith("entries: 1 active") and "forgotten" in forgot
    assert not ask(env, QUESTION, "1718000200.000100").cached


def test_non_admin_cannot_forget(env_factory: Any) -> None:
    env, cache, _ = env_factory(FakeEmbedder(dimension=256))
    first = ask(env, QUESTION, "1718000000.000100")
    react(env, first, "U0FAKEUSR2")
    env.driver.send_command("/policy", f"cache forget {first.answer_id}", user="U0FAKEUSR1")
    env.settle()
    (eph,) = env.slack.state.ephemerals
    assert "Only policybot admins" in eph["text"] and cache.stats().entries["active"] == 1
