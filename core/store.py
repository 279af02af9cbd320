"""The LanceDB store under the data dir: ``documents`` and ``chunks`` tables of the live generation.

- ``documents``: one row per policy file (path relative to the policy root, sha256, size, mtime_ns,
  config fingerprint, status ``indexed|failed``, error, chunk count, pages, indexed_at).
- ``chunks``: one row per chunk (stable chunk id, path, page, page_end, section, ordinal, text,
  text_hash, vector, context, indexed_text). Its ``indexed_text`` column (context + text; ``text`` in
  tables older than schema version 6) carries LanceDB's native BM25 full-text index.

Generations (:mod:`core.store_state`): a Store built without ``generation`` follows the pointer (a blob
in the data dir's shared store), so after a shadow rebuild is swapped in, every reader moves to the new
tables within ``store.read_consistency_s``; a Store pinned to a generation (:meth:`Store.shadow`) writes
a rebuild beside the live index. Tables come from the data dir's :class:`core.database.Database`.

A file's chunks are replaced by one commit that never joins the whole table (:mod:`core.store_replace`:
a ``merge_insert`` on ``chunk_id`` that inserts the new rows and flags the old ones ``retired``, then a
delete of the retired rows); every read here skips retired rows, so a reader sees either the old or the
new version, never both or none. Every string that reaches a filter goes through :func:`sql_str`.
Index maintenance (full-text and ANN indexes, compaction) is in :mod:`core.store_maintenance`.
LanceDB docs: https://lancedb.github.io/lancedb/
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from core.blobs import BlobStore, make_blob_store
from core.config import IndexSettings, KeywordSettings
from core.database import Database
from core.store_location import StoreLocation
from core.store_maintenance import ensure_indexes, optimize_table, prewarm_indexes
from core.store_replace import RETIRED, RETIRED_FIELD, count_retired, live_where, purge, switch, top_live
from core.store_schema import (
    DOCUMENTS_SCHEMA,
    DocStatus,
    DocumentRecord,
    chunk_row,
    chunks_schema,
    fts_column,
    in_filter,
    page_breaks,
    path_filter,
    result_columns,
    row_chunk,
    rows_with_vectors,
    sql_str,
)
from core.store_state import STATE_FILE, IndexState, StatePointer, table_names
from core.types import Chunk

log = logging.getLogger(__name__)

__all__ = ["DOCUMENTS_SCHEMA", "DocStatus", "DocumentRecord", "Store", "chunks_schema", "page_breaks",
           "in_filter", "path_filter", "sql_str"]

class Store:
    """The index tables of one data dir.

    Args:
        data: the data dir's :class:`~core.database.Database` (what the composition root passes), or a
            folder / object-store URI, for which a strongly consistent Database (read consistency 0) and
            the location's blob store are opened here (tests, benchmarks, one-off tools).
        keyword: tokenizer options for the BM25 full-text index.
        index: ANN threshold and version cleanup age (:class:`core.config.IndexSettings`).
        generation: pin this Store to one generation (a shadow rebuild's writer); None follows the
            live generation named by the pointer.
        blobs: the data dir's blob store holding the pointer (default: :func:`core.blobs.make_blob_store`).
        pointer: the generation pointer to share (a shadow shares its parent's).
    """

    def __init__(self, data: Path | str | Database, keyword: KeywordSettings | None = None,
                 index: IndexSettings | None = None, generation: int | None = None, *,
                 blobs: BlobStore | None = None, pointer: StatePointer | None = None) -> None:
        self.db = data if isinstance(data, Database) else Database(StoreLocation.parse(data))
        loc = self.location = self.db.location
        self.data_dir: Path | str = loc.local if loc.local is not None else loc.uri
        self.blobs = blobs if blobs is not None else make_blob_store(loc)  # (creates a local data dir)
        legacy = loc.local / STATE_FILE if loc.local is not None else None
        self._pointer = pointer or StatePointer(self.blobs, self.db.read_consistency_s, legacy)
        self.keyword = keyword or KeywordSettings()
        self.index = index or IndexSettings()
        self._pinned = generation
        self._seen_generation: int | None = None
        self._docs: tuple[tuple[str, int, int], dict[str, DocumentRecord]] | None = None

    # ---- generations --------------------------------------------------------------------
    def state(self) -> IndexState:
        """The generation pointer (live generation, its fingerprint, a rebuild in progress)."""
        return self._pointer.read()

    def set_state(self, state: IndexState) -> None:
        """Atomically replace the generation pointer (readers switch within the read consistency)."""
        self._pointer.write(state)

    def has_index(self) -> bool:
        """Whether this data dir holds an index (a pointer was written or a table exists)."""
        return self._pointer.exists() or bool(self.db.table_names())

    @property
    def generation(self) -> int:
        """The generation this Store reads and writes (pinned, else the live one). When the live one
        changed, this process's handles on the old generation's tables are released."""
        if self._pinned is not None:
            return self._pinned
        gen = self.state().generation
        if self._seen_generation is not None and gen != self._seen_generation:
            self.db.forget(table_names(self._seen_generation))
        self._seen_generation = gen
        return gen

    @property
    def documents_table_name(self) -> str:
        """Name of the documents table of :attr:`generation`."""
        return table_names(self.generation)[0]

    @property
    def chunks_table_name(self) -> str:
        """Name of the chunks table of :attr:`generation`."""
        return table_names(self.generation)[1]

    def shadow(self, generation: int) -> Store:
        """A Store pinned to ``generation``, sharing this one's database, blob store and pointer."""
        return Store(self.db, self.keyword, self.index, generation, blobs=self.blobs, pointer=self._pointer)

    def generations_on_disk(self) -> set[int]:
        """Generations that have at least one table in the database."""
        found: set[int] = set()
        for name in self.table_names():
            base, _, suffix = name.partition("_")
            if base in ("documents", "chunks"):
                if not suffix:
                    found.add(0)
                elif suffix.isdigit():
                    found.add(int(suffix))
        return found

    def drop_generation(self, generation: int) -> None:
        """Drop both tables of ``generation`` (missing ones are skipped)."""
        existing = set(self.table_names())
        for name in table_names(generation):
            if name in existing:
                self.db.drop_table(name)
        log.info("dropped generation %d", generation)

    # ---- tables -------------------------------------------------------------------------
    def table_names(self) -> list[str]:
        """Names of the tables in the database."""
        return self.db.table_names()

    def _documents(self) -> Any:
        # a table from an older version gets the new columns, all null (Database.table)
        return self.db.table(self.documents_table_name, DOCUMENTS_SCHEMA)

    def _chunks(self, dimension: int | None = None) -> Any | None:
        name = self.chunks_table_name
        tbl = self.db.find_table(name)
        if tbl is not None or dimension is None:
            return tbl
        return self.db.create_table(name, schema=chunks_schema(dimension), exist_ok=True)

    # ---- documents ----------------------------------------------------------------------
    def documents_version(self) -> tuple[str, int, int]:
        """``(documents table name, version, row count)``: changes whenever a documents row may have
        (cheap: no rows are read)."""
        tbl = self._documents()
        return (self.documents_table_name, int(tbl.version), int(tbl.count_rows()))

    def documents(self) -> dict[str, DocumentRecord]:
        """All document rows, keyed by path (a fresh dict; the rows are re-read only when the table's
        version or row count moved: every question reads them for scoping, 20k files take ~50 ms)."""
        tbl = self._documents()
        key = (self.documents_table_name, int(tbl.version), int(tbl.count_rows()))
        cached = self._docs
        if cached is None or cached[0] != key:
            rows = tbl.to_arrow().to_pylist()
            cached = self._docs = (key, {r["path"]: DocumentRecord.from_row(r) for r in rows})
        return dict(cached[1])

    def put_document(self, rec: DocumentRecord) -> None:
        """Insert or replace the row of ``rec.path``."""
        tbl = self._documents()
        (tbl.merge_insert("path").when_matched_update_all().when_not_matched_insert_all()
         .execute(pa.Table.from_pylist([asdict(rec)], schema=DOCUMENTS_SCHEMA)))

    def delete_document(self, path: str) -> None:
        """Remove every chunk, then the document row, of ``path`` (a crash in between leaves a
        document without chunks, which reconcile repairs)."""
        self.delete_chunks([path])
        self._documents().delete(f"path = {sql_str(path)}")

    def move_document(self, src: str, rec: DocumentRecord, chunks: Sequence[Chunk],
                      vectors: np.ndarray) -> None:
        """Rename ``src`` to ``rec.path``: chunks move in one commit, then the documents row moves in
        one commit (a crash in between leaves orphan chunks, which reconcile repairs)."""
        self.replace_chunks(rec.path, chunks, vectors, also_remove=src)
        data = pa.Table.from_pylist([asdict(rec)], schema=DOCUMENTS_SCHEMA)
        (self._documents().merge_insert("path").when_matched_update_all().when_not_matched_insert_all()
         .when_not_matched_by_source_delete(f"path = {sql_str(src)}").execute(data))

    # ---- chunks -------------------------------------------------------------------------
    def replace_chunks(self, path: str, chunks: Sequence[Chunk], vectors: np.ndarray,
                       also_remove: str | None = None) -> None:
        """Atomically make ``chunks`` (with ``vectors``, shape (n, dim)) the only chunks of ``path``
        (and drop those of ``also_remove``, a move's old path): :meth:`replace_rows`. No chunks: the
        path's chunks are deleted.

        Raises:
            ValueError: ``chunks`` and ``vectors`` differ in length.
        """
        if len(chunks) != len(vectors):
            raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")
        gone = [path] + ([also_remove] if also_remove else [])
        if not chunks:
            self.delete_chunks(gone)
            return
        dim = int(vectors.shape[1])
        rows = [chunk_row(c, v) for c, v in zip(chunks, vectors, strict=True)]
        self.replace_rows(gone, pa.Table.from_pylist(rows, schema=chunks_schema(dim)))

    def replace_rows(self, paths: Sequence[str], data: pa.Table) -> None:
        """Make the rows of ``data`` (every column of the chunks table; ``retired`` may be absent) the
        only live chunks of ``paths``, in one commit readers follow, then delete the rows it retired
        (:mod:`core.store_replace`: a reader never sees ``paths`` with no chunks or with old and new
        chunks together; a crash between the two commits loses nothing). The table is created for the
        vectors' dimension when missing, and given the ``retired`` column when it lacks it."""
        dim = int(data.schema.field("vector").type.list_size)
        tbl = self._chunks(dim)
        assert tbl is not None
        if RETIRED not in tbl.schema.names:
            tbl = self.db.table(self.chunks_table_name, pa.schema([RETIRED_FIELD]))
        retired = switch(tbl, data, paths)
        purge(tbl, retired)

    def purge_retired(self) -> int:
        """Delete every retired chunk row (left by a replacement interrupted between its two commits;
        reconcile calls this). Returns how many there were."""
        tbl = self._chunks()
        n = 0 if tbl is None else count_retired(tbl)
        if n:
            purge(tbl)
            log.warning("deleted %d retired chunk rows left by an interrupted replacement", n)
        return n

    def delete_chunks(self, paths: Sequence[str]) -> None:
        """Delete every chunk of ``paths`` (one commit)."""
        tbl = self._chunks()
        if tbl is not None and paths:
            tbl.delete(path_filter(paths))

    def chunk_rows(self, where: str | None = None, columns: list[str] | None = None) -> list[dict[str, Any]]:
        """Raw live chunk rows matching ``where`` (a LanceDB filter built with :func:`sql_str`)."""
        tbl = self._chunks()
        if tbl is None:
            return []
        where = live_where(tbl, where)
        q = tbl.search().where(where) if where else tbl.search()
        if columns:
            q = q.select(columns)
        return list(q.limit(None).to_arrow().to_pylist())

    def chunk_counts(self) -> Counter[str]:
        """Number of live chunks per path (reads only the ``path`` and ``retired`` columns)."""
        tbl = self._chunks()
        if tbl is None:
            return Counter()
        where = live_where(tbl, None)
        q = tbl.search().where(where) if where else tbl.search()
        return Counter(q.select(["path"]).limit(None).to_arrow().column("path").to_pylist())

    def duplicate_chunk_ids(self) -> int:
        """How many chunk rows repeat an id already present (0 in a consistent index)."""
        tbl = self._chunks()
        if tbl is None:
            return 0
        ids = tbl.search().select(["chunk_id"]).limit(None).to_arrow().column("chunk_id").to_pylist()
        return len(ids) - len(set(ids))

    def table_version(self) -> int:
        """The LanceDB version of the live documents table (a readable store at a known version; the
        table is created empty when missing)."""
        return int(self._documents().version)

    def count_chunks(self) -> int:
        """Number of rows in the chunks table (0 when it does not exist yet; metadata only, so it also
        counts the retired rows of a replacement during the instant between its two commits)."""
        tbl = self._chunks()
        return 0 if tbl is None else int(tbl.count_rows())

    # ---- maintenance --------------------------------------------------------------------
    def ensure_indexes(self) -> list[str]:
        """Create the BM25 index when missing and the ANN index once the table has
        ``index.ann_min_rows`` rows; returns the names of indexes created."""
        tbl = self._chunks()
        return [] if tbl is None else ensure_indexes(tbl, self.keyword, self.index.ann_min_rows,
                                                     self.index.ann_partition_rows)

    def prewarm(self) -> list[str]:
        """Load the chunks table's indexes (BM25, ANN, BTREEs) into LanceDB's cache ahead of the first
        question (:func:`core.store_maintenance.prewarm_indexes`); returns the names of the indexes
        prewarmed (``[]`` without a chunks table)."""
        tbl = self._chunks()
        return [] if tbl is None else prewarm_indexes(tbl)

    def optimize(self) -> dict[str, object]:
        """Compact both tables, fold new rows into their indexes (with an ANN index: only once
        ``index.optimize_min_unindexed_rows`` rows are not covered), delete versions older than
        ``index.cleanup_older_than_s``, then :meth:`ensure_indexes` (for a scheduled job).

        Returns ``{"tables": [names], "reindexed": [names], "indexes_created": [names], "seconds": float}``.
        """
        tables = [self._documents()] + [t for t in [self._chunks()] if t is not None]
        stats = optimize_table(tables, self.index.cleanup_older_than_s,
                               self.index.optimize_min_unindexed_rows)
        stats["indexes_created"] = self.ensure_indexes()
        return stats

    # ---- search -------------------------------------------------------------------------
    def vector_search(self, vector: np.ndarray, k: int,
                      where: str | None = None) -> list[tuple[Chunk, float]]:
        """Top ``k`` chunks by cosine similarity (vectors are normalised); score = 1 - distance/2. With an
        ANN index the search effort is ``index.ann_nprobes``/``ann_ef``/``ann_refine_factor``."""
        tbl = self._chunks()
        if tbl is None or k <= 0:
            return []
        ix = self.index
        q = (tbl.search(vector.astype(np.float32).tolist()).distance_type("cosine").limit(k)
             .nprobes(ix.ann_nprobes).ef(ix.ann_ef).refine_factor(ix.ann_refine_factor)
             .select([*result_columns(tbl.schema.names), "_distance"]))
        if where:
            q = q.where(where, prefilter=True)
        rows = top_live(lambda n: q.limit(n).to_list(), k)
        return [(row_chunk(r), 1.0 - float(r["_distance"])) for r in rows]

    def keyword_search(self, query: str, k: int, where: str | None = None,
                       vectors: dict[str, np.ndarray] | None = None) -> list[tuple[Chunk, float]]:
        """Top ``k`` chunks by BM25 (LanceDB full-text index); empty for an empty query.

        Rows added or updated since the index was built are searched too (LanceDB scans unindexed
        rows) and deleted rows never match, so the results follow every commit; :meth:`optimize`
        folds new rows into the index. With ``vectors`` (a dict), the same read also returns each
        result row's stored embedding, put in ``vectors[chunk_id]`` (shape (dim,), float32): the
        retriever's cosines of BM25-only candidates then need no second read of the table.
        """
        if k <= 0 or not query.strip():
            return []
        tbl = self._chunks()
        if tbl is None:
            return []
        ensure_indexes(tbl, self.keyword, None)  # the shared handle sees the index it created
        names = tbl.schema.names
        extra = ["vector"] if vectors is not None and "vector" in names else []
        q = (tbl.search(query, query_type="fts", fts_columns=fts_column(names)).limit(k)
             .select([*result_columns(names), *extra, "_score"]))
        if where:
            q = q.where(where, prefilter=True)
        try:
            rows = top_live(lambda n: rows_with_vectors(q.limit(n).to_arrow()) if extra
                            else q.limit(n).to_list(), k)
        except Exception as exc:  # e.g. a query made only of operators
            log.warning("keyword search failed: %s", exc)
            return []
        if vectors is not None and extra:
            vectors.update((r["chunk_id"], r["vector"]) for r in rows)
        return [(row_chunk(r), max(0.0, float(r["_score"]))) for r in rows]
