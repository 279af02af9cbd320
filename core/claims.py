"""Exactly-once claims that outlive the process and are shared by every replica on one store.

A claim is a small object ``claims/<namespace>/<sha256(key)>`` created with a conditional create
(:meth:`core.blobs.BlobStore.create`): of any number of processes claiming the same key, exactly one
succeeds. A claim expires after its TTL; an expired claim is taken over with a conditional replace on the
ETag that was read, so two processes seeing the same expired claim still cannot both win.

Used for Slack events (``event_id`` and ``(channel, ts)``; Slack retries an unacknowledged event up to
three times within minutes: https://docs.slack.dev/apis/events-api/#retries, so the TTL is ≥ 1 hour),
and by anything else that must happen once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from core.blobs import BlobStore

log = logging.getLogger(__name__)

DEFAULT_TTL_S = 3600.0


class Claims:
    """``claim(key)`` is True for exactly one caller per key and TTL window, across processes.

    Args:
        blobs: the shared store.
        namespace: a folder name under ``claims/`` (e.g. ``slack-events``).
        ttl_s: seconds a claim holds (≥ Slack's retry span; default one hour).
        owner: written into the claim for debugging (a replica id).
        clock: wall-clock seconds (``time.time``); claims compare times across machines.
    """

    def __init__(self, blobs: BlobStore, namespace: str, ttl_s: float = DEFAULT_TTL_S,
                 owner: str = "", clock: Callable[[], float] = time.time) -> None:
        self._blobs = blobs
        self._prefix = f"claims/{namespace}/"
        self._ttl = ttl_s
        self._owner = owner
        self._clock = clock

    def _key(self, key: str) -> str:
        return self._prefix + hashlib.sha256(key.encode("utf-8")).hexdigest()

    def _body(self, now: float) -> bytes:
        return json.dumps({"owner": self._owner, "expires_at": now + self._ttl}).encode("utf-8")

    def claim(self, key: str) -> bool:
        """Atomically claim ``key``; False when a live claim exists (someone else has it)."""
        now = self._clock()
        name = self._key(key)
        if self._blobs.create(name, self._body(now)) is not None:
            return True
        current = self._blobs.get(name)
        if current is None:  # deleted between our create and get: try once more
            return self._blobs.create(name, self._body(now)) is not None
        if _expires_at(current.data) > now:
            return False
        return self._blobs.replace(name, self._body(now), current.etag) is not None

    def release(self, key: str) -> None:
        """Forget ``key`` (e.g. the work it guarded failed before anything was posted)."""
        self._blobs.delete(self._key(key))

    def sweep(self) -> int:
        """Delete expired claims; returns how many (run from a maintenance job)."""
        now, removed = self._clock(), 0
        for name in self._blobs.list(self._prefix):
            blob = self._blobs.get(name)
            if blob is not None and _expires_at(blob.data) <= now:
                self._blobs.delete(name)
                removed += 1
        log.debug("swept %d expired claims under %s", removed, self._prefix)
        return removed


class KeyLocks:
    """Short exclusive sections across processes and machines: ``with locks.hold(key): ...`` — built on
    :class:`Claims` (a claim per key, released on exit; a holder that dies frees it after ``ttl_s``).

    Used where replicas read-modify-write one row (a vote on an answer, its cache entry). Waits by
    polling (``poll_s``); gives up with :class:`TimeoutError` after ``timeout_s``.
    """

    def __init__(self, blobs: BlobStore, namespace: str = "locks", ttl_s: float = 30.0,
                 timeout_s: float = 30.0, poll_s: float = 0.05, owner: str = "") -> None:
        self._claims = Claims(blobs, namespace, ttl_s=ttl_s, owner=owner)
        self._timeout_s = timeout_s
        self._poll_s = poll_s

    @contextmanager
    def hold(self, key: str) -> Iterator[None]:
        """Hold ``key`` for the block.

        Raises:
            TimeoutError: another holder kept it for ``timeout_s``.
        """
        deadline = time.monotonic() + self._timeout_s
        while not self._claims.claim(key):
            if time.monotonic() > deadline:
                raise TimeoutError(f"lock {key!r} held elsewhere for more than {self._timeout_s:g} s")
            time.sleep(self._poll_s)
        try:
            yield
        finally:
            self._claims.release(key)


def _expires_at(data: bytes) -> float:
    try:
        return float(json.loads(data)["expires_at"])
    except (ValueError, KeyError, TypeError):
        return 0.0  # unreadable claim: treat as expired so it can be taken over
