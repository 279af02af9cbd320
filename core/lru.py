"""One small thread-safe least-recently-used cache for the in-process caches of the answer path.

The answer path runs retrieval legs in threads and the bot serves concurrent events, so a cache shared
by them is read and written from several threads at once. A plain ``OrderedDict`` LRU is not safe
there: ``move_to_end`` / ``popitem`` racing with another thread's eviction raise ``KeyError``, and a
value read back after ``put`` may already be evicted. :class:`LockedLRU` does every read-modify-write
under one lock and hands values back from the call that stored them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")


class LockedLRU(Generic[K, V]):
    """A mapping of at most ``size`` entries that evicts the least recently used; thread-safe.

    ``get`` and ``put`` both count as a use. ``get_or_compute`` runs ``compute`` *outside* the lock
    (a slow computation, e.g. embedding, never blocks other keys); two threads missing the same key at
    once may both compute it, and the first value stored wins for both callers.

    Args:
        size: the most entries kept (≥ 1).

    Raises:
        ValueError: ``size`` < 1.
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"LockedLRU size must be at least 1, got {size}")
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: D) -> V | D: ...

    def get(self, key: K, default: object = None) -> object:
        """The value of ``key`` (now the most recently used), or ``default`` when absent."""
        with self._lock:
            if key not in self._data:
                return default
            self._data.move_to_end(key)
            return self._data[key]

    def put(self, key: K, value: V) -> None:
        """Store ``value`` under ``key`` as the most recently used; evict the oldest beyond ``size``."""
        with self._lock:
            self._store(key, value)

    def setdefault(self, key: K, value: V) -> V:
        """The value already stored under ``key`` (now most recently used), else store ``value`` and
        return it. One atomic step: concurrent callers all get the same value."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
            self._store(key, value)
            return value

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        """The value of ``key``, computing and storing ``compute()`` on a miss (see the class doc).
        Exceptions of ``compute`` propagate and store nothing."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
        return self.setdefault(key, compute())

    def __contains__(self, key: object) -> bool:
        """Whether ``key`` is stored (does not count as a use)."""
        with self._lock:
            return key in self._data

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    def _store(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)
