"""One elected indexer over an object store: two REAL ``policybot run`` processes on one ``s3://`` data dir
(SeaweedFS on 127.0.0.1). Only one leads; ``kill -9`` of the leader in the middle of its reconcile hands
the lease to the other within ``store.lease_ttl_s`` + 5 s, and the new leader's reconcile completes with
every file indexed once and no duplicate chunks.

Without Slack tokens ``run`` opens the console chat on stdin; the test keeps stdin open (a pipe) so the
processes serve until killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from core.lease import LeaseInfo, read_lease
from core.store import Store
from tests.incremental_helpers import write_policy

REPO = Path(__file__).resolve().parents[1]
POLICYBOT = REPO / ".venv" / "bin" / "policybot"
FILES = 40
TTL_S = 4.0
POLL_S = 0.25
"""How often :func:`wait_for` looks: a look may read the documents table over S3 (tens of ms of CPU here
and in the S3 server), which at every 50 ms took CPU from the replicas under test. The hand-over time is
measured from the lease's own ``since``, so the look interval does not enter it."""


def wait_for(check: Callable[[], object], timeout: float, what: str) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
        except (OSError, ValueError, RuntimeError):  # tables being created: look again
            value = None
        if value:
            return value
        time.sleep(POLL_S)
    pytest.fail(f"timed out waiting for {what}")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "policies"
    for i in range(FILES):
        write_policy(r / f"dept{i % 4}" / f"policy_{i:02d}.md", range(i * 10, i * 10 + 8), f"Policy {i}")
    return r


def replica(config: Path, uri: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([str(POLICYBOT), "--config", str(config), "--data-dir", uri, "run"], cwd=REPO,
                            env={**os.environ, **env, "HF_HUB_OFFLINE": "1"}, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def leader(store: Store) -> LeaseInfo | None:
    info = read_lease(store.blobs)
    return info if info is not None and info.live(time.time()) else None


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(30)


def test_kill_9_of_the_leader_mid_reconcile_hands_over_within_ttl(tmp_path: Path, root: Path, s3_uri: str,
                                                                  s3_env: dict[str, str]) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(f"policies:\n  root: {root}\nembedding:\n  provider: fake\n"
                      "chunking:\n  max_tokens: 48\n  overlap_tokens: 0\n"
                      f"store:\n  lease_ttl_s: {TTL_S}\n  read_consistency_s: 1\n")
    store = Store(s3_uri)
    first = replica(config, s3_uri, s3_env)
    second: subprocess.Popen[bytes] | None = None
    try:
        held = wait_for(lambda: leader(store), 120, "the first replica to take the lease")
        assert isinstance(held, LeaseInfo) and held.pid == first.pid
        second = replica(config, s3_uri, s3_env)
        wait_for(lambda: len(store.documents()) >= 5, 120, "the leader's reconcile to be under way")
        assert second.poll() is None and leader(store).pid == first.pid  # type: ignore[union-attr]
        assert len(store.documents()) < FILES, "the reconcile finished before the kill"
        os.killpg(first.pid, signal.SIGKILL)
        killed_at = time.time()
        first.wait(30)
        took = wait_for(lambda: (i := leader(store)) is not None and i.pid == second.pid and i, TTL_S + 60,
                        "the second replica to take the lease")
        assert isinstance(took, LeaseInfo)
        print(f"lease taken over {took.since - killed_at:.1f} s after the kill (TTL {TTL_S} s)")
        assert took.since - killed_at <= TTL_S + 5.0
        files = {p.relative_to(root).as_posix() for p in root.rglob("*.md")}
        wait_for(lambda: set(store.documents()) == files and store.state().reconciled_at > killed_at, 180,
                 "the new leader's reconcile to finish")
    finally:
        for proc in (first, second):
            if proc is not None:
                stop(proc)
    docs = store.documents()
    counts = store.chunk_counts()
    assert all(d.status == "indexed" for d in docs.values())
    assert store.duplicate_chunk_ids() == 0
    assert set(counts) == set(docs) and all(counts[p] == d.chunk_count for p, d in docs.items())
