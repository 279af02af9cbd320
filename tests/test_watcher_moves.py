"""Watcher, bulk copies, renames, folder moves and deletes, with real watchdog observers (native inotify
and polling) on temp folders, real LanceDB and the FakeEmbedder. Each test ends with the index matching
the folder and no duplicate chunk rows."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.watcher_helpers import assert_index_matches_folder, indexed, settle, texts, wait_for, watching

OBSERVERS = ["native", "polling"]


def policy_text(n: int) -> str:
    return f"# Policy {n}\n\nRule {n}: the approval limit for team {n} is {n * 10} euros.\n"


@pytest.mark.parametrize("observer", OBSERVERS)
def test_rename_moves_the_rows_to_the_new_path(tmp_path: Path, observer: str) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "draft.md").write_text(policy_text(1))
    with watching(tmp_path, observer) as w:
        settle(w, lambda: indexed(w) == {"draft.md"})
        chunks, embedded = w.store.documents()["draft.md"].chunk_count, w.embedder.embedded
        os.rename(root / "draft.md", root / "final.md")
        settle(w, lambda: indexed(w) == {"final.md"})
        assert w.embedder.embedded == embedded  # paths rewritten, nothing re-embedded
        assert w.store.documents()["final.md"].chunk_count == chunks
        assert texts(w, "draft.md") == ""
        assert_index_matches_folder(w)


@pytest.mark.parametrize("observer", OBSERVERS)
def test_folder_moved_in_then_out_indexes_then_removes_its_files(tmp_path: Path, observer: str) -> None:
    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "keep.md").write_text(policy_text(9))  # moving out every file is held
    with watching(tmp_path, observer) as w:  # (indexer.removal_guard, tests/test_removal_guard.py)
        team = w.outside / "team"
        (team / "sub").mkdir(parents=True)
        for n, rel in enumerate(["a.md", "b.md", "sub/c.md"]):
            (team / rel).write_text(policy_text(n))
        os.rename(team, w.root / "team")
        settle(w, lambda: indexed(w) == {"keep.md", "team/a.md", "team/b.md", "team/sub/c.md"})
        assert_index_matches_folder(w)
        os.rename(w.root / "team", w.outside / "archived")
        settle(w, lambda: indexed(w) == {"keep.md"})
        assert {r["path"] for r in w.store.chunk_rows(columns=["path"])} == {"keep.md"}
        assert_index_matches_folder(w)


@pytest.mark.parametrize("observer", OBSERVERS)
def test_folder_renamed_inside_the_root_keeps_every_file(tmp_path: Path, observer: str) -> None:
    root = tmp_path / "policies"
    (root / "hr").mkdir(parents=True)
    for n in range(3):
        (root / "hr" / f"p{n}.md").write_text(policy_text(n))
    with watching(tmp_path, observer) as w:
        settle(w, lambda: len(indexed(w)) == 3)
        embedded = w.embedder.embedded
        os.rename(root / "hr", root / "people")
        settle(w, lambda: indexed(w) == {f"people/p{n}.md" for n in range(3)})
        assert w.embedder.embedded == embedded
        assert_index_matches_folder(w)


@pytest.mark.parametrize("observer", OBSERVERS)
def test_case_only_rename(tmp_path: Path, observer: str) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "Travel.md").write_text(policy_text(7))
    with watching(tmp_path, observer) as w:
        settle(w, lambda: indexed(w) == {"Travel.md"})
        embedded = w.embedder.embedded
        os.rename(root / "Travel.md", root / "travel.md")
        settle(w, lambda: indexed(w) == {"travel.md"})
        assert w.embedder.embedded == embedded
        assert "team 7 is 70 euros" in texts(w, "travel.md")
        assert_index_matches_folder(w)


@pytest.mark.parametrize("observer", OBSERVERS)
def test_delete_removes_document_and_chunks(tmp_path: Path, observer: str) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "keep.md").write_text(policy_text(1))
    (root / "gone.md").write_text(policy_text(2))
    with watching(tmp_path, observer) as w:
        settle(w, lambda: indexed(w) == {"keep.md", "gone.md"})
        (root / "gone.md").unlink()
        settle(w, lambda: indexed(w) == {"keep.md"})
        assert texts(w, "gone.md") == ""
        assert_index_matches_folder(w)


@pytest.mark.parametrize("observer", OBSERVERS)
def test_unavailable_policy_root_does_not_empty_the_index(tmp_path: Path, observer: str) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "keep.md").write_text(policy_text(3))
    with watching(tmp_path, observer) as w:
        settle(w, lambda: indexed(w) == {"keep.md"})
        os.rename(root, tmp_path / "unmounted")  # the share drops away...
        (tmp_path / "unmounted" / "new.md").write_text(policy_text(4))
        reconciles = w.watcher.scheduler.history["reconcile"]
        done = reconciles.runs
        w.watcher.scheduler.run_soon("reconcile")
        assert wait_for(lambda: reconciles.runs > done)
        assert indexed(w) == {"keep.md"}
        os.rename(tmp_path / "unmounted", root)  # ...and comes back (with a file added meanwhile)
        settle(w, lambda: indexed(w) == {"keep.md", "new.md"})
        assert_index_matches_folder(w)


@pytest.mark.parametrize("observer", OBSERVERS)
def test_policy_root_deleted_and_recreated_is_watched_again(tmp_path: Path, observer: str) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "old.md").write_text(policy_text(5))
    with watching(tmp_path, observer) as w:
        settle(w, lambda: indexed(w) == {"old.md"})
        shutil.rmtree(root)  # while the root is missing, its rows stay (it may be an unmounted share)
        assert wait_for(lambda: w.watcher.pending_count() > 0 or indexed(w) == set())
        root.mkdir()
        (root / "fresh.md").write_text(policy_text(6))
        settle(w, lambda: indexed(w) == {"fresh.md"})
        assert_index_matches_folder(w)
