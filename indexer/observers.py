"""Choose and start the watchdog observer: native (inotify on Linux) or polling.

``watch.observer``: ``native`` or ``auto`` try the platform's native observer first and fall back to
watchdog's ``PollingObserver`` (a directory snapshot every ``watch.poll_interval_s``) when native
watching is unavailable (no inotify/FSEvents on this platform) or fails to start: ``OSError`` ENOSPC
("inotify watch limit reached", fs.inotify.max_user_watches) or EMFILE ("inotify instance limit
reached", fs.inotify.max_user_instances). ``polling`` always polls (network shares: inotify never sees
changes made by other SMB/NFS clients). The reason for the choice is logged and returned.
watchdog docs: https://python-watchdog.readthedocs.io/en/stable/api.html#module-watchdog.observers
"""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from core.config import WatchSettings

log = logging.getLogger(__name__)

Notify = Callable[[Path, Path | None], None]
"""notify(path, moved_from) for a file or a folder."""

ObserverKind = Literal["native", "polling"]
ObserverFactory = Callable[[], BaseObserver]

_LIMIT_ERRNOS = {errno.ENOSPC: "inotify watch limit reached (raise fs.inotify.max_user_watches)",
                 errno.EMFILE: "inotify instance limit reached (raise fs.inotify.max_user_instances)"}


class EventRouter(FileSystemEventHandler):
    """Turns watchdog events into ``notify_file(path, moved_from)`` / ``notify_dir(path, moved_from)``:
    both ends of a file move (the destination remembers its source), folder create/delete/move.
    ``opened`` / ``closed_no_write`` events are dropped; folder ``modified`` events too (their files
    report themselves)."""

    def __init__(self, notify_file: Notify, notify_dir: Notify) -> None:
        self._file = notify_file
        self._dir = notify_dir

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        src = Path(os.fsdecode(event.src_path))
        dest = Path(os.fsdecode(event.dest_path)) if event.dest_path else None
        notify = self._dir if event.is_directory else self._file
        if event.event_type == "moved" and dest is not None:
            notify(src, None)
            notify(dest, src)
        elif not event.is_directory or event.event_type in ("created", "deleted"):
            notify(src, None)


@dataclass(frozen=True)
class RunningObserver:
    """A started observer, its kind and why that kind was chosen."""

    observer: BaseObserver
    kind: ObserverKind
    reason: str


def start_observer(watch: WatchSettings, root: Path, handler: FileSystemEventHandler,
                   native_factory: ObserverFactory = Observer) -> RunningObserver:
    """Schedule ``handler`` recursively on ``root`` and start an observer chosen per ``watch.observer``.

    Args:
        native_factory: builds the native observer (injectable so the fallback can be exercised).

    Raises:
        OSError: only when even the polling observer cannot start (e.g. ``root`` is unreadable).
    """
    if watch.observer == "polling":
        return _start_polling(watch, root, handler, "configured (watch.observer: polling)")
    observer = native_factory()
    if isinstance(observer, PollingObserver):
        return _start_polling(watch, root, handler, "native watching is unavailable on this platform")
    try:
        observer.schedule(handler, str(root), recursive=True)
        observer.start()
    except OSError as exc:
        reason = _LIMIT_ERRNOS.get(exc.errno or 0, f"native observer failed: {exc}")
        _discard(observer)
        log.warning("native file watching unavailable (%s); falling back to polling every %.1fs",
                    reason, watch.poll_interval_s)
        return _start_polling(watch, root, handler, reason)
    log.info("watching %s with the native observer (%s)", root, type(observer).__name__)
    return RunningObserver(observer, "native", f"configured (watch.observer: {watch.observer})")


def rearm(running: RunningObserver, root: Path, handler: FileSystemEventHandler) -> bool:
    """Re-schedule ``handler`` on ``root`` when the observer's emitter has stopped (watchdog stops it
    when the watched folder vanishes, e.g. an unmounted share) and ``root`` is back. True when re-armed;
    the caller should reconcile, since events in between were lost."""
    obs = running.observer
    if any(e.is_alive() for e in obs.emitters) or not root.is_dir():
        return False
    try:
        obs.unschedule_all()
        obs.schedule(handler, str(root), recursive=True)
    except OSError as exc:
        log.warning("cannot re-watch %s (%s); the periodic reconcile still runs", root, exc)
        return False
    log.warning("%s is back; watching it again", root)
    return True


def _start_polling(watch: WatchSettings, root: Path, handler: FileSystemEventHandler,
                   reason: str) -> RunningObserver:
    observer = PollingObserver(timeout=watch.poll_interval_s)
    observer.schedule(handler, str(root), recursive=True)
    observer.start()
    log.info("watching %s by polling every %.1fs: %s", root, watch.poll_interval_s, reason)
    return RunningObserver(observer, "polling", reason)


def _discard(observer: BaseObserver) -> None:
    try:
        observer.unschedule_all()
        if observer.is_alive():
            observer.stop()
            observer.join(5)
    except Exception:  # a half-started observer may fail to stop; it is dropped either way
        log.debug("discarding the failed native observer raised", exc_info=True)
