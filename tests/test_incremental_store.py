"""Store maintenance: the BM25 index follows adds, updates and deletes (also for a reader in another
Store, as the bot's process would be); the ANN index appears once the table passes
``index.ann_min_rows``; ``optimize`` compacts; reconcile repairs drift between the tables."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from core.embedder import FakeEmbedder
from core.store import DOCUMENTS_SCHEMA, Store, sql_str
from core.store_maintenance import btree_columns, index_types, unindexed_rows
from core.types import Chunk
from indexer.pipeline import Indexer
from tests.incremental_helpers import Factory, build, write_policy
from tests.retrieval_helpers import add_document


def chunk(path: str, i: int, text: str) -> Chunk:
    return Chunk(chunk_id=f"{path}#{i}", path=path, text=text, page=None, page_end=None, section="",
                 ordinal=i, text_hash=f"h{path}{i}")


def vecs(n: int) -> np.ndarray:
    v = np.ones((n, 8), dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def found(store: Store, word: str) -> set[str]:
    return {c.chunk_id for c, _ in store.keyword_search(word, 10)}


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "data")
    s.replace_chunks("a.md", [chunk("a.md", 0, "zebra crossing rules"), chunk("a.md", 1, "giraffe")], vecs(2))
    s.replace_chunks("b.md", [chunk("b.md", 0, "zebra stripes")], vecs(1))
    assert found(s, "zebra") == {"a.md#0", "b.md#0"}  # builds the full-text index
    return s


def test_deleted_chunk_never_shows_in_keyword_search(tmp_path: Path, store: Store) -> None:
    reader = Store(tmp_path / "data")
    store.delete_document("b.md")
    assert found(store, "zebra") == found(reader, "zebra") == {"a.md#0"}


def test_added_chunk_shows_in_keyword_search_before_any_rebuild(tmp_path: Path, store: Store) -> None:
    reader = Store(tmp_path / "data")
    store.replace_chunks("c.md", [chunk("c.md", 0, "okapi zebra")], vecs(1))
    assert found(reader, "okapi") == {"c.md#0"}
    assert found(reader, "zebra") == {"a.md#0", "b.md#0", "c.md#0"}


def test_updated_chunk_text_replaces_the_old_one(store: Store) -> None:
    store.replace_chunks("a.md", [chunk("a.md", 0, "pelican rules"), chunk("a.md", 1, "giraffe")], vecs(2))
    assert found(store, "zebra") == {"b.md#0"}
    assert found(store, "pelican") == {"a.md#0"}


def test_page_breaks_of_a_chunk_survive_the_round_trip(store: Store) -> None:
    two_pages = replace(chunk("d.pdf", 0, "ocelot on page three. ocelot on page four."), page=3, page_end=4,
                        page_breaks=((22, 4),))
    store.replace_chunks("d.pdf", [two_pages], vecs(1))
    (got, _), = store.keyword_search("ocelot", 10)
    assert got.page_breaks == ((22, 4),) and found(store, "zebra") == {"a.md#0", "b.md#0"}


def test_optimize_compacts_and_keeps_search_results(store: Store) -> None:
    for i in range(5):
        store.replace_chunks(f"x{i}.md", [chunk(f"x{i}.md", 0, f"walrus{i} zebra")], vecs(1))
    fragments = fragment_count(store)
    stats = store.optimize()
    assert store.chunks_table_name in stats["tables"]  # type: ignore[operator]
    assert found(store, "zebra") == {"a.md#0", "b.md#0"} | {f"x{i}.md#0" for i in range(5)}
    assert fragment_count(store) < fragments


def fragment_count(store: Store) -> int:
    stats: dict[str, dict[str, int]] = dict(store.db.open_table(store.chunks_table_name).stats())  # type: ignore[arg-type]
    return int(stats["fragment_stats"]["num_fragments"])


def test_ann_index_only_above_the_threshold(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / "a.md", range(12))
    indexer, store, _ = build(tmp_path, root, index={"ann_min_rows": 1000})
    indexer.reconcile()
    tbl = store.db.open_table(store.chunks_table_name)
    assert "IvfHnswSq" not in index_types(tbl)
    write_policy(root / "b.md", range(100, 120))
    low, store2, _ = build(tmp_path, root, index={"ann_min_rows": store.count_chunks() + 5})
    low.reconcile()
    assert "IvfHnswSq" in index_types(store2.db.open_table(store2.chunks_table_name))


def test_scalar_indexes_on_chunk_id_and_path_above_the_threshold(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / "a.md", range(12))
    indexer, store, _ = build(tmp_path, root, index={"ann_min_rows": 5})
    indexer.reconcile()
    tbl = store.db.open_table(store.chunks_table_name)
    assert btree_columns(tbl) == {"chunk_id", "path"}
    assert len(store.chunk_rows("path = 'a.md'", ["chunk_id"])) == store.count_chunks()


def test_vector_search_uses_new_rows_after_the_ann_index(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / "a.md", range(12))
    indexer, store, factory = build(tmp_path, root, index={"ann_min_rows": 5})
    indexer.reconcile()
    write_policy(root / "late.md", [777])
    indexer.reconcile()
    query = factory.embedder.embed([store.chunk_rows("path = 'late.md'", ["text"])[0]["text"]])[0]
    assert store.vector_search(query, 1)[0][0].path == "late.md"
    store.optimize()
    assert store.vector_search(query, 1)[0][0].path == "late.md"


def indexed(tmp_path: Path) -> tuple[Indexer, Store, Factory, Path]:
    root = tmp_path / "policies"
    write_policy(root / "a.md", range(6))
    write_policy(root / "b.md", range(50, 56))
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    return indexer, store, factory, root


def test_reconcile_deletes_orphan_chunks(tmp_path: Path) -> None:
    indexer, store, _, _ = indexed(tmp_path)
    store.replace_chunks("ghost.md", [chunk("ghost.md", 0, "boo")], vecs(1) @ np.ones((8, 64)) / 8)
    summary = indexer.reconcile()
    assert summary.repaired == 1
    assert set(store.chunk_counts()) == {"a.md", "b.md"}


def test_reconcile_reindexes_a_document_whose_chunks_vanished(tmp_path: Path) -> None:
    indexer, store, factory, _ = indexed(tmp_path)
    n = store.documents()["a.md"].chunk_count
    store.db.open_table(store.chunks_table_name).delete(f"path = {sql_str('a.md')}")
    before = factory.embedded
    summary = indexer.reconcile()
    assert (summary.repaired, summary.indexed, summary.chunks_reused) == (1, 1, n)
    assert store.chunk_counts()["a.md"] == n
    assert factory.embedded == before  # vectors came back from the embedding cache


def test_documents_table_from_an_older_version_gains_the_needs_ocr_column(tmp_path: Path) -> None:
    import pyarrow as pa

    store = Store(tmp_path / "data")
    old_schema = pa.schema([f for f in DOCUMENTS_SCHEMA if f.name != "needs_ocr_pages"])
    row = {"path": "old.pdf", "sha256": "s", "size": 1, "mtime_ns": 1, "fingerprint": "fp",
           "status": "indexed", "error": "", "chunk_count": 3, "pages": 2, "indexed_at": 1.0}
    store.db.create_table(store.documents_table_name, pa.Table.from_pylist([row], old_schema))
    [rec] = store.documents().values()
    assert rec.chunk_count == 3 and rec.needs_ocr_pages == ()
    store.put_document(replace(rec, path="new.pdf", needs_ocr_pages=(2,)))
    assert store.documents()["new.pdf"].needs_ocr_pages == (2,)


def test_optimize_reindexes_an_ann_table_only_when_enough_rows_are_unindexed(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / "a.md", range(12))
    indexer, store, _ = build(tmp_path, root, index={"ann_min_rows": 5, "optimize_min_unindexed_rows": 1000})
    indexer.reconcile()
    write_policy(root / "late.md", [777, 778])
    indexer.reconcile()
    tbl = store.db.open_table(store.chunks_table_name)
    assert unindexed_rows(tbl) == (True, store.chunk_counts()["late.md"])
    stats = store.optimize()  # 2 rows < 1000: the ANN index is not rebuilt
    assert store.chunks_table_name not in stats["reindexed"]  # type: ignore[operator]
    assert unindexed_rows(tbl)[1] > 0
    _, due, _ = build(tmp_path, root, index={"ann_min_rows": 5, "optimize_min_unindexed_rows": 1})
    stats = due.optimize()
    assert due.chunks_table_name in stats["reindexed"]  # type: ignore[operator]
    assert unindexed_rows(due.db.open_table(due.chunks_table_name)) == (True, 0)


def test_prewarm_asks_for_every_index_of_the_chunks_table(tmp_path: Path) -> None:
    """A serving process's warm-up loads the chunks table's indexes (names returned); no table: none."""
    store = Store(tmp_path / "data")
    assert store.prewarm() == []
    add_document(store, FakeEmbedder(), "acme/leave.md", ["Acme staff get 25 days of leave.", "Globex none."])
    assert store.keyword_search("leave", 5)  # builds the BM25 index
    names = store.prewarm()
    assert names and set(names) == {ix.name for ix in store._chunks().list_indices()}
