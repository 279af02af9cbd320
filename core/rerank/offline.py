"""Offline reranker: cheap features of each candidate, combined linearly; no model call per sentence.

Runs wherever the embedding model runs, so it is the visible fallback when cross-encoder weights
cannot be loaded. It must cost far less than one cross-encoder pass (≤ 500 ms p95 for retrieval +
rerank on 2 shared cores), so it embeds at most the question: every feature comes from what
retrieval already holds or from plain text statistics over the candidate set.

Features of each candidate, each in [0, 1]:

* ``rerank_vec`` — cosine similarity of the question and the chunk's stored embedding
  (``scores["vector"]``, filled in by retrieval for every candidate; candidates without it are
  embedded here, cached per ``text_hash``).
* ``rerank_bm25`` — Okapi BM25 of the question's content terms over the candidate set (k1 = 1.2,
  b = 0.75; Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009),
  divided by the best candidate's score.
* ``rerank_unit`` — the best IDF-weighted coverage of the question's content terms by one unit
  (sentence, or table row with its header) of the passage: a lexical stand-in for the sentence-level
  max-sim of late interaction (ColBERT, Khattab & Zaharia, SIGIR 2020) — a long chunk that answers in
  one sentence is not diluted by the rest of its text.
* ``rerank_kw`` — the IDF-weighted share of the question's content terms anywhere in the passage
  (IDF over the candidate set with the BM25 formula ln(1 + (N − df + 0.5) / (df + 0.5))).
* ``rerank_exact`` — the share of the question's exact-match terms (amounts, periods, clause ids,
  plan and product names, a definition question's "X means"; :func:`core.query.exact.boost_terms`)
  found in the passage.
* ``rerank_fused`` — retrieval's own score (the legs' reciprocal-rank fusion plus the exact boost),
  divided by the best candidate's: interpolating the first stage's score into the reranker's, as
  Yang, Zhang & Lin do with BM25 and BERT ("Simple Applications of BERT for Ad Hoc Document
  Retrieval", 2019). The lexical features reward words shared with the question; a question in
  everyday words shares few, and then the legs' agreement over the whole corpus — the vector leg
  ranks paraphrases well — is the evidence that is left.

``raw = Σ w_f · f`` with :data:`WEIGHTS` (sum 1, fitted by pairwise learning to rank:
``bench/rerank_fit.py``), so ``raw`` is in [0, 1] (``scores["rerank_raw"]``).
The score is ``raw`` after Platt scaling, ``σ(a · raw + b)`` (:mod:`core.calibration`, fitted by
``policybot eval --calibrate`` on whether a candidate covers a gold source page): the probability
that the passage is relevant, comparable across questions. Monotone, so the ranking is the same.
Words are :func:`core.text.content_terms` (the one text module).
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from core.bm25 import bm25_scores as bm25_scores_raw
from core.bm25 import scaled
from core.calibration import load_calibration
from core.embedder import Embedder, embed_queries
from core.lru import LockedLRU
from core.query.exact import exact_match_boost
from core.rerank.base import rescore, words
from core.rerank.cross_encoder import passage_text
from core.text import content_terms as text_content_terms
from core.types import ScoredChunk

log = logging.getLogger(__name__)

WEIGHTS = {"rerank_vec": 0.798, "rerank_bm25": 0.081, "rerank_unit": 0.0, "rerank_kw": 0.099,
           "rerank_exact": 0.022, "rerank_fused": 0.0}
"""Feature weights (sum 1), fitted by pairwise learning to rank on the reranker pools of qa_dev.yaml's
answerable items (``bench/rerank_fit.py``: linear RankNet / logistic Ranking SVM loss, per-question
pair weights, non-negative weights, L2 λ = 0.1 chosen by 5-fold cross-validation grouped by gold
document; out of fold hit@5 0.950, MRR@5 0.803 against 0.867 / 0.746 for the previous hand-set
weights) and checked on the held-out sets, which were never fitted on (docs/eval.md, "ranking round").

