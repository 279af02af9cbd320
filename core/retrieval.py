"""Hybrid retrieval: vector leg + BM25 leg over the chunks table, fused, optionally reranked.

Data flow of :meth:`HybridRetriever.retrieve`:

question → glossary expansion (both legs) → scope → allowed paths → vector leg (embedding, cosine)
and BM25 leg (LanceDB native full-text index, query tokenised by :func:`keyword_query`) → fusion
(:mod:`core.fusion`: reciprocal rank fusion or convex combination, per ``retrieval.fusion``; the legs
run are ``retrieval.legs``) → exact-match boost (:func:`core.query.exact.exact_match_boost`, weight
``retrieval.exact_weight``) → the reranker's pool gets the stored-embedding cosine of every candidate
(``scores["vector"]``) → optional reranker stage → top-k :class:`~core.types.ScoredChunk`.

Retrieval never reads documents outside the scope: both legs are pre-filtered with
:func:`core.store.path_filter` over the indexed paths that match the scope's folder globs.
"""

from __future__ import annotations

import fnmatch
import logging
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from core.config import RerankSettings, RetrievalSettings
from core.embedder import Embedder
from core.fusion import convex_fusion, reciprocal_rank_fusion
from core.query.exact import exact_match_boost
from core.rerank.base import Reranker
from core.scoping import DocumentScoper
from core.store import Store, path_filter, sql_str
from core.text import tokenize
from core.types import Chunk, ScoredChunk

log = logging.getLogger(__name__)

ALL = "**"


@dataclass(frozen=True)
class RetrievalResult:
    """What retrieval hands to the answerer.

    Attributes:
        chunks: the top-k chunks, best first.
        query: the question after glossary expansion (what both legs searched for).
        timings_ms: ``embed``, ``retrieve`` (both legs + fusion) and ``rerank`` in milliseconds.
        reranker: name of the reranker used, ``""`` when none ran.
    """

    chunks: list[ScoredChunk]
    query: str
    timings_ms: dict[str, float] = field(default_factory=dict)
    reranker: str = ""


def keyword_query(text: str) -> str:
    """The BM25 leg's query string: tokens joined by spaces, so no FTS query syntax survives."""
    return " ".join(tokenize(text))


def expand_glossary(question: str, glossary: Mapping[str, str]) -> str:
    """Append each glossary expansion whose term occurs in ``question`` (``PED`` → ``PED (pre-existing
    disease)``). All-caps terms match case-sensitively as whole words, others case-insensitively."""
    out = question
    for term, expansion in glossary.items():
        flags = 0 if term.isupper() else re.IGNORECASE
        pattern = re.compile(rf"(?<!\w){re.escape(term)}(?!\w)", flags)
        m = pattern.search(out)
        if m is not None and expansion.lower() not in out.lower():
            out = f"{out[: m.end()]} ({expansion}){out[m.end():]}"
    return out


def in_scope(path: str, scope: Sequence[str]) -> bool:
    """True when ``path`` (relative, POSIX) matches one of the folder globs of ``scope``.

    ``**`` matches everything; ``hr/**`` and ``hr`` both match every file under ``hr/``; other globs
    are matched with :func:`fnmatch.fnmatchcase`.
    """
    for glob in scope:
        g = glob.strip().strip("/")
        if g in (ALL, "*", ""):
            return True
        folder = g[:-3] if g.endswith("/**") else g
        if path.startswith(folder + "/") or fnmatch.fnmatchcase(path, g):
            return True
    return False


def scope_paths(indexed: Iterable[str], scope: Sequence[str]) -> set[str]:
    """The indexed paths inside ``scope``."""
    return {p for p in indexed if in_scope(p, scope)}


