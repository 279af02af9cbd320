"""Hybrid retrieval: vector leg + BM25 leg over the chunks table, fused, optionally reranked.

Data flow of :meth:`HybridRetriever.retrieve`:

question → glossary expansion (both legs) → scope → allowed paths → vector leg (embedding, cosine)
and BM25 leg (LanceDB native full-text index, query tokenised by :func:`keyword_query`) → fusion
(:mod:`core.fusion`: reciprocal rank fusion or convex combination, per ``retrieval.fusion``; the legs
run are ``retrieval.legs``) → exact-match boost (:func:`core.query.exact.exact_match_boost`, weight
``retrieval.exact_weight``) → the reranker's pool gets the stored-embedding cosine of every candidate
(``scores["vector"]``) → optional reranker stage → top-k :class:`~core.types.ScoredChunk`.

Comparison and multi-document questions (:func:`core.query.compare.is_comparison`, or every question
with ``retrieval.diversity: always``): when the question names several documents, each leg runs per
document and the per-document lists are interleaved, so each named document reaches the reranker;
the reranker scores the whole pool and :func:`core.diversity.diversify` keeps the best passage of
each (relevant) document before a second one of any. The result says so (``comparison``,
``documents``), for the answerer to quote one passage per document.

Cross-language: with a translator (the LLM rewriter) and scoped documents (the named ones, else all in
scope) that share one language other than the question's (``documents.language``,
:func:`core.language.translation_target`), the question is also translated into that language; both
legs run for the question and its translation, all fused together (RRF over every leg of every query
variant, as in multi-query fusion), and the reranker sees the question followed by its translation.

Retrieval never reads documents outside the scope: both legs are pre-filtered with
:func:`core.store.path_filter` over the indexed paths that match the scope's folder globs.
"""

from __future__ import annotations

import contextvars
import fnmatch
import logging
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import cast

import numpy as np

from core.clir.search import CrossLanguage, CrossQuery
from core.clir.translate import QueryTranslation
from core.config import RerankSettings, RetrievalSettings
from core.continuation import ListContinuation
from core.diversity import capped, diversify, documents_of, interleave
from core.embedder import Embedder, embed_queries
from core.feedback import expansion_terms
from core.fusion import convex_fusion, reciprocal_rank_fusion
from core.language import language_name, translation_target
from core.query.compare import is_comparison
from core.query.definition import with_definition
from core.query.exact import exact_match_boost
from core.query.rewriter import Rewriter
from core.references import DocumentChunks, ReferenceFollower
from core.rerank.base import Reranker
from core.scoping import DocumentScoper
from core.store import Store, in_filter, path_filter, row_chunk
from core.text import tokenize, without_words
from core.types import Chunk, ScoredChunk

log = logging.getLogger(__name__)

ALL = "**"
Leg = Callable[[], list[tuple[Chunk, float]]] | Future[list[tuple[Chunk, float]]]
"""One leg of a fusion: a search to run, or one already running."""
LEG_THREADS = 2
"""Threads that run a question's legs concurrently (one vector + one BM25 search per query variant)."""
MAX_SCOPES_REMEMBERED = 256
"""Scopes whose allowed paths are remembered per documents-table version (each up to one list of
every indexed path); past this the memo starts afresh."""


@dataclass(frozen=True)
class RetrievalResult:
    """What retrieval hands to the answerer.

    Attributes:
        chunks: the top-k chunks, best first.
        query: the question after glossary expansion (what both legs searched for).
        timings_ms: ``embed``, ``retrieve`` (both legs + fusion) and ``rerank`` in milliseconds.
        reranker: name of the reranker used, ``""`` when none ran.
        comparison: the question compares documents or asks which of several covers something, and
            ``chunks`` were spread over documents (:mod:`core.diversity`).
        documents: with ``comparison``, the distinct paths of ``chunks`` in rank order (else ``()``).
        named: paths of the documents the question names (document scope), ``()`` when none.
        translations: the question translated into the scoped documents' language by the LLM
            rewriter (searched too).
        translation: the question's terms translated by bilingual dictionary into the scoped
            documents' language (:class:`~core.clir.translate.QueryTranslation`: per question word
            the document words it matched), when no LLM translated it; ``None`` otherwise.
    """

    chunks: list[ScoredChunk]
    query: str
    timings_ms: dict[str, float] = field(default_factory=dict)
    reranker: str = ""
    comparison: bool = False
    documents: tuple[str, ...] = ()
    named: tuple[str, ...] = ()
    translations: tuple[str, ...] = ()
    translation: QueryTranslation | None = None


