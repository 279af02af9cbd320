"""Indexing pipeline: reconcile, change detection, removal, failures, patterns and the watcher.

Real LanceDB in tmp_path; the FakeEmbedder stands in for the model (it is not the subject here).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import DocumentRecord, Store, sql_str
from core.types import ExtractedDocument
from indexer.extract import extract_file
from indexer.patterns import is_indexable
from indexer.pipeline import Indexer, IndexSummary
from indexer.runner import LOOKAHEAD
from indexer.watcher import start_watching

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
SAMPLES = REPO / "policies"
QUOTE_NAME = "x' OR path LIKE '%.pdf"


class Factory:
    """Embedder factory that counts how often it is asked to build the model."""

    def __init__(self) -> None:
        self.builds = 0
        self.embedder = FakeEmbedder()

    def __call__(self) -> FakeEmbedder:
        self.builds += 1
        return self.embedder


def make_settings(tmp_path: Path, root: Path, **extra: object) -> Settings:
    return Settings.model_validate({"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
                                    "embedding": {"provider": "fake"}, **extra})


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A policy folder with the three sample policies."""
    r = tmp_path / "policies"
    shutil.copytree(SAMPLES, r)
    return r


@pytest.fixture()
def setup(tmp_path: Path, root: Path) -> tuple[Indexer, Store, Factory]:
    settings = make_settings(tmp_path, root)
    store = Store(settings.data_dir)
    factory = Factory()
    return Indexer(settings, store, factory), store, factory


def chunk_texts(store: Store, rel: str) -> list[str]:
    return [r["text"] for r in store.chunk_rows(f"path = {sql_str(rel)}", ["text"])]


def test_reconcile_indexes_every_sample(setup: tuple[Indexer, Store, Factory]) -> None:
    indexer, store, _ = setup
    summary = indexer.reconcile()
    assert (summary.indexed, summary.failed, summary.pages) == (3, 0, 2)
    assert summary.chunks_embedded == store.count_chunks() > 3
    assert set(store.documents()) == {"hr/remote_work_policy.md", "hr/travel_and_expenses.docx",
                                      "insurance/group_health_summary.pdf"}


def test_stored_chunks_keep_page_and_section(setup: tuple[Indexer, Store, Factory]) -> None:
    indexer, store, _ = setup
    indexer.reconcile()
    pdf_rows = store.chunk_rows(f"path = {sql_str('insurance/group_health_summary.pdf')}")
    assert {r["page"] for r in pdf_rows} == {1, 2}
    md_rows = store.chunk_rows(f"path = {sql_str('hr/remote_work_policy.md')}")
    assert any(r["section"] == "Remote Work Policy > 3. Working hours" for r in md_rows)


def test_unchanged_files_are_not_re_embedded(setup: tuple[Indexer, Store, Factory]) -> None:
    indexer, store, factory = setup
    indexer.reconcile()
    calls = len(factory.embedder.calls)
    summary = indexer.reconcile()
    assert (summary.indexed, summary.unchanged, summary.chunks_embedded) == (0, 3, 0)
    assert len(factory.embedder.calls) == calls


def test_noop_reconcile_never_builds_the_embedder(tmp_path: Path, root: Path) -> None:
    settings = make_settings(tmp_path, root)
    Indexer(settings, Store(settings.data_dir), Factory()).reconcile()
    fresh = Factory()
    summary = Indexer(settings, Store(settings.data_dir), fresh).reconcile()
    assert summary.unchanged == 3
    assert fresh.builds == 0


