"""A per-provider circuit breaker (closed → open → half-open), after Nygard, *Release It!* (2007).

After ``failures`` consecutive failures the breaker opens and the provider is skipped for
``cooldown_s``; then one trial call is let through (half-open): success closes the breaker, failure
opens it for another cool-down. Time comes from an injectable monotonic ``clock`` (seconds).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class CircuitBreaker:
    """Counts consecutive failures of one provider and says whether to call it now."""

    def __init__(self, failures: int, cooldown_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._threshold = failures
        self._cooldown_s = cooldown_s
        self._clock = clock
        self._failures = 0
        self._open_until: float | None = None
        self._trial = False
        self._lock = threading.Lock()

    def allow(self) -> bool:
        """True when the provider may be called now (closed, or the single half-open trial)."""
        with self._lock:
            if self._open_until is None:
                return True
            if self._clock() < self._open_until or self._trial:
                return False
            self._trial = True
            return True

    def remaining_s(self) -> float:
        """Seconds of cool-down left (0 when closed or ready for a trial)."""
        with self._lock:
            return 0.0 if self._open_until is None else max(0.0, self._open_until - self._clock())

    def record_success(self) -> None:
        """Close the breaker and reset the failure count."""
        with self._lock:
            self._failures, self._open_until, self._trial = 0, None, False

    def record_failure(self) -> bool:
        """Count a failure; returns True when this failure opened (or re-opened) the breaker."""
        with self._lock:
            self._failures += 1
            if self._failures < self._threshold and not self._trial:
                return False
            self._open_until = self._clock() + self._cooldown_s
            self._trial = False
            return True
