"""Builds the reranker named by ``rerank`` settings, once, in the composition root; and predicts,
without loading any model, which reranker will run (for ``policybot status``)."""

from __future__ import annotations

import logging

from core.config import RerankSettings, Settings
from core.embedder import Embedder
from core.errors import ModelLoadError
from core.model_files import model_available
from core.rerank.base import FakeReranker, PassthroughReranker, Reranker
from core.rerank.offline import OfflineReranker

log = logging.getLogger(__name__)

OFFLINE_NOTE = ("using the offline reranker (stored-embedding cosine + BM25 + keyword and exact-match "
                "features)")


def make_reranker(settings: Settings | RerankSettings, embedder: Embedder) -> Reranker:
    """Pick the reranker from ``rerank`` settings (the whole Settings or its ``rerank`` section).

    * ``enabled: false`` → :class:`PassthroughReranker` (retrieval order, no re-scoring).
    * ``provider: fake`` → :class:`FakeReranker`; ``provider: offline`` → :class:`OfflineReranker`.
    * ``provider: auto`` (the default) → the cross-encoder when its weights are on this machine (a
      local folder, or in the local Hugging Face cache), else :class:`OfflineReranker`; which one is
      logged once at INFO (nothing is downloaded, nothing warns: the offline reranker is a normal
      choice, not a failure).
    * ``provider: cross-encoder`` → :class:`CrossEncoderReranker`; when its model cannot be loaded
      (with ``HF_HUB_OFFLINE=1`` a model missing from the local cache fails in milliseconds), falls
      back to :class:`OfflineReranker` with ``fallback_reason`` set and a WARNING logged, so
      ``status`` and the answer's ``details`` can show it. Never raises for a missing model.

    torch / sentence-transformers are imported only when the cross-encoder is built.
    """
    rs = settings.rerank if isinstance(settings, Settings) else settings
    if not rs.enabled:
        return PassthroughReranker()
    if rs.provider == "fake":
        return FakeReranker()
    if rs.provider == "offline":
        return OfflineReranker(embedder)
    if rs.provider == "auto" and not _model_available(rs.model):
        log.info("reranker: offline (no local weights for rerank.model %r; to use the cross-encoder, put it "
                 "in the Hugging Face cache: see the README)", rs.model)
        return OfflineReranker(embedder)
    from core.rerank.cross_encoder import CrossEncoderReranker

    if rs.provider == "auto":
        log.info("reranker: cross-encoder %s (local weights found)", rs.model)

    try:
        return CrossEncoderReranker(rs)
    except ModelLoadError as exc:
        reason = f"{exc}; {OFFLINE_NOTE}"
        log.warning("reranker fallback: %s", reason)
        return OfflineReranker(embedder, fallback_reason=reason)


def predict_reranker(settings: Settings | RerankSettings) -> dict[str, str | None]:
    """Which reranker :func:`make_reranker` will build, without loading a model (fast: no torch).

    Returns:
        ``{"reranker": provider/model, "fallback_reason": None or why the offline reranker will run}``.
        A cross-encoder counts as available when ``rerank.model`` is a local folder with a
        ``config.json`` or a hub name whose ``config.json`` is in the local Hugging Face cache;
        loading can still fail later (corrupt weights), which the answer's details then show.
    """
    rs = settings.rerank if isinstance(settings, Settings) else settings
    if not rs.enabled:
        return {"reranker": "disabled", "fallback_reason": None}
    if rs.provider not in ("cross-encoder", "auto"):
        return {"reranker": rs.provider, "fallback_reason": None}
    found = _model_available(rs.model)
    if rs.provider == "auto":
        return {"reranker": f"cross-encoder:{rs.model}" if found else "offline", "fallback_reason": None}
    reason = None if found else (f"rerank.model: {rs.model!r} is neither a local model folder nor in the "
                                 f"local Hugging Face cache; {OFFLINE_NOTE}")
    return {"reranker": f"cross-encoder:{rs.model}", "fallback_reason": reason}


def _model_available(model: str) -> bool:
    return model_available(model)
