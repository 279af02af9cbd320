"""A leader lease in the shared store: at most one live holder per name, across processes and machines.

The lease is one small object ``lease/<name>.json`` in the data dir's :class:`~core.blobs.BlobStore`
holding ``{"owner", "host", "pid", "machine", "since", "renewed_at", "expires_at"}`` (UNIX seconds):

- **acquire**: a conditional create (``If-None-Match: *``); when the object exists and has expired, a
  conditional replace on the ETag just read (``If-Match``), so of any number of contenders exactly one
  wins;
- **renew**: a conditional replace on the ETag of our last write, every ``ttl/3``; it fails (and we have
  lost the lease) only when someone replaced the object, which they may do only after it expired;
- **release**: a conditional replace with ``expires_at = 0``, so a successor need not wait for the TTL.

When the holder dies, the lease expires ``ttl_s`` after its last renewal and the next contender to poll
takes it. On a local data dir the lease also does what the old ``flock`` did: a holder on this machine
(same host name, boot id and pid namespace) whose process is gone is taken over at once
(``local_takeover``). Times are wall-clock (every process compares ``expires_at`` with its own clock):
keep the hosts' clocks synchronised (NTP) to well under the TTL.
Lease pattern: Gray & Cheriton, "Leases: an efficient fault-tolerant mechanism for distributed file cache
consistency", SOSP 1989; conditional writes: RFC 9110 §13.1.1–13.1.2.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from core.blobs import Blob, BlobStore

log = logging.getLogger(__name__)

DEFAULT_TTL_S = 30.0


@dataclass(frozen=True)
class LeaseInfo:
    """A lease object's content (times in UNIX seconds)."""

    owner: str
    host: str
    pid: int
    machine: str
    since: float
    renewed_at: float
    expires_at: float

    def live(self, now: float) -> bool:
        """Whether the lease still holds at ``now``."""
        return self.expires_at > now

    def to_json(self) -> dict[str, object]:
        """The fields as a JSON-able dict (the object's format)."""
        return asdict(self)


def machine_id() -> str:
    """This machine and pid namespace: ``host|boot id|pid namespace`` (Linux; host name alone elsewhere).
    Two processes with the same id can check each other's pids."""
    parts = [socket.gethostname()]
    for path in ("/proc/sys/kernel/random/boot_id",):
        try:
            parts.append(Path(path).read_text(encoding="ascii").strip())
        except OSError:
            parts.append("")
    try:
        parts.append(os.readlink("/proc/self/ns/pid"))
    except OSError:
        parts.append("")
    return "|".join(parts)


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (signal 0)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def read_lease(blobs: BlobStore, name: str = "indexer") -> LeaseInfo | None:
    """The lease object ``name`` as it is now (live or expired), or None when there never was one."""
    return _parse(blobs.get(lease_key(name)))


def lease_key(name: str) -> str:
    """The blob key of lease ``name``."""
    return f"lease/{name}.json"


class Lease:
    """Lease ``name`` in ``blobs`` for this process (see the module docstring).

    Args:
        blobs: the shared store.
        name: what is led (``indexer``).
        ttl_s: seconds the lease holds after each renewal (``store.lease_ttl_s``).
        local_takeover: take over at once from a dead holder on this machine (local data dirs).
        clock: wall-clock seconds.
    """

    def __init__(self, blobs: BlobStore, name: str = "indexer", ttl_s: float = DEFAULT_TTL_S, *,
                 local_takeover: bool = False, clock: Callable[[], float] = time.time) -> None:
        self._blobs = blobs
        self.name = name
        self.key = lease_key(name)
        self.ttl_s = ttl_s
        self._local = local_takeover
        self._clock = clock
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._machine = machine_id()
        self._etag: str | None = None
        self.since = 0.0
        self.expires_at = 0.0

    @property
    def held(self) -> bool:
        """Whether this process holds the lease, by its own clock (acquired or renewed, not expired)."""
        return self._etag is not None and self._clock() < self.expires_at

    def holder(self) -> LeaseInfo | None:
        """The lease object as it is now (anyone's; live or expired), or None."""
        return read_lease(self._blobs, self.name)

    def try_acquire(self) -> bool:
        """Take the lease if it is free, expired, or held by a dead process on this machine (with
        ``local_takeover``); True when this process now holds it (also when it already did)."""
        if self.held:
            return self.renew()
        now = self._clock()
        etag = self._blobs.create(self.key, self._body(now, now))
        if etag is None:
            current = self._blobs.get(self.key)
            if current is None:  # released and deleted in between: one more create
                etag = self._blobs.create(self.key, self._body(now, now))
            elif self._takeable(_parse(current), now):
                etag = self._blobs.replace(self.key, self._body(now, now), current.etag)
        if etag is None:
            return False
        self._etag, self.since, self.expires_at = etag, now, now + self.ttl_s
        log.info("lease %s acquired by %s (ttl %.0f s)", self.name, self.owner, self.ttl_s)
        return True

    def renew(self) -> bool:
        """Extend the lease by ``ttl_s``; False when it was lost (someone took it over after it
        expired, or it was never held). Store errors propagate (the caller decides, by :attr:`held`)."""
        if self._etag is None:
            return False
        now = self._clock()
        etag = self._blobs.replace(self.key, self._body(self.since, now), self._etag)
        if etag is None:
            log.warning("lease %s lost by %s (taken over after it expired)", self.name, self.owner)
            self._etag, self.expires_at = None, 0.0
            return False
        self._etag, self.expires_at = etag, now + self.ttl_s
        return True

    def release(self) -> None:
        """Give the lease up now (an expired object stays, so a successor takes it at once)."""
        if self._etag is None:
            return
        now = self._clock()
        try:
            self._blobs.replace(self.key, self._body(self.since, now, expires_at=0.0), self._etag)
        except Exception as exc:  # the store is unreachable: the lease simply expires
            log.warning("lease %s: release failed (%s); it expires by itself", self.name, exc)
        self._etag, self.expires_at = None, 0.0
        log.info("lease %s released by %s", self.name, self.owner)

    def _takeable(self, info: LeaseInfo | None, now: float) -> bool:
        if info is None or not info.live(now):
            return True
        return self._local and info.machine == self._machine and not pid_alive(info.pid)

    def _body(self, since: float, now: float, expires_at: float | None = None) -> bytes:
        info = LeaseInfo(self.owner, socket.gethostname(), os.getpid(), self._machine, since, now,
                         now + self.ttl_s if expires_at is None else expires_at)
        return json.dumps(info.to_json(), sort_keys=True).encode("utf-8")


def _parse(blob: Blob | None) -> LeaseInfo | None:
    """A lease object's content; an unreadable one reads as expired (so it can be taken over)."""
    if blob is None:
        return None
    try:
        raw = json.loads(blob.data)
        return LeaseInfo(str(raw["owner"]), str(raw.get("host", "")), int(raw.get("pid", 0)),
                         str(raw.get("machine", "")), float(raw.get("since", 0.0)),
                         float(raw.get("renewed_at", 0.0)), float(raw["expires_at"]))
    except (ValueError, KeyError, TypeError):
        return LeaseInfo("unreadable", "", 0, "", 0.0, 0.0, 0.0)
