"""Admission and vote-driven invalidation of the verified-answer cache (real LanceDB, FakeEmbedder)."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from core.answer_log import AnswerLog, AnswerRecord
from core.cache import AnswerCache, LoggedAnswer, Miss, make_answer_cache
from core.config import Settings
from core.types import Answer
from tests.cache_helpers import cache_env

Q = "What is the grace period for premium payment?"


def test_one_upvote_admits_an_answer(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    result = env.cache.record_vote(env.logged("a1", Q), "U1", "up")
    assert (result.status, result.upvotes) == ("active", 1)


def test_same_user_counts_once_toward_admission(tmp_path: Path) -> None:
    env = cache_env(tmp_path, min_net_upvotes=2)
    env.cache.record_vote(env.logged("a1", Q), "U1", "up")
    result = env.cache.record_vote(env.logged("a1", Q), "U1", "up")
    assert (result.status, result.upvotes) == ("candidate", 1)


def test_distinct_users_reach_min_net_upvotes(tmp_path: Path) -> None:
    env = cache_env(tmp_path, min_net_upvotes=2)
    env.cache.record_vote(env.logged("a1", Q), "U1", "up")
    assert env.cache.record_vote(env.logged("a1", Q), "U2", "up").status == "active"


def test_downvote_on_fresh_answer_keeps_it_out(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.cache.record_vote(env.logged("a1", Q), "U2", "down")
    result = env.cache.record_vote(env.logged("a1", Q), "U1", "up")
    assert (result.status, result.upvotes, result.downvotes) == ("candidate", 1, 1)
    assert isinstance(env.cache.lookup(Q), Miss)


def test_withdrawn_downvote_lets_the_answer_in(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.cache.record_vote(env.logged("a1", Q), "U2", "down")
    env.cache.record_vote(env.logged("a1", Q), "U1", "up")
    assert env.cache.record_vote(env.logged("a1", Q), "U2", None).status == "active"


def test_refusal_is_never_admitted(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    refusal = replace(env.logged("a1", Q), found=False)
    assert env.cache.record_vote(refusal, "U1", "up").status == "ineligible"


def test_answer_without_chunk_hashes_is_never_admitted(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    logged = env.logged("a1", Q)
    unverifiable = replace(logged, citations=[replace(logged.citations[0], text_hash="")])
    assert env.cache.record_vote(unverifiable, "U1", "up").status == "ineligible"


def test_concurrent_votes_are_each_counted_once(tmp_path: Path) -> None:
    env = cache_env(tmp_path, min_net_upvotes=50)
    logged = env.logged("a1", Q)
    users = [f"U{i}" for i in range(8)]
    barrier = threading.Barrier(len(users))

    def vote(user: str) -> None:
        barrier.wait()
        for _ in range(3):
            env.cache.record_vote(logged, user, "up")

    threads = [threading.Thread(target=vote, args=(u,)) for u in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    reopened = make_answer_cache(env.store, env.embedder, Settings(), "fp-1")
    assert reopened.record_vote(logged, "U0", "up").upvotes == len(users)


def test_downvote_on_served_answer_invalidates_it_and_its_twins(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q, answer="Thirty days.")
    env.admit("a2", "Is there a grace period for paying the premium?", answer="thirty   days.")
    served = env.cache.lookup(Q)
    assert isinstance(served, Answer)
    result = env.cache.record_vote(
        replace(env.logged("a9", Q), cached=True, cache_entry_id=served.details["cache_id"]), "U3", "down")
    assert (result.status, sorted(result.invalidated)) == ("invalidated", ["a1", "a2"])
    assert env.cache.lookup(Q) == Miss("empty")


def test_vote_on_cached_answer_without_entry_id_finds_entry_by_text(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    served = replace(env.logged("a7", Q), cached=True, provider="cache")
    assert env.cache.record_vote(served, "U2", "up").entry_id == "a1"


def test_votes_survive_a_restart(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    reopened: AnswerCache = make_answer_cache(env.store, env.embedder, Settings(), "fp-1")
    assert reopened.record_vote(env.logged("a1", Q), "U2", "up").upvotes == 2


def test_vote_from_answer_log_record_is_admitted(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    log = AnswerLog(env.store.db)
    logged = env.logged("a1", Q)
    log.record(AnswerRecord("a1", "C1", "1.0", "1.0", "1.1", "U0", Q, logged.answer,
                            list(logged.citations), "extractive"))
    log.add_vote_hook(lambda aid, user, vote: env.cache.record_vote(
        LoggedAnswer.from_record(log.get(aid), scope=("**",)), user, vote))  # type: ignore[arg-type]
    log.set_vote("a1", "U1", "up")
    assert isinstance(env.cache.lookup(Q), Answer)
