"""The composition root: builds every collaborator ONCE from settings and hands them out.

Heavy things load lazily: the embedding model (sentence-transformers, ~5 s import) loads on the first
question or the first file to embed, the reranker and the LLM chain on the first question, so
``policybot --help`` and ``policybot status`` stay fast.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from core.answer.extractive import ExtractiveAnswerer
from core.answer_log import AnswerLog
from core.answering import PolicyAnswerService
from core.blobs import BlobStore, check_conditional_writes, make_blob_store
from core.config import EmbeddingSettings, Secrets, Settings
from core.cpu_share import CpuShare
from core.database import Database
from core.embedder import Embedder, RecentTexts, embed_queries, make_embedder
from core.errors import StoreError
from core.fingerprint import embedding_fingerprint, embedding_key
from core.lease import Lease
from core.llm.base import AnswerProvider
from core.rerank.base import Reranker
from core.retrieval import HybridRetriever
from core.scoping import DocumentScoper
from core.store import Store
from core.store_location import StoreLocation, ensure_runtime_dir

if TYPE_CHECKING:
    from core.answer.unit_vectors import UnitVectors
    from core.cache import AnswerCache
    from core.clir.search import CrossLanguage
    from core.metrics import Metrics
    from core.service import AnswerService
    from indexer.lock import IndexerRole
    from indexer.pipeline import Indexer

log = logging.getLogger(__name__)


class LazyEmbedder:
    """An :class:`~core.embedder.Embedder` that builds the real one on first use (then keeps it)."""

    def __init__(self, settings: EmbeddingSettings, share: CpuShare | None = None) -> None:
        self._settings = settings
        self._share = share
        self._real: Embedder | None = None
        self._lock = threading.Lock()
        self._recent = RecentTexts()  # a question is embedded by retrieval, then by the answerer
        self.model_id = settings.model

    def load(self) -> Embedder:
        """The real embedder (built once, on the first call from any thread). Raises ModelLoadError."""
        if self._real is None:
            with self._lock:
                if self._real is None:
                    self._real = make_embedder(self._settings, self._share)
        return self._real

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory."""
        return self._real is not None

    @property
    def dimension(self) -> int:
        """Vector length (loads the model)."""
        return self.load().dimension

    @dimension.setter
    def dimension(self, value: int) -> None:
        raise AttributeError("dimension is the model's")

    @property
    def max_tokens(self) -> int:
        """Model's token limit (loads the model)."""
        return self.load().max_tokens

    @max_tokens.setter
    def max_tokens(self, value: int) -> None:
        raise AttributeError("max_tokens is the model's")

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` in the model's tokenizer (loads the model)."""
        return self.load().count_tokens(text)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed passages (loads the model); shape (n, dimension). A text embedded alone recently
        under the same prompt is not embedded again (:class:`~core.embedder.RecentTexts`)."""
        return self._recent.embed(self._settings.passage_prompt, texts, lambda t: self.load().embed(t))

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        """Embed questions with the query prompt (loads the model); shape (n, dimension); recent
        single texts as :meth:`embed`."""
        return self._recent.embed(self._settings.query_prompt, texts, lambda t: embed_queries(self.load(), t))


class App:
    """Everything policybot runs on, built once per process from ``settings``.

    Attributes are built on first access (``cached_property``) and then shared: the Store, the
    embedder, the reranker, the answer provider and the answer service.
    """

    def __init__(self, settings: Settings, secrets: Secrets | None = None) -> None:
        self.settings = settings
        self.secrets = secrets or Secrets.from_env()
        self.cpu_share = CpuShare()  # extraction beside the embedder: see core.cpu_share
        self.embedder = LazyEmbedder(settings.embedding, self.cpu_share)
        self.models_ready = threading.Event()
        """Set when :meth:`warm_up` has loaded the models (``/readyz``)."""
        self.slack_auth_ok: bool | None = None
        """Whether Slack accepted the bot token (``auth.test``); None before the check (``/readyz``)."""
        self.role: IndexerRole | None = None
        """The serving process's indexer role (``policybot run``; ``/livez``, ``/metrics``)."""

    @cached_property
    def metrics(self) -> Metrics:
        """This process's Prometheus metrics (:mod:`core.metrics`, state sources from
        :mod:`policybot.observability`)."""
        from policybot.observability import build_metrics

        return build_metrics(self)

    @cached_property
    def location(self) -> StoreLocation:
        """Where the shared store lives: ``data_dir`` parsed (a folder, or ``s3://``/``gs://``/``az://``)."""
        return StoreLocation.parse(self.settings.data_dir)

    @cached_property
    def runtime_dir(self) -> Path:
        """This machine's folder for this process's runtime files (warm-``ask`` socket, ``serve.json``):
        the data dir when it is a folder, else a private folder keyed by the URI (created here)."""
        return ensure_runtime_dir(self.location)

    @cached_property
    def blobs(self) -> BlobStore:
        """Small shared objects with conditional writes (claims, leases, pointers) under
        ``<data_dir>/blobs``: a folder, or the bucket prefix. Built after the start-up self-test
        (:func:`core.blobs.check_conditional_writes`): a store that ignores conditional writes, or
        that cannot be reached, raises StoreError before anything is written."""
        blobs = make_blob_store(self.location)
        check_conditional_writes(blobs, self.location.uri)
        return blobs

    @cached_property
    def database(self) -> Database:
        """The data dir's one LanceDB connection owner (tables, migrations), with the configured read
        consistency (``store.read_consistency_s``)."""
        _ = self.blobs  # the self-test runs before LanceDB touches the store
        return Database(self.location, self.settings.store.read_consistency_s)

    @cached_property
    def answer_log(self) -> AnswerLog:
        """The answer log and votes (tables in the store's database); votes take the shared store's
        per-answer lock, so replicas never lose one (:meth:`AnswerLog.set_vote`)."""
        from core.claims import KeyLocks

        return AnswerLog(self.database, KeyLocks(self.blobs, "locks", owner=f"{os.getpid()}"))

    @cached_property
    def store(self) -> Store:
        """The index tables (documents, chunks) and the generation pointer in ``data_dir``."""
        return Store(self.database, self.settings.keyword, self.settings.index, blobs=self.blobs)

    @cached_property
    def lease(self) -> Lease:
        """This process's handle on the ``indexer`` leader lease (``store.lease_ttl_s``); a dead holder
        on this machine is taken over at once on a local data dir (:mod:`indexer.lock`)."""
        return Lease(self.blobs, "indexer", self.settings.store.lease_ttl_s,
                     local_takeover=self.location.is_local)

    def embedder_factory(self) -> Embedder:
        """The loaded embedder (what the indexer calls when it first needs vectors)."""
        return self.embedder.load()

    @cached_property
    def indexer(self) -> Indexer:
        """The indexer; extraction runs in its isolated worker process (time and memory limits)."""
        from indexer.pipeline import Indexer

        indexer = Indexer(self.settings, self.store, self.embedder_factory, isolate=True,
                          share=self.cpu_share)
        indexer.subscribe_invalidated(self.invalidate_cached_answers)
        indexer.subscribe_reconciled(lambda summary: self.metrics.reconciled(summary.seconds))
        return indexer

    def warm_up(self) -> threading.Thread:
        """Build the answer service, load the embedding model and prewarm the store's indexes
        (:meth:`core.store.Store.prewarm`) on a background thread, so the first question to a serving
        process (Slack, or ``policybot ask`` over the local socket) is answered warm. Errors are
        logged: the first question reports them."""
        def load() -> None:
            try:
                _ = self.answers
                self.embedder.load()
                log.info("indexes prewarmed: %s", ", ".join(self.store.prewarm()) or "none")
                self.models_ready.set()
                log.info("answer service ready (models loaded)")
            except Exception as exc:  # noqa: BLE001 - the first question raises it again, visibly
                log.info("warm-up failed (%s); the first question will load the models", exc)

        thread = threading.Thread(target=load, name="policybot-warm-up", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        """Stop the indexer's extraction worker process and the retriever's leg threads, if built."""
        if "indexer" in self.__dict__:
            self.indexer.close()
        if "service" in self.__dict__:
            self.service.retriever.close()
        if "answer_cache" in self.__dict__:
            self.answer_cache.flush()

    @cached_property
    def reranker(self) -> Reranker | None:
        """The reranker from ``rerank`` settings (None when disabled; the offline reranker when the
        cross-encoder cannot be loaded)."""
        if not self.settings.rerank.enabled:
            return None
        from core.rerank import make_reranker

        return make_reranker(self.settings.rerank, embedder=self.embedder)

    @cached_property
    def extractive(self) -> ExtractiveAnswerer:
        """The extractive answerer: the provider without LLMs, the chain's last link, and the assessor
        of answerability for LLM answers."""
        cross = self.cross_language
        return ExtractiveAnswerer(self.settings.answer, self.embedder, self.settings.retrieval.glossary,
                                  self.unit_vectors, cross.translator if cross is not None else None)

    @cached_property
    def unit_vectors(self) -> UnitVectors:
        """The answerer's stored unit vectors (:mod:`core.answer.unit_vectors`) in :attr:`database`,
        keyed by this embedder (the key is computed on first use: it loads the model)."""
        from core.answer.unit_vectors import UnitVectors

        fingerprint = embedding_fingerprint(self.settings)
        return UnitVectors(self.database, lambda: embedding_key(fingerprint, self.embedder))

    @cached_property
    def provider(self) -> AnswerProvider:
        """The answer provider: the LLM chain when ``llm.providers`` is set, else the extractive one."""
        if not self.settings.llm.providers:
            return self.extractive
        from core.llm.chain import make_chain

        chain: AnswerProvider = make_chain(self.settings, self.secrets, fallback=self.extractive)
        if hasattr(chain, "observer"):  # the FallbackChain tells the metrics about calls and failures
            chain.observer = self.metrics
        return chain

    def check_index_compatible(self) -> None:
        """Raise :class:`StoreError` when the live index's vectors were made under another embedding
        model/config than the current one (compares fingerprints; never loads the model)."""
        built = self.store.state().embedding_fingerprint
        want = embedding_fingerprint(self.settings)
        if built and built != want:
            raise StoreError(f"the index was built with another embedding model/config (fingerprint "
                             f"{built[:12]}, the config's is {want[:12]}); run policybot index")

    @cached_property
    def service(self) -> PolicyAnswerService:
        """The answer service (retriever + reranker + provider). Raises StoreError when the index
        was built under another embedding model/config (:meth:`check_index_compatible`)."""
        self.check_index_compatible()
        scoper = DocumentScoper(self.store) if self.settings.retrieval.document_scope else None
        rewriter = None
        if self.settings.llm.providers:  # the chain's LLMs rewrite follow-ups and translate questions
            from core.query.rewriter import ProviderRewriter

            rewriter = ProviderRewriter(self.provider)
        retriever = HybridRetriever(self.store, self.embedder, self.settings.retrieval,
                                    reranker=self.reranker, rerank=self.settings.rerank, scoper=scoper,
                                    translator=rewriter, cross=self.cross_language,
                                    cross_vector=self.settings.lexicon.cross_language_vector)
        return PolicyAnswerService(retriever, self.provider, rewriter=rewriter,
                                   condense_follow_ups=self.settings.answer.condense,
                                   assessor=self.extractive if self.settings.llm.providers else None)

    @cached_property
    def answers(self) -> AnswerService:
        """What the CLI and the console chat ask: :attr:`service` with the notices of
        :mod:`core.notices` (empty index or scope, over-long question, language, stale sources)."""
        from core.metered import MeteredAnswerService
        from core.notices import NoticedAnswerService

        return MeteredAnswerService(NoticedAnswerService(self.service, self.store, self.settings),
                                    self.metrics, "cli")

    @cached_property
    def answers_cached(self) -> AnswerService:
        """What Slack asks: :attr:`cached_service` with the same notices (outside the cache, so a cached
        answer is marked stale as soon as its source fails to re-index)."""
        from core.metered import MeteredAnswerService
        from core.notices import NoticedAnswerService

        return MeteredAnswerService(NoticedAnswerService(self.cached_service, self.store, self.settings),
                                    self.metrics, "slack")

    @cached_property
    def cross_language(self) -> CrossLanguage | None:
        """Dictionary translation of questions for documents in another language (``lexicon``), or
        ``None`` when it is off or no dictionary is installed (logged once)."""
        lexicon = self.settings.lexicon
        if not lexicon.cross_language:
            return None
        from core.clir.search import make_cross_language

        return make_cross_language(self.store, lexicon.dictionaries_dir, lexicon.translation_terms)

    # ---- verified-answer cache (core/cache) -------------------------------------------------
    @cached_property
    def answer_cache(self) -> AnswerCache:
        """The verified-answer cache of the serving process (loads the embedding model: it embeds)."""
        from core.cache import make_answer_cache
        from core.fingerprint import config_fingerprint

        return make_answer_cache(self.store, self.embedder, self.settings, config_fingerprint(self.settings))

    @cached_property
    def cached_service(self) -> AnswerService:
        """:attr:`service` behind the verified-answer cache (just :attr:`service` when it is disabled)."""
        if not self.settings.cache.enabled:
            return self.service
        from core.cache.service import CachedAnswerService

        return CachedAnswerService(self.service, self.answer_cache)

    def invalidate_cached_answers(self, paths: list[str]) -> None:
        """The indexer's invalidated-sources subscriber: drop cached answers citing ``paths`` (in any
        process, without loading the model; a no-op before the first vote created the cache table)."""
        cache = self.admin_cache()
        if cache is not None:
            dropped = cache.invalidate_sources(paths)
            log.info("%d changed sources invalidated %d cached answers", len(paths), len(dropped))

    def admin_cache(self) -> AnswerCache | None:
        """The cache for admin commands that never embed (stats, forget): opened with the stored table's
        vector size, so the model is not loaded; None when no cache table exists yet."""
        if "answer_cache" in self.__dict__:
            return self.answer_cache
        from core.cache import make_answer_cache
        from core.cache.factory import stored_dimension
        from core.fingerprint import config_fingerprint

        dim = stored_dimension(self.store)
        if dim is None:
            return None
        return make_answer_cache(self.store, self.embedder, self.settings, config_fingerprint(self.settings),
                                 dimension=dim)
