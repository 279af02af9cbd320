"""One writer per data dir: an exclusive, non-blocking ``flock`` on ``<data_dir>/indexer.lock``.

The OS releases the lock when the process dies (even on kill -9), so a crash never leaves a stale lock.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType
from typing import IO

from core.errors import IndexLockedError


class WriterLock:
    """Context manager holding the data dir's writer lock.

    Raises:
        IndexLockedError: another process (its pid is named) already holds it.
    """

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "indexer.lock"
        self._fh: IO[str] | None = None

    def acquire(self) -> WriterLock:
        """Take the lock or raise :class:`IndexLockedError`."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the process lifetime
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            owner = fh.read().strip() or "unknown"
            fh.close()
            raise IndexLockedError(
                f"another policybot indexer (pid {owner}) is already writing to {self.path.parent}; "
                "stop it first, or use another --data-dir") from None
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        self._fh = fh
        return self

    def release(self) -> None:
        """Release the lock (also released by the OS when the process exits)."""
        if self._fh is not None:
            fcntl.flock(self._fh, fcntl.LOCK_UN)
            self._fh.close()
            self._fh = None

    def __enter__(self) -> WriterLock:
        return self.acquire()

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
