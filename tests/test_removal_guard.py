"""An emptied or mostly emptied policy folder never empties the index by surprise (indexer.removal_guard).

Real LanceDB in tmp_path, the fake embedder, real watchdog observers and the CLI in a child process:
* a reconcile of an empty folder removes nothing, records why (``status`` and ``status --json``) and
  the index keeps serving; ``allow_removals`` / ``policybot index --allow-removals`` removes them, and
  a reconcile after the files came back clears the record;
* more than ``index.max_removal_fraction`` of a larger index is held, a share below it is removed, a
  small index loses files normally, and a folder renamed as a whole is a move, not a removal;
* the watcher: deleting every file keeps the index (its reconcile holds the removals).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import Store
from indexer.pipeline import Indexer
from indexer.removal_guard import MIN_DOCUMENTS_FOR_SHARE, read_held, removal_problem
from policybot.status import collect
from tests.cli_helpers import LEAVE, TRAVEL, policy_folder, run_cli, write_config
from tests.watcher_helpers import indexed, settle, wait_for, watching

OBSERVERS = ["native", "polling"]


def _policy(n: int) -> str:
    return f"# Acme policy {n}\n\nEmployees of team {n} may claim {n * 10} euros for desk equipment.\n"


def _folder(root: Path, count: int) -> Path:
    return policy_folder(root, {f"team/p{n:02d}.md": _policy(n) for n in range(count)})


def _setup(tmp_path: Path, count: int, **index: object) -> tuple[Path, Settings, Store]:
    root = _folder(tmp_path / "policies", count)
    settings = Settings.model_validate({"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
                                        "embedding": {"provider": "fake"}, "index": index})
    store = Store(settings.data_dir)
    Indexer(settings, store, FakeEmbedder).reconcile()
    assert len(store.documents()) == count
    return root, settings, store


def test_empty_folder_keeps_the_index_and_status_says_why(tmp_path: Path) -> None:
    root, settings, store = _setup(tmp_path, 3)
    chunks = store.count_chunks()
    shutil.rmtree(root / "team")
    summary = Indexer(settings, store, FakeEmbedder).reconcile()
    assert (summary.removed, summary.held_removals) == (0, 3)
    assert len(store.documents()) == 3 and store.count_chunks() == chunks
    held = collect(settings, store)["held_removals"]
    assert held["count"] == 3 and held["indexed"] == 3 and held["files"][0] == "team/p00.md"
    assert "every indexed document" in held["reason"] and "--allow-removals" in held["reason"]

    summary = Indexer(settings, store, FakeEmbedder).reconcile(allow_removals=True)
    assert summary.removed == 3 and store.documents() == {} and read_held(store.blobs) is None


def test_record_is_cleared_when_the_files_come_back(tmp_path: Path) -> None:
    root, settings, store = _setup(tmp_path, 2)
    os.rename(root / "team", tmp_path / "away")  # the share's content drops away ...
    assert Indexer(settings, store, FakeEmbedder).reconcile().held_removals == 2
    assert read_held(store.blobs) is not None
    os.rename(tmp_path / "away", root / "team")  # ... and comes back
    summary = Indexer(settings, store, FakeEmbedder).reconcile()
    assert (summary.held_removals, summary.removed, summary.unchanged) == (0, 0, 2)
    assert read_held(store.blobs) is None and collect(settings, store)["held_removals"] is None


def test_more_than_the_share_is_held_and_less_is_removed(tmp_path: Path) -> None:
    count = MIN_DOCUMENTS_FOR_SHARE + 2
    root, settings, store = _setup(tmp_path, count, max_removal_fraction=0.5)
    over = count // 2 + 1
    for n in range(over):
        (root / f"team/p{n:02d}.md").unlink()
    summary = Indexer(settings, store, FakeEmbedder).reconcile()
    assert (summary.held_removals, summary.removed, len(store.documents())) == (over, 0, count)
    assert f"{over} of {count} indexed documents" in summary.held_reason
    policy_folder(root, {f"team/p{n:02d}.md": _policy(n) for n in range(2)})  # two come back: under half
    summary = Indexer(settings, store, FakeEmbedder).reconcile()
    assert (summary.held_removals, summary.removed) == (0, over - 2)
    assert len(store.documents()) == count - over + 2


def test_a_small_index_loses_files_normally_but_never_all(tmp_path: Path) -> None:
    root, settings, store = _setup(tmp_path, 4)
    for n in range(3):
        (root / f"team/p{n:02d}.md").unlink()
    summary = Indexer(settings, store, FakeEmbedder).reconcile()
    assert (summary.removed, summary.held_removals) == (3, 0) and list(store.documents()) == ["team/p03.md"]
    (root / "team/p03.md").unlink()
    assert Indexer(settings, store, FakeEmbedder).reconcile().held_removals == 1


def test_a_folder_renamed_as_a_whole_is_a_move_not_a_removal(tmp_path: Path) -> None:
    root, settings, store = _setup(tmp_path, 3)
    os.rename(root / "team", root / "staff")
    summary = Indexer(settings, store, FakeEmbedder).reconcile()
    assert (summary.held_removals, summary.moved) == (0, 3)
    assert sorted(store.documents()) == ["staff/p00.md", "staff/p01.md", "staff/p02.md"]


@pytest.mark.parametrize(("removing", "indexed_docs", "held"), [
    (0, 5, False), (5, 5, True), (1, 1, True), (3, 4, False),
    (MIN_DOCUMENTS_FOR_SHARE, MIN_DOCUMENTS_FOR_SHARE + 1, True), (5, MIN_DOCUMENTS_FOR_SHARE + 1, False)])
def test_removal_problem_rule(removing: int, indexed_docs: int, held: bool) -> None:
    assert (removal_problem(removing, indexed_docs, 0.5) is not None) == held


def test_cli_index_holds_then_allow_removals_removes(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE, "hr/travel.md": TRAVEL})
    cfg = write_config(tmp_path, root)
    assert run_cli("--config", str(cfg), "index").returncode == 0
    shutil.rmtree(root / "hr")

    out = run_cli("--config", str(cfg), "index", "--json")
    assert out.returncode == 0 and "--allow-removals" in " ".join(out.stderr.split())
    assert json.loads(out.stdout)["held_removals"] == 2
    status = json.loads(run_cli("--config", str(cfg), "status", "--json").stdout)
    assert status["documents"]["indexed"] == 2 and status["held_removals"]["count"] == 2
    text = " ".join(run_cli("--config", str(cfg), "status").stdout.split())
    assert "removals held: 2 of 2 documents kept" in text and "--allow-removals" in text

    out = run_cli("--config", str(cfg), "index", "--allow-removals", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["removed"] == 2
    status = json.loads(run_cli("--config", str(cfg), "status", "--json").stdout)
    assert status["documents"]["indexed"] == 0 and status["held_removals"] is None


@pytest.mark.parametrize("observer", OBSERVERS)
def test_watcher_keeps_the_index_when_every_file_is_deleted(tmp_path: Path, observer: str) -> None:
    root = _folder(tmp_path / "policies", 3)
    with watching(tmp_path, observer) as w:
        settle(w, lambda: len(indexed(w)) == 3)
        reconciles = w.watcher.scheduler.history["reconcile"]
        done = reconciles.runs
        shutil.rmtree(root / "team")  # a sync client empties the folder
        assert wait_for(lambda: reconciles.runs > done and read_held(w.store.blobs) is not None)
        assert len(indexed(w)) == 3 and w.store.count_chunks() > 0
        _folder(root, 3)  # the files come back
        settle(w, lambda: len(indexed(w)) == 3)
        w.watcher.scheduler.run_soon("reconcile")  # the next reconcile finds nothing gone: record cleared
        assert wait_for(lambda: read_held(w.store.blobs) is None)
        assert len(indexed(w)) == 3
