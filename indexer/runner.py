"""Run per-file jobs: extract the next files (on a helper thread that waits on the extraction worker)
while file N is chunked and embedded through the embedding cache, and write file N-1's rows (one
commit per table, on a writer thread) meanwhile. The pipeline's throughput then approaches the
embedder's instead of extraction + embedding + writing."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

from core.embedder import Embedder
from core.errors import IndexingStopped, PolicybotError
from core.language import document_language
from core.store import Store
from core.types import Chunk
from indexer.chunker import Chunker
from indexer.context import document_title
from indexer.embed_cache import Embedded, EmbeddingCache
from indexer.jobs import (
    Extracted,
    ExtractFn,
    Job,
    base_record,
    extract_job,
    no_text_reason,
    record_failure,
    report_json,
)
from indexer.summary import IndexSummary

log = logging.getLogger(__name__)

Write = Callable[[], None]
"""The store writes (and summary counts) of one file, run on the writer thread."""
Progress = Callable[[str, int, int], None]
"""progress(relative path, files done, files total); called before each file is chunked and embedded.
A progress object that also has a ``pages(path, page, pages)`` method is told, while a file's chunks
are embedded, the last page embedded so far of the file's ``pages`` (so a long PDF moves the bar)."""
EMBED_SLICE = 64
"""Chunks embedded per call when progress is shown (the bar moves and a stop request is seen between
slices; the embedding cache and the model batch inside each slice as before)."""
LOOKAHEAD = 8
"""Files queued for extraction ahead of the one being embedded. With one file of lookahead the worker
sat idle while small files embedded and the embedder then waited for the next big PDF; with four, a
few broken files (which fail in milliseconds) after a 400-page PDF left the worker idle during its
30 s of embedding and the embedder waiting for the next OCR file after it (bench/indexing.py (a)).
Extracted documents are text (a few MB at most), so a few in memory cost little."""


