"""The watcher's pending set: one task per path, debounced, coalescing bursts of events.

Every event on a path pushes its due time to ``now + debounce_s`` (a burst of events on one file is one
task; Word's or vim's save dance ends as one task on the target); a move task absorbs the pending task
of its source. Thread-safe: the observer thread puts, the worker thread pops and retries.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

MAX_PENDING_LISTED = 50
"""The watch state lists at most this many pending files (a 10,000-file copy is counted, not listed)."""


@dataclass(frozen=True)
class Task:
    """A pending path: look at it at ``due`` (monotonic s); ``since`` is its first event (UNIX s);
    ``folder``: a folder event to expand; ``moved_from``: renamed from there; ``errors``: failed tries;
    ``reason``: why it waits after a look ("" while only debounced); ``gives_up_at``: when (monotonic s,
    0.0: never) an incomplete file is handed on anyway (:class:`indexer.stability.Verdict`)."""

    due: float
    since: float
    folder: bool = False
    moved_from: Path | None = None
    errors: int = 0
    reason: str = ""
    gives_up_at: float = 0.0


class PendingPaths:
    """Path → :class:`Task`, with ``debounce_s`` of quiet time per path before it is due."""

    def __init__(self, debounce_s: float) -> None:
        self.debounce_s = debounce_s
        self._tasks: dict[Path, Task] = {}
        self._busy = False
        self._mutex = threading.Lock()

    def put(self, path: Path, moved_from: Path | None = None, folder: bool = False) -> None:
        """An event on ``path`` now: (re)start its debounce; keep the earliest ``since`` and any move."""
        now = time.monotonic()
        with self._mutex:
            old = self._tasks.get(path)
            if moved_from is not None and not folder:
                covered = self._tasks.pop(moved_from, None)  # the move task covers its source...
                if covered is not None and covered.moved_from is not None:
                    moved_from = covered.moved_from  # ...and a chain a → b → c is one move a → c
            since = old.since if old else time.time()
            src = moved_from or (old.moved_from if old else None)
            self._tasks[path] = Task(now + self.debounce_s, since, folder or bool(old and old.folder), src)

    def pop_due(self, now: float) -> list[tuple[Path, Task]]:
        """Remove and return the tasks due at ``now`` (oldest first); marks the worker busy."""
        with self._mutex:
            due = sorted(((p, t) for p, t in self._tasks.items() if t.due <= now), key=lambda x: x[1].due)
            for p, _ in due:
                del self._tasks[p]
            self._busy = bool(due)
        return due

    def done(self) -> None:
        """The worker finished the tasks it popped."""
        with self._mutex:
            self._busy = False

    def retry(self, path: Path, task: Task, at: float) -> None:
        """Put ``task`` back, due at ``at``, unless a newer event re-added ``path`` (its move is kept)."""
        with self._mutex:
            newer = self._tasks.get(path)
            if newer is None:
                self._tasks[path] = replace(task, due=at)
            elif newer.moved_from is None and task.moved_from is not None:
                self._tasks[path] = replace(newer, moved_from=task.moved_from)

    def snapshot(self) -> tuple[int, float]:
        """(pending count, UNIX time of the oldest pending event or 0.0)."""
        with self._mutex:
            return len(self._tasks), min((t.since for t in self._tasks.values()), default=0.0)

    def tasks(self) -> list[tuple[Path, Task]]:
        """The pending paths and their tasks, oldest event first (a copy)."""
        with self._mutex:
            return sorted(self._tasks.items(), key=lambda x: x[1].since)

    def idle(self) -> bool:
        """Nothing pending and the worker between tasks."""
        with self._mutex:
            return not self._tasks and not self._busy


def pending_files(tasks: list[tuple[Path, Task]], rel: Callable[[Path], str | None],
                  debounce_s: float) -> list[dict[str, Any]]:
    """The watch state's ``pending_files``: ``[{"path", "reason", "since", "retry_at", "gives_up_at"}]``
    (UNIX seconds; ``gives_up_at`` null unless the file looks incomplete: then, if still incomplete, it
    is indexed anyway and recorded as failed)."""
    mono, wall = time.monotonic(), time.time()
    out = []
    for path, task in tasks[:MAX_PENDING_LISTED]:
        reason = task.reason or ("folder event" if task.folder else f"waiting {debounce_s:g} s for writes "
                                 "to settle (watch.debounce_s)")
        out.append({"path": rel(path) or str(path), "reason": reason, "since": task.since,
                    "retry_at": wall + max(0.0, task.due - mono),
                    "gives_up_at": wall + max(0.0, task.gives_up_at - mono) if task.gives_up_at else None})
    return out
