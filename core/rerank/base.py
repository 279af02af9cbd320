"""The :class:`Reranker` protocol, the shared re-scoring step, and two in-memory rerankers.

:func:`rescore` is the one place a reranker's scores become ranked :class:`~core.types.ScoredChunk`
objects, so every implementation sorts, truncates and records per-stage scores the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Protocol

from core.text import terms
from core.types import ScoredChunk


class Reranker(Protocol):
    """Re-scores retrieval candidates.

    Attributes:
        name: who reranked, e.g. ``"cross-encoder:cross-encoder/ms-marco-MiniLM-L-6-v2"`` or
            ``"offline:features(all-MiniLM-L6-v2)"`` (shown in ``status`` and in the answer's ``details``).
        fallback_reason: ``None`` when the configured reranker runs; otherwise one line saying why a
            fallback runs instead (e.g. the cross-encoder weights could not be loaded) and what to do.
    """

    name: str
    fallback_reason: str | None

    def rerank(self, question: str, candidates: list[ScoredChunk], keep: int) -> list[ScoredChunk]:
        """Return the best ``keep`` of ``candidates``, best first.

        Each result's ``score`` is the reranker's score in [0, 1]; ``scores`` holds the candidate's
        earlier per-stage scores plus ``"rerank"`` (and the reranker's own components). Ties keep
        the candidates' input order, so the result is deterministic. Empty input → empty output.
        """
        ...


def rescore(
    candidates: Sequence[ScoredChunk],
    scores: Sequence[float],
    keep: int,
    components: Mapping[str, Sequence[float]] | None = None,
) -> list[ScoredChunk]:
    """Rank ``candidates`` by ``scores`` (each in [0, 1]) and keep the best ``keep``.

    Args:
        candidates: retrieval output, best first (its order breaks ties).
        scores: one reranker score per candidate, clipped to [0, 1].
        keep: how many to return (≥ 0).
        components: extra per-candidate values stored in ``scores`` under their key
            (e.g. ``{"rerank_logit": [...]}``).

    Returns:
        New ScoredChunks, best first: ``score`` = reranker score, ``scores`` = earlier stages +
        ``"retrieval"`` (the incoming score) + ``"rerank"`` + components.

    Raises:
        ValueError: ``scores`` or a component does not have one value per candidate.
    """
    parts = dict(components or {})
    if len(scores) != len(candidates) or any(len(v) != len(candidates) for v in parts.values()):
        raise ValueError("rescore: need exactly one score per candidate")
    order = sorted(range(len(candidates)), key=lambda i: (-scores[i], i))[: max(keep, 0)]
    out = []
    for i in order:
        c = candidates[i]
        s = min(max(float(scores[i]), 0.0), 1.0)
        extra = {k: float(v[i]) for k, v in parts.items()}
        stage = {**c.scores, "retrieval": c.score, **extra, "rerank": s}
        out.append(ScoredChunk(chunk=c.chunk, score=s, scores=stage))
    return out


def sigmoid(x: float) -> float:
    """Logistic function 1 / (1 + e^-x), overflow-safe; maps a logit to (0, 1)."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


words = terms
"""Matching tokens of a passage (:func:`core.text.terms`: "Rs 40,000" → ``["rs", "40000"]``)."""


class PassthroughReranker:
    """Keeps retrieval's order and scores (``rerank.enabled: false``); only truncates to ``keep``."""

    name = "none"
    fallback_reason: str | None = None

    def rerank(self, question: str, candidates: list[ScoredChunk], keep: int) -> list[ScoredChunk]:
        """The first ``keep`` candidates, unchanged (scores are retrieval's, not necessarily 0–1)."""
        return list(candidates[: max(keep, 0)])


class FakeReranker:
    """Deterministic in-memory reranker for tests: score = share of question words in the chunk.

    ``calls`` records ``(question, number of candidates, keep)`` per call so tests can assert usage.
    ``fallback_reason`` can be set to mimic a fallback.
    """

    def __init__(self, name: str = "fake", fallback_reason: str | None = None) -> None:
        self.name = name
        self.fallback_reason = fallback_reason
        self.calls: list[tuple[str, int, int]] = []

    def rerank(self, question: str, candidates: list[ScoredChunk], keep: int) -> list[ScoredChunk]:
        """Score each candidate by |question words ∩ chunk words| / |question words| (0 when empty)."""
        self.calls.append((question, len(candidates), keep))
        q = set(words(question))
        scores = [len(q & set(words(c.chunk.text))) / len(q) if q else 0.0 for c in candidates]
        return rescore(candidates, scores, keep)