def test_touched_but_identical_file_is_not_re_embedded(setup: tuple[Indexer, Store, Factory],
                                                       root: Path) -> None:
    indexer, _, factory = setup
    indexer.reconcile()
    calls = len(factory.embedder.calls)
    md = root / "hr/remote_work_policy.md"
    os.utime(md, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert indexer.reconcile().unchanged == 3
    assert len(factory.embedder.calls) == calls


def test_edited_file_is_re_embedded(setup: tuple[Indexer, Store, Factory], root: Path) -> None:
    indexer, store, factory = setup
    indexer.reconcile()
    md = root / "hr/remote_work_policy.md"
    md.write_text(md.read_text().replace("3 days per week", "4 days per week"))
    calls = len(factory.embedder.calls)
    summary = indexer.reconcile()
    assert (summary.indexed, summary.unchanged) == (1, 2)
    assert len(factory.embedder.calls) == calls + 1
    texts = " ".join(chunk_texts(store, "hr/remote_work_policy.md"))
    assert "4 days per week" in texts and "3 days per week" not in texts


def test_deleted_file_chunks_are_gone(setup: tuple[Indexer, Store, Factory], root: Path) -> None:
    indexer, store, _ = setup
    indexer.reconcile()
    (root / "hr/travel_and_expenses.docx").unlink()
    summary = indexer.reconcile()
    assert summary.removed == 1
    assert chunk_texts(store, "hr/travel_and_expenses.docx") == []
    assert "hr/travel_and_expenses.docx" not in store.documents()
    assert chunk_texts(store, "hr/remote_work_policy.md")


def test_quote_in_file_name_indexes_and_deletes_only_itself(setup: tuple[Indexer, Store, Factory],
                                                            root: Path) -> None:
    indexer, store, _ = setup
    shutil.copy(root / "insurance/group_health_summary.pdf", root / QUOTE_NAME)
    assert indexer.reconcile().indexed == 4
    assert chunk_texts(store, QUOTE_NAME)
    before = store.count_chunks() - len(chunk_texts(store, QUOTE_NAME))
    assert indexer.remove_path(root / QUOTE_NAME) is True
    assert chunk_texts(store, QUOTE_NAME) == []
    assert store.count_chunks() == before
    assert chunk_texts(store, "insurance/group_health_summary.pdf")


def test_broken_files_fail_with_reasons_while_others_index(tmp_path: Path, root: Path) -> None:
    for f in (CORPUS / "broken").iterdir():
        shutil.copy(f, root / f.name)
    settings = make_settings(tmp_path, root)
    store = Store(settings.data_dir)
    summary = Indexer(settings, store, Factory()).reconcile()
    assert (summary.indexed, summary.failed) == (3, 4)
    reasons = {f["file"]: f["reason"] for f in summary.failures}
    assert "password-protected" in reasons["Contoso_Real_Estate_Support_Guide_password_protected.pdf"]
    assert "truncated" in reasons["HDFHLIP23024V072223_truncated.pdf"]
    assert "empty file" in reasons["empty_upload.pdf"]
    assert "rights-protected" in reasons["Zava_Claims_Insurance_Policies.docx"]
    docs = store.documents()
    assert docs["empty_upload.pdf"].status == "failed" and docs["empty_upload.pdf"].error


def test_failed_file_stays_listed_but_is_not_retried(tmp_path: Path, root: Path) -> None:
    shutil.copy(CORPUS / "broken/empty_upload.pdf", root / "empty.pdf")
    settings = make_settings(tmp_path, root)
    indexer = Indexer(settings, Store(settings.data_dir), Factory())
    indexer.reconcile()
    again = indexer.reconcile()
    assert (again.failed, again.unchanged, again.indexed) == (1, 3, 0)
    assert again.failures[0]["file"] == "empty.pdf"


def test_restricted_pdf_indexes(tmp_path: Path) -> None:
    r = tmp_path / "p"
    r.mkdir()
    shutil.copy(CORPUS / "hard/EDLHLGA23009V012223_restricted.pdf", r / "restricted.pdf")
    settings = make_settings(tmp_path, r)
    summary = Indexer(settings, Store(settings.data_dir), Factory()).reconcile()
    assert (summary.indexed, summary.pages) == (1, 2)


def test_config_change_re_indexes(tmp_path: Path, root: Path) -> None:
    settings = make_settings(tmp_path, root)
    Indexer(settings, Store(settings.data_dir), Factory()).reconcile()
    smaller = make_settings(tmp_path, root, chunking={"max_tokens": 64, "overlap_tokens": 8})
    assert Indexer(smaller, Store(smaller.data_dir), Factory()).reconcile().indexed == 3


def test_ignored_and_unsupported_files_are_skipped(setup: tuple[Indexer, Store, Factory], root: Path) -> None:
    indexer, store, _ = setup
    for name in ("~$draft.docx", ".hidden.md", "notes.tmp", "sheet.xlsx"):
        (root / name).write_text("x")
    indexer.reconcile()
    assert len(store.documents()) == 3


@pytest.mark.parametrize(("rel", "expected"), [
    ("hr/a.pdf", True), ("HR/B.PDF", True), ("a.md", True), ("~$a.docx", False), (".~lock.a.docx#", False),
    ("a.docx.tmp", False), (".git/x.md", False), ("@eaDir/a.pdf", False), ("x/__MACOSX/a.pdf", False),
    ("a.xlsx", False), (QUOTE_NAME, True),
])
def test_is_indexable(rel: str, expected: bool) -> None:
    assert is_indexable(rel, Settings()) is expected


def test_index_path_outcomes(setup: tuple[Indexer, Store, Factory], root: Path) -> None:
    indexer, _, _ = setup
    md = root / "hr/remote_work_policy.md"
    assert indexer.index_path(md) == "indexed"
    assert indexer.index_path(md) == "unchanged"
    assert indexer.index_path(root / "notes.tmp") == "ignored"
    md.unlink()
    assert indexer.index_path(md) == "removed"


def test_progress_reports_each_file(setup: tuple[Indexer, Store, Factory]) -> None:
    indexer, _, _ = setup
    seen: list[tuple[str, int, int]] = []
    indexer.reconcile(progress=lambda path, done, total: seen.append((path, done, total)))
    assert seen[-1] == ("", 3, 3)
    assert [s[0] for s in seen[:3]] == ["hr/remote_work_policy.md", "hr/travel_and_expenses.docx",
                                         "insurance/group_health_summary.pdf"]


def test_summary_json_shape() -> None:
    s = IndexSummary(indexed=1, seconds=1.234)
    s.add_failure("a.pdf", "empty file")
    assert s.to_json() == {"indexed": 1, "unchanged": 0, "failed": 1, "removed": 0, "moved": 0, "pages": 0,
                           "chunks_embedded": 0, "chunks_reused": 0, "repaired": 0, "rebuilt": None,
                           "seconds": 1.23, "held_removals": 0, "held_reason": "",
                           "failures": [{"file": "a.pdf", "reason": "empty file"}]}


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


class HeldRowStore(Store):
    """A Store whose ``indexed`` documents row for ``held`` waits until ``release`` is set: the instant
    between a file's chunk commit and its row commit, held open so a test can look at it."""

    def __init__(self, data_dir: Path | str, held: str) -> None:
        super().__init__(data_dir)
        self.held = held
        self.reached = threading.Event()
        self.release = threading.Event()

    def put_document(self, rec: DocumentRecord) -> None:
        if rec.path == self.held and rec.status == "indexed":
            self.reached.set()
            assert self.release.wait(30), "the test never released the row write"
        super().put_document(rec)


def test_a_new_files_chunks_are_live_before_its_row(tmp_path: Path) -> None:
    """The interleaving behind a flaky watcher test: a new file's chunks commit first and its documents
    row after (``FileRunner._prepare``'s write). In between, "no row" does not mean "deleted": the
    chunks are live and the row is simply not written yet. A test that waits for a removal must first
    wait for the row (written last), not for the chunks (written first)."""
    r = tmp_path / "watched"
    r.mkdir()
    (r / "leave.md").write_text("# Leave\n\nYou get 25 days of annual leave.\n")
    settings = make_settings(tmp_path, r)
    store = HeldRowStore(settings.data_dir, "leave.md")
    indexer = Indexer(settings, store, Factory())
    worker = threading.Thread(target=indexer.index_path, args=(r / "leave.md",))
    worker.start()
    try:
        assert store.reached.wait(30)
        assert chunk_texts(store, "leave.md") and "leave.md" not in store.documents()
    finally:
        store.release.set()
        worker.join(30)
    assert store.documents()["leave.md"].status == "indexed" and chunk_texts(store, "leave.md")


def test_watcher_indexes_new_and_removes_deleted_files(tmp_path: Path) -> None:
    """Once the row was seen, its absence means the removal ran: ``Store.delete_document`` deletes the
    chunks before the row, so no chunks may be left then."""
    r = tmp_path / "watched"
    r.mkdir()
    settings = make_settings(tmp_path, r, watch={"debounce_s": 0.2})
    store = Store(settings.data_dir)
    watcher = start_watching(settings, Indexer(settings, store, Factory()))
    try:
        (r / "keep.md").write_text("# Desks\n\nDesks are cleared every evening.\n")  # deleting the last
        # file of a folder is held (indexer.removal_guard, tests/test_removal_guard.py)
        (r / "leave.md").write_text("# Leave\n\nYou get 25 days of annual leave.\n")
        # the row, not the chunks: it is written last, so the file is fully indexed before the unlink
        # (chunks alone may still be waiting for their row: test_a_new_files_chunks_are_live_before_its_row)
        assert wait_for(lambda: {"leave.md", "keep.md"} <= set(store.documents()))
        assert chunk_texts(store, "leave.md")
        (r / "leave.md").unlink()
        assert wait_for(lambda: "leave.md" not in store.documents())
        assert chunk_texts(store, "leave.md") == []
    finally:
        watcher.stop()


def test_file_vanishing_mid_reconcile_does_not_stop_the_others(setup: tuple[Indexer, Store, Factory],
                                                                root: Path) -> None:
    indexer, store, _ = setup
    victim = root / "hr/travel_and_expenses.docx"

    def delete_victim(path: str, done: int, total: int) -> None:
        if path == "hr/travel_and_expenses.docx":
            victim.unlink()

    summary = indexer.reconcile(progress=delete_victim)
    assert (summary.indexed, summary.failed) == (2, 0)
    assert "hr/travel_and_expenses.docx" not in store.documents()


def test_next_files_are_extracted_while_one_embeds(tmp_path: Path) -> None:
    r = tmp_path / "many"
    r.mkdir()
    for i in range(LOOKAHEAD + 2):
        (r / f"p{i}.md").write_text(f"# Policy {i}\n\nRule number {i} applies to every employee.\n")
    settings = make_settings(tmp_path, r)
    extracted: list[str] = []
    seen_at_first_embed: list[int] = []

    def extract(path: Path, root: Path) -> ExtractedDocument:
        extracted.append(path.name)
        return extract_file(path, root, settings)

    class Watching(FakeEmbedder):
        def embed(self, texts: Sequence[str]) -> np.ndarray:
            if not seen_at_first_embed:
                wait_for(lambda: len(extracted) >= 1 + LOOKAHEAD)
                seen_at_first_embed.append(len(extracted))
            return super().embed(texts)

    embedder = Watching()
    summary = Indexer(settings, Store(settings.data_dir), lambda: embedder, extract=extract).reconcile()
    assert summary.indexed == LOOKAHEAD + 2
    assert seen_at_first_embed == [1 + LOOKAHEAD]
