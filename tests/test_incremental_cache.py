"""Change detection and the chunk-level embedding cache: only chunk texts never embedded before go to
the model. Real LanceDB in tmp_path; the FakeEmbedder counts what is embedded."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from indexer import jobs as jobs_module
from indexer import pipeline as pipeline_module
from tests.incremental_helpers import build, live_hashes, paragraph, write_policy


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    r = tmp_path / "policies"
    write_policy(r / "handbook.md", range(30), "Handbook")
    write_policy(r / "travel.md", range(100, 110), "Travel")
    return r


def test_unchanged_stat_skips_hashing(tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    indexer, _, _ = build(tmp_path, root)
    indexer.reconcile()
    hashed = spy_hashing(monkeypatch)
    assert indexer.reconcile().unchanged == 2
    assert hashed == []


def test_touched_file_is_hashed_but_not_re_embedded(tmp_path: Path, root: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    indexer, _, factory = build(tmp_path, root)
    indexer.reconcile()
    before = factory.embedded
    st = (root / "travel.md").stat()
    os.utime(root / "travel.md", ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    hashed = spy_hashing(monkeypatch)
    summary = indexer.reconcile()
    assert (summary.unchanged, summary.indexed, factory.embedded - before) == (2, 0, 0)
    assert hashed == [root / "travel.md"]


def test_one_paragraph_edit_re_embeds_only_changed_chunks(tmp_path: Path, root: Path) -> None:
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    old = live_hashes(store)
    text = (root / "handbook.md").read_text()
    (root / "handbook.md").write_text(text.replace(paragraph(17), paragraph(9999)))
    summary = indexer.reconcile()
    new_texts = live_hashes(store) - old
    assert summary.indexed == 1
    assert summary.chunks_embedded == len(new_texts) >= 1
    assert summary.chunks_embedded <= 3
    assert summary.chunks_reused > 20


def test_copy_of_a_file_re_embeds_nothing(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    before = factory.embedded
    shutil.copy(root / "handbook.md", root / "handbook_copy.md")
    summary = indexer.reconcile()
    assert (summary.indexed, summary.chunks_embedded, factory.embedded - before) == (1, 0, 0)
    assert summary.chunks_reused == store.documents()["handbook_copy.md"].chunk_count > 0


def test_cached_vectors_equal_fresh_ones(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    shutil.copy(root / "travel.md", root / "again.md")
    indexer.reconcile()
    rows = {r["ordinal"]: r for r in store.chunk_rows("path = 'again.md'")}
    fresh = factory.embedder.embed([rows[0]["indexed_text"]])[0]  # context + text is what is embedded
    assert list(rows[0]["vector"]) == pytest.approx(list(fresh), abs=1e-6)


def spy_hashing(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Record every file the pipeline hashes (the real hash is still computed)."""
    hashed: list[Path] = []
    real = jobs_module.sha256_file

    def spy(path: Path) -> str:
        hashed.append(path)
        return real(path)

    monkeypatch.setattr(jobs_module, "sha256_file", spy)
    monkeypatch.setattr(pipeline_module, "sha256_file", spy)
    return hashed