What the fit says: the question/passage cosine is the evidence that holds for everyday wording; the
lexical features added to it reward words shared by chance (the previous weights let a passage that
repeats "claim" or "plan" outrank the one the question paraphrases). ``rerank_unit`` and
``rerank_fused`` get weight 0 (they duplicate ``rerank_kw`` and the cosine; computed still, and
recorded in ``scores`` for diagnosis); ``rerank_exact`` fits to 0 on qa_dev — its exact terms there
are mostly product and company names that repeat through one document — and is held at the fit's
lower bound 0.3 (``--floor rerank_exact=0.3``, 2.2 % after scaling), a tie-break for plan tiers and
amounts that changes no qa_dev item's hit@5 out of fold."""
MAX_SENTENCES = 40
TERMS_CACHE = 8192
"""Texts (passages, units, questions) whose content terms are kept: a question's pool is ~30 passages
and their units, and the answerer reranks the same passages again."""
CACHE_SIZE = 4096
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_EMPTY_FIRST_CELL = re.compile(r"\|\s*\|")
_TABLE_RULE = re.compile(r"\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*")
def sentences(text: str) -> list[str]:
    """:func:`_units` of ``text`` as a fresh list. Memoised per text (:data:`TERMS_CACHE` texts): the
    split counts the words of every unit (:func:`core.text.terms`, number normalisation included),
    the largest CPU cost of a rerank in a profile of the retrieval path, and the same passages are
    reranked again by the answerer and by later questions."""
    return list(_units(text))


