"""Renames, moves, deletes and failed re-extraction: paths change without re-embedding, deletes drop
chunks, and every change publishes the invalidated source paths."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.store import Store, sql_str
from indexer.pipeline import Indexer
from tests.incremental_helpers import Factory, build, write_policy


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    r = tmp_path / "policies"
    write_policy(r / "hr/leave.md", range(10), "Leave")
    write_policy(r / "hr/travel.md", range(100, 108), "Travel")
    write_policy(r / "benefits/dental.md", range(200, 206), "Dental")
    return r


@pytest.fixture()
def indexed(tmp_path: Path, root: Path) -> tuple[Indexer, Store, Factory, list[list[str]]]:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    events: list[list[str]] = []
    indexer.subscribe_invalidated(events.append)
    return indexer, store, factory, events


def chunk_ids(store: Store, rel: str) -> set[str]:
    return {r["chunk_id"] for r in store.chunk_rows(f"path = {sql_str(rel)}", ["chunk_id"])}


def test_rename_moves_rows_without_extracting_or_embedding(root: Path, indexed: tuple) -> None:
    indexer, store, factory, events = indexed
    before, n = factory.embedded, store.documents()["hr/leave.md"].chunk_count
    (root / "hr/leave.md").rename(root / "hr/annual_leave.md")
    summary = indexer.reconcile()
    assert (summary.moved, summary.indexed, summary.removed, factory.embedded - before) == (1, 0, 0, 0)
    assert "hr/leave.md" not in store.documents()
    assert len(chunk_ids(store, "hr/annual_leave.md")) == n and not chunk_ids(store, "hr/leave.md")
    assert events == [["hr/leave.md"]]


def test_directory_move_keeps_every_vector(root: Path, indexed: tuple) -> None:
    indexer, store, factory, _ = indexed
    before = factory.embedded
    shutil.move(str(root / "hr"), str(root / "people"))
    summary = indexer.reconcile()
    assert (summary.moved, summary.indexed, factory.embedded - before) == (2, 0, 0)
    assert set(store.documents()) == {"people/leave.md", "people/travel.md", "benefits/dental.md"}
    assert set(store.chunk_counts()) == set(store.documents())


def test_case_only_rename(root: Path, indexed: tuple) -> None:
    indexer, store, factory, _ = indexed
    before = factory.embedded
    (root / "hr/travel.md").rename(root / "hr/Travel.md")
    assert indexer.reconcile().moved == 1
    assert "hr/Travel.md" in store.documents() and "hr/travel.md" not in store.documents()
    assert factory.embedded == before


def test_moved_chunk_ids_follow_the_new_path(root: Path, indexed: tuple) -> None:
    indexer, store, _, _ = indexed
    old_ids = chunk_ids(store, "benefits/dental.md")
    (root / "benefits/dental.md").rename(root / "benefits/teeth.md")
    indexer.reconcile()
    new_ids = chunk_ids(store, "benefits/teeth.md")
    assert len(new_ids) == len(old_ids) and not new_ids & old_ids
    assert store.duplicate_chunk_ids() == 0


def test_move_path_api_for_a_file(root: Path, indexed: tuple) -> None:
    indexer, store, factory, events = indexed
    before = factory.embedded
    (root / "hr/leave.md").rename(root / "leave.md")
    assert indexer.move_path(root / "hr/leave.md", root / "leave.md") == "moved"
    assert "leave.md" in store.documents() and factory.embedded == before
    assert events == [["hr/leave.md"]]


def test_move_path_api_for_a_folder(root: Path, indexed: tuple) -> None:
    indexer, store, _, events = indexed
    shutil.move(str(root / "hr"), str(root / "staff"))
    assert indexer.move_path(root / "hr", root / "staff") == "moved"
    assert {"staff/leave.md", "staff/travel.md"} <= set(store.documents())
    assert events == [["hr/leave.md", "hr/travel.md"]]


def test_directory_moved_out_of_the_root_removes_its_files(tmp_path: Path, root: Path,
                                                           indexed: tuple) -> None:
    indexer, store, _, events = indexed
    shutil.move(str(root / "hr"), str(tmp_path / "archive"))
    assert indexer.move_path(root / "hr", tmp_path / "archive") == "removed"
    assert set(store.documents()) == {"benefits/dental.md"}
    assert set(store.chunk_counts()) == {"benefits/dental.md"}
    assert events == [["hr/leave.md", "hr/travel.md"]]


def test_editor_save_via_rename_onto_target_reindexes_it(root: Path, indexed: tuple) -> None:
    indexer, store, _, events = indexed
    write_policy(root / "hr/.leave.md.swp", range(10, 21), "Leave")
    (root / "hr/.leave.md.swp").replace(root / "hr/leave.md")
    assert indexer.move_path(root / "hr/.leave.md.swp", root / "hr/leave.md") == "indexed"
    assert store.documents()["hr/leave.md"].chunk_count == len(chunk_ids(store, "hr/leave.md"))
    assert events == [["hr/leave.md"]]


def test_delete_removes_chunks_and_publishes(root: Path, indexed: tuple) -> None:
    indexer, store, _, events = indexed
    (root / "hr/travel.md").unlink()
    assert indexer.reconcile().removed == 1
    assert not chunk_ids(store, "hr/travel.md")
    assert events == [["hr/travel.md"]]


def test_edit_publishes_the_changed_path(root: Path, indexed: tuple) -> None:
    indexer, _, _, events = indexed
    write_policy(root / "benefits/dental.md", range(200, 207), "Dental")
    assert indexer.index_path(root / "benefits/dental.md") == "indexed"
    assert events == [["benefits/dental.md"]]


def test_failed_re_extraction_keeps_the_last_good_chunks(root: Path, indexed: tuple) -> None:
    indexer, store, _, _ = indexed
    good = chunk_ids(store, "hr/travel.md")
    (root / "hr/travel.md").write_text("   \n")
    summary = indexer.reconcile()
    rec = store.documents()["hr/travel.md"]
    assert summary.failed == 1 and rec.status == "failed" and rec.error
    assert chunk_ids(store, "hr/travel.md") == good
    assert rec.chunk_count == len(good)
    assert indexer.reconcile().repaired == 0


def test_copy_is_not_a_move(root: Path, indexed: tuple) -> None:
    indexer, store, factory, _ = indexed
    before = factory.embedded
    shutil.copy(root / "hr/leave.md", root / "leave_copy.md")
    summary = indexer.reconcile()
    assert (summary.moved, summary.indexed, factory.embedded - before) == (0, 1, 0)
    assert {"hr/leave.md", "leave_copy.md"} <= set(store.documents())


def test_subscriber_error_does_not_break_indexing(root: Path, indexed: tuple) -> None:
    indexer, store, _, _ = indexed

    def broken(paths: list[str]) -> None:
        raise RuntimeError("subscriber bug")

    indexer.subscribe_invalidated(broken)
    (root / "hr/travel.md").unlink()
    assert indexer.reconcile().removed == 1
    assert "hr/travel.md" not in store.documents()


def test_index_path_of_a_renamed_file_is_a_move(root: Path, indexed: tuple) -> None:
    indexer, store, factory, events = indexed
    before = factory.embedded
    (root / "hr/travel.md").rename(root / "hr/Travel.md")
    assert indexer.index_path(root / "hr/Travel.md") == "moved"
    assert "hr/travel.md" not in store.documents() and factory.embedded == before
    assert events == [["hr/travel.md"]]


def test_listings_answer_as_exists_exact_with_one_listing_per_folder(tmp_path: Path) -> None:
    import unicodedata

    from indexer.moves import Listings, exists_exact

    decomposed = unicodedata.normalize("NFD", "Übersicht.md")
    (tmp_path / decomposed).write_text("x", encoding="utf-8")
    (tmp_path / "Leave.md").write_text("x", encoding="utf-8")
    listed = Listings()
    names = ["Übersicht.md", decomposed, "Leave.md", "leave.md", "gone.md"]
    assert [listed.exists_exact(tmp_path / n) for n in names] == [exists_exact(tmp_path / n) for n in names]
    assert [listed.exists_exact(tmp_path / n) for n in names] == [True, True, True, False, False]
    (tmp_path / "late.md").write_text("x", encoding="utf-8")  # after the listing: not seen by it
    assert not listed.exists_exact(tmp_path / "late.md") and Listings().exists_exact(tmp_path / "late.md")
    assert not listed.exists_exact(tmp_path / "missing" / "a.md")
