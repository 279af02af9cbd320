"""``policybot watch``: keep the index current from file-system events, under the writer lock.

Data flow: watchdog observer (native or polling, :mod:`indexer.observers`) → its ``EventRouter`` turns
each event into *pending* paths (both ends of a move; a folder event becomes a folder task) filtered by
``policies.include``/``policies.ignore`` (:mod:`indexer.patterns`: lock and temp files never get in) →
one worker thread takes a path once no event arrived for it for ``watch.debounce_s`` (a burst of events
on one path is one task; a 200-file copy is at most 200 index calls) → the stability gate
(:mod:`indexer.stability`) sends still-growing or incomplete files back with backoff → ``Indexer``.

Editor saves (Word: ``~$x.docx`` + ``~WRL0001.tmp`` renamed onto ``x.docx``; vim: ``4913``, ``x~``,
``.x.swp``; LibreOffice: ``.~lock.x#`` + ``lu123.tmp``) reach the index as one re-index of ``x``,
because only ``x`` passes the patterns and its pending task outlives the burst. A move of an indexed
file is a move (``move_path`` when the indexer has it, else remove + index, which the embedding cache
makes cheap); a case-only rename is a move too: existence is checked with exact case. Folder moves in,
out and within the root expand into per-file tasks. Periodic reconcile (:mod:`indexer.scheduler`)
repairs anything events missed. Every index write runs under one lock (``write_lock``), and the
process holds the data dir's indexer lease (:class:`~indexer.lock.WriterLock`) while watching — or the
caller does (:class:`~indexer.lock.IndexerRole` starts the watcher only while it leads).
watchdog docs: https://python-watchdog.readthedocs.io
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from watchdog.observers import Observer

from core.config import Settings
from core.embedder import Embedder
from core.errors import IndexingStopped
from core.store import Store
from indexer.lock import WriterLock, store_lease
from indexer.observers import (
    EventRouter,
    ObserverFactory,
    ObserverKind,
    RunningObserver,
    rearm,
    start_observer,
)
from indexer.patterns import is_indexable
from indexer.pending import PendingPaths, Task, pending_files
from indexer.pipeline import Indexer
from indexer.removal_guard import has_indexable_file
from indexer.scheduler import MaintenanceScheduler
from indexer.stability import StabilityGate
from indexer.watch_state import write_watch_state

log = logging.getLogger(__name__)

_TICK_S = 0.05
_STATE_EVERY_S = 1.0


class PolicyWatcher:
    """Watches ``root`` and keeps ``indexer`` current (see the module docstring).

    Args:
        settings: ``watch`` (observer, debounce_s, stable_s, retry_max_s, reconcile_interval_s, ...),
            ``policies`` (patterns) and ``store.lease_ttl_s`` (the indexer lease).
        indexer: written only from the worker thread and scheduler jobs, one at a time.
        root: the policy folder (default ``policies.root``).
        native_factory: builds the native observer (tests inject one that hits the inotify limit).
        hold_lock: take the data dir's indexer lease (False when the caller already holds it).
        lock: the :class:`WriterLock` to take (default: one on ``indexer.store``'s blob store).
        reconcile_on_start: run a reconcile as soon as the scheduler starts (then periodically).

    Attributes:
        observer_kind: ``"native"`` or ``"polling"`` once started; ``observer_reason`` says why.
        scheduler: the :class:`MaintenanceScheduler`; add maintenance jobs with ``scheduler.add_job``.
        write_lock: the lock around every index write in this process.
    """

    def __init__(self, settings: Settings, indexer: Indexer, root: Path | None = None, *,
                 native_factory: ObserverFactory = Observer, hold_lock: bool = True,
                 reconcile_on_start: bool = True, lock: WriterLock | None = None) -> None:
        self.settings = settings
        self.indexer = indexer
        self.root = (root or settings.policies.root).resolve()
        self.write_lock = threading.Lock()
        self.scheduler = MaintenanceScheduler(self.write_lock)
        self.gate = StabilityGate(settings.watch.stable_s, settings.watch.retry_max_s,
                                  settings.watch.incomplete_timeout_s)
        self.observer_kind: ObserverKind | None = None
        self.observer_reason = ""
        self._native_factory = native_factory
        self._writer_lock = (lock or WriterLock(store_lease(indexer.store, settings.store.lease_ttl_s))
                             if hold_lock else None)
        self._reconcile_on_start = reconcile_on_start
        self._running: RunningObserver | None = None
        self.pending = PendingPaths(settings.watch.debounce_s)
        self._router = EventRouter(self.notify, self.notify_dir)
        self._health_at = 0.0
        self._stop = threading.Event()
        self._worker = threading.Thread(target=self._run, name="policybot-watch", daemon=True)
        self._state_at = 0.0

    # ---- lifecycle ----------------------------------------------------------------------
    def start(self) -> PolicyWatcher:
        """Take the writer lock, start the observer, the worker and the scheduler (reconcile now and
        every ``watch.reconcile_interval_s``). Raises IndexLockedError when another indexer holds the
        data dir."""
        if self._writer_lock is not None:
            self._writer_lock.acquire()
        try:
            self._running = start_observer(self.settings.watch, self.root, self._router, self._native_factory)
        except BaseException:
            self._release_lock()
            raise
        self.observer_kind, self.observer_reason = self._running.kind, self._running.reason
        self._worker.start()
        self.scheduler.add_job(self._reconcile, self.settings.watch.reconcile_interval_s, "reconcile",
                               run_now=self._reconcile_on_start)
        self.scheduler.start()
        self._publish_state(force=True)
        log.info("watching %s observer=%s debounce=%.2fs stable=%.2fs", self.root, self.observer_kind,
                 self.settings.watch.debounce_s, self.settings.watch.stable_s)
        return self

    @property
    def alive(self) -> bool:
        """Whether the watcher's loop runs (started, not stopped, its thread alive)."""
        return self._worker.is_alive() and not self._stop.is_set()

    def join(self, timeout: float | None = None) -> None:
        """Block until :meth:`stop` (or for ``timeout`` seconds)."""
        self._stop.wait(timeout)

    def stop(self) -> None:
        """Stop scheduler, observer and worker, then release the writer lock. Pending paths are dropped
        (the reconcile at the next start catches them)."""
        self._stop.set()
        self.scheduler.shutdown(wait=True)
        if self._running is not None:
            self._running.observer.stop()
            self._running.observer.join(10)
        if self._worker.is_alive():
            self._worker.join(60)
        if self.pending_count():
            log.info("watch stopped with %d pending paths", self.pending_count())
        self._publish_state(force=True)
        self._release_lock()

    def _release_lock(self) -> None:
        if self._writer_lock is not None:
            self._writer_lock.release()

    # ---- events → pending tasks ---------------------------------------------------------
    def notify(self, path: Path, moved_from: Path | None = None) -> None:
        """Mark file ``path`` changed now (restarts its debounce); ``moved_from``: the path it was
        renamed from. Paths outside the root or not matching the patterns are ignored."""
        rel = self._rel(path)
        if rel is None or not is_indexable(rel, self.settings):
            return
        src_rel = self._rel(moved_from) if moved_from is not None else None
        src = moved_from if src_rel is not None and is_indexable(src_rel, self.settings) else None
        self.pending.put(path, src)

    def notify_dir(self, path: Path, moved_from: Path | None = None) -> None:
        """Mark folder ``path`` changed (created, deleted, or moved here from ``moved_from``)."""
        if self._rel(path) is not None:
            src = moved_from if moved_from is not None and self._rel(moved_from) is not None else None
            self.pending.put(path, src, folder=True)

    def pending_count(self) -> int:
        """Paths waiting for debounce, stability or a retry."""
        return self.pending.snapshot()[0]

    # ---- the worker ---------------------------------------------------------------------
    def idle(self) -> bool:
        """True when nothing is pending and the worker is between tasks (tests wait for this)."""
        return self.pending.idle()

    def _run(self) -> None:
        while not self._stop.wait(_TICK_S):
            for path, task in self.pending.pop_due(time.monotonic()):
                if self._stop.is_set():
                    break
                self._apply_safely(path, task)
            self.pending.done()
            if self.pending.idle():  # nothing waiting: bring the status snapshot up to date
                flush = getattr(self.indexer, "flush_snapshot", None)
                if flush is not None:
                    flush()
            self._check_observer()
            self._publish_state()

    def _check_observer(self) -> None:
        """Once a second: re-arm the observer if the root vanished and came back, then reconcile."""
        now = time.monotonic()
        if self._running is None or self._stop.is_set() or now - self._health_at < _STATE_EVERY_S:
            return  # stopping: the observer was stopped on purpose, not lost
        self._health_at = now
        if rearm(self._running, self.root, self._router):
            self.scheduler.run_soon("reconcile")

    def _apply_safely(self, path: Path, task: Task) -> None:
        try:
            if task.folder:
                self._expand_dir(path, task)
            else:
                self._apply(path, task)
        except IndexingStopped:  # shutting down: the next start's reconcile catches this path
            return
        except Exception:  # keep watching whatever one file does; the file is retried, never dropped
            delay = min(self.settings.watch.debounce_s + 2 ** task.errors, self.settings.watch.retry_max_s)
            log.exception("watch: %s failed; retrying in %.1fs", path, delay)
            self.pending.retry(path, replace(task, errors=task.errors + 1), time.monotonic() + delay)

    def _apply(self, path: Path, task: Task) -> None:
        src = task.moved_from if task.moved_from is not None and not exists_exact(task.moved_from) else None
        if not exists_exact(path):
            if not self.root.is_dir():  # share unmounted: files look deleted but are not
                log.warning("policy root %s unavailable; keeping %s", self.root, self._rel(path))
                self.pending.retry(path, task, time.monotonic() + self.settings.watch.retry_max_s)
                return
            self.gate.forget(path)
            if not has_indexable_file(self.root, self.settings):  # emptied: a reconcile decides
                log.warning("policy root %s holds no policy file; keeping %s until a reconcile decides",
                            self.root, self._rel(path))
                self.scheduler.run_soon("reconcile")
                return
            with self.write_lock:
                gone = [p for p in (path, src) if p is not None and self.indexer.remove_path(p)]
            log.info("watch: removed %s", ", ".join(self._rel(p) or str(p) for p in gone) or "nothing")
            return
        verdict = self.gate.check(path, time.monotonic())
        if verdict.state == "wait":
            self.pending.retry(path, replace(task, reason=verdict.reason, gives_up_at=verdict.gives_up_at),
                               verdict.retry_at)
            return
        before = _signature(path)
        with self.write_lock:
            outcome = self._move(src, path) if src is not None else self.indexer.index_path(path)
        log.info("watch: %s %s%s", self._rel(path), outcome, f" (moved from {self._rel(src)})" if src else "")
        if _signature(path) != before:  # written to while it was indexed: look again
            self.notify(path)

    def _move(self, src: Path, dst: Path) -> str:
        move: Callable[[Path, Path], object] | None = getattr(self.indexer, "move_path", None)
        if move is not None:
            return str(move(src, dst))
        self.indexer.remove_path(src)
        return self.indexer.index_path(dst)

    def _expand_dir(self, path: Path, task: Task) -> None:
        """Folder created/deleted/moved: one file task per known row under it and per file in it."""
        prefix = self._rel(path)
        if prefix in ("", ".") and not path.is_dir():  # the root itself is gone: wait for it to return
            return
        src_prefix = self._rel(task.moved_from) if task.moved_from is not None else None
        known = list(self.indexer.store.documents())
        if src_prefix is not None:
            for rel in _under(known, src_prefix):
                self.notify(path / rel[len(src_prefix):].lstrip("/"), moved_from=self.root / rel)
        if prefix is not None and not path.is_dir():
            for rel in _under(known, prefix):
                self.notify(self.root / rel)
        for file in _walk(path):
            self.notify(file)

    # ---- jobs and state -----------------------------------------------------------------
    def _reconcile(self) -> None:
        if not self.root.is_dir():  # an unmounted share must not empty the index
            log.warning("policy root %s unavailable; reconcile skipped", self.root)
            return
        summary = self.indexer.reconcile(self.root)
        log.info("scheduled reconcile: indexed=%d removed=%d failed=%d in %.1fs", summary.indexed,
                 summary.removed, summary.failed, summary.seconds)
        self._publish_state(force=True)

    def _publish_state(self, force: bool = False) -> None:
        now = time.time()
        if not force and now - self._state_at < _STATE_EVERY_S:
            return
        self._state_at = now
        pending, oldest = self.pending.snapshot()
        write_watch_state(self.indexer.store.blobs, {
            "pid": os.getpid(), "host": socket.gethostname(), "root": str(self.root),
            "observer_kind": self.observer_kind,
            "observer_reason": self.observer_reason, "running": not self._stop.is_set(),
            "pending": pending, "oldest_pending_at": oldest, "updated_at": now,
            "pending_files": pending_files(self.pending.tasks(), self._rel, self.settings.watch.debounce_s),
            "jobs": {n: h.to_json() for n, h in self.scheduler.history.items()}})

    def _rel(self, path: Path) -> str | None:
        try:
            return Path(os.path.abspath(path)).relative_to(self.root).as_posix()
        except ValueError:
            return None


def exists_exact(path: Path) -> bool:
    """Whether ``path`` exists with exactly this spelling (a case-insensitive share says
    ``Policy.md`` exists after a rename to ``policy.md``; the folder listing does not)."""
    if not os.path.lexists(path):
        return False
    try:
        return path.name in os.listdir(path.parent)
    except OSError:
        return False


def _signature(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def _under(rels: list[str], prefix: str) -> Iterator[str]:
    return (r for r in rels if prefix == "" or r.startswith(prefix + "/"))


def _walk(folder: Path) -> Iterator[Path]:
    for dirpath, _, filenames in os.walk(folder):
        for name in filenames:
            yield Path(dirpath) / name


def start_watching(settings: Settings, indexer: Indexer, root: Path | None = None, *,
                   hold_lock: bool = True, reconcile_on_start: bool = True,
                   native_factory: ObserverFactory = Observer, lock: WriterLock | None = None
                   ) -> PolicyWatcher:
    """Start watching ``root`` (default ``policies.root``) per ``settings.watch``; returns the started
    watcher (call ``stop()`` when done). Raises IndexLockedError when another indexer holds the lease."""
    return PolicyWatcher(settings, indexer, root, hold_lock=hold_lock, native_factory=native_factory,
                         reconcile_on_start=reconcile_on_start, lock=lock).start()


def start_watcher(settings: Settings, store: Store,
                  embedder_factory: Callable[[], Embedder]) -> PolicyWatcher:
    """CLI convenience: build an :class:`Indexer` on ``store`` and start watching ``policies.root``."""
    return start_watching(settings, Indexer(settings, store, embedder_factory))
