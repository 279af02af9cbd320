"""Helpers for the verified-answer cache tests: a real LanceDB store in tmp_path holding a few indexed
chunks (their hashes back guard (c)), an AnswerCache on it, and logged answers citing those chunks."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.cache import AnswerCache, LoggedAnswer, make_answer_cache
from core.config import CacheSettings, Settings
from core.embedder import Embedder, FakeEmbedder
from core.store import Store
from core.types import Chunk, Citation

GLOSSARY = {"PED": "pre-existing disease", "NCD": "no claim discount"}
POLICY = "insurance/parivar.pdf"
POLICY_TEXTS = (
    "The grace period for premium payment is thirty days from the due date.",
    "Room charges under Plan A are capped at 1% of the sum insured per day.",
)


@dataclass
class Clock:
    """A settable fake clock (Unix seconds)."""

    now: float = 1_780_000_000.0
    calls: list[float] = field(default_factory=list)

    def __call__(self) -> float:
        self.calls.append(self.now)
        return self.now


def make_chunk(path: str, text: str, ordinal: int) -> Chunk:
    """A chunk with the stable id / hash scheme of the indexer."""
    cid = hashlib.sha256(f"{path}\0{ordinal}\0{text}".encode()).hexdigest()[:32]
    return Chunk(cid, path, text, 1 + ordinal, 1 + ordinal, "Benefits", ordinal,
                 hashlib.sha256(text.encode()).hexdigest())


def index_file(store: Store, embedder: Embedder, path: str, texts: Sequence[str]) -> list[Chunk]:
    """Make ``texts`` the chunks of ``path`` in the real chunks table."""
    chunks = [make_chunk(path, t, i) for i, t in enumerate(texts)]
    store.replace_chunks(path, chunks, embedder.embed([c.text for c in chunks]))
    return chunks


def citation(chunk: Chunk) -> Citation:
    """The citation of ``chunk`` as the answerer would make it."""
    return Citation(chunk.path, chunk.page, chunk.section, 0.9, chunk.chunk_id, chunk.text_hash)


@dataclass
class CacheEnv:
    """A store with :data:`POLICY` indexed and a cache on it."""

    store: Store
    embedder: Embedder
    cache: AnswerCache
    chunks: list[Chunk]
    clock: Clock

    def logged(self, answer_id: str, question: str, answer: str = "Thirty days.",
               scope: Sequence[str] = ("**",), chunk: int = 0) -> LoggedAnswer:
        """A logged answer citing chunk ``chunk`` of :data:`POLICY`."""
        return LoggedAnswer(answer_id, question, answer, [citation(self.chunks[chunk])], tuple(scope),
                            provider="extractive")

    def admit(self, answer_id: str, question: str, answer: str = "Thirty days.",
              scope: Sequence[str] = ("**",), chunk: int = 0) -> LoggedAnswer:
        """Log an answer and upvote it once (enough with the default min_net_upvotes=1)."""
        logged = self.logged(answer_id, question, answer, scope, chunk)
        result = self.cache.record_vote(logged, "U_ADMIT", "up")
        assert result.status == "active"
        return logged


def cache_env(tmp_path: Path, embedder: Embedder | None = None, threshold: float = 0.6,
              min_net_upvotes: int = 1, ttl_days: int = 90) -> CacheEnv:
    """A real LanceDB store in ``tmp_path`` with :data:`POLICY` indexed and an AnswerCache on it.

    The FakeEmbedder (default) is a bag of words, so the test threshold is lower than the calibrated one.
    """
    emb = embedder or FakeEmbedder(dimension=256)
    store = Store(tmp_path / "data")
    chunks = index_file(store, emb, POLICY, POLICY_TEXTS)
    settings = Settings().model_copy(update={
        "cache": CacheSettings(similarity_threshold=threshold, min_net_upvotes=min_net_upvotes,
                               ttl_days=ttl_days),
        "retrieval": Settings().retrieval.model_copy(update={"glossary": GLOSSARY}),
    })
    clock = Clock()
    cache = make_answer_cache(store, emb, settings, fingerprint="fp-1", clock=clock)
    return CacheEnv(store, emb, cache, chunks, clock)
