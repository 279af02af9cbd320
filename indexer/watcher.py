"""``policybot watch``: turn watchdog file events into :class:`Indexer` calls, with a simple debounce.

The handler only records *which* paths changed; one worker thread calls ``Indexer.index_path`` for a
path once no event has arrived for it for ``watch.debounce_s`` seconds (editors fire several events
per save). A folder event (delete, move) schedules a full ``reconcile`` instead, which is cheap for
unchanged files. Stability gates, retries, lock/temp-file handling and polling fallback belong to the
incremental-indexing issue. watchdog docs: https://python-watchdog.readthedocs.io
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from core.config import Settings
from core.embedder import Embedder
from core.store import Store
from indexer.pipeline import Indexer

log = logging.getLogger(__name__)

_RECONCILE = Path("<reconcile>")
_TICK_S = 0.1


class _Handler(FileSystemEventHandler):
    """Records the paths touched by each event (both ends of a move)."""

    def __init__(self, changed: Callable[[Path], None]) -> None:
        self._changed = changed

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        if event.is_directory:
            if event.event_type in ("deleted", "moved"):
                self._changed(_RECONCILE)
            return
        for p in (event.src_path, getattr(event, "dest_path", "")):
            if p:
                self._changed(Path(os.fsdecode(p)))


class PolicyWatcher:
    """Watches ``root`` and keeps ``indexer`` current.

    Args:
        indexer: called from one worker thread (``index_path`` / ``reconcile``).
        root: the policy folder.
        debounce_s: quiet time per path before it is indexed.
        polling: use watchdog's PollingObserver (``poll_interval_s``) instead of the native one.
    """

    def __init__(self, indexer: Indexer, root: Path, debounce_s: float, polling: bool = False,
                 poll_interval_s: float = 5.0) -> None:
        self.indexer = indexer
        self.root = root
        self.debounce_s = debounce_s
        self._pending: dict[Path, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.observer: BaseObserver = PollingObserver(timeout=poll_interval_s) if polling else Observer()
        self._worker = threading.Thread(target=self._run, name="policybot-watch", daemon=True)

    def start(self) -> PolicyWatcher:
        """Start the observer and the worker thread."""
        self.observer.schedule(_Handler(self.notify), str(self.root), recursive=True)
        self.observer.start()
        self._worker.start()
        log.info("watching %s observer=%s debounce=%.1fs", self.root, type(self.observer).__name__,
                 self.debounce_s)
        return self

    def notify(self, path: Path) -> None:
        """Mark ``path`` changed now (restarts its debounce window)."""
        with self._lock:
            self._pending[path] = time.monotonic()

    def due(self, now: float) -> list[Path]:
        """Pop the paths whose last event is at least ``debounce_s`` old."""
        with self._lock:
            ready = [p for p, t in self._pending.items() if now - t >= self.debounce_s]
            for p in ready:
                del self._pending[p]
        return ready

    def _run(self) -> None:
        while not self._stop.wait(_TICK_S):
            for path in self.due(time.monotonic()):
                self._apply(path)

    def _apply(self, path: Path) -> None:
        try:
            if path == _RECONCILE:
                self.indexer.reconcile(self.root)
            else:
                outcome = self.indexer.index_path(path)
                log.info("watch %s: %s", path.name, outcome)
        except Exception:  # keep watching whatever one file does
            log.exception("watch: indexing %s failed", path)

    def join(self, timeout: float | None = None) -> None:
        """Block until stopped (Ctrl-C in the CLI)."""
        while self.observer.is_alive() and not self._stop.is_set():
            self.observer.join(timeout or 1.0)
            if timeout is not None:
                return

    def stop(self) -> None:
        """Stop the observer and the worker (pending paths are dropped; reconcile catches them)."""
        self._stop.set()
        self.observer.stop()
        self.observer.join(5)
        if self._worker.is_alive():
            self._worker.join(30)


def start_watching(settings: Settings, indexer: Indexer, root: Path | None = None) -> PolicyWatcher:
    """Start watching ``root`` (default ``policies.root``) per ``settings.watch``; returns the watcher
    (call ``stop()`` when done)."""
    watch = settings.watch
    return PolicyWatcher(indexer, (root or settings.policies.root).resolve(), watch.debounce_s,
                         polling=watch.observer == "polling", poll_interval_s=watch.poll_interval_s).start()


def start_watcher(settings: Settings, store: Store,
                  embedder_factory: Callable[[], Embedder]) -> PolicyWatcher:
    """CLI convenience: build an :class:`Indexer` on ``store`` and start watching ``policies.root``."""
    return start_watching(settings, Indexer(settings, store, embedder_factory))
