"""Stopping: Ctrl-C (SIGINT) and SIGTERM stop every command the same way.

The first signal calls the stop hooks the commands registered (:func:`policybot.context.on_stop`:
the indexer stops at the next file boundary and kills its extraction worker, the watcher and the
servers wind down), then raises in the main thread — :class:`KeyboardInterrupt` for SIGINT,
:class:`Terminated` for SIGTERM — so ``finally`` blocks close everything in order. Further signals
while stopping are ignored (a second Ctrl-C must not break the clean-up). The error boundary prints one
line and exits 130 (SIGINT) or 0 (SIGTERM: ``docker stop`` asked for a clean stop).
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

log = logging.getLogger(__name__)

EXIT_INTERRUPTED = 130
"""128 + SIGINT, what shells report for a Ctrl-C."""


class Terminated(BaseException):  # noqa: N818 - like KeyboardInterrupt, not an error
    """SIGTERM arrived: stop cleanly and exit 0."""


@contextmanager
def stop_signals(hooks: Callable[[], list[Callable[[], None]]]) -> Iterator[None]:
    """Handle SIGINT and SIGTERM in the block (main thread only; elsewhere a no-op).

    Args:
        hooks: returns the stop hooks to call first (read at signal time, so commands add theirs later).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stopping = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        if stopping.is_set():
            log.info("already stopping (signal %d ignored)", signum)
            return
        stopping.set()
        for hook in hooks():
            try:
                hook()
            except Exception:  # a hook's failure must not prevent the stop
                log.exception("stop hook failed")
        raise KeyboardInterrupt if signum == signal.SIGINT else Terminated()

    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)
