"""Exactly-once and rate-limit guards.

Slack delivers events at least once: retries carry the same ``event_id`` and may come minutes later,
after a restart (https://docs.slack.dev/apis/events-api/#retries); a channel mention arrives both as
``app_mention`` and as ``message`` (different event ids, same channel and ts). :class:`Dedupe` keeps
both kinds of key as :class:`core.claims.Claims` in the shared blob store (``App.blobs``), so a retry
is dropped by a restarted process or by another replica too; claims live one hour
(:data:`core.claims.DEFAULT_TTL_S`) and expired ones are swept in the background every
:data:`SWEEP_INTERVAL_S`. :class:`RateLimiter` is a sliding-window counter per key (user or channel),
per process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable

from core.blobs import BlobStore
from core.claims import DEFAULT_TTL_S, Claims

log = logging.getLogger(__name__)

NAMESPACE = "slack-events"
"""Folder of the dedupe claims under ``claims/`` in the blob store."""
SWEEP_INTERVAL_S = 600.0


class Dedupe:
    """``claim(key)`` is True for the first caller of a key within the TTL, across processes.

    Args:
        blobs: the shared blob store (``App.blobs``).
        sweep: runs a function in the background (e.g. ``BackgroundWork.submit``); used to delete
            expired claims at most every :data:`SWEEP_INTERVAL_S`.
        owner: written into each claim (which process claimed it), for debugging.
    """

    def __init__(self, blobs: BlobStore, sweep: Callable[[Callable[[], object]], None], *,
                 ttl_s: float = DEFAULT_TTL_S, owner: str = "",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.claims = Claims(blobs, NAMESPACE, ttl_s=ttl_s, owner=owner)
        self._sweep = sweep
        self._clock = clock
        self._last_sweep = clock()
        self._lock = threading.Lock()

    def claim(self, key: str) -> bool:
        """Atomically claim ``key`` (e.g. ``ev:Ev123`` or ``msg:C1:1718000000.000100``)."""
        self._maybe_sweep()
        return self.claims.claim(key)

    def _maybe_sweep(self) -> None:
        with self._lock:
            now = self._clock()
            if now - self._last_sweep < SWEEP_INTERVAL_S:
                return
            self._last_sweep = now
        self._sweep(self.claims.sweep)


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
