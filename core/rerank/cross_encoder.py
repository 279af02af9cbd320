"""The real reranker: a sentence-transformers CrossEncoder scoring (question, passage) pairs.

Score mapping: the ms-marco cross-encoders (``cross-encoder/ms-marco-MiniLM-L-6-v2`` and siblings)
have one output logit and were trained with binary cross-entropy on logits (sentence-transformers
``BinaryCrossEntropyLoss`` / ``BCEWithLogitsLoss``; see the sentence-transformers docs, "MS MARCO
Cross-Encoders", and ``examples/training/ms_marco/train_cross-encoder_scratch.py``). The sigmoid of
the logit is therefore the model's relevance probability: a stable 0–1 range on which thresholds
such as ``answer.min_score`` keep their meaning across questions. The raw logit is kept in
``scores["rerank_logit"]``.

Cost on this machine (2 shared cores): MiniLM-L6 takes ~1 s for 20 pairs of 256 tokens in float32
and ~0.5 s in bfloat16, so the defaults are bfloat16, 20 candidates and ``max_length`` 256 word
pieces per pair (longer passages are truncated from the end).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from core.config import RerankSettings
from core.errors import ModelLoadError
from core.rerank.base import rescore, sigmoid
from core.types import ScoredChunk

log = logging.getLogger(__name__)

BATCH_SIZE = 16


def passage_text(candidate: ScoredChunk) -> str:
    """The passage shown to a reranker: the chunk's section path (if any) on a line, then its text."""
    chunk = candidate.chunk
    return f"{chunk.section}\n{chunk.text}" if chunk.section else chunk.text


class CrossEncoderReranker:
    """Cross-encoder reranker loaded from ``rerank.model`` (hub name already cached, or a local path).

    Raises:
        ModelLoadError: the model cannot be loaded (not in the local cache with ``HF_HUB_OFFLINE=1``,
            a bad path, not a sequence-classification model with one label, ...). The message names
            ``rerank.model`` and the fix.
    """

    fallback_reason: str | None = None

    def __init__(self, settings: RerankSettings) -> None:
        t0 = time.perf_counter()
        self._model = _load(settings)
        self.name = f"cross-encoder:{settings.model}"
        log.info("reranker loaded model=%s dtype=%s max_length=%d in %.1fs", settings.model,
                 settings.dtype, settings.max_length, time.perf_counter() - t0)

    def rerank(self, question: str, candidates: list[ScoredChunk], keep: int) -> list[ScoredChunk]:
        """Score every (question, passage) pair; return the best ``keep``, score = sigmoid(logit).

        Shapes: ``len(candidates)`` pairs in batches of 16 → logits (n,) → scores (n,) in (0, 1).
        """
        if not candidates:
            return []
        t0 = time.perf_counter()
        pairs = [(question, passage_text(c)) for c in candidates]
        logits = [float(x) for x in self._predict(pairs)]
        out = rescore(candidates, [sigmoid(x) for x in logits], keep, {"rerank_logit": logits})
        log.debug("cross-encoder reranked n=%d keep=%d in %.0f ms", len(candidates), keep,
                  (time.perf_counter() - t0) * 1000)
        return out

    def _predict(self, pairs: list[tuple[str, str]]) -> Any:
        import torch

        raw = self._model.predict(pairs, batch_size=BATCH_SIZE, show_progress_bar=False,
                                  activation_fn=torch.nn.Identity(), convert_to_numpy=True)
        return raw.reshape(len(pairs), -1)[:, 0]


def _load(settings: RerankSettings) -> Any:
    """Load the CrossEncoder (lazy import: torch + sentence-transformers cost seconds to import)."""
    try:
        import torch
        from sentence_transformers import CrossEncoder

        kwargs: dict[str, Any] = {}
        if settings.dtype == "bfloat16":
            kwargs["model_kwargs"] = {"dtype": torch.bfloat16}
        model = CrossEncoder(settings.model, device="cpu", max_length=settings.max_length,
                             activation_fn=torch.nn.Identity(), **kwargs)
    except Exception as exc:
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise ModelLoadError(
            f"rerank.model: cannot load cross-encoder {settings.model!r} ({type(exc).__name__}: "
            f"{first_line[:200]}); put the model in the local Hugging Face cache or set a local path"
        ) from None
    labels = int(getattr(model.config, "num_labels", 1))
    if labels != 1:
        raise ModelLoadError(
            f"rerank.model: {settings.model!r} has {labels} output labels; a reranker needs 1 "
            "(an ms-marco style cross-encoder)"
        )
    return model