class HybridRetriever:
    """Vector + BM25 retrieval over a :class:`~core.store.Store`, fused, then optionally reranked.

    Args:
        store: the LanceDB store (chunks with vectors and the BM25 full-text index).
        embedder: embeds the query (use a lazy embedder so the model loads on the first question).
        settings: ``retrieval`` settings (top_k, candidates per leg, fusion, weights, glossary).
        reranker: optional second stage; ``None`` keeps the fused order.
        rerank: ``rerank`` settings (how many fused candidates the reranker sees).
        scoper: optional document scoping (a question naming a policy searches only that policy).
    """

    def __init__(self, store: Store, embedder: Embedder, settings: RetrievalSettings,
                 reranker: Reranker | None = None, rerank: RerankSettings | None = None,
                 scoper: DocumentScoper | None = None) -> None:
        self.store = store
        self.scoper = scoper
        self.embedder = embedder
        self.settings = settings
        self.reranker = reranker
        self.rerank_settings = rerank or RerankSettings()

    def retrieve(self, question: str, scope: Sequence[str] = (ALL,),
                 top_k: int | None = None) -> RetrievalResult:
        """Top ``top_k`` (default ``retrieval.top_k``; at most ``rerank.keep`` after a reranker) chunks
        for ``question`` within ``scope``.

        Returns an empty result (never raises) when nothing is indexed or nothing is in scope.
        """
        k = top_k or self.settings.top_k
        query = expand_glossary(question, self.settings.glossary)
        timings: dict[str, float] = {"embed": 0.0, "retrieve": 0.0, "rerank": 0.0}
        where, keywords = self._where(question, scope), tokenize(query)
        if where == "false" or self.store.count_chunks() == 0 or not keywords:
            return RetrievalResult([], query, timings)
        if self.scoper is not None and where is not None:  # confined: a document's name is noise
            keywords = self.scoper.strip(keywords, self.scoper.name_words(question, self._allowed(scope)))
        t0 = time.perf_counter()
        vector = self.embedder.embed([query])[0]
        t1 = time.perf_counter()
        fused = exact_match_boost(question, self._fuse(vector, " ".join(keywords), where),
                                  self.settings.exact_weight)
        t2 = time.perf_counter()
        chunks, name = self._rerank(question, fused, k, vector)
        chunks = self._mark_named(question, chunks)
        t3 = time.perf_counter()
        timings.update(embed=(t1 - t0) * 1e3, retrieve=(t2 - t1) * 1e3, rerank=(t3 - t2) * 1e3)
        log.info("retrieved %d of %d candidates (embed %.0f ms, retrieve %.0f ms, rerank %.0f ms)",
                 len(chunks), len(fused), timings["embed"], timings["retrieve"], timings["rerank"])
        return RetrievalResult(chunks, query, timings, name)

    def _mark_named(self, question: str, chunks: list[ScoredChunk]) -> list[ScoredChunk]:
        """When ``question`` names documents (:meth:`DocumentScoper.named_paths`), each chunk's
        ``scores["named_doc"]`` is 1.0 if it comes from one of them, else 0.0 (read by the answerer's
        answerability signals); unchanged when it names none."""
        named = self.scoper.named_paths(question) if self.scoper is not None else None
        if not named:
            return chunks
        return [ScoredChunk(sc.chunk, sc.score, {**sc.scores, "named_doc": float(sc.chunk.path in named)})
                for sc in chunks]

    def _where(self, question: str, scope: Sequence[str]) -> str | None:
        """``None`` when the scope covers every indexed document, else a path filter. A question
        that names a document (see :class:`~core.scoping.DocumentScoper`) narrows the scope to it."""
        everything = any(g.strip().strip("/") in (ALL, "*", "") for g in scope)
        if everything and self.scoper is None:
            return None
        allowed = self._allowed(scope)
        if self.scoper is not None:
            narrowed = self.scoper.narrow(question, scope, allowed)
            if list(narrowed) != list(scope):
                log.info("document scope: %d documents named", len(narrowed))
                return path_filter(sorted(set(narrowed) & set(allowed)))
        return None if everything else path_filter(allowed)

    def _allowed(self, scope: Sequence[str]) -> list[str]:
        """The indexed paths inside ``scope``, sorted."""
        indexed = [p for p, rec in self.store.documents().items() if rec.status == "indexed"]
        return sorted(scope_paths(indexed, scope))

    def _fuse(self, vector: np.ndarray, keywords: str, where: str | None) -> list[ScoredChunk]:
        n = self.settings.candidates
        legs: dict[str, list[tuple[Chunk, float]]] = {}
        if "vector" in self.settings.legs:
            legs["vector"] = self.store.vector_search(vector, n, where)
        if "keyword" in self.settings.legs:
            legs["keyword"] = self.store.keyword_search(keywords, n, where)
        weights = {"vector": self.settings.vector_weight, "keyword": self.settings.keyword_weight}
        if self.settings.fusion == "convex":
            return convex_fusion(legs, weights)
        return reciprocal_rank_fusion(legs, weights, self.settings.rrf_k)

    def _rerank(self, question: str, fused: list[ScoredChunk], k: int,
                vector: np.ndarray) -> tuple[list[ScoredChunk], str]:
        if self.reranker is None or not fused:
            return fused[:k], ""
        pool = self._with_cosines(fused[: max(k, self.rerank_settings.candidates)], vector)
        keep = min(k, self.rerank_settings.keep)
        return self.reranker.rerank(question, pool, keep=keep), self.reranker.name

    def _with_cosines(self, pool: list[ScoredChunk], vector: np.ndarray) -> list[ScoredChunk]:
        """``pool`` with ``scores["vector"]`` (question/chunk cosine) on every candidate: candidates
        only the BM25 leg found get it from their stored embeddings (one filtered read, no model call),
        marked ``scores["vector_filled"] = 1`` (the vector leg did not find them: leg agreement)."""
        missing = [sc.chunk.chunk_id for sc in pool if "vector" not in sc.scores]
        if not missing:
            return pool
        where = "chunk_id IN (" + ", ".join(sql_str(c) for c in missing) + ")"
        rows = self.store.chunk_rows(where=where, columns=["chunk_id", "vector"])
        q = np.asarray(vector, dtype=np.float32)
        q = q / (float(np.linalg.norm(q)) or 1.0)
        cos = {r["chunk_id"]: float(np.asarray(r["vector"], dtype=np.float32) @ q) for r in rows}
        return [sc if sc.chunk.chunk_id not in cos else
                ScoredChunk(sc.chunk, sc.score,
                            {**sc.scores, "vector": cos[sc.chunk.chunk_id], "vector_filled": 1.0})
                for sc in pool]
