"""Replacing a document's chunks (core/store_replace.py): a reader never sees the document with no
chunks or with old and new chunks together, and a crash between the two commits is repaired by
reconcile with nothing lost and no duplicate chunks. Real LanceDB in tmp_path."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from core.store import Store, chunks_schema, path_filter
from core.store_replace import RETIRED, count_retired, purge
from core.types import Chunk
from tests.incremental_helpers import build, paragraph, write_policy

N = 12
"""Chunks per version of the replaced document; the first half is the same text in every version."""


def version(v: int) -> list[Chunk]:
    """Version ``v`` of a.md: chunks 0..5 unchanged (same ids in every version), 6..11 new text."""
    out = []
    for i in range(N):
        text = f"okapi shared clause {i}" if i < N // 2 else f"okapi ver{v} clause {i}"
        cid = f"a.md#{i}" if i < N // 2 else f"a.md#v{v}-{i}"
        out.append(Chunk(chunk_id=cid, path="a.md", text=text, page=1, page_end=1, section="", ordinal=i,
                         text_hash=cid))
    return out


def vectors(n: int, dim: int = 16) -> np.ndarray:
    v = np.random.default_rng(n).standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def versions_seen(texts: list[str]) -> set[str]:
    """The version markers among the changed chunks' texts."""
    return {t.split()[1] for t in texts if not t.startswith("okapi shared")}


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "data")
    s.replace_chunks("a.md", version(0), vectors(N))
    s.replace_chunks("b.md", [Chunk("b.md#0", "b.md", "okapi elsewhere", 1, 1, "", 0, "b0")], vectors(1))
    return s


def snapshot(reader: Store) -> list[list[str]]:
    """The texts of a.md as each kind of reader sees them (a filtered read, both search legs)."""
    where = path_filter(["a.md"])
    rows = [r["text"] for r in reader.chunk_rows(where, ["text"])]
    keyword = [c.text for c, _ in reader.keyword_search("okapi", 50, where)]
    vector = [c.text for c, _ in reader.vector_search(vectors(N)[0], 50, where)]
    return [rows, keyword, vector]


def test_a_polling_reader_never_sees_no_chunks_or_two_versions(tmp_path: Path, store: Store) -> None:
    reader = Store(tmp_path / "data")  # its own handles, as another process
    done = threading.Event()

    def replace_many() -> None:
        try:
            for v in range(1, 16):
                store.replace_chunks("a.md", version(v), vectors(N))
        finally:
            done.set()

    writer = threading.Thread(target=replace_many)
    writer.start()
    polls = 0
    while not done.is_set() or polls < 20:
        for texts in snapshot(reader):
            assert len(texts) == N, f"poll {polls}: {len(texts)} chunks of a.md"
            assert len(versions_seen(texts)) == 1, f"poll {polls}: versions {versions_seen(texts)}"
        polls += 1
    writer.join()
    assert all(versions_seen(t) == {"ver15"} for t in snapshot(reader))


def test_retired_rows_are_never_read(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("core.store.purge", lambda tbl, ids=None: None)  # stop after the first commit
    store.replace_chunks("a.md", version(1), vectors(N))
    tbl = store.db.open_table(store.chunks_table_name)
    assert count_retired(tbl) == N // 2
    assert all(versions_seen(t) == {"ver1"} for t in snapshot(store))
    assert store.chunk_counts() == {"a.md": N, "b.md": 1}
    assert store.duplicate_chunk_ids() == 0
    monkeypatch.undo()
    assert store.purge_retired() == N // 2 and count_retired(tbl) == 0


def test_a_table_without_the_retired_column_gains_it_on_the_first_replacement(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    old = pa.schema([f for f in chunks_schema(16) if f.name != RETIRED])
    rows = [{"chunk_id": c.chunk_id, "path": c.path, "page": 1, "page_end": 1, "section": "",
             "ordinal": c.ordinal, "text": c.text, "text_hash": c.text_hash, "vector": v.tolist(),
             "context": "", "indexed_text": c.text, "page_breaks": []}
            for c, v in zip(version(0), vectors(N), strict=True)]
    store.db.create_table(store.chunks_table_name, pa.Table.from_pylist(rows, old))
    assert versions_seen([r["text"] for r in store.chunk_rows()]) == {"ver0"}  # no column: all live
    store.replace_chunks("a.md", version(1), vectors(N))
    assert RETIRED in store.db.open_table(store.chunks_table_name).schema.names
    assert all(versions_seen(t) == {"ver1"} for t in snapshot(store))


def test_a_document_whose_rows_repeat_an_id_is_still_replaced(store: Store) -> None:
    tbl = store.db.open_table(store.chunks_table_name)
    tbl.add(tbl.search().where("chunk_id = 'a.md#v0-7'").limit(None).to_arrow())  # a second writer's copy
    assert store.duplicate_chunk_ids() == 1
    store.replace_chunks("a.md", version(1), vectors(N))
    assert all(versions_seen(t) == {"ver1"} for t in snapshot(store))
    assert store.duplicate_chunk_ids() == 0 and count_retired(tbl) == 0


class Crash(BaseException):
    """A process dying mid-write (not an Exception: nothing on the way catches it)."""


@pytest.mark.parametrize("after", ["switch", "purge"])
def test_a_crash_between_the_steps_is_repaired_by_reconcile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            after: str) -> None:
    root = tmp_path / "policies"
    write_policy(root / "a.md", range(8))
    write_policy(root / "b.md", range(50, 54))
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    write_policy(root / "a.md", [0, 1, 2, 3, 100, 101, 102, 103])  # half the sections new

    def crash(tbl: object, ids: list[str] | None = None) -> None:
        if after == "purge":
            purge(tbl, ids)
        raise Crash

    monkeypatch.setattr("core.store.purge", crash)
    with pytest.raises(Crash):
        indexer.reconcile()
    monkeypatch.undo()
    new_text, old_text = paragraph(100).split()[0], paragraph(4).split()[0]
    assert "a.md" in {c.path for c, _ in store.keyword_search(new_text, 5)}  # the new version is live
    assert not store.keyword_search(old_text, 5)

    indexer2, store2, _ = build(tmp_path, root)  # the restarted process
    summary = indexer2.reconcile()
    docs, counts = store2.documents(), store2.chunk_counts()
    assert summary.indexed == 1 and set(docs) == {"a.md", "b.md"}
    assert all(d.status == "indexed" and counts[p] == d.chunk_count for p, d in docs.items())
    assert count_retired(store2.db.open_table(store2.chunks_table_name)) == 0
    assert store2.duplicate_chunk_ids() == 0
    assert {c.path for c, _ in store2.keyword_search(new_text, 5)} == {"a.md"}
    assert not store2.keyword_search(old_text, 5)
