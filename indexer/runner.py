"""Run per-file jobs: extract file N+1 (on a helper thread that waits on the extraction worker)
while file N is chunked, embedded through the embedding cache and written (one commit per table).
The pipeline's throughput then approaches the embedder's instead of extraction + embedding."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
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
"""progress(relative path, files done, files total); called before each file is extracted."""


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
        """Index ``jobs`` into ``target`` (counted in ``summary``): job i+1 is extracted on a helper
        thread while job i is chunked, embedded and written on this one. ``total`` (default: the
        number of jobs) is what ``progress`` reports as the file count."""
        total = len(jobs) if total is None else total
        done = total - len(jobs)
        with ThreadPoolExecutor(1, thread_name_prefix="policybot-extract") as pool:
            nxt: Future[Extracted] | None = self._submit(pool, jobs, 0, root, progress, done, total)
            for i, job in enumerate(jobs):
                assert nxt is not None
                result = nxt.result()
                nxt = self._submit(pool, jobs, i + 1, root, progress, done + i + 1, total)
                self._finish(target, job, result, summary)
        if progress is not None:
            progress("", total, total)

    def _submit(self, pool: ThreadPoolExecutor, jobs: list[Job], i: int, root: Path,
                progress: Progress | None, done: int, total: int) -> Future[Extracted] | None:
        if i >= len(jobs):
            return None
        if progress is not None:
            progress(jobs[i].rel, done, total)
        return pool.submit(extract_job, jobs[i], root, self._extract)

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
