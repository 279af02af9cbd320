"""Okapi BM25 over a small in-memory set (the reranker's candidates, the answerer's sentences).

Built on ``rank_bm25.BM25Okapi`` with one change: the IDF is the always-positive
``ln(1 + (N − n + 0.5) / (n + 0.5))`` of Lucene and of Robertson & Zaragoza, "The Probabilistic
Relevance Framework: BM25 and Beyond" (2009), instead of rank_bm25's ``ln((N − n + 0.5) / (n + 0.5))``
with an epsilon floor, which is zero or negative for a term in half or more of a handful of
passages — the normal case when scoring the five sentences of one answer. k1 = 1.2, b = 0.75.

The full-text index over the whole corpus is LanceDB's (native BM25, ~4.8 ms per query at 100k
chunks); this module only scores the few dozen texts retrieval already returned.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rank_bm25 import BM25Okapi

K1 = 1.2
B = 0.75


def idf(n: int, df: int) -> float:
    """The always-positive BM25 IDF ``ln(1 + (N − n + 0.5) / (n + 0.5))`` (module doc) of a term held
    by ``df`` of ``n`` texts; > 0 for any 0 ≤ df ≤ n."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


class _PositiveIdfBM25(BM25Okapi):
    def _calc_idf(self, nd: dict[str, int]) -> None:
        self.idf = {word: idf(self.corpus_size, df) for word, df in nd.items()}


def bm25_scores(query: Sequence[str], docs: Sequence[Sequence[str]]) -> list[float]:
    """BM25 of ``query`` terms against each of ``docs`` (token lists), in the order given.

    Returns raw scores (≥ 0; 0 for a document sharing no term); ``[]`` for no documents. An empty
    document is allowed (it scores 0)."""
    if not docs:
        return []
    if not query or not any(docs):
        return [0.0] * len(docs)
    model = _PositiveIdfBM25([list(d) for d in docs], k1=K1, b=B)
    return [float(s) for s in model.get_scores(list(query))]


def scaled(scores: Sequence[float]) -> list[float]:
    """``scores`` divided by the largest (so the best is 1.0); all zero when none is positive."""
    top = max(scores, default=0.0)
    return [s / top if top > 0 else 0.0 for s in scores]
