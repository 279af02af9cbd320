"""Builds the reranker named by ``rerank`` settings, once, in the composition root."""

from __future__ import annotations

import logging

from core.config import Settings
from core.embedder import Embedder
from core.errors import ModelLoadError
from core.rerank.base import FakeReranker, PassthroughReranker, Reranker
from core.rerank.offline import OfflineReranker

log = logging.getLogger(__name__)


def make_reranker(settings: Settings, embedder: Embedder) -> Reranker:
    """Pick the reranker from ``settings.rerank``.

    * ``enabled: false`` → :class:`PassthroughReranker` (retrieval order, no re-scoring).
    * ``provider: fake`` → :class:`FakeReranker`; ``provider: offline`` → :class:`OfflineReranker`.
    * ``provider: cross-encoder`` → :class:`CrossEncoderReranker`; when its model cannot be loaded
      (with ``HF_HUB_OFFLINE=1`` a model missing from the local cache fails in milliseconds), falls
      back to :class:`OfflineReranker` with ``fallback_reason`` set and a WARNING logged, so
      ``status`` and the answer's ``details`` can show it. Never raises for a missing model.

    torch / sentence-transformers are imported only when the cross-encoder is built.
    """
    rs = settings.rerank
    if not rs.enabled:
        return PassthroughReranker()
    if rs.provider == "fake":
        return FakeReranker()
    if rs.provider == "offline":
        return OfflineReranker(embedder)
    from core.rerank.cross_encoder import CrossEncoderReranker

    try:
        return CrossEncoderReranker(rs)
    except ModelLoadError as exc:
        reason = f"{exc}; using the offline reranker (embedding max-sim + keyword overlap)"
        log.warning("reranker fallback: %s", reason)
        return OfflineReranker(embedder, fallback_reason=reason)
