"""The pipeline with the isolated extraction worker: a decompression-bomb PDF (< 1 MB on disk, ~1 GB
inflated) and a hanging file are stopped by the limits and recorded failed with their reason while the
other files index; failed files are retried only when they change; extraction overlaps embedding."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from core.embedder import FakeEmbedder
from core.store import Store
from core.types import ExtractedDocument
from indexer.extract import extract_file
from indexer.pipeline import Indexer
from indexer.worker import ExtractionWorker
from tests import incremental_targets
from tests.incremental_helpers import Factory, make_settings, write_policy
from tests.pdf_bomb import write_bomb


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    r = tmp_path / "policies"
    write_policy(r / "leave.md", range(5), "Leave")
    write_policy(r / "travel.md", range(10, 15), "Travel")
    return r


class CountingWorker:
    """An ExtractionWorker that counts the files it was asked to extract."""

    def __init__(self, worker: ExtractionWorker) -> None:
        self.worker = worker
        self.paths: list[str] = []

    def extract(self, path: Path, root: Path) -> ExtractedDocument:
        self.paths.append(path.name)
        return self.worker.extract(path, root)


@contextmanager
def isolated(tmp_path: Path, root: Path, target: object = extract_file,
             **extraction: object) -> Iterator[tuple[Indexer, Store, CountingWorker]]:
    settings = make_settings(tmp_path, root, extraction=extraction)
    worker = CountingWorker(ExtractionWorker(target, settings))  # type: ignore[arg-type]
    store = Store(settings.data_dir)
    try:
        yield Indexer(settings, store, Factory(), extract=worker.extract), store, worker
    finally:
        worker.worker.close()


def test_decompression_bomb_is_stopped_while_other_files_index(tmp_path: Path, root: Path) -> None:
    bomb = write_bomb(root / "bomb.pdf", inflated_mb=950)
    assert bomb.stat().st_size <= 1_000_000
    with isolated(tmp_path, root, memory_mb=512, timeout_s=120) as (indexer, store, _):
        summary = indexer.reconcile()
        assert (summary.indexed, summary.failed) == (2, 1)
        rec = store.documents()["bomb.pdf"]
        assert rec.status == "failed"
        assert "memory" in rec.error or "longer than" in rec.error
        assert set(store.chunk_counts()) == {"leave.md", "travel.md"}


def test_hanging_file_is_killed_and_the_next_files_index(tmp_path: Path, root: Path) -> None:
    write_policy(root / "a_hang.md", range(3))
    with isolated(tmp_path, root, incremental_targets.hang_on_marker, timeout_s=2) as (indexer, store, _):
        summary = indexer.reconcile()
        assert (summary.indexed, summary.failed) == (2, 1)
        assert "longer than 2 s" in store.documents()["a_hang.md"].error


def test_failed_file_is_retried_only_when_it_changes(tmp_path: Path, root: Path) -> None:
    write_policy(root / "a_hang.md", range(3))
    with isolated(tmp_path, root, incremental_targets.hang_on_marker, timeout_s=2) as (indexer, _, worker):
        indexer.reconcile()
        worker.paths.clear()
        again = indexer.reconcile()
        assert (again.failed, worker.paths) == (1, [])
        write_policy(root / "a_hang.md", range(4))
        indexer.reconcile()
        assert worker.paths == ["a_hang.md"]


def test_extraction_of_the_next_file_overlaps_embedding(tmp_path: Path, root: Path) -> None:
    settings = make_settings(tmp_path, root)
    embedding_leave = threading.Event()
    extracting_travel = threading.Event()

    def extract(path: Path, policy_root: Path) -> ExtractedDocument:
        if path.name == "travel.md":
            extracting_travel.set()
        return extract_file(path, policy_root, settings)

    class BlockingEmbedder(FakeEmbedder):
        def embed(self, texts: Sequence[str]) -> np.ndarray:
            if any("leave0x0" in t for t in texts):
                embedding_leave.set()
                assert extracting_travel.wait(20), "travel.md was not extracted while leave.md embedded"
            return super().embed(texts)

    indexer = Indexer(settings, Store(settings.data_dir), BlockingEmbedder, extract=extract)
    summary = indexer.reconcile()
    assert summary.indexed == 2 and embedding_leave.is_set()