class FileRunner:
    """Extract → chunk → embed → write for a list of :class:`~indexer.jobs.Job` s.

    Args:
        extract: ``extract(path, root)`` (e.g. the isolated worker's).
        fingerprint: the config fingerprint written into each documents row.
        chunker, embedder, key: lazily built chunker, embedder and embedding-cache key.
        cache: the chunk-level embedding cache.
    """

    def __init__(self, extract: ExtractFn, fingerprint: str, chunker: Callable[[], Chunker],
                 embedder: Callable[[], Embedder], key: Callable[[], str], cache: EmbeddingCache, *,
                 stop: threading.Event | None = None, abort: Callable[[], None] | None = None) -> None:
        self._extract = extract
        self.fingerprint = fingerprint
        self._chunker, self._embedder, self._key, self._cache = chunker, embedder, key, cache
        self._stop = stop or threading.Event()
        self._abort = abort

    def run(self, target: Store, jobs: list[Job], root: Path, summary: IndexSummary,
            progress: Progress | None = None, total: int | None = None) -> None:
        """Index ``jobs`` into ``target`` (counted in ``summary``): jobs i+1 … i+:data:`LOOKAHEAD` are
        extracted, one after another, on a helper thread while job i is chunked and embedded on this
        one and job i-1's rows are written on a writer thread (writes stay in job order, one
        file at a time; an error in a write is raised here before the next file's write, and ``run``
        returns only when every write is done). ``total`` (default: the number of jobs) is what
        ``progress`` reports as the file count; ``progress`` is called on this thread when a file's
        turn comes (a file deleted by then is treated as vanished, even if it was already extracted)."""
        total = len(jobs) if total is None else total
        done = total - len(jobs)
        pool = ThreadPoolExecutor(1, thread_name_prefix="policybot-extract")
        writer = ThreadPoolExecutor(1, thread_name_prefix="policybot-write")
        pending = deque(pool.submit(extract_job, job, root, self._extract) for job in jobs[:LOOKAHEAD])
        written: Future[None] | None = None
        try:
            if jobs:
                self._warm_up()
            for i, job in enumerate(jobs):
                self._check_stop()
                if progress is not None:
                    progress(job.rel, done + i, total)
                t0 = time.perf_counter()
                result = pending.popleft().result()
                waited = time.perf_counter() - t0
                if i + LOOKAHEAD < len(jobs):
                    pending.append(pool.submit(extract_job, jobs[i + LOOKAHEAD], root, self._extract))
                if result is not None and not job.path.is_file():
                    result = None  # deleted while it waited its turn
                write = self._prepare(target, job, result, summary, waited, progress)
                if written is not None:
                    written.result()
                written = writer.submit(write)
            if written is not None:
                written.result()
        except BaseException:  # Ctrl-C, SIGTERM, a store error: stop the extraction under way at once
            if self._abort is not None:
                self._abort()
            raise
        finally:  # on an error, files not yet started are not extracted; a write under way completes
            pool.shutdown(wait=True, cancel_futures=True)
            writer.shutdown(wait=True)
        if progress is not None:
            progress("", total, total)

    def _warm_up(self) -> None:
        """Build the chunker and the embedder (loading the model, ~5 s on a cold start) while the
        first files are extracted, instead of after the first one. A model that fails to load is
        left for the first file that needs it to report (its error is the reconcile's)."""
        try:
            self._chunker()
            self._key()
        except Exception as exc:
            log.debug("embedder warm-up failed (%s); retried when the first file needs it", exc)

    def _check_stop(self) -> None:
        if self._stop.is_set():
            raise IndexingStopped("indexing stopped: the process is shutting down")

    def _prepare(self, target: Store, job: Job, result: Extracted, summary: IndexSummary,
                 waited: float, progress: Progress | None = None) -> Write:
        """Chunk and embed ``result`` (on this thread); returns the file's writes: its chunks and
        documents row, its failure row, or the removal of a vanished file's rows. ``waited``: seconds
        this thread waited for the extraction (logged)."""
        t0 = time.perf_counter()
        base = base_record(job, self.fingerprint, time.time())
        if result is None:  # vanished while queued
            return lambda: self._remove(target, job, summary)
        if isinstance(result, str):
            return lambda: record_failure(target, job, base, result, summary)
        base = replace(base, needs_ocr_pages=tuple(result.needs_ocr_pages),
                       language=document_language(b.text for b in result.blocks),
                       extraction_report=report_json(result), title=document_title(result))
        empty = no_text_reason(result)
        if empty is not None:
            return lambda: record_failure(target, job, base, empty, summary)
        try:
            chunks = self._chunker().chunk(result)
        except PolicybotError:  # the model or the tokenizer (ModelLoadError, ConfigError), not the file
            raise
        except Exception as exc:  # a chunker bug on one file never stops the others
            log.exception("chunking %s failed", job.rel)
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            return lambda: record_failure(target, job, base, reason, summary)
        t1 = time.perf_counter()
        emb = self._embed(job.rel, chunks, result.pages, progress)
        t2 = time.perf_counter()

        def write() -> None:
            w0 = time.perf_counter()
            target.replace_chunks(job.rel, chunks, emb.vectors)
            target.put_document(replace(base, status="indexed", chunk_count=len(chunks), pages=result.pages,
                                        extraction_report=report_json(result, chunks)))
            summary.indexed += 1
            summary.pages += result.pages
            summary.chunks_embedded += emb.embedded
            summary.chunks_reused += emb.reused
            if job.rec is not None:
                summary.invalidated.append(job.rel)
            log.info("indexed %s pages=%d chunks=%d embedded=%d in %.2fs (waited for extraction "
                     "%.2fs, chunking %.2fs, embedding %.2fs, writing %.2fs)", job.rel, result.pages,
                     len(chunks), emb.embedded, time.perf_counter() - t0, waited, t1 - t0, t2 - t1,
                     time.perf_counter() - w0)
        return write

    def _embed(self, rel: str, chunks: list[Chunk], pages: int, progress: Progress | None) -> Embedded:
        """Embed ``chunks`` through the cache: in one call, or (when ``progress`` takes pages) in slices
        of :data:`EMBED_SLICE`, reporting the last page embedded and honouring a stop request."""
        pages_cb = getattr(progress, "pages", None)
        if pages_cb is None or len(chunks) <= EMBED_SLICE:
            return self._cache.embed(chunks, self._embedder(), self._key())
        parts = []
        for start in range(0, len(chunks), EMBED_SLICE):
            self._check_stop()
            piece = chunks[start:start + EMBED_SLICE]
            parts.append(self._cache.embed(piece, self._embedder(), self._key()))
            last = piece[-1]
            pages_cb(rel, last.page_end or last.page or 0, pages)
        return Embedded(np.concatenate([e.vectors for e in parts]), sum(e.embedded for e in parts),
                        sum(e.reused for e in parts))

    @staticmethod
    def _remove(target: Store, job: Job, summary: IndexSummary) -> None:
        if job.rec is not None:
            target.delete_document(job.rel)
            summary.removed += 1
            summary.invalidated.append(job.rel)
