"""Offline reranker: sentence-level max-similarity with the embedding model plus keyword overlap.

Runs wherever the embedding model runs, so it is the visible fallback when cross-encoder weights
cannot be loaded. For each candidate:

* ``rerank_sem`` — max cosine similarity between the question's embedding and the embeddings of the
  passage's units (prose sentences; table rows with their header), clipped to [0, 1]. Max-sim over
  units follows the late-interaction idea of ColBERT (Khattab & Zaharia, SIGIR 2020) at sentence
  granularity: a long chunk that answers in one sentence is not diluted by the rest of its text.
  The whole passage is not embedded again: that would double the cost (~4,500 word pieces per 20
  candidates, about one cross-encoder pass).
* ``rerank_kw`` — the IDF-weighted share of the question's content words found in the passage,
  IDF computed over the candidate set with the BM25 formula ln(1 + (N − df + 0.5) / (df + 0.5))
  (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009).

``score = 0.65 · sem + 0.35 · kw`` ∈ [0, 1]. Sentence embeddings are cached per chunk
``text_hash`` (LRU, per instance) so repeated candidates cost nothing.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from core.embedder import Embedder
from core.rerank.base import rescore, words
from core.rerank.cross_encoder import passage_text
from core.types import ScoredChunk

log = logging.getLogger(__name__)

SEMANTIC_WEIGHT = 0.65
MAX_SENTENCES = 24
CACHE_SIZE = 4096
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_EMPTY_FIRST_CELL = re.compile(r"\|\s*\|")
_TABLE_RULE = re.compile(r"\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*")
_STOPWORDS_TEXT = (
    "a an and are as at be been being but by can could did do does for from had has have how i if in "
    "into is it its may me my no not of on or our per shall should so than that the their them then "
    "there these they this those to under up was we were what when where which who whom why will "
    "with would you your am any"
)
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


def sentences(text: str) -> list[str]:
    """Split ``text`` into scoring units: sentences of prose (at ``.!?;`` and line breaks) and, for
    GitHub-markdown tables, one unit per row prefixed with the table's header (a row alone, e.g.
    ``| Hospital cash | 500 | 1,000 |``, does not say what its numbers are). A row whose first cell
    is empty continues the header (before any data row) or the previous row (PDF line wraps).

    Units of fewer than 3 words are dropped; at most 24 are kept (reading order).
    Returns ``[text]`` when nothing qualifies.
    """
    units: list[str] = []
    header: str | None = None
    in_rows = False
    for line in (ln.strip() for ln in text.splitlines()):
        if not line.startswith("|"):
            header, in_rows = None, False
            units.extend(p.strip() for p in _SENTENCE_END.split(line))
        elif _TABLE_RULE.fullmatch(line):
            continue
        elif header is None:
            header = line
        elif _EMPTY_FIRST_CELL.match(line):
            if in_rows:
                units[-1] = f"{units[-1]}\n{line}"
            else:
                header = f"{header}\n{line}"
        else:
            units.append(f"{header}\n{line}")
            in_rows = True
    kept = [u for u in units if len(words(u)) >= 3][:MAX_SENTENCES]
    return kept or [text]


def stem(term: str) -> str:
    """Crude English plural folding: "deliveries" → "delivery", "claims" → "claim"."""
    if len(term) > 4 and term.endswith("ies"):
        return term[:-3] + "y"
    if len(term) > 3 and term.endswith("s") and not term.endswith("ss"):
        return term[:-1]
    return term


def content_terms(text: str) -> set[str]:
    """Stemmed, lowercase words of ``text`` minus English stop words."""
    return {stem(w) for w in words(text) if w not in STOPWORDS}


def keyword_coverage(question: str, passages: Sequence[str]) -> list[float]:
    """IDF-weighted share of the question's content terms present in each passage, each in [0, 1]."""
    q = content_terms(question)
    if not q or not passages:
        return [0.0] * len(passages)
    bags = [content_terms(p) for p in passages]
    n = len(bags)
    idf = {t: math.log(1.0 + (n - sum(t in b for b in bags) + 0.5) / (sum(t in b for b in bags) + 0.5))
           for t in q}
    total = sum(idf.values())
    return [sum(idf[t] for t in q if t in b) / total for b in bags]


class OfflineReranker:
    """Reranks with the embedding model (:class:`core.embedder.Embedder`) and keyword overlap.

    Args:
        embedder: the same embedder retrieval uses (no second model is loaded).
        fallback_reason: why this runs instead of the configured cross-encoder (``None`` when the
            offline reranker was configured on purpose).
    """

    def __init__(self, embedder: Embedder, fallback_reason: str | None = None) -> None:
        self._embedder = embedder
        self.fallback_reason = fallback_reason
        self.name = f"offline:maxsim+keyword({embedder.model_id})"
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def rerank(self, question: str, candidates: list[ScoredChunk], keep: int) -> list[ScoredChunk]:
        """Score candidates by 0.65 · sentence max-sim + 0.35 · keyword coverage; best ``keep`` first."""
        if not candidates:
            return []
        t0 = time.perf_counter()
        passages = [passage_text(c) for c in candidates]
        q_vec = _unit(self._embedder.embed([question]))[0]
        sem = [max(0.0, float(np.max(m @ q_vec))) for m in self._sentence_vectors(candidates, passages)]
        kw = keyword_coverage(question, passages)
        scores = [SEMANTIC_WEIGHT * s + (1.0 - SEMANTIC_WEIGHT) * k for s, k in zip(sem, kw, strict=True)]
        out = rescore(candidates, scores, keep, {"rerank_sem": sem, "rerank_kw": kw})
        log.debug("offline reranked n=%d keep=%d in %.0f ms", len(candidates), keep,
                  (time.perf_counter() - t0) * 1000)
        return out

    def _sentence_vectors(
        self, candidates: Sequence[ScoredChunk], passages: Sequence[str]
    ) -> list[np.ndarray]:
        """Unit vectors (m_i, dim) of each passage's sentences; one embed call for all uncached ones."""
        keys = [c.chunk.text_hash or c.chunk.chunk_id or p for c, p in zip(candidates, passages, strict=True)]
        missing = {k: p for k, p in zip(keys, passages, strict=True) if k not in self._cache}
        if missing:
            units = {k: sentences(p) for k, p in missing.items()}
            flat = [s for us in units.values() for s in us]
            vecs = _unit(self._embedder.embed(flat))
            start = 0
            for k, us in units.items():
                self._remember(k, vecs[start : start + len(us)])
                start += len(us)
        for k in keys:
            self._cache.move_to_end(k)
        return [self._cache[k] for k in keys]

    def _remember(self, key: str, vecs: np.ndarray) -> None:
        self._cache[key] = vecs
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)


def _unit(vecs: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (zero rows stay zero); float32 (n, dim)."""
    arr = np.asarray(vecs, dtype=np.float32)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    return np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)
