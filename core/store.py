"""The LanceDB store under the data dir: ``documents`` and ``chunks`` tables.

- ``documents``: one row per policy file (path relative to the policy root, sha256, size, mtime_ns,
  config fingerprint, status ``indexed|failed``, error, chunk count, pages, indexed_at).
- ``chunks``: one row per chunk (stable chunk id, path, page, page_end, section, ordinal, text,
  text_hash, vector). Its ``text`` column carries LanceDB's native BM25 full-text index.

A file's chunks are replaced in one ``merge_insert`` commit, so a reader sees either the old or the
new version, never both or none. Every string that reaches a filter goes through :func:`sql_str`.
LanceDB docs: https://lancedb.github.io/lancedb/
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

import lancedb
import numpy as np
import pyarrow as pa

from core.config import KeywordSettings
from core.types import Chunk

log = logging.getLogger(__name__)

DocStatus = Literal["indexed", "failed"]

DOCUMENTS_SCHEMA = pa.schema([
    ("path", pa.string()), ("sha256", pa.string()), ("size", pa.int64()), ("mtime_ns", pa.int64()),
    ("fingerprint", pa.string()), ("status", pa.string()), ("error", pa.string()),
    ("chunk_count", pa.int64()), ("pages", pa.int64()), ("indexed_at", pa.float64()),
])


def chunks_schema(dimension: int) -> pa.Schema:
    """Arrow schema of the chunks table for vectors of ``dimension`` floats."""
    return pa.schema([
        ("chunk_id", pa.string()), ("path", pa.string()), ("page", pa.int32()),
        ("page_end", pa.int32()), ("section", pa.string()), ("ordinal", pa.int32()),
        ("text", pa.string()), ("text_hash", pa.string()),
        ("vector", pa.list_(pa.float32(), dimension)),
    ])


def sql_str(value: str) -> str:
    """Quote ``value`` as a SQL string literal for a LanceDB filter (single quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def path_filter(paths: Iterable[str]) -> str:
    """``path IN (...)`` over escaped literals; an empty set matches nothing."""
    items = [sql_str(p) for p in paths]
    return f"path IN ({', '.join(items)})" if items else "false"


@dataclass(frozen=True)
class DocumentRecord:
    """One row of the documents table."""

    path: str
    sha256: str
    size: int
    mtime_ns: int
    fingerprint: str
    status: DocStatus
    error: str = ""
    chunk_count: int = 0
    pages: int = 0
    indexed_at: float = 0.0


class Store:
    """LanceDB tables in ``data_dir/lancedb``.

    Args:
        data_dir: folder for the database (created when missing).
        keyword: tokenizer options for the BM25 full-text index.
        chunks_table: name of the chunks table (a shadow rebuild writes to another name).
    """

    def __init__(self, data_dir: Path, keyword: KeywordSettings | None = None,
                 chunks_table: str = "chunks") -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.db = lancedb.connect(str(data_dir / "lancedb"))
        self.keyword = keyword or KeywordSettings()
        self.chunks_table_name = chunks_table
        self._fts_ready = False

    # ---- tables -------------------------------------------------------------------------
    def table_names(self) -> list[str]:
        """Names of the tables in the database."""
        res: Any = self.db.list_tables()
        names = getattr(res, "tables", res)
        return list(names)

    def _documents(self) -> Any:
        if "documents" not in self.table_names():
            return self.db.create_table("documents", schema=DOCUMENTS_SCHEMA, exist_ok=True)
        return self.db.open_table("documents")

    def _chunks(self, dimension: int | None = None) -> Any | None:
        if self.chunks_table_name in self.table_names():
            return self.db.open_table(self.chunks_table_name)
        if dimension is None:
            return None
        return self.db.create_table(self.chunks_table_name, schema=chunks_schema(dimension),
                                    exist_ok=True)

    # ---- documents ----------------------------------------------------------------------
    def documents(self) -> dict[str, DocumentRecord]:
        """All document rows, keyed by path."""
        rows = self._documents().to_arrow().to_pylist()
        return {r["path"]: DocumentRecord(**r) for r in rows}

    def put_document(self, rec: DocumentRecord) -> None:
        """Insert or replace the row of ``rec.path``."""
        tbl = self._documents()
        (tbl.merge_insert("path").when_matched_update_all().when_not_matched_insert_all()
         .execute(pa.Table.from_pylist([asdict(rec)], schema=DOCUMENTS_SCHEMA)))

    def delete_document(self, path: str) -> None:
        """Remove the document row and every chunk of ``path``."""
        self._documents().delete(f"path = {sql_str(path)}")
        tbl = self._chunks()
        if tbl is not None:
            tbl.delete(f"path = {sql_str(path)}")

    # ---- chunks -------------------------------------------------------------------------
    def replace_chunks(self, path: str, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        """Atomically make ``chunks`` (with ``vectors``, shape (n, dim)) the only chunks of ``path``.

        One merge_insert commit: rows of ``path`` not in ``chunks`` are deleted in the same commit.
        """
        if len(chunks) != len(vectors):
            raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")
        if not chunks:
            tbl = self._chunks()
            if tbl is not None:
                tbl.delete(f"path = {sql_str(path)}")
            return
        tbl = self._chunks(int(vectors.shape[1]))
        assert tbl is not None
        rows = [_chunk_row(c, v) for c, v in zip(chunks, vectors, strict=True)]
        data = pa.Table.from_pylist(rows, schema=chunks_schema(int(vectors.shape[1])))
        (tbl.merge_insert("chunk_id").when_matched_update_all().when_not_matched_insert_all()
         .when_not_matched_by_source_delete(f"path = {sql_str(path)}").execute(data))
        self._fts_ready = False

    def chunk_rows(self, where: str | None = None, columns: list[str] | None = None) -> list[dict[str, Any]]:
        """Raw chunk rows matching ``where`` (a LanceDB filter built with :func:`sql_str`)."""
        tbl = self._chunks()
        if tbl is None:
            return []
        q = tbl.search().where(where) if where else tbl.search()
        if columns:
            q = q.select(columns)
        return list(q.limit(None).to_arrow().to_pylist()) if hasattr(q, "limit") else []

    def count_chunks(self) -> int:
        """Number of rows in the chunks table (0 when it does not exist yet)."""
        tbl = self._chunks()
        return 0 if tbl is None else int(tbl.count_rows())

    def ensure_fts_index(self) -> None:
        """(Re)build the BM25 full-text index on ``text`` when rows changed since the last build.

        Rows added after the build are still searched (flat) by LanceDB until the next rebuild.
        """
        tbl = self._chunks()
        if tbl is None or self._fts_ready:
            return
        t0 = time.perf_counter()
        from lancedb.index import FTS

        kw = self.keyword
        tbl.create_index("text", config=FTS(with_position=False, lower_case=True, stem=kw.stem,
                                             remove_stop_words=kw.remove_stop_words,
                                             ascii_folding=kw.ascii_folding), replace=True)
        self._fts_ready = True
        log.info("fts index rebuilt rows=%d in %.0f ms", tbl.count_rows(), (time.perf_counter() - t0) * 1e3)

    # ---- search -------------------------------------------------------------------------
    def vector_search(self, vector: np.ndarray, k: int, where: str | None = None) -> list[tuple[Chunk, float]]:
        """Top ``k`` chunks by cosine similarity (vectors are normalised); score = 1 - distance/2."""
        tbl = self._chunks()
        if tbl is None or k <= 0:
            return []
        q = tbl.search(vector.astype(np.float32).tolist()).distance_type("cosine").limit(k)
        if where:
            q = q.where(where, prefilter=True)
        return [(_row_chunk(r), 1.0 - float(r["_distance"])) for r in q.to_list()]

    def keyword_search(self, query: str, k: int, where: str | None = None) -> list[tuple[Chunk, float]]:
        """Top ``k`` chunks by BM25 (LanceDB full-text index); empty for an empty query."""
        if k <= 0 or not query.strip():
            return []
        self.ensure_fts_index()
        tbl = self._chunks()  # opened after the index build, so the handle sees the index
        if tbl is None:
            return []
        q = tbl.search(query, query_type="fts").limit(k)
        if where:
            q = q.where(where, prefilter=True)
        try:
            rows = q.to_list()
        except Exception as exc:  # e.g. a query made only of operators
            log.warning("keyword search failed: %s", exc)
            return []
        return [(_row_chunk(r), max(0.0, float(r["_score"]))) for r in rows]


def _chunk_row(c: Chunk, v: np.ndarray) -> dict[str, Any]:
    row = asdict(c)
    row["vector"] = np.asarray(v, dtype=np.float32).tolist()
    return row


def _row_chunk(r: dict[str, Any]) -> Chunk:
    return Chunk(chunk_id=r["chunk_id"], path=r["path"], text=r["text"], page=r["page"],
                 page_end=r["page_end"], section=r["section"], ordinal=r["ordinal"],
                 text_hash=r["text_hash"])
