"""core.lru.LockedLRU, and the answer path's caches hammered from several threads at once."""

from __future__ import annotations

import hashlib
import sys
import threading
from collections.abc import Callable, Iterator

import pytest

from core.answer import evidence as evidence_mod
from core.answer.evidence import EvidenceFinder
from core.embedder import FakeEmbedder
from core.llm.base import GenerationRequest
from core.lru import LockedLRU
from core.rerank import OfflineReranker
from core.rerank import offline as offline_mod
from core.types import Chunk, ScoredChunk
from tests.retrieval_helpers import scored

THREADS, ROUNDS = 8, 150


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Switch threads every few microseconds so interleavings that are rare in production show up."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def hammer(work: Callable[[int, int], object], rounds: int = ROUNDS) -> list[BaseException]:
    """Run ``work(thread, round)`` for ``rounds`` rounds in each of THREADS threads; the errors raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(t: int) -> None:
        start.wait()
        try:
            for r in range(rounds):
                work(t, r)
        except BaseException as exc:  # noqa: BLE001 - the test reports whatever a thread raised
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return errors


def candidate(text: str, i: int) -> ScoredChunk:
    """A reranking candidate without a retrieval cosine (so the reranker embeds and caches it)."""
    h = hashlib.sha256(text.encode()).hexdigest()
    chunk = Chunk(f"c{i}", "policy.pdf", text, 1, 1, "", i, h)
    return ScoredChunk(chunk=chunk, score=0.5, scores={"fused": 0.5})


def test_lru_evicts_the_least_recently_used() -> None:
    lru: LockedLRU[str, int] = LockedLRU(2)
    lru.put("a", 1)
    lru.put("b", 2)
    lru.get("a")
    lru.put("c", 3)
    assert ("a" in lru, "b" in lru, "c" in lru) == (True, False, True)


def test_lru_get_or_compute_computes_a_key_once() -> None:
    lru: LockedLRU[str, int] = LockedLRU(4)
    calls: list[str] = []
    values = [lru.get_or_compute("k", lambda: calls.append("k") or 7) for _ in range(3)]
    assert values == [7, 7, 7] and calls == ["k"]


def test_lru_get_or_compute_stores_nothing_when_compute_raises() -> None:
    lru: LockedLRU[str, int] = LockedLRU(4)

    def fail() -> int:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        lru.get_or_compute("k", fail)
    assert "k" not in lru


def test_lru_rejects_a_size_below_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        LockedLRU(0)


def test_lru_stays_within_size_under_concurrent_puts(busy_switching: None) -> None:
    lru: LockedLRU[tuple[int, int], int] = LockedLRU(3)
    errors = hammer(lambda t, r: (lru.put((t, r), r), lru.get((t, r - 1)), lru.get_or_compute((r, t), int)))
    assert errors == [] and len(lru) == 3


def test_offline_reranker_survives_concurrent_questions_evicting_its_cache(
        monkeypatch: pytest.MonkeyPatch, busy_switching: None) -> None:
    """Fails with the OrderedDict cache: another thread's eviction makes move_to_end / the read of a
    just-stored vector raise KeyError."""
    monkeypatch.setattr(offline_mod, "CACHE_SIZE", 2)
    rr = OfflineReranker(FakeEmbedder())

    def ask(t: int, r: int) -> object:
        pool = [candidate(f"passage {t} {r} {k} about leave days", k) for k in range(3)]
        return rr.rerank("how many leave days", pool, 2)

    assert hammer(ask) == []


def test_evidence_finder_survives_concurrent_questions_evicting_its_vectors(
        monkeypatch: pytest.MonkeyPatch, busy_switching: None) -> None:
    """Fails with the OrderedDict cache: move_to_end of a text another thread just evicted."""
    monkeypatch.setattr(evidence_mod, "VECTOR_CACHE", 2)
    finder = EvidenceFinder(FakeEmbedder())

    def ask(t: int, r: int) -> object:
        text = f"Staff get {t} days of study leave. Round {r} adds {r % 7} days of exam leave."
        return finder.find(GenerationRequest("how many days of study leave", [scored(text)]))

    assert hammer(ask, rounds=30) == []
