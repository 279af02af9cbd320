"""Retries with backoff for LLM HTTP calls, honouring the server's requested delay.

Only HTTP 429 (rate limited) and 503 (overloaded) are retried; timeouts and other errors fail at once
so the fallback chain moves on. The wait before retry *n* is the server's delay when it names one —
the ``Retry-After`` header (RFC 9110 §10.2.3: seconds or an HTTP-date; ``retry-after-ms`` as sent by
OpenAI-compatible servers) or a ``google.rpc.RetryInfo.retryDelay`` in the error body
(https://cloud.google.com/apis/design/errors#error_details) — else exponential backoff
``backoff_s * 2**(n-1)`` with up to 10 % jitter. A requested delay above ``max_wait_s`` is not waited
for: the provider fails and the chain falls through. Retrying uses tenacity.
"""

from __future__ import annotations

import email.utils
import logging
import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import tenacity

from core.errors import ProviderError

log = logging.getLogger(__name__)

T = TypeVar("T")
RETRY_STATUSES = frozenset({429, 503})


class RetryableError(ProviderError):
    """A failure worth retrying (HTTP 429/503); ``retry_after_s`` is the server's delay, if any."""

    def __init__(self, message: str, *, status: int, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after_s = retry_after_s


@dataclass(frozen=True)
class RetryPolicy:
    """How one provider retries.

    Attributes:
        max_retries: retries after the first attempt (0 = no retry).
        backoff_s: first backoff in seconds when the server names no delay; doubles per retry.
        max_wait_s: longest server-requested delay that is honoured; longer ones fail the provider.
    """

    max_retries: int = 2
    backoff_s: float = 1.0
    max_wait_s: float = 30.0

    def wait_s(self, attempt: int, retry_after_s: float | None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        if retry_after_s is not None:
            return max(0.0, retry_after_s)
        base = self.backoff_s * 2 ** (attempt - 1)
        return base + random.uniform(0.0, 0.1 * base)

    def should_retry(self, exc: BaseException) -> bool:
        """True for a :class:`RetryableError` whose requested delay (if any) is within ``max_wait_s``."""
        if not isinstance(exc, RetryableError):
            return False
        return exc.retry_after_s is None or exc.retry_after_s <= self.max_wait_s


def call_with_retries(
    fn: Callable[[], T], policy: RetryPolicy, *, label: str, sleep: Callable[[float], None] = time.sleep
) -> T:
    """Call ``fn`` until it succeeds, it raises a non-retryable error, or the retries run out.

    Raises:
        ProviderError: the last error; after retries the message says how many attempts were made.
    """

    def wait(state: tenacity.RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        after = exc.retry_after_s if isinstance(exc, RetryableError) else None
        return policy.wait_s(state.attempt_number, after)

    def before_sleep(state: tenacity.RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        delay = state.next_action.sleep if state.next_action else 0.0
        log.info("%s: attempt %d failed (%s); retrying in %.2f s", label, state.attempt_number, exc, delay)

    retrying = tenacity.Retrying(
        stop=tenacity.stop_after_attempt(policy.max_retries + 1),
        retry=tenacity.retry_if_exception(policy.should_retry),
        wait=wait,
        sleep=sleep,
        before_sleep=before_sleep,
        reraise=True,
    )
    try:
        return retrying(fn)
    except RetryableError as exc:
        attempts = retrying.statistics.get("attempt_number", 1)
        raise ProviderError(f"{exc} (after {attempts} attempt{'s' if attempts != 1 else ''})") from exc


def retry_after_from_headers(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds from ``retry-after-ms`` or ``Retry-After`` (seconds or HTTP-date); None when absent/invalid."""
    if not headers:
        return None
    lower = {k.lower(): v for k, v in headers.items()}
    for key, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = lower.get(key)
        if value is None:
            continue
        try:
            return max(0.0, float(value) / divisor)
        except ValueError:
            pass
    value = lower.get("retry-after")
    parsed = email.utils.parsedate_tz(value) if value else None
    if parsed is None:
        return None
    return max(0.0, email.utils.mktime_tz(parsed) - (time.time() if now is None else now))


def retry_delay_from_details(details: Iterable[Any]) -> float | None:
    """Seconds of the first ``google.rpc.RetryInfo`` in an error's ``details`` (``"1.5s"`` → 1.5)."""
    for item in details:
        if not isinstance(item, dict) or not str(item.get("@type", "")).endswith("google.rpc.RetryInfo"):
            continue
        delay = str(item.get("retryDelay", "")).strip()
        try:
            return max(0.0, float(delay.removesuffix("s")))
        except ValueError:
            return None
    return None


def combine_delays(*delays: float | None) -> float | None:
    """The longest of the given delays (None when none is given): honour every hint the server sent."""
    known = [d for d in delays if d is not None]
    return max(known) if known else None
