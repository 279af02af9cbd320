"""Lookup, staleness, invalidation, TTL, admin and metrics of the verified-answer cache
(real LanceDB in tmp_path; FakeEmbedder, since the model is not the subject here)."""

from __future__ import annotations

from pathlib import Path

from core.cache import Miss, make_answer_cache
from core.config import CacheSettings, Settings
from core.types import Answer
from tests.cache_helpers import POLICY, POLICY_TEXTS, cache_env, index_file

Q = "What is the grace period for premium payment?"
PARAPHRASE = "What grace period is there for the premium payment?"


def test_paraphrase_of_cached_question_is_served(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    hit = env.cache.lookup(PARAPHRASE)
    assert isinstance(hit, Answer)
    assert (hit.answer, hit.cached, hit.provider) == ("Thirty days.", True, "cache")
    assert hit.citations == env.logged("a1", Q).citations
    details = (hit.details["cache_id"], hit.details["upvotes"], hit.details["confirmed"])
    assert details == ("a1", "1", "2026-05-28")


def test_unrelated_question_is_a_similarity_miss(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    miss = env.cache.lookup("Can I bring my dog to work?")
    assert isinstance(miss, Miss) and miss.reason == "similarity"


def test_other_scope_is_a_miss(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q, scope=["insurance/**"])
    miss = env.cache.lookup(Q, scope=["hr/**"])
    assert isinstance(miss, Miss) and miss.reason == "scope"


def test_guard_failure_is_a_miss_with_its_reason(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", "Is room rent capped for Plan A?", chunk=1)
    miss = env.cache.lookup("Is room rent capped for Plan B?")
    assert isinstance(miss, Miss) and miss.reason == "names"


def test_next_candidate_is_tried_when_nearest_fails_a_guard(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", "Is room rent capped for Plan A?", answer="1% of SI per day.", chunk=1)
    env.admit("a2", "Is room rent capped for Plan B?", answer="Up to the sum insured.", chunk=1)
    hit = env.cache.lookup("For Plan B is room rent capped?")
    assert isinstance(hit, Answer) and hit.details["cache_id"] == "a2"


def test_edited_cited_source_invalidates_the_entry(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    index_file(env.store, env.embedder, POLICY, ["The grace period is fifteen days.", POLICY_TEXTS[1]])
    miss = env.cache.lookup(Q)
    assert isinstance(miss, Miss) and miss.reason == "stale"
    assert env.cache.lookup(Q) == Miss("empty")


def test_deleted_cited_source_invalidates_the_entry(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    env.store.delete_document(POLICY)
    miss = env.cache.lookup(Q)
    assert isinstance(miss, Miss) and miss.reason == "stale"
    assert env.cache.stats().entries["invalidated"] == 1


def test_unchanged_source_elsewhere_in_file_keeps_serving(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    index_file(env.store, env.embedder, POLICY, [POLICY_TEXTS[0], "Room charges are capped at 2%."])
    assert isinstance(env.cache.lookup(Q), Answer)


def test_invalidated_sources_signal_drops_entries_citing_them(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    assert env.cache.invalidate_sources(["hr/other.md"]) == []
    assert env.cache.invalidate_sources([POLICY]) == ["a1"]
    assert env.cache.lookup(Q) == Miss("empty")


def test_ttl_expires_old_entries(tmp_path: Path) -> None:
    env = cache_env(tmp_path, ttl_days=30)
    env.admit("a1", Q)
    assert env.cache.expire(env.clock.now + 29 * 86_400) == {"expired": 0, "deleted": 0}
    assert env.cache.expire(env.clock.now + 31 * 86_400) == {"expired": 1, "deleted": 0}
    assert env.cache.lookup(Q) == Miss("empty")


def test_ttl_deletes_long_dead_rows(tmp_path: Path) -> None:
    env = cache_env(tmp_path, ttl_days=30)
    env.admit("a1", Q)
    env.cache.forget("a1")
    assert env.cache.expire(env.clock.now + 31 * 86_400)["deleted"] == 1
    assert sum(env.cache.stats().entries.values()) == 0


def test_admin_forget_stops_serving_and_later_votes_do_not_revive(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    assert env.cache.forget("a1") is True
    assert env.cache.record_vote(env.logged("a1", Q), "U9", "up").status == "invalidated"
    assert env.cache.lookup(Q) == Miss("empty")


def test_forget_unknown_id_returns_false(tmp_path: Path) -> None:
    assert cache_env(tmp_path).cache.forget("nope") is False


def test_forget_from_another_process_is_seen(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    assert isinstance(env.cache.lookup(Q), Answer)
    admin = make_answer_cache(env.store.__class__(tmp_path / "data"), env.embedder, Settings(), "fp-1")
    admin.forget("a1")
    assert env.cache.lookup(Q) == Miss("empty")


def test_entries_of_another_index_fingerprint_are_not_served(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    settings = Settings().model_copy(update={"cache": CacheSettings(similarity_threshold=0.6)})
    other = make_answer_cache(env.store, env.embedder, settings, "fp-2")
    assert other.lookup(Q) == Miss("empty")


def test_disabled_cache_always_misses(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    env.cache.settings = CacheSettings(enabled=False)
    assert env.cache.lookup(Q) == Miss("disabled")


def test_stats_count_hits_misses_and_invalidations(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    env.cache.lookup(PARAPHRASE)
    env.cache.lookup("Can I bring my dog to work?")
    env.cache.invalidate_sources([POLICY])
    stats = env.cache.stats()
    assert (stats.hits, stats.misses, stats.invalidations) == (1, {"similarity": 1}, {"source changed": 1})
    assert (stats.entries["invalidated"], stats.times_served) == (1, 1)


def test_source_edited_after_a_hit_is_still_caught(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    assert isinstance(env.cache.lookup(Q), Answer)
    index_file(env.store, env.embedder, POLICY, ["The grace period is fifteen days.", POLICY_TEXTS[1]])
    miss = env.cache.lookup(Q)
    assert isinstance(miss, Miss) and miss.reason == "stale"


def test_times_served_is_persisted_on_flush(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q)
    env.cache.lookup(Q)
    env.cache.lookup(PARAPHRASE)
    env.cache.flush()
    reopened = make_answer_cache(env.store, env.embedder, Settings(), "fp-1")
    assert reopened.stats().times_served == 2


def test_in_scope_entry_is_served_when_a_nearer_one_is_in_another_scope(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", Q, scope=["hr/**"])
    env.admit("a2", PARAPHRASE, answer="30 days.")
    hit = env.cache.lookup(Q)
    assert isinstance(hit, Answer) and hit.details["cache_id"] == "a2"
