"""Sharing the CPU between the embedder and the extraction that runs beside it.

While the indexer's extraction worker (a separate process) is busy, an embedder that keeps all its
threads runs at about half speed on this 2-core machine: PyTorch's intra-op threads meet at a barrier
after every operation, so the thread that shares its core with the worker holds the other one back.
With one thread fewer while an extraction runs, the embedder runs at its one-thread speed and the
worker gets a core of its own, so the same work ends sooner (bench/indexing.py (a);
docs/benchmarks.md, "Indexing"). PyTorch docs, "CPU threading and TorchScript inference".
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class CpuShare:
    """Counts the CPU-heavy jobs (extractions) running beside the embedder.

    The indexer wraps each extraction in :meth:`busy`; the embedder asks :meth:`threads` before each
    batch. Thread-safe.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0

    @contextmanager
    def busy(self) -> Iterator[None]:
        """Mark one job as running for the duration of the block."""
        with self._lock:
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1

    @property
    def running(self) -> int:
        """Jobs running now."""
        return self._running

    def threads(self, default: int) -> int:
        """Threads the embedder may use now: ``default`` less one per running job, at least 1."""
        return max(1, default - self._running)
