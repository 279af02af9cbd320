"""core.database.Database (the one LanceDB connection owner), the generation pointer in the blob store,
and data_dir locations. Real LanceDB in tmp_path."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pyarrow as pa
import pytest

from core.blobs import LocalBlobStore
from core.config import Settings, load_config
from core.database import Database
from core.errors import ConfigError
from core.store import Store
from core.store_location import StoreLocation
from core.store_state import STATE_FILE, STATE_KEY, IndexState, StatePointer

V1 = pa.schema([("id", pa.string()), ("n", pa.int64())])
V2 = pa.schema([("id", pa.string()), ("n", pa.int64()), ("note", pa.string()), ("tags", pa.string())])


def rows(*ids: str) -> pa.Table:
    return pa.Table.from_pylist([{"id": i, "n": 1} for i in ids], schema=V1)


def test_table_is_created_once_and_handed_out_shared(tmp_path: Path) -> None:
    db = Database(tmp_path)
    first = db.table("t", V1)
    first.add(rows("a"))
    assert db.table("t", V1) is first and db.find_table("t").count_rows() == 1  # type: ignore[union-attr]
    assert db.table_names() == ["t"]


def test_table_migration_adds_missing_columns_with_defaults_or_nulls(tmp_path: Path) -> None:
    Database(tmp_path).table("t", V1).add(rows("a", "b"))
    migrated = Database(tmp_path).table("t", V2, defaults={"note": "'none'"})
    got = migrated.to_arrow().sort_by("id").to_pylist()
    assert [(r["note"], r["tags"]) for r in got] == [("none", None), ("none", None)]
    assert migrated.schema.names == V2.names


def test_a_table_checked_complete_still_migrates_to_a_wider_schema(tmp_path: Path) -> None:
    db = Database(tmp_path)
    db.table("t", V1).add(rows("a"))
    db.table("t", V1)  # complete for V1: its schema is not read again for V1
    assert db.table("t", V2).schema.names == V2.names  # the same process, a wider schema: migrated


def test_a_dropped_table_checked_complete_is_recreated(tmp_path: Path) -> None:
    db = Database(tmp_path)
    db.table("t", V1)
    db.table("t", V1)
    db.drop_table("t")
    assert db.table("t", V2).schema.names == V2.names and db.table_names() == ["t"]


def test_find_table_does_not_create_and_drop_forgets(tmp_path: Path) -> None:
    db = Database(tmp_path)
    assert db.find_table("t") is None and db.table_names() == []
    db.table("t", V1)
    db.drop_table("t")
    db.drop_table("t")  # gone already: no error
    assert db.find_table("t") is None
    with pytest.raises(ValueError, match="not found"):
        db.open_table("t")


def test_a_strong_reader_sees_another_writer_at_once(tmp_path: Path) -> None:
    writer, reader = Database(tmp_path), Database(tmp_path)
    writer.table("t", V1).add(rows("a"))
    seen = reader.open_table("t")
    writer.open_table("t").add(rows("b"))
    assert seen.count_rows() == 2


def test_a_replica_with_bounded_staleness_catches_up(tmp_path: Path) -> None:
    writer, replica = Database(tmp_path), Database(tmp_path, read_consistency_s=0.5)
    writer.table("t", V1).add(rows("a"))
    seen = replica.open_table("t")
    assert seen.count_rows() == 1
    writer.open_table("t").add(rows("b"))
    deadline = time.monotonic() + 30
    while seen.count_rows() != 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert seen.count_rows() == 2


def test_pointer_lives_in_the_blob_store_and_reads_a_legacy_file(tmp_path: Path) -> None:
    (tmp_path / STATE_FILE).write_text(json.dumps({"generation": 3, "fingerprint": "old"}))
    blobs = LocalBlobStore(tmp_path / "blobs")
    pointer = StatePointer(blobs, legacy=tmp_path / STATE_FILE)
    assert pointer.read().generation == 3  # a data dir from before the blob store
    pointer.write(IndexState(generation=4, fingerprint="new"))
    assert blobs.get(STATE_KEY) is not None
    assert StatePointer(blobs, legacy=tmp_path / STATE_FILE).read().generation == 4


def test_cached_pointer_follows_another_writer_after_max_age(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    now = [0.0]
    reader = StatePointer(blobs, max_age_s=5.0, clock=lambda: now[0])
    assert reader.read().generation == 0
    StatePointer(blobs).write(IndexState(generation=1))
    assert reader.read().generation == 0  # within the bound: the cached read
    now[0] = 6.0
    assert reader.read().generation == 1


def test_store_on_a_database_shares_it_with_its_shadow(tmp_path: Path) -> None:
    store = Store(Database(tmp_path / "data"))
    assert store.shadow(2).db is store.db and store.data_dir == (tmp_path / "data").resolve()


def test_local_data_dir_stays_a_path_and_a_uri_a_string(tmp_path: Path) -> None:
    assert Settings(data_dir=tmp_path).data_dir == tmp_path
    assert load_config(None, data_dir="s3://bucket-a/x/").data_dir == "s3://bucket-a/x"
    assert StoreLocation.parse("gs://bucket-b/p").scheme == "gs"
    with pytest.raises(ConfigError, match="not a bucket name"):
        load_config(None, data_dir="s3:///nothing")