@dataclass(frozen=True)
class Variant:
    """One form of the question searched by the legs: its vector (``None``: no vector leg) and its
    BM25 keywords, or a dictionary translation searched by its own structured BM25 leg."""

    vector: np.ndarray | None
    keywords: str
    cross: CrossQuery | None = None
    weight: float = 1.0
    """Factor on the legs' fusion weights (a feedback query counts ``retrieval.feedback_weight``)."""


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
    are matched with :func:`fnmatch.fnmatchcase`. Both are compared in Unicode NFC (indexed paths are
    stored in NFC; a scope typed or pasted from macOS may be decomposed).
    """
    path = unicodedata.normalize("NFC", path)
    for glob in scope:
        g = unicodedata.normalize("NFC", glob.strip().strip("/"))
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
        translator: optional LLM rewriter that translates the question into the scoped documents'
            language (module doc); ``None``: the question is searched as asked.
        cross: optional dictionary translation (:mod:`core.clir`), used when the LLM does not
            translate: the translated terms are searched by an extra BM25 leg and read by the reranker.
        cross_vector: whether the embedding model reads the documents' language too (a multilingual
            model): else, for a dictionary-translated question, the vector leg does not vote and the
            reranker gets no question/passage cosine (``lexicon.cross_language_vector``).
    """

    def __init__(self, store: Store, embedder: Embedder, settings: RetrievalSettings,
                 reranker: Reranker | None = None, rerank: RerankSettings | None = None,
                 scoper: DocumentScoper | None = None, translator: Rewriter | None = None,
                 cross: CrossLanguage | None = None, cross_vector: bool = False) -> None:
        self.store = store
        self.cross = cross
        self.cross_vector = cross_vector
        self.translator = translator
        self.scoper = scoper
        self.embedder = embedder
        self.settings = settings
        self.reranker = reranker
        self.rerank_settings = rerank or RerankSettings()
        documents = DocumentChunks(self._document_chunks, self._document_version)
        self.references = ReferenceFollower(documents) if settings.follow_references else None
        self.continuation = ListContinuation(documents) if settings.continue_lists else None
        self._scoped: tuple[tuple[str, int, int], dict[tuple[str, ...], list[str]]] | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def close(self) -> None:
        """Stop the legs' worker threads (started on the first question); idempotent."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def _submit(self, fn: Callable[[], list[tuple[Chunk, float]]]) -> Future[list[tuple[Chunk, float]]]:
        """Run one leg's search on the retriever's pool of :data:`LEG_THREADS` threads (LanceDB searches
        release the GIL, so the vector and BM25 legs of a question overlap instead of adding up)."""
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(LEG_THREADS, thread_name_prefix="retrieval-leg")
            return self._pool.submit(contextvars.copy_context().run, fn)  # keeps the request id in logs

    def retrieve(self, question: str, scope: Sequence[str] = (ALL,),
                 top_k: int | None = None) -> RetrievalResult:
        """Top ``top_k`` (default ``retrieval.top_k``; at most ``rerank.keep`` after a reranker) chunks
        for ``question`` within ``scope``.

        Returns an empty result (never raises) when nothing is indexed or nothing is in scope.
        """
        k = top_k or self.settings.top_k
        query = expand_glossary(question, self.settings.glossary)
        timings: dict[str, float] = {"embed": 0.0, "retrieve": 0.0, "rerank": 0.0}
        worded = self.settings.diversity == "auto" and is_comparison(question)
        (where, named), keywords = self._where(question, scope, union=worded), tokenize(query)
        if where == "false" or self.store.count_chunks() == 0 or not keywords:
            return RetrievalResult([], query, timings)
        plain = question
        if self.scoper is not None and where is not None:  # confined: a document's name is noise
            names = self.scoper.name_words(question, self._allowed(scope))
            keywords, plain = self.scoper.strip(keywords, names), without_words(question, names)
        compare = self.settings.diversity == "always" or (
            self.settings.diversity == "auto" and is_comparison(question, len(named)))
        seen: dict[str, np.ndarray] = {}  # stored vectors of the BM25 legs' rows, by chunk id
        early = {} if compare and len(named) >= 2 else self._start_keyword(keywords, where, seen)
        translations = self._translations(query, scope, named)
        crossed = None if translations or self.cross is None else \
            self.cross.translate(query, named or self._allowed(scope))
        t0 = time.perf_counter()
        vectors = embed_queries(self.embedder, [query, *translations])
        t1 = time.perf_counter()
        blind = crossed is not None and not self.cross_vector  # an English-only model on German text
        variants = [Variant(None if blind else vectors[0], " ".join(keywords))]
        variants += [Variant(v, keyword_query(t)) for v, t in zip(vectors[1:], translations, strict=True)]
        variants += [Variant(None, "", crossed)] if crossed is not None else []
        fused = self._candidates(variants, where, named if compare else (), compare, seen, early)
        if self.settings.feedback_terms and crossed is None and not compare:
            fused = self._with_feedback(query, keywords, variants, fused, where, seen)
        fused = exact_match_boost(plain, fused, self.settings.exact_weight)
        t2 = time.perf_counter()
        asked = " ".join([plain, *translations, *([crossed.translation.text] if crossed else [])])
        vector = None if blind else vectors[0]
        chunks, name = self._rerank(asked, fused, k, vector, seen, named if compare else None)
        chunks = with_definition(question, fused[: max(k, self.rerank_settings.candidates)], chunks)
        if self.references is not None:
            chunks = self.references.follow(plain, chunks)
        if self.continuation is not None:
            chunks = self.continuation.follow(chunks)
        chunks = self._mark_named(question, chunks)
        t3 = time.perf_counter()
        timings.update(embed=(t1 - t0) * 1e3, retrieve=(t2 - t1) * 1e3, rerank=(t3 - t2) * 1e3)
        log.info("retrieved %d of %d candidates%s (embed %.0f ms, retrieve %.0f ms, rerank %.0f ms)",
                 len(chunks), len(fused), " (comparison)" if compare else "", timings["embed"],
                 timings["retrieve"], timings["rerank"])
        return RetrievalResult(chunks, query, timings, name, comparison=compare,
                               documents=documents_of(chunks) if compare else (), named=tuple(named),
                               translations=tuple(translations),
                               translation=crossed.translation if crossed else None)

    def _start_keyword(self, keywords: Sequence[str], where: str | None,
                       seen: dict[str, np.ndarray]) -> dict[str, Future[list[tuple[Chunk, float]]]]:
        """The first variant's BM25 leg (the question's ``keywords``), started on the leg threads before
        the question is embedded, so the embedding and the BM25 search overlap (they used to add up);
        ``{}`` when the keyword leg is off. Its rows' stored vectors go into ``seen``."""
        if "keyword" not in self.settings.legs:
            return {}
        search = partial(self.store.keyword_search, " ".join(keywords), self.settings.candidates, where,
                         vectors=seen)
        return {"keyword": self._submit(search)}

    def _with_feedback(self, query: str, keywords: Sequence[str], variants: Sequence[Variant],
                       fused: list[ScoredChunk], where: str | None,
                       seen: dict[str, np.ndarray]) -> list[ScoredChunk]:
        """``fused`` again with one more BM25 leg: the question's keywords and the pseudo-relevance
        feedback words of its first pass (:mod:`core.feedback`); ``fused`` when there are none."""
        extra = expansion_terms(query, fused[: self.settings.candidates], self.settings.feedback_docs,
                                self.settings.feedback_terms)
        if not extra:
            return fused
        log.debug("feedback words %s", extra)
        fed = Variant(None, " ".join([*keywords, *extra]), weight=self.settings.feedback_weight)
        return self._fuse([*variants, fed], where, seen=seen)

    def _mark_named(self, question: str, chunks: list[ScoredChunk]) -> list[ScoredChunk]:
        """When ``question`` names documents (:meth:`DocumentScoper.named_paths`), each chunk's
        ``scores["named_doc"]`` is 1.0 if it comes from one of them, else 0.0 (read by the answerer's
        answerability signals); unchanged when it names none."""
        named = self.scoper.named_paths(question) if self.scoper is not None else None
        if not named:
            return chunks
        return [ScoredChunk(sc.chunk, sc.score, {**sc.scores, "named_doc": float(sc.chunk.path in named)})
                for sc in chunks]

    def _document_chunks(self, path: str) -> list[Chunk]:
        """Every chunk of the document ``path``, without vectors (reference following reads its tables)."""
        base = ["chunk_id", "path", "text", "page", "page_end", "section", "ordinal", "text_hash"]
        try:
            rows = self.store.chunk_rows(where=path_filter([path]), columns=[*base, "context", "page_breaks"])
        except Exception:  # a table written before contextual chunks / page breaks (schema < 7)
            rows = self.store.chunk_rows(where=path_filter([path]), columns=base)
        return [row_chunk(r) for r in rows]

    def _document_version(self, path: str) -> str:
        """:attr:`DocumentRecord.version` of the document ``path`` (``""`` when unknown)."""
        record = self.store.documents().get(path)
        return record.version if record is not None else ""

    def _translations(self, query: str, scope: Sequence[str], named: Sequence[str]) -> list[str]:
        """The question in the scoped documents' language, when it differs from the question's and a
        translator is configured (module doc); ``[]`` otherwise."""
        if self.translator is None:
            return []
        docs = self.store.documents()
        paths = named or self._allowed(scope)
        target = translation_target(query, (docs[p].language for p in paths if p in docs))
        if not target:
            return []
        translated = self.translator.translate(query, language_name(target))
        log.info("question translated into %s: %s", target, "yes" if translated else "failed")
        return [translated] if translated and translated != query else []

    def _where(self, question: str, scope: Sequence[str],
               union: bool = False) -> tuple[str | None, list[str]]:
        """``(filter, named)``: the filter is ``None`` when the scope covers every indexed document,
        else a path filter; a question that names documents (see :class:`~core.scoping.DocumentScoper`;
        ``union`` for a comparison) narrows the scope to them, and ``named`` lists them (else ``[]``)."""
        everything = any(g.strip().strip("/") in (ALL, "*", "") for g in scope)
        if everything and self.scoper is None:
            return None, []
        allowed = self._allowed(scope)
        if self.scoper is not None:
            narrowed = self.scoper.narrow(question, scope, allowed, union)
            if list(narrowed) != list(scope):
                named = sorted(set(narrowed) & set(allowed))
                log.info("document scope: %d documents named", len(named))
                return path_filter(named), named
        return (None if everything else path_filter(allowed)), []

    def _allowed(self, scope: Sequence[str]) -> list[str]:
        """The indexed paths inside ``scope``, sorted (a fresh list). Computed once per scope and
        version of the documents table: matching every document against the scope's globs was the
        largest per-question cost after scoping's title scan at 20,000 documents (docs/benchmarks.md)."""
        version, key = self.store.documents_version(), tuple(scope)
        memo = self._scoped
        if memo is None or memo[0] != version:
            memo = self._scoped = (version, {})
        allowed = memo[1].get(key)
        if allowed is None:
            if len(memo[1]) >= MAX_SCOPES_REMEMBERED:  # any scope may come in (local API): stay bounded
                memo[1].clear()
            indexed = [p for p, rec in self.store.documents().items() if rec.status == "indexed"]
            allowed = memo[1][key] = sorted(scope_paths(indexed, scope))
        return list(allowed)

    def _candidates(self, variants: Sequence[Variant], where: str | None, named: Sequence[str],
                    compare: bool = False, seen: dict[str, np.ndarray] | None = None,
                    started: Mapping[str, Future[list[tuple[Chunk, float]]]] | None = None
                    ) -> list[ScoredChunk]:
        """Fused candidates of the query ``variants`` (vector or None, keywords); with two or more ``named``
        documents, fused per document and interleaved (:func:`core.diversity.interleave`) so that
        each one reaches the reranker; for another comparison, no document fills more than a quarter
        of the reranker's pool while others have candidates (:func:`core.diversity.capped`).
        ``started``: legs already running (:meth:`_start_keyword`), used for the whole-scope fusion."""
        if len(named) < 2:
            fused = self._fuse(variants, where, seen=seen, started=started)
            return capped(fused, self.rerank_settings.candidates) if compare else fused
        per_doc = [self._fuse(variants, path_filter([p]), p, seen) for p in named]
        return interleave(per_doc, self.settings.candidates * 2)

    def _fuse(self, variants: Sequence[Variant], where: str | None, path: str | None = None,
              seen: dict[str, np.ndarray] | None = None,
              started: Mapping[str, Future[list[tuple[Chunk, float]]]] | None = None) -> list[ScoredChunk]:
        """Each variant's legs, run concurrently (:meth:`_run_legs`), fused in the order they are listed;
        a leg named in ``started`` is that running search instead of a new one. The BM25 legs put
        their rows' stored vectors into ``seen``."""
        n = self.settings.candidates
        searches: dict[str, Leg] = {}
        weights: dict[str, float] = {}
        for i, variant in enumerate(variants):
            tag = f"_{i}" if i else ""  # the first variant's legs keep their plain names
            if "vector" in self.settings.legs and variant.vector is not None:
                searches["vector" + tag] = partial(self.store.vector_search, variant.vector, n, where)
                weights["vector" + tag] = self.settings.vector_weight * variant.weight
            if variant.cross is not None:
                searches["keyword" + tag] = partial(variant.cross.search, n, None if path is None else {path})
                weights["keyword" + tag] = self.settings.keyword_weight * variant.weight
            elif "keyword" in self.settings.legs:
                searches["keyword" + tag] = partial(self.store.keyword_search, variant.keywords, n, where,
                                                    vectors=seen)
                weights["keyword" + tag] = self.settings.keyword_weight * variant.weight
        searches.update((name, leg) for name, leg in (started or {}).items() if name in searches)
        legs = self._run_legs(searches)
        if self.settings.fusion == "convex":
            return convex_fusion(legs, weights)
        return reciprocal_rank_fusion(legs, weights, self.settings.rrf_k)

    def _run_legs(self, searches: Mapping[str, Leg]) -> dict[str, list[tuple[Chunk, float]]]:
        """Each search's results, in the order given. Searches already running (futures) are waited
        for; of the others, all but the last run on the retriever's threads and the last on the
        calling thread, so a question always progresses on its own thread even while other
        questions' searches hold the pool."""
        names = list(searches)
        calls = [name for name in names if not isinstance(searches[name], Future)]
        pending = {name: leg if isinstance(leg, Future) else self._submit(leg)
                   for name, leg in searches.items() if name not in calls[-1:]}
        last = {name: cast(Callable[[], list[tuple[Chunk, float]]], searches[name])() for name in calls[-1:]}
        return {name: last[name] if name in last else pending[name].result() for name in names}

    def _rerank(self, question: str, fused: list[ScoredChunk], k: int, vector: np.ndarray | None,
                seen: Mapping[str, np.ndarray], named: Sequence[str] | None = None
                ) -> tuple[list[ScoredChunk], str]:
        """The best ``k`` (at most ``rerank.keep`` after a reranker); with ``named`` not None (a
        comparison), the whole pool is scored and the kept chunks spread over documents."""
        spread = named is not None
        if self.reranker is None or not fused:
            ranked = fused if spread else fused[:k]
            return (self._spread(ranked, k, named) if spread else ranked), ""
        pool = self._with_cosines(fused[: max(k, self.rerank_settings.candidates)], vector, seen)
        keep = min(k, self.rerank_settings.keep)
        ranked = self.reranker.rerank(question, pool, keep=len(pool) if spread else keep)
        return (self._spread(ranked, keep, named) if spread else ranked), self.reranker.name

    def _spread(self, ranked: list[ScoredChunk], k: int, named: Sequence[str] | None) -> list[ScoredChunk]:
        return diversify(ranked, k, set(named or ()), self.settings.diversity_min_relative)

    def _with_cosines(self, pool: list[ScoredChunk], vector: np.ndarray | None,
                      seen: Mapping[str, np.ndarray]) -> list[ScoredChunk]:
        """``pool`` with ``scores["vector"]`` (question/chunk cosine) on every candidate: candidates
        only the BM25 leg found get it from their stored embeddings (``seen``: what the BM25 legs read
        with their rows; else one filtered read, no model call), marked ``scores["vector_filled"] = 1``
        (the vector leg did not find them: leg agreement). ``vector`` None (the model cannot read the
        documents' language): 0.0 on every candidate."""
        if vector is None:
            return [ScoredChunk(sc.chunk, sc.score, {**sc.scores, "vector": 0.0}) for sc in pool]
        missing = [sc.chunk.chunk_id for sc in pool if "vector" not in sc.scores]
        if not missing:
            return pool
        stored = {cid: seen[cid] for cid in missing if cid in seen}
        unread = [cid for cid in missing if cid not in stored]
        if unread:
            rows = self.store.chunk_rows(where=in_filter("chunk_id", unread), columns=["chunk_id", "vector"])
            stored.update((r["chunk_id"], r["vector"]) for r in rows)
        q = np.asarray(vector, dtype=np.float32)
        q = q / (float(np.linalg.norm(q)) or 1.0)
        cos = {cid: float(np.asarray(v, dtype=np.float32) @ q) for cid, v in stored.items()}
        return [sc if sc.chunk.chunk_id not in cos else
                ScoredChunk(sc.chunk, sc.score,
                            {**sc.scores, "vector": cos[sc.chunk.chunk_id], "vector_filled": 1.0})
                for sc in pool]
