"""Spreading the kept chunks over documents for comparison and multi-document questions.

Maximal marginal relevance (Carbonell & Goldstein, "The Use of MMR, Diversity-Based Reranking for
Reordering Documents and Producing Summaries", SIGIR 1998) picks, one at a time, the candidate with
the best ``λ · relevance − (1 − λ) · max similarity to the ones already picked``. Here the
similarity is *same document* (1) or not (0) and λ = ½, so with relevance in [0, 1] a second passage
of a document is picked only after every candidate document has one: a per-document quota of one,
then the rest by relevance. Two guards keep it from quoting noise:

* every document the question names gets its best passage in, however it scores;
* any other document enters by diversity only when its best passage scores at least
  ``min_relative`` × the best passage's score (``retrieval.diversity_min_relative``).

The chosen passages are returned best first.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from core.types import ScoredChunk


def diversify(ranked: Sequence[ScoredChunk], k: int, named: Collection[str] = (),
              min_relative: float = 0.5) -> list[ScoredChunk]:
    """The ``k`` passages of ``ranked`` spread over documents (see the module doc).

    Args:
        ranked: reranked candidates, best first (``score`` in [0, 1]).
        k: how many to keep.
        named: paths of the documents the question names (each is guaranteed a passage if it has one
            among ``ranked``).
        min_relative: share of the best score an unnamed document's best passage needs.

    Returns:
        At most ``k`` ScoredChunks, best first: first the best passage of each named document, then
        of each other document above the bar, then the remaining passages by score.
    """
    if k <= 0 or not ranked:
        return []
    top = max(sc.score for sc in ranked)
    firsts: dict[str, ScoredChunk] = {}
    for sc in ranked:
        firsts.setdefault(sc.chunk.path, sc)
    lead = [sc for path, sc in firsts.items() if path in named]
    lead += [sc for path, sc in firsts.items() if path not in named and sc.score >= min_relative * top]
    chosen = {sc.chunk.chunk_id for sc in lead[:k]}
    rest = [sc for sc in ranked if sc.chunk.chunk_id not in chosen]
    picked = lead[:k] + rest[: max(0, k - len(lead))]
    order = {sc.chunk.chunk_id: i for i, sc in enumerate(ranked)}
    return sorted(picked, key=lambda sc: order[sc.chunk.chunk_id])


def interleave(lists: Sequence[Sequence[ScoredChunk]], n: int) -> list[ScoredChunk]:
    """Round-robin merge of per-document candidate lists (each best first) into at most ``n``
    candidates without repeats, so each document's best candidates reach the reranker."""
    out: list[ScoredChunk] = []
    seen: set[str] = set()
    for i in range(max((len(x) for x in lists), default=0)):
        for lst in lists:
            if i < len(lst) and lst[i].chunk.chunk_id not in seen and len(out) < n:
                out.append(lst[i])
                seen.add(lst[i].chunk.chunk_id)
    return out


def documents_of(chunks: Sequence[ScoredChunk]) -> tuple[str, ...]:
    """The distinct paths of ``chunks`` in order of first appearance."""
    return tuple(dict.fromkeys(sc.chunk.path for sc in chunks))


def capped(fused: Sequence[ScoredChunk], pool: int, share: float = 0.25) -> list[ScoredChunk]:
    """``fused`` reordered so that its first ``pool`` candidates hold at most ``max(2, share · pool)``
    of any one document while other documents have candidates (a per-document quota on the
    reranker's pool); the rest follow in their order."""
    cap = max(2, int(share * pool))
    counts: dict[str, int] = {}
    first: list[ScoredChunk] = []
    later: list[ScoredChunk] = []
    for sc in fused:
        n = counts.get(sc.chunk.path, 0)
        (first if n < cap and len(first) < pool else later).append(sc)
        counts[sc.chunk.path] = n + 1
    return first + later
