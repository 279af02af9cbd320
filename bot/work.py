"""A small background executor: listeners ack at once and hand the slow work to it."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

log = logging.getLogger(__name__)


class BackgroundWork:
    """Runs jobs on ``workers`` threads; failures are logged, never raised into the listener.

    ``drain(timeout)`` waits for every job submitted so far (tests and shutdown use it).
    """

    def __init__(self, workers: int = 4, name: str = "policybot") -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._serial = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{name}-serial")
        self._pending: set[Future[None]] = set()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], *args: Any, ordered: bool = False) -> None:
        """Run ``fn(*args)`` in the background; ``ordered`` jobs run one at a time in submit order
        (votes: a reaction's removal must not overtake its addition)."""
        fut = (self._serial if ordered else self._pool).submit(self._run, fn, *args)
        with self._lock:
            self._pending.add(fut)
        fut.add_done_callback(self._done)

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until all submitted jobs (including ones they submit) finish; False on timeout."""
        while True:
            with self._lock:
                pending = set(self._pending)
            if not pending:
                return True
            _, not_done = wait(pending, timeout=timeout)
            if not_done:
                return False

    def shutdown(self) -> None:
        """Finish running jobs and stop the threads."""
        self._pool.shutdown(wait=True)
        self._serial.shutdown(wait=True)

    def _done(self, fut: Future[None]) -> None:
        with self._lock:
            self._pending.discard(fut)

    @staticmethod
    def _run(fn: Callable[..., Any], *args: Any) -> None:
        try:
            fn(*args)
        except Exception:
            log.exception("background job %s failed", getattr(fn, "__name__", fn))