@lru_cache(maxsize=TERMS_CACHE)
def _units(text: str) -> tuple[str, ...]:
    """Split ``text`` into scoring units: sentences of prose (at ``.!?;`` and line breaks) and, for
    GitHub-markdown tables, one unit per row prefixed with the table's header (a row alone, e.g.
    ``| Hospital cash | 500 | 1,000 |``, does not say what its numbers are). A row whose first cell
    is empty continues the header (before any data row) or the previous row (PDF line wraps).

    Units of fewer than 3 words are dropped; at most :data:`MAX_SENTENCES` are kept (reading order).
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
    return tuple(kept or [text])


@lru_cache(maxsize=TERMS_CACHE)
def content_terms(text: str) -> frozenset[str]:
    """Stemmed content terms of ``text`` (:func:`core.text.content_terms`), as a set; memoised per text
    (the BM25, unit and keyword features each read every candidate's and unit's terms)."""
    return frozenset(text_content_terms(text))


@lru_cache(maxsize=TERMS_CACHE)
def _term_list(text: str) -> tuple[str, ...]:
    """:func:`core.text.content_terms` of ``text`` in order with duplicates (BM25's bag), memoised."""
    return tuple(text_content_terms(text))


def _idf(terms: frozenset[str], bags: Sequence[frozenset[str]]) -> dict[str, float]:
    """BM25 IDF ln(1 + (N − df + 0.5) / (df + 0.5)) of each term over ``bags`` (always > 0)."""
    n = len(bags)
    return {t: math.log(1.0 + (n - (df := sum(t in b for b in bags)) + 0.5) / (df + 0.5)) for t in terms}


def keyword_coverage(question: str, passages: Sequence[str]) -> list[float]:
    """IDF-weighted share of the question's content terms present in each passage, each in [0, 1]."""
    q = content_terms(question)
    if not q or not passages:
        return [0.0] * len(passages)
    bags = [content_terms(p) for p in passages]
    idf = _idf(q, bags)
    total = sum(idf.values())
    return [sum(idf[t] for t in q if t in b) / total for b in bags]


def unit_coverage(question: str, passages: Sequence[str]) -> list[float]:
    """Per passage, the best IDF-weighted coverage of the question's content terms by one of its
    :func:`sentences` (IDF over the passages), each in [0, 1]."""
    q = content_terms(question)
    if not q or not passages:
        return [0.0] * len(passages)
    idf = _idf(q, [content_terms(p) for p in passages])
    total = sum(idf.values())
    return [max(sum(idf[t] for t in q & content_terms(u)) / total for u in sentences(p)) for p in passages]


def bm25_scores(question: str, passages: Sequence[str]) -> list[float]:
    """Okapi BM25 (:mod:`core.bm25`, rank_bm25) of the question's content terms over ``passages``,
    divided by the best passage's score (so in [0, 1]; all zero when nothing matches)."""
    q = sorted(content_terms(question))
    return scaled(bm25_scores_raw(q, [_term_list(p) for p in passages]))


def exact_share(question: str, candidates: Sequence[ScoredChunk]) -> list[float]:
    """Share of the question's exact-match terms in each candidate (0 when the question has none)."""
    boosted = {b.chunk.chunk_id: b.scores.get("exact", 0.0)
               for b in exact_match_boost(question, candidates, 1.0)}
    return [boosted.get(c.chunk.chunk_id, 0.0) for c in candidates]


def relative(candidates: Sequence[ScoredChunk]) -> list[float]:
    """Each candidate's incoming (retrieval) score divided by the best one's, clipped to [0, 1]."""
    top = max((c.score for c in candidates), default=0.0)
    return [min(1.0, max(0.0, c.score / top)) if top > 0 else 0.0 for c in candidates]


class OfflineReranker:
    """Reranks with cheap features (see module doc): stored-embedding cosine, BM25, best-unit and
    passage keyword coverage, exact-match terms, retrieval's own score.

    Args:
        embedder: the same embedder retrieval uses; called only for the question and for candidates
            retrieval gave no ``"vector"`` score (cached per ``text_hash``).
        fallback_reason: why this runs instead of the configured cross-encoder (``None`` when the
            offline reranker was configured on purpose).
    """

    def __init__(self, embedder: Embedder, fallback_reason: str | None = None) -> None:
        self._embedder = embedder
        self.fallback_reason = fallback_reason
        self.name = f"offline:features({embedder.model_id})"
        self._cache: LockedLRU[str, np.ndarray] = LockedLRU(CACHE_SIZE)

    def rerank(self, question: str, candidates: list[ScoredChunk], keep: int) -> list[ScoredChunk]:
        """Score candidates by the weighted features of :data:`WEIGHTS`, Platt-scaled when calibrated;
        best ``keep`` first."""
        if not candidates:
            return []
        t0 = time.perf_counter()
        passages = [passage_text(c) for c in candidates]
        parts = {
            "rerank_vec": self._cosines(question, candidates, passages),
            "rerank_bm25": bm25_scores(question, passages),
            "rerank_unit": unit_coverage(question, passages),
            "rerank_kw": keyword_coverage(question, passages),
            "rerank_exact": exact_share(question, candidates),
            "rerank_fused": relative(candidates),
        }
        raw = [sum(WEIGHTS[k] * v[i] for k, v in parts.items()) for i in range(len(candidates))]
        platt = load_calibration().reranker
        scores = [platt.probability({"raw": r}) for r in raw] if platt else raw
        out = rescore(candidates, scores, keep, {**parts, "rerank_raw": raw})
        log.debug("offline reranked n=%d keep=%d in %.0f ms", len(candidates), keep,
                  (time.perf_counter() - t0) * 1000)
        return out

    def _cosines(self, question: str, candidates: Sequence[ScoredChunk],
                 passages: Sequence[str]) -> list[float]:
        """Question/chunk cosine clipped to [0, 1]: retrieval's ``"vector"`` score when present, else
        the question (query prompt) and the uncached passages embedded."""
        missing = [i for i, c in enumerate(candidates) if "vector" not in c.scores]
        if not missing:
            return [min(1.0, max(0.0, c.scores["vector"])) for c in candidates]
        keys = [candidates[i].chunk.text_hash or passages[i] for i in missing]
        known = {k: v for k in dict.fromkeys(keys) if (v := self._cache.get(k)) is not None}
        todo = [k for k in dict.fromkeys(keys) if k not in known]
        texts = {k: passages[i] for i, k in zip(missing, keys, strict=True)}
        q = _unit(embed_queries(self._embedder, [question]))[0]
        if todo:
            for k, v in zip(todo, _unit(self._embedder.embed([texts[k] for k in todo])), strict=True):
                self._cache.put(k, v)
                known[k] = v
        found = {i: float(known[k] @ q) for i, k in zip(missing, keys, strict=True)}
        return [min(1.0, max(0.0, found[i] if i in found else c.scores["vector"]))
                for i, c in enumerate(candidates)]


def _unit(vecs: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (zero rows stay zero); float32 (n, dim)."""
    arr = np.asarray(vecs, dtype=np.float32)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    return np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)
