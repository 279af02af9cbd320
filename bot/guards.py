"""Exactly-once and rate-limit guards (in memory, thread-safe).

Slack delivers events at least once: retries carry the same ``event_id``, and a channel mention arrives
both as ``app_mention`` and as ``message`` (different event ids, same channel and ts). :class:`Deduper`
remembers keys for ``ttl_s`` seconds (Slack retries within minutes: https://docs.slack.dev/apis/events-api/#retries).
:class:`RateLimiter` is a sliding-window counter per key (user or channel).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class Deduper:
    """``claim(key)`` is True the first time a key is seen within ``ttl_s`` seconds, then False."""

    def __init__(self, ttl_s: float = 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl = ttl_s
        self._clock = clock
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def claim(self, key: str) -> bool:
        """Atomically test-and-set ``key``; expired keys are forgotten."""
        now = self._clock()
        with self._lock:
            if len(self._seen) > 10_000:
                self._seen = {k: t for k, t in self._seen.items() if now - t < self._ttl}
            t = self._seen.get(key)
            if t is not None and now - t < self._ttl:
                return False
            self._seen[key] = now
            return True


class RateLimiter:
    """At most ``limit`` hits per key in any ``window_s``-second window (sliding window log)."""

    def __init__(self, limit: int, window_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._limit = limit
        self._window = window_s
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Record a hit for ``key`` and return True, or return False when the key is over its limit."""
        now = self._clock()
        with self._lock:
            q = self._hits.setdefault(key, deque())
            while q and now - q[0] >= self._window:
                q.popleft()
            if len(q) >= self._limit:
                return False
            q.append(now)
            return True
