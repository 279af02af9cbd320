"""One indexer per data dir, elected: the ``indexer`` lease (:class:`core.lease.Lease`) in the shared store.

- :class:`WriterLock` — for a command that must index now (``policybot index``, ``policybot watch``):
  take the lease or fail with :class:`~core.errors.IndexLockedError` naming the holder; renewed on a
  background thread until released.
- :class:`IndexerRole` — for a serving process (``policybot run``): campaign for the lease every few
  seconds; while it is held, run the indexer's services (watcher, reconcile and maintenance jobs),
  and stop them when it is lost. Every other process serves questions only; when the leader dies one of
  them takes over within ``store.lease_ttl_s`` (+ one poll) and its watcher's first reconcile resumes
  from the index state (a reconcile repairs anything half done; a shadow rebuild resumes).

On a local data dir the same lease lives in ``<data_dir>/blobs/lease/indexer.json`` and a dead holder on
this machine is taken over at once, as the ``flock`` it replaces was released by the OS.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

from core.blobs import make_blob_store
from core.errors import IndexLockedError
from core.lease import DEFAULT_TTL_S, Lease, LeaseInfo
from core.store_location import StoreLocation

if TYPE_CHECKING:
    from core.store import Store

log = logging.getLogger(__name__)

POLL_MAX_S = 5.0
"""A contender polls the lease at least this often (takeover within TTL + this)."""


class Stoppable(Protocol):
    """What the leader runs (a started :class:`~indexer.watcher.PolicyWatcher`)."""

    def stop(self) -> None:
        """Stop, finishing the write in progress."""
        ...


def indexer_lease(data_dir: Path | str, ttl_s: float = DEFAULT_TTL_S) -> Lease:
    """The ``indexer`` lease of ``data_dir`` (a folder or object-store URI), built on its blob store."""
    location = StoreLocation.parse(data_dir)
    return Lease(make_blob_store(location), "indexer", ttl_s, local_takeover=location.is_local)


def store_lease(store: Store, ttl_s: float = DEFAULT_TTL_S) -> Lease:
    """The ``indexer`` lease on ``store``'s blob store (a dead local holder is taken over at once)."""
    return Lease(store.blobs, "indexer", ttl_s, local_takeover=store.location.is_local)


def describe(info: LeaseInfo | None) -> str:
    """``pid 123 on host h since 12:00:01, lease until 12:00:31`` (local times)."""
    if info is None:
        return "unknown"
    def hms(t: float) -> str:
        return time.strftime("%H:%M:%S", time.localtime(t))
    return f"pid {info.pid} on {info.host} since {hms(info.since)}, lease until {hms(info.expires_at)}"


class LeaseKeeper:
    """Renews ``lease`` every ``ttl/3`` seconds on a daemon thread; calls ``on_lost()`` once when a
    renewal is refused or the lease expired by our clock while the store was unreachable."""

    def __init__(self, lease: Lease, on_lost: Callable[[], None] | None = None) -> None:
        self.lease = lease
        self._on_lost = on_lost
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="policybot-lease", daemon=True)

    def start(self) -> LeaseKeeper:
        """Start renewing."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop renewing (the lease is not released here)."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(10)

    def _run(self) -> None:
        while not self._stop.wait(min(self.lease.ttl_s / 3, POLL_MAX_S)):
            if not renew_or_lost(self.lease):
                if self._on_lost is not None:
                    self._on_lost()
                return


def renew_or_lost(lease: Lease) -> bool:
    """Renew ``lease``; False when it is lost (refused, or expired while the store was unreachable)."""
    try:
        return lease.renew()
    except Exception as exc:  # store unreachable: keep the lease while it has not expired by our clock
        log.warning("lease %s: renewal failed (%s)", lease.name, exc)
        return lease.held


class WriterLock:
    """Context manager holding the indexer lease for one command (renewed until released).

    Args:
        target: the :class:`Lease` (from the composition root) or a data dir (folder or URI).

    Raises:
        IndexLockedError: (on acquire) another process holds a live lease; its pid and host are named.
    """

    def __init__(self, target: Lease | Path | str) -> None:
        self.lease = target if isinstance(target, Lease) else indexer_lease(target)
        self._keeper: LeaseKeeper | None = None

    def acquire(self) -> WriterLock:
        """Take the lease or raise :class:`IndexLockedError`."""
        if not self.lease.try_acquire():
            raise IndexLockedError(
                f"another policybot indexer ({describe(self.lease.holder())}) is already writing to this "
                "data dir; stop it first, wait for its lease to expire, or use another --data-dir")
        self._keeper = LeaseKeeper(self.lease, lambda: log.error(
            "the indexer lease was lost during this command; another indexer may be writing too (the "
            "next reconcile repairs duplicates)")).start()
        return self

    def release(self) -> None:
        """Stop renewing and release the lease."""
        if self._keeper is not None:
            self._keeper.stop()
            self._keeper = None
        self.lease.release()

    def __enter__(self) -> WriterLock:
        return self.acquire()

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


class IndexerRole:
    """Campaigns for the indexer lease and runs ``start()``'s services while it holds it.

    Args:
        lease: the data dir's indexer lease.
        start: starts the leader's services (watcher + jobs; must not block) and returns them.
        on_change: called with True when this process became the leader, False when it stopped being one.
    """

    def __init__(self, lease: Lease, start: Callable[[], Stoppable],
                 on_change: Callable[[bool], None] | None = None) -> None:
        self.lease = lease
        self._start = start
        self._on_change = on_change
        self._service: Stoppable | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="policybot-role", daemon=True)
        self._lock = threading.Lock()
        self.poll_s = min(lease.ttl_s / 3, POLL_MAX_S)
        self.last_step_at = time.monotonic()
        """Monotonic time of the last campaign step (``/livez``: the loop makes progress)."""

    @property
    def service(self) -> Stoppable | None:
        """What the leader runs now (the watcher), or None when this process does not lead."""
        return self._service

    @property
    def is_leader(self) -> bool:
        """Whether this process runs the indexer now."""
        return self._service is not None

    def start(self) -> IndexerRole:
        """Campaign once now (leading at once when the lease is free), then every :attr:`poll_s`."""
        self._step()
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the services (when leading), release the lease, stop campaigning."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(30)
        self._step_down(lost=False)
        self.lease.release()

    def _run(self) -> None:
        while not self._stop.wait(self.poll_s):
            self._step()

    def _step(self) -> None:
        self.last_step_at = time.monotonic()
        with self._lock:
            if self._stop.is_set():
                return
            if self._service is not None:
                if not renew_or_lost(self.lease):
                    self._step_down()
                return
            try:
                won = self.lease.try_acquire()
            except Exception as exc:  # store unreachable: try again at the next poll
                log.warning("indexer lease: campaign failed (%s)", exc)
                return
            if won:
                self._lead()

    def _lead(self) -> None:
        log.info("this process leads the index (%s)", self.lease.owner)
        try:
            self._service = self._start()
        except Exception:
            log.exception("the indexer could not start; giving the lease up")
            self.lease.release()
            return
        if self._on_change is not None:
            self._on_change(True)

    def _step_down(self, lost: bool = True) -> None:
        """Stop what the leader runs; ``lost``: the lease was lost (WARNING), else a normal stop (INFO)."""
        service, self._service = self._service, None
        if service is None:
            return
        if lost:
            log.warning("this process no longer leads the index: stopping the watcher and jobs")
        else:
            log.info("stopping: the watcher and jobs stop and the index lease is released")
        service.stop()
        if self._on_change is not None:
            self._on_change(False)
