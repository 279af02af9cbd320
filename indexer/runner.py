"""Run per-file jobs: extract the next files (on a helper thread that waits on the extraction worker)
while file N is chunked, embedded through the embedding cache and written (one commit per table).
The pipeline's throughput then approaches the embedder's instead of extraction + embedding."""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from core.embedder import Embedder
from core.store import Store
from indexer.chunker import Chunker
from indexer.embed_cache import EmbeddingCache
from indexer.jobs import Extracted, ExtractFn, Job, base_record, extract_job, no_text_reason, record_failure
from indexer.summary import IndexSummary

log = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]
"""progress(relative path, files done, files total); called before each file is chunked and embedded."""
LOOKAHEAD = 4
"""Files queued for extraction ahead of the one being embedded. With one file of lookahead the worker
sat idle while small files embedded and the embedder then waited for the next big PDF (bench/indexing.py
(a)); extracted documents are small (text), so a few in memory cost little."""


class FileRunner:
    """Extract → chunk → embed → write for a list of :class:`~indexer.jobs.Job` s.

    Args:
        extract: ``extract(path, root)`` (e.g. the isolated worker's).
        fingerprint: the config fingerprint written into each documents row.
        chunker, embedder, key: lazily built chunker, embedder and embedding-cache key.
        cache: the chunk-level embedding cache.
    """

    def __init__(self, extract: ExtractFn, fingerprint: str, chunker: Callable[[], Chunker],
                 embedder: Callable[[], Embedder], key: Callable[[], str], cache: EmbeddingCache) -> None:
        self._extract = extract
        self.fingerprint = fingerprint
        self._chunker, self._embedder, self._key, self._cache = chunker, embedder, key, cache

    def run(self, target: Store, jobs: list[Job], root: Path, summary: IndexSummary,
            progress: Progress | None = None, total: int | None = None) -> None:
        """Index ``jobs`` into ``target`` (counted in ``summary``): jobs i+1 … i+:data:`LOOKAHEAD` are
        extracted, one after another, on a helper thread while job i is chunked, embedded and written
        on this one. ``total`` (default: the number of jobs) is what ``progress`` reports as the file
        count; ``progress`` is called on this thread when a file's turn comes (a file deleted by then is
        treated as vanished, even if it was already extracted)."""
        total = len(jobs) if total is None else total
        done = total - len(jobs)
        pool = ThreadPoolExecutor(1, thread_name_prefix="policybot-extract")
        pending = deque(pool.submit(extract_job, job, root, self._extract) for job in jobs[:LOOKAHEAD])
        try:
            for i, job in enumerate(jobs):
                if progress is not None:
                    progress(job.rel, done + i, total)
                result = pending.popleft().result()
                if i + LOOKAHEAD < len(jobs):
                    pending.append(pool.submit(extract_job, jobs[i + LOOKAHEAD], root, self._extract))
                if result is not None and not job.path.is_file():
                    result = None  # deleted while it waited its turn
                self._finish(target, job, result, summary)
        finally:  # on an error, files not yet started are not extracted
            pool.shutdown(wait=True, cancel_futures=True)
        if progress is not None:
            progress("", total, total)

    def _finish(self, target: Store, job: Job, result: Extracted, summary: IndexSummary) -> None:
        t0 = time.perf_counter()
        base = base_record(job, self.fingerprint, time.time())
        if result is None:  # vanished while queued
            if job.rec is not None:
                target.delete_document(job.rel)
                summary.removed += 1
                summary.invalidated.append(job.rel)
            return
        if isinstance(result, str):
            record_failure(target, job, base, result, summary)
            return
        base = replace(base, needs_ocr_pages=tuple(result.needs_ocr_pages))
        empty = no_text_reason(result)
        if empty is not None:
            record_failure(target, job, base, empty, summary)
            return
        try:
            chunks = self._chunker().chunk(result)
        except Exception as exc:  # a chunker bug on one file never stops the others
            log.exception("chunking %s failed", job.rel)
            record_failure(target, job, base, f"{type(exc).__name__}: {exc}".splitlines()[0][:300], summary)
            return
        emb = self._cache.embed(chunks, self._embedder(), self._key())
        target.replace_chunks(job.rel, chunks, emb.vectors)
        target.put_document(replace(base, status="indexed", chunk_count=len(chunks), pages=result.pages))
        summary.indexed += 1
        summary.pages += result.pages
        summary.chunks_embedded += emb.embedded
        summary.chunks_reused += emb.reused
        if job.rec is not None:
            summary.invalidated.append(job.rel)
        log.info("indexed %s pages=%d chunks=%d embedded=%d in %.2fs", job.rel, result.pages, len(chunks),
                 emb.embedded, time.perf_counter() - t0)
