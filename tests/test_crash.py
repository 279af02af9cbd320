"""Crash safety: a REAL ``policybot index`` process is killed with SIGKILL mid-index and restarted; the
index must then be consistent: no duplicate chunk ids, no orphan chunks, every chunk count matching its
documents row, every file indexed. Also killed mid shadow rebuild: the live generation keeps serving
every file meanwhile, and the restart finishes and swaps the rebuild in."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from core.store import Store
from tests.incremental_helpers import write_policy

REPO = Path(__file__).resolve().parents[1]
POLICYBOT = REPO / ".venv" / "bin" / "policybot"
FILES = 60
POLL_S = 0.25
"""How often the kill point is looked for: each look reads the documents table (tens of ms of CPU), so
looking every 20 ms took most of a core from the indexer being watched (2 cores on CI); at ~0.1 s per
file a look every 0.25 s still kills well inside the run."""


def write_config(path: Path, root: Path, max_tokens: int) -> Path:
    path.write_text(f"policies:\n  root: {root}\nembedding:\n  provider: fake\n"
                    f"chunking:\n  max_tokens: {max_tokens}\n  overlap_tokens: 0\n", encoding="utf-8")
    return path


def start(config: Path, data: Path, root: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen([str(POLICYBOT), "--config", str(config), "--data-dir", str(data), "index",
                             str(root), "--json"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def kill_when(proc: subprocess.Popen[bytes], ready: Callable[[], bool], timeout: float = 120.0) -> None:
    """SIGKILL ``proc`` (and its extraction worker: its session) once ``ready()``; fail if it finished."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            assert proc.poll() is None, "the indexer finished before it could be killed"
            try:
                if ready():
                    break
            except (OSError, ValueError, RuntimeError):  # tables being created: try again
                pass
            time.sleep(POLL_S)
        else:
            pytest.fail("the indexer never reached the kill point")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)


def finish(config: Path, data: Path, root: Path) -> None:
    proc = start(config, data, root)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()[-2000:]


def assert_consistent(data: Path, root: Path) -> None:
    store = Store(data)
    docs = store.documents()
    counts = store.chunk_counts()
    files = {p.relative_to(root).as_posix() for p in root.rglob("*.md")}
    assert set(docs) == files
    assert all(d.status == "indexed" for d in docs.values())
    assert store.duplicate_chunk_ids() == 0
    assert set(counts) == set(docs)  # no orphan chunks, no document without chunks
    assert all(counts[p] == d.chunk_count for p, d in docs.items())
    assert store.state().building is None


def documents_at_least(reader: Store, n: int) -> Callable[[], bool]:
    return lambda: len(reader.documents()) >= n


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    r = tmp_path / "policies"
    for i in range(FILES):
        write_policy(r / f"dept{i % 4}" / f"policy_{i:02d}.md", range(i * 10, i * 10 + 8), f"Policy {i}")
    return r


def test_kill_9_mid_index_then_restart_is_consistent(tmp_path: Path, root: Path) -> None:
    data, config = tmp_path / "data", write_config(tmp_path / "c.yaml", root, 96)
    for rows in (5, 25):  # killed twice, at different points
        kill_when(start(config, data, root), documents_at_least(Store(data), rows))
    reader = Store(data)
    assert 5 <= len(reader.documents()) < FILES
    finish(config, data, root)
    assert_consistent(data, root)


def test_kill_9_mid_shadow_rebuild_keeps_serving_then_swaps(tmp_path: Path, root: Path) -> None:
    data = tmp_path / "data"
    finish(write_config(tmp_path / "a.yaml", root, 96), data, root)
    live = Store(data)
    generation, chunks = live.generation, live.count_chunks()
    smaller = write_config(tmp_path / "b.yaml", root, 64)

    def shadow_has_rows() -> bool:
        building = live.state().building
        return building is not None and len(live.shadow(building).documents()) >= 10

    kill_when(start(smaller, data, root), shadow_has_rows)
    assert (live.generation, live.count_chunks(), len(live.documents())) == (generation, chunks, FILES)
    finish(smaller, data, root)
    assert live.generation != generation and live.generations_on_disk() == {live.generation}
    assert_consistent(data, root)
