"""Indexing pipeline: keep the index in step with the policy folder.

scan → repair drift (:mod:`indexer.repair`) → moves (:mod:`indexer.moves`) → removals → change
detection (:mod:`indexer.jobs`) → extract file N+1 in the worker while file N is chunked, embedded
(through the embedding cache, :mod:`indexer.embed_cache`) and written in one commit per table.

A config fingerprint change writes into a shadow generation that is swapped in at the end
(:mod:`indexer.shadow`); queries keep reading the live one meanwhile. Subscribers of
:meth:`Indexer.subscribe_invalidated` hear which paths changed, moved or disappeared. The embedder is
built only when a chunk must be embedded, so a no-op reconcile never loads the model.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Literal

from core.config import ExtractionSettings, Settings
from core.cpu_share import CpuShare
from core.embedder import Embedder
from core.errors import IndexingStopped, ReconcileAbortedError
from core.fingerprint import config_fingerprint, embedding_fingerprint
from core.store import DocumentRecord, Store
from core.types import ExtractedDocument
from indexer import shadow
from indexer.chunker import Chunker
from indexer.embed_cache import EmbeddingCache, embedding_key
from indexer.extract import extract_file, relative_posix
from indexer.file_size import is_size_failure, oversize_reason
from indexer.jobs import (
    ExtractFn,
    Job,
    classify,
    log_failures,
    record_skipped,
    sha256_file,
)
from indexer.moves import Listings, Move, find_moves, moved_chunks, prefix_moves
from indexer.names import disk_path, is_bad_name, safe_name
from indexer.patterns import is_indexable
from indexer.removal_guard import check_removals
from indexer.repair import repair_drift
from indexer.runner import FileRunner, Progress
from indexer.safety import Checkpoint, abort_environmental, check_root, check_swap
from indexer.snapshot import write_snapshot
from indexer.summary import IndexSummary
from indexer.walk import not_regular_reason, scan, symlink_problem, unscanned
from indexer.worker import ExtractionWorker, should_retry

log = logging.getLogger(__name__)

__all__ = ["Indexer", "IndexSummary", "Outcome", "scan", "sha256_file"]

Outcome = Literal["indexed", "unchanged", "failed", "removed", "ignored", "moved"]
SNAPSHOT_EVERY_S = 2.0
"""Single-file operations (the watcher's) rewrite the status snapshot at most this often; a reconcile
always does, and the watcher flushes it when idle (:meth:`Indexer.flush_snapshot`)."""
Invalidated = Callable[[list[str]], None]


class Indexer:
    """Keeps the store in step with a policy folder. One writer: calls are serialised by a lock.

    Args:
        settings: policies (root, include/ignore), extraction, chunking (fingerprint inputs).
        store: the LanceDB store (following the live generation).
        embedder_factory: builds the embedder; called at most once, on first need.
        extract: ``extract(path, root)``; default :func:`indexer.extract.extract_file`, in-process
            unless ``isolate``.
        isolate: extract in an :class:`~indexer.worker.ExtractionWorker` owned by this Indexer (one
            spawned process, started on the first file, reused across files, killed and replaced on
            its time or memory limit); call :meth:`close` to stop it. The composition root sets it.
        share: marked busy while a file is extracted, so an embedder built with the same
            :class:`~core.cpu_share.CpuShare` leaves the extraction a core (the composition root
            passes one to both).
    """

    def __init__(self, settings: Settings, store: Store, embedder_factory: Callable[[], Embedder],
                 extract: ExtractFn | None = None, *, isolate: bool = False,
                 share: CpuShare | None = None) -> None:
        self.settings = settings
        self.store = store
        self.root = settings.policies.root
        self.fingerprint = config_fingerprint(settings)
        self._embedding_settings_fp = embedding_fingerprint(settings)
        self._embedder_factory = embedder_factory
        self._retry = partial(_retry, extraction=settings.extraction)
        self._oversize = partial(oversize_reason, index=settings.index)
        self._worker: ExtractionWorker | None = None
        if extract is None and isolate:
            self._worker = ExtractionWorker(extract_file, settings)
            extract = self._worker.extract
        extract = extract or (lambda path, root: extract_file(path, root, settings))
        self._stop = threading.Event()
        self._runner = FileRunner(extract if share is None else _marking(extract, share),
                                  self.fingerprint, self.chunker, self.embedder, self.embedding_key,
                                  EmbeddingCache(store.db), stop=self._stop, abort=self._abort_extraction)
        self._embedder: Embedder | None = None
        self._chunker: Chunker | None = None
        self._subscribers: list[Invalidated] = []
        self._reconciled: list[Callable[[IndexSummary], None]] = []
        self._lock = threading.RLock()
        self._snapshot_dirty = False
        self._snapshot_at = 0.0

    # ---- public API ---------------------------------------------------------------------
    def close(self) -> None:
        """Stop the extraction worker process, if this Indexer owns one (it restarts on next use)."""
        if self._worker is not None:
            self._worker.close()

    def request_stop(self) -> None:
        """Stop at the next file boundary (Ctrl-C / SIGTERM): the running operation raises
        :class:`~core.errors.IndexingStopped` after the write under way, the extraction worker is
        killed, and every later call raises at once. Called from any thread or a signal handler."""
        self._stop.set()
        self._abort_extraction()

    @property
    def stopping(self) -> bool:
        """Whether :meth:`request_stop` was called (maintenance jobs end early too)."""
        return self._stop.is_set()

    def _abort_extraction(self) -> None:
        if self._worker is not None:
            self._worker.abort()

    def __enter__(self) -> Indexer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def subscribe_invalidated(self, callback: Invalidated) -> None:
        """Call ``callback(relative paths)`` after each operation that changed, moved or removed
        files (e.g. the verified-answer cache drops answers citing them). Errors are logged."""
        self._subscribers.append(callback)

    def subscribe_reconciled(self, callback: Callable[[IndexSummary], None]) -> None:
        """Call ``callback(summary)`` after each completed reconcile (e.g. metrics of its duration).
        Errors are logged."""
        self._reconciled.append(callback)

    def reconcile(self, root: Path | None = None, progress: Progress | None = None, *,
                  switch_root: bool = False, report_failures: bool = True,
                  allow_removals: bool = False) -> IndexSummary:
        """Index new and changed files under ``root`` (default: ``policies.root``), skip unchanged
        ones, move renamed ones, remove rows and chunks of files that are gone, repair drift; under
        a new config fingerprint, rebuild into a shadow generation and swap it in. Per-file failures
        are recorded, never raised.

        The index remembers its folder: another ``root`` than the recorded one is refused unless
        ``switch_root`` (:func:`indexer.safety.check_root`). Files that failed in this run are logged
        at WARNING, at INFO when ``report_failures`` is False (the caller prints ``summary.failures``).
        Removing every indexed document, or more than ``index.max_removal_fraction`` of them, is held
        (nothing removed, recorded for ``status``: :mod:`indexer.removal_guard`; a rebuild is then not
        started) unless ``allow_removals``, or ``switch_root`` to another folder than the recorded one
        (replacing the folder's documents is what was asked); ``summary.held_removals`` counts them.

        Raises:
            RootMismatchError: ``root`` is not the folder the index holds (nothing changed).
            ReconcileAbortedError: every file failed for one machine-side reason, or a rebuild would
                swap in an empty generation; the tables were rolled back.
            IndexingStopped: :meth:`request_stop` was called (written files stay).
            ModelLoadError, StoreError, OSError: the model, the store or the disk failed.
        """
        with self._lock:
            self._check_stop()
            t0 = time.perf_counter()
            root = (root or self.settings.policies.root).resolve()
            check_root(self.store, root, switch_root=switch_root)
            self.root = root
            problems: dict[str, str] = {}
            files = scan(self.root, self.settings, problems)
            summary = IndexSummary()
            switching = switch_root and self.store.state().root not in (None, "", str(root))
            held = check_removals(self.store, files, problems, self.root, self.settings.index,
                                  allow=allow_removals or switching)
            if held is not None:
                summary.held_removals, summary.held_reason = held.count, held.reason
                if shadow.needs_rebuild(self.store, self.fingerprint):
                    return summary  # a rebuild would drop them: the live generation keeps serving
            p = shadow.plan(self.store, self.fingerprint)
            checkpoint = Checkpoint.take(p.target)
            self._sync(p.target, files, summary, progress, problems, keep_vanished=held is not None)
            self._commit(p, checkpoint, summary, len(files) + len(problems))
            self.store.set_state(replace(self.store.state(), root=str(self.root), reconciled_at=time.time(),
                                         embedding_fingerprint=self._embedding_settings_fp))
            p.target.ensure_indexes()
            summary.seconds = time.perf_counter() - t0
            log.info("reconcile root=%s files=%d indexed=%d unchanged=%d failed=%d removed=%d moved=%d "
                     "embedded=%d reused=%d repaired=%d in %.1fs", self.root, len(files), summary.indexed,
                     summary.unchanged, summary.failed, summary.removed, summary.moved,
                     summary.chunks_embedded, summary.chunks_reused, summary.repaired, summary.seconds)
            self._publish(summary, snapshot_now=True,
                          failures_level=logging.WARNING if report_failures else logging.INFO)
        for callback in list(self._reconciled):
            try:
                callback(summary)
            except Exception:
                log.exception("reconcile subscriber failed")
        return summary

    def _commit(self, p: shadow.Plan, checkpoint: Checkpoint, summary: IndexSummary,
                folder_files: int) -> None:
        """Abort (rolled back) when every file failed for one machine-side reason or a rebuild came out
        empty; else swap a rebuild in."""
        try:
            abort_environmental(checkpoint, summary, self.root)
            if p.rebuild:
                check_swap(self.store, p.target, folder_files=folder_files)
        except ReconcileAbortedError:
            if p.rebuild:
                shadow.abandon(self.store, p)
            raise
        if p.rebuild:
            shadow.swap(self.store, p, self.fingerprint)
            summary.rebuilt = p.generation

    def index_path(self, abs_path: Path) -> Outcome:
        """Bring one file up to date (index, skip, move from a vanished twin, or remove it).

        Returns the outcome; a path outside the root or not matching the patterns is ``"ignored"``.
        Under a new config fingerprint this runs a full :meth:`reconcile` (shadow rebuild) first.
        """
        rel = self._rel(abs_path)
        if rel is None or not is_indexable(rel, self.settings):
            return "ignored"
        if abs_path.is_symlink() and symlink_problem(abs_path, self.root.resolve()) == "":
            return "ignored"  # its target inside the root is indexed under its own path
        with self._lock:
            self._check_stop()
            if shadow.needs_rebuild(self.store, self.fingerprint):
                self.reconcile(self.root)
            summary = IndexSummary()
            odd = not_regular_reason(abs_path)
            if odd:  # a pipe or device: recorded failed, never opened (reading it would block)
                rec = self.store.documents().get(rel)
                record_skipped(self.store, rel, rec, self.fingerprint, odd, summary)
                self._publish(summary)
                return "failed"
            if not abs_path.is_file():
                return "removed" if self.remove_path(abs_path) else "ignored"
            docs = self.store.documents()
            hashes: dict[str, str] = {}
            if rel not in docs and not is_bad_name(os.fspath(abs_path)):
                size, listed = abs_path.stat().st_size, Listings()
                gone = {p: r for p, r in docs.items()
                        if r.size == size and not listed.exists_exact(disk_path(self.root, p))}
                moves, hashes = self._moves(self.store, {rel: abs_path}, gone, summary)
            if not summary.moved:
                job = classify(self.store, abs_path, rel, docs.get(rel), self.fingerprint, summary,
                               hashes.get(rel), self._retry, self._oversize)
                self._runner.run(self.store, [job] if job else [], self.root, summary)
            self._publish(summary)
            return _outcome(summary)

    def move_path(self, src: Path, dst: Path) -> Outcome:
        """A file or folder was renamed from ``src`` to ``dst`` (watcher "moved" event): rewrite the
        paths of its rows without re-embedding (a changed or no-longer-indexable target is re-indexed
        or removed). Returns ``"moved"`` when every indexed document under ``src`` moved."""
        src_rel, dst_rel = self._rel(src), self._rel(dst)
        with self._lock:
            self._check_stop()
            docs = self.store.documents()
            pairs = prefix_moves(docs, src_rel, dst_rel or "") if src_rel is not None else []
            summary = IndexSummary()
            if dst_rel is None:
                for old, _ in pairs:
                    self._remove(self.store, old, summary)
            elif not pairs:
                return self.index_path(dst) if dst.is_file() else "ignored"
            for old, new in pairs if dst_rel is not None else []:
                self._move_one(old, new, docs, summary)
            self._publish(summary)
            return _outcome(summary)

    def remove_path(self, abs_path: Path) -> bool:
        """Drop the documents row and chunks of ``abs_path``; True when it was indexed."""
        rel = self._rel(abs_path)
        with self._lock:
            self._check_stop()
            if rel is None or rel not in self.store.documents():
                return False
            summary = IndexSummary()
            self._remove(self.store, rel, summary)
            self._publish(summary)
            return True

    # ---- reconcile stages ---------------------------------------------------------------
    def _sync(self, target: Store, files: dict[str, Path], summary: IndexSummary,
              progress: Progress | None, problems: dict[str, str], *, keep_vanished: bool = False) -> None:
        known = target.documents()
        stale, summary.repaired = repair_drift(target, known)
        for rel, reason in sorted(problems.items()):
            record_skipped(target, rel, known.get(rel), self.fingerprint, reason, summary)
        vanished = {} if keep_vanished else \
            {p: r for p, r in known.items() if p not in files and not unscanned(p, problems)}
        new = {p: path for p, path in files.items() if p not in known and not is_bad_name(os.fspath(path))}
        movable = {p: r for p, r in vanished.items() if p not in stale}
        moves, hashes = self._moves(target, new, movable, summary)
        for rel in sorted(set(vanished) - {m.src for m in moves}):
            self._remove(target, rel, summary)
        moved_to = {m.dst for m in moves}
        jobs: list[Job] = []
        for rel, path in files.items():
            if rel not in moved_to:
                rec = None if rel in stale else known.get(rel)
                job = classify(target, path, rel, rec, self.fingerprint, summary, hashes.get(rel),
                               self._retry, self._oversize)
                jobs += [job] if job else []
        self._runner.run(target, jobs, self.root, summary, progress, len(files))

    def _moves(self, target: Store, new: dict[str, Path], vanished: dict[str, DocumentRecord],
               summary: IndexSummary) -> tuple[list[Move], dict[str, str]]:
        """Find and apply moves of ``vanished`` documents to ``new`` paths; returns the moves and
        the hashes computed."""
        if not new or not vanished:
            return [], {}
        moves, hashes = find_moves(new, vanished, self.fingerprint, sha256_file)
        for m in moves:
            self._apply_move(target, m, vanished[m.src], new[m.dst], summary)
        return moves, hashes

    def _apply_move(self, target: Store, m: Move, rec: DocumentRecord, path: Path,
                    summary: IndexSummary) -> None:
        chunks, vectors = moved_chunks(target, m.src, m.dst)
        st = path.stat()
        target.move_document(m.src, replace(rec, path=m.dst, size=st.st_size, mtime_ns=st.st_mtime_ns,
                                            sha256=m.sha256), chunks, vectors)
        summary.moved += 1
        summary.invalidated.append(m.src)
        log.info("moved %s -> %s (%d chunks, nothing re-embedded)", m.src, m.dst, len(chunks))

    def _move_one(self, old: str, new: str, docs: dict[str, DocumentRecord], summary: IndexSummary) -> None:
        path = disk_path(self.root, new)
        indexable = path.is_file() and is_indexable(new, self.settings)
        if new in docs:
            summary.invalidated.append(new)  # overwritten by the move
        if indexable and not is_bad_name(os.fspath(path)) \
                and self._moves(self.store, {new: path}, {old: docs[old]}, summary)[0]:
            return
        self._remove(self.store, old, summary)
        if indexable:
            job = classify(self.store, path, new, docs.get(new), self.fingerprint, summary, retry=self._retry,
                           oversize=self._oversize)
            self._runner.run(self.store, [job] if job else [], self.root, summary)

    def _remove(self, target: Store, rel: str, summary: IndexSummary) -> None:
        target.delete_document(rel)
        summary.removed += 1
        summary.invalidated.append(rel)
        log.info("removed %s", rel)

    # ---- helpers ------------------------------------------------------------------------
    def _rel(self, abs_path: Path) -> str | None:
        rel = safe_name(relative_posix(Path(os.path.abspath(abs_path)), self.root))
        return None if rel.startswith("../") or Path(rel).is_absolute() else rel

    def _check_stop(self) -> None:
        if self._stop.is_set():
            raise IndexingStopped("indexing stopped: the process is shutting down")

    def flush_snapshot(self) -> None:
        """Write the status snapshot (:mod:`indexer.snapshot`) if an operation changed the index since
        the last one; skipped while another operation runs (it writes its own). The watcher calls it
        when idle."""
        if self._snapshot_dirty and self._lock.acquire(blocking=False):
            try:
                self._snapshot_dirty = False
                self._snapshot_at = time.monotonic()
                write_snapshot(self.store)
            finally:
                self._lock.release()

    def _publish(self, summary: IndexSummary, *, snapshot_now: bool = False,
                 failures_level: int = logging.WARNING) -> None:
        log_failures(summary, failures_level)
        self._snapshot_dirty = True
        if snapshot_now or time.monotonic() - self._snapshot_at >= SNAPSHOT_EVERY_S:
            self.flush_snapshot()
        paths = sorted(set(summary.invalidated))
        if not paths:
            return
        for callback in list(self._subscribers):
            try:
                callback(paths)
            except Exception:  # a subscriber's bug never breaks indexing
                log.exception("invalidated-sources subscriber failed")

    def embedder(self) -> Embedder:
        """The embedder, built on first call."""
        if self._embedder is None:
            self._embedder = self._embedder_factory()
        return self._embedder

    def embedding_key(self) -> str:
        """Key of this Indexer's vectors in the embedding cache (builds the embedder)."""
        return embedding_key(self._embedding_settings_fp, self.embedder())

    def chunker(self) -> Chunker:
        """The chunker, bound to the embedder's tokenizer and limit less the passage prompt (builds
        the embedder)."""
        if self._chunker is None:
            emb = self.embedder()
            prompt = self.settings.embedding.passage_prompt  # embedded in front of every chunk
            limit = emb.max_tokens - (emb.count_tokens(prompt) if prompt else 0)
            self._chunker = Chunker(self.settings.chunking, emb.count_tokens, limit,
                                    additive=getattr(emb, "additive_tokens", False))
        return self._chunker


def _retry(reason: str, extraction: ExtractionSettings) -> bool:
    """A failure to retry now: a transient one (:func:`indexer.worker.should_retry`) or the size cap's
    (:func:`classify` asks only once the file fits the current limit)."""
    return should_retry(reason, extraction) or is_size_failure(reason)


def _marking(extract: ExtractFn, share: CpuShare) -> ExtractFn:
    """``extract`` with ``share`` marked busy while it runs."""
    def marked(path: Path, root: Path) -> ExtractedDocument:
        with share.busy():
            return extract(path, root)
    return marked


def _outcome(summary: IndexSummary) -> Outcome:
    if summary.failed:
        return "failed"
    if summary.indexed:
        return "indexed"
    if summary.moved:
        return "moved"
    return "removed" if summary.removed else "unchanged"
