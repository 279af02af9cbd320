"""The runner's writer thread: files are written in job order, and a failed write stops the run
after the files before it are stored."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import Store
from core.types import Chunk
from indexer.chunker import Chunker
from indexer.embed_cache import EmbeddingCache
from indexer.extract import extract_file
from indexer.jobs import Job, sha256_file
from indexer.runner import FileRunner
from indexer.summary import IndexSummary

NAMES = ["a.md", "b.md", "c.md", "d.md"]


class RecordingStore(Store):
    """A real Store that records the order of chunk writes and fails the write of ``fail``."""

    def __init__(self, data_dir: Path, fail: str | None = None) -> None:
        super().__init__(data_dir)
        self.fail = fail
        self.written: list[str] = []

    def replace_chunks(self, path: str, chunks: Sequence[Chunk], vectors: np.ndarray, *args: object,
                       **kwargs: object) -> None:
        if path == self.fail:
            raise OSError(f"disk full writing {path}")
        super().replace_chunks(path, chunks, vectors, *args, **kwargs)  # type: ignore[arg-type]
        self.written.append(path)


def run(tmp_path: Path, store: RecordingStore) -> IndexSummary:
    """Index the files of :data:`NAMES` into ``store`` through a FileRunner (fake embedder)."""
    root = tmp_path / "policies"
    root.mkdir()
    jobs = []
    for i, name in enumerate(NAMES):
        path = root / name
        path.write_text(f"# Policy {i}\n\nRule {i} applies to every employee of the company.\n")
        jobs.append(Job(path, name, path.stat(), sha256_file(path), None))
    settings = Settings()
    emb = FakeEmbedder()
    chunker = Chunker(settings.chunking, emb.count_tokens, emb.max_tokens)
    runner = FileRunner(lambda path, r: extract_file(path, r, settings), "fp", lambda: chunker,
                        lambda: emb, lambda: "key", EmbeddingCache(store.db))
    summary = IndexSummary()
    runner.run(store, jobs, root, summary)
    return summary


def test_files_are_written_in_job_order(tmp_path: Path) -> None:
    store = RecordingStore(tmp_path / "data")
    summary = run(tmp_path, store)
    assert summary.indexed == len(NAMES)
    assert store.written == NAMES


def test_failed_write_stops_the_run_after_earlier_files_are_stored(tmp_path: Path) -> None:
    store = RecordingStore(tmp_path / "data", fail="b.md")
    with pytest.raises(OSError, match="disk full"):
        run(tmp_path, store)
    docs = store.documents()
    assert docs["a.md"].status == "indexed"
    assert "c.md" not in docs and "d.md" not in docs
