"""The indexer's leader lease (core.lease, indexer.lock) on a local folder and on the S3 server.

Clocks are injected where expiry is the subject; the S3 cases run real conditional PUTs.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from core.blobs import LocalBlobStore, make_blob_store
from core.errors import IndexLockedError
from core.lease import Lease, read_lease
from core.store_location import StoreLocation
from indexer.lock import IndexerRole, WriterLock

REPO = Path(__file__).resolve().parents[1]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def two(blobs: LocalBlobStore, clock: Clock, ttl: float = 30.0) -> tuple[Lease, Lease]:
    return Lease(blobs, ttl_s=ttl, clock=clock), Lease(blobs, ttl_s=ttl, clock=clock)


def test_only_one_of_two_contenders_holds_the_lease(tmp_path: Path) -> None:
    a, b = two(LocalBlobStore(tmp_path), Clock())
    assert a.try_acquire() and not b.try_acquire()
    assert a.held and not b.held and a.renew()


def test_an_expired_lease_is_taken_over_and_the_old_holder_loses_it(tmp_path: Path) -> None:
    clock = Clock()
    a, b = two(LocalBlobStore(tmp_path), clock)
    assert a.try_acquire()
    clock.now += 29.0
    assert not b.try_acquire()
    clock.now += 2.0  # a stopped renewing: expired
    assert b.try_acquire() and not a.renew() and not a.held


def test_renewal_keeps_the_lease_past_its_first_ttl(tmp_path: Path) -> None:
    clock = Clock()
    a, b = two(LocalBlobStore(tmp_path), clock)
    a.try_acquire()
    for _ in range(5):
        clock.now += 20.0
        assert a.renew()
    assert not b.try_acquire()


def test_release_lets_the_next_contender_in_at_once(tmp_path: Path) -> None:
    a, b = two(LocalBlobStore(tmp_path), Clock())
    a.try_acquire()
    a.release()
    assert b.try_acquire()
    info = read_lease(LocalBlobStore(tmp_path))
    assert info is not None and info.owner == b.owner


def test_a_dead_local_holder_is_taken_over_at_once(tmp_path: Path) -> None:
    code = ("from pathlib import Path; from core.blobs import LocalBlobStore; from core.lease import Lease; "
            f"Lease(LocalBlobStore(Path({str(tmp_path)!r})), local_takeover=True).try_acquire(); "
            "print('held', flush=True)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "held"  # the holder exited without releasing: its lease is still live
    remote = Lease(LocalBlobStore(tmp_path))  # an object store's rule: wait for the TTL
    local = Lease(LocalBlobStore(tmp_path), local_takeover=True)
    assert not remote.try_acquire() and local.try_acquire()


def test_writer_lock_names_the_holder(tmp_path: Path) -> None:
    with WriterLock(tmp_path), pytest.raises(IndexLockedError, match=r"already writing.*") as err:
        WriterLock(tmp_path).acquire()
    assert f"on {socket.gethostname()}" in str(err.value)


def test_role_starts_the_service_only_while_leading(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    started: list[str] = []

    class Service:
        def __init__(self, name: str) -> None:
            self.name = name
            started.append(name)

        def stop(self) -> None:
            started.append(f"stop {self.name}")

    first = IndexerRole(Lease(blobs, ttl_s=3), lambda: Service("first")).start()
    second = IndexerRole(Lease(blobs, ttl_s=3), lambda: Service("second")).start()
    assert first.is_leader and not second.is_leader and started == ["first"]
    first.stop()  # releases: the second takes over at its next poll
    done = threading.Event()
    for _ in range(100):
        if second.is_leader:
            done.set()
            break
        threading.Event().wait(0.1)
    second.stop()
    assert done.is_set() and started == ["first", "stop first", "second", "stop second"]


def test_on_s3_exactly_one_of_many_racing_contenders_wins(s3_uri: str) -> None:
    blobs = make_blob_store(StoreLocation.parse(s3_uri))
    leases = [Lease(blobs, ttl_s=30) for _ in range(6)]
    results: list[bool] = [False] * len(leases)
    barrier = threading.Barrier(len(leases))

    def contend(i: int) -> None:
        barrier.wait()
        results[i] = leases[i].try_acquire()

    threads = [threading.Thread(target=contend, args=(i,)) for i in range(len(leases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sum(results) == 1
    winner = leases[results.index(True)]
    info = read_lease(blobs)
    assert info is not None and info.owner == winner.owner and winner.renew()


def test_status_text_shows_the_leader_since_and_lease_expiry(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from policybot.cli import cli

    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "a.md").write_text("# A\n\nThe approval limit is 500 euros.\n")
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"embedding:\n  provider: fake\npolicies:\n  root: {tmp_path / 'policies'}\n"
                   f"data_dir: {tmp_path / 'data'}\n")
    assert CliRunner().invoke(cli, ["--config", str(cfg), "index", "--json"]).exit_code == 0
    with WriterLock(tmp_path / "data"):
        out = CliRunner().invoke(cli, ["--config", str(cfg), "status"]).stdout
    line = next(x for x in out.splitlines() if x.startswith("indexer leader:"))
    assert f"pid {os.getpid()} on " in line and " since " in line and "lease until " in line


def test_role_stops_the_service_when_the_lease_is_taken_over(tmp_path: Path) -> None:
    blobs, clock = LocalBlobStore(tmp_path), Clock()
    stopped = threading.Event()

    class Service:
        def stop(self) -> None:
            stopped.set()

    role = IndexerRole(Lease(blobs, ttl_s=3, clock=clock), Service).start()
    try:
        assert role.is_leader
        clock.now += 10  # the leader stalled past its TTL (a long pause): another process takes over
        assert Lease(blobs, ttl_s=3, clock=clock).try_acquire()
        assert stopped.wait(30) and not role.is_leader
    finally:
        role.stop()
