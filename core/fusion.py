"""Fusion of ranked lists from several retrieval legs (vector, BM25) into one ranking.

Two methods, chosen by ``retrieval.fusion``:

- :func:`reciprocal_rank_fusion`: score(d) = Σ_leg w_leg / (k + rank_leg(d)), ranks 1-based, divided by
  its maximum Σ_leg w_leg / (k + 1) so that 1.0 means "first in every leg" (the order is unchanged).
  Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and individual Rank
  Learning Methods", SIGIR 2009 (k = 60 there).
- :func:`convex_fusion`: score(d) = Σ_leg w_leg · minmax_leg(d) / Σ w, a convex combination of
  min-max normalised scores (Bruch, Gai & Ingber, "An Analysis of Fusion Functions for Hybrid
  Retrieval", ACM TOIS 2023). A document missing from a leg gets 0 from it.

Both return non-negative scores, best first, ties broken by first appearance, and work on empty legs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.types import Chunk, ScoredChunk

Leg = Sequence[tuple[Chunk, float]]
"""One leg's results, best first: (chunk, raw score)."""


def reciprocal_rank_fusion(
    legs: Mapping[str, Leg], weights: Mapping[str, float], k: int = 60
) -> list[ScoredChunk]:
    """Fuse ``legs`` by weighted reciprocal rank.

    Args:
        legs: leg name → results best first.
        weights: leg name → weight ≥ 0 (missing: 1.0).
        k: the RRF constant (> 0); larger k flattens the contribution of top ranks.

    Returns:
        ScoredChunks best first; ``score`` is the fused score scaled to [0, 1], ``scores`` holds each
        leg's raw score and 1-based rank (``"<leg>"``, ``"<leg>_rank"``) plus ``"fused"``.
    """
    total_w = sum(max(0.0, weights.get(name, 1.0)) for name in legs) or 1.0
    top = total_w / (k + 1)
    fused: dict[str, float] = {}
    for name, results in legs.items():
        w = max(0.0, weights.get(name, 1.0))
        for rank, (chunk, _score) in enumerate(results, start=1):
            fused[chunk.chunk_id] = fused.get(chunk.chunk_id, 0.0) + w / (k + rank) / top
    return _assemble(legs, fused)


def convex_fusion(legs: Mapping[str, Leg], weights: Mapping[str, float]) -> list[ScoredChunk]:
    """Fuse ``legs`` by a weighted mean of min-max normalised scores.

    A leg whose scores are all equal (e.g. a single hit) normalises every hit to 1.0 when the score
    is positive, else 0.0. Returns ScoredChunks best first with ``score`` in [0, 1].
    """
    total_w = sum(max(0.0, weights.get(name, 1.0)) for name in legs) or 1.0
    fused: dict[str, float] = {}
    for name, results in legs.items():
        w = max(0.0, weights.get(name, 1.0))
        for chunk, norm in zip((c for c, _ in results), min_max([s for _, s in results]), strict=True):
            fused[chunk.chunk_id] = fused.get(chunk.chunk_id, 0.0) + w * norm / total_w
    return _assemble(legs, fused)


def min_max(scores: Sequence[float]) -> list[float]:
    """Scale ``scores`` to [0, 1] by (s - min) / (max - min); a constant list maps to 1.0 if positive."""
    if not scores:
        return []
    lo, hi = min(scores), max(scores)
    if hi - lo <= 1e-12:
        return [1.0 if hi > 0 else 0.0 for _ in scores]
    return [(s - lo) / (hi - lo) for s in scores]


def _assemble(legs: Mapping[str, Leg], fused: dict[str, float]) -> list[ScoredChunk]:
    chunks: dict[str, Chunk] = {}
    per_leg: dict[str, dict[str, float]] = {}
    for name, results in legs.items():
        for rank, (chunk, score) in enumerate(results, start=1):
            chunks.setdefault(chunk.chunk_id, chunk)
            detail = per_leg.setdefault(chunk.chunk_id, {})
            detail[name] = max(0.0, float(score))
            detail[f"{name}_rank"] = float(rank)
    order = sorted(fused, key=lambda cid: -fused[cid])  # stable: ties keep first appearance
    return [
        ScoredChunk(chunk=chunks[cid], score=fused[cid], scores={**per_leg[cid], "fused": fused[cid]})
        for cid in order
    ]
