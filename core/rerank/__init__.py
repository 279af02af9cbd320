"""Second-stage rerankers: re-score the fused retrieval candidates and keep the best few.

Data flow: retrieval candidates (:class:`~core.types.ScoredChunk`, best first) → :meth:`Reranker.rerank`
→ the best ``keep`` chunks with ``score`` in [0, 1] and the per-stage scores kept in ``scores``.

Implementations (chosen once by :func:`make_reranker` from ``rerank.provider``):

* :class:`~core.rerank.cross_encoder.CrossEncoderReranker` — the real one (sentence-transformers
  CrossEncoder, default ``cross-encoder/ms-marco-MiniLM-L-6-v2``).
* :class:`~core.rerank.offline.OfflineReranker` — works without reranker weights (stored-embedding
  cosine, BM25, keyword and exact-match features); the visible fallback when the cross-encoder cannot
  be loaded.
* :class:`~core.rerank.base.FakeReranker` — deterministic in-memory stand-in for tests.

Heavy libraries (torch, sentence-transformers) are imported lazily inside the real reranker.
"""

from core.rerank.base import FakeReranker, PassthroughReranker, Reranker, rescore
from core.rerank.factory import make_reranker, predict_reranker
from core.rerank.offline import OfflineReranker

__all__ = [
    "FakeReranker",
    "OfflineReranker",
    "PassthroughReranker",
    "Reranker",
    "make_reranker",
    "predict_reranker",
    "rescore",
]
