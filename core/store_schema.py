"""Row layouts of the index tables (chunk ↔ row: :func:`chunk_row`, :func:`row_chunk`) and the one way
strings reach a LanceDB filter (:func:`sql_str`).

Re-exported by :mod:`core.store`; import from there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np
import pyarrow as pa

from core.types import Chunk

DocStatus = Literal["indexed", "failed"]

DOCUMENTS_SCHEMA = pa.schema([
    ("path", pa.string()), ("sha256", pa.string()), ("size", pa.int64()), ("mtime_ns", pa.int64()),
    ("fingerprint", pa.string()), ("status", pa.string()), ("error", pa.string()),
    ("chunk_count", pa.int64()), ("pages", pa.int64()), ("indexed_at", pa.float64()),
    ("needs_ocr_pages", pa.list_(pa.int32())), ("language", pa.string()),
    ("extraction_report", pa.string()), ("title", pa.string()),
])
"""Layout of the documents table. ``needs_ocr_pages`` was added in schema version 2 of this table,
``language`` in version 6, ``extraction_report`` in version 7 and ``title`` in version 8: an older
table gets them as all-null columns when opened (:meth:`core.store.Store._documents`)."""


def chunks_schema(dimension: int) -> pa.Schema:
    """Arrow schema of the chunks table for vectors of ``dimension`` floats.

    ``text`` is what answers quote; ``context`` (title and section path, schema version 6) and
    ``indexed_text`` (context + text: what was embedded and what the BM25 index covers) were added
    for contextual chunks. Tables written before them have neither column; they are read with
    ``context = ""`` and searched on ``text`` (:func:`fts_column`) until the shadow rebuild that the
    schema version bump starts replaces them.

    ``retired`` (nullable bool) flags the old rows of a document during a replacement, between its
    two commits (:mod:`core.store_replace`); readers skip them. Null means live: an older table gets
    the column all-null from its first replacement, without a schema-version bump or a rebuild.
    """
    return pa.schema([
        ("chunk_id", pa.string()), ("path", pa.string()), ("page", pa.int32()),
        ("page_end", pa.int32()), ("section", pa.string()), ("ordinal", pa.int32()),
        ("text", pa.string()), ("text_hash", pa.string()),
        ("vector", pa.list_(pa.float32(), dimension)),
        ("context", pa.string()), ("indexed_text", pa.string()),
        ("page_breaks", pa.list_(pa.struct([("offset", pa.int32()), ("page", pa.int32())]))),
        ("retired", pa.bool_()),
    ])


FTS_COLUMN = "indexed_text"
"""The column the BM25 full-text index covers (``text`` on tables older than schema version 6)."""


def fts_column(column_names: Iterable[str]) -> str:
    """The full-text-indexed column of a chunks table with these columns."""
    return FTS_COLUMN if FTS_COLUMN in set(column_names) else "text"


def sql_str(value: str) -> str:
    """Quote ``value`` as a SQL string literal for a LanceDB filter (single quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def in_filter(column: str, values: Iterable[str]) -> str:
    """``column IN (...)`` over escaped literals (:func:`sql_str`); an empty set matches nothing."""
    items = [sql_str(v) for v in values]
    return f"{column} IN ({', '.join(items)})" if items else "false"


def path_filter(paths: Iterable[str]) -> str:
    """``path IN (...)`` over escaped literals; an empty set matches nothing."""
    return in_filter("path", paths)


@dataclass(frozen=True)
class DocumentRecord:
    """One row of the documents table.

    ``needs_ocr_pages``: 1-based pages whose text layer was unusable (scanned or garbage) and that
    could not be OCR'd (no tesseract, or ``extraction.ocr: never``); the rest of the file is indexed.
    ``language``: ISO 639-1 code of the document's main language (:mod:`core.language`), ``""``
    when unknown (failed files, rows written before it existed).
    ``extraction_report``: JSON of :meth:`core.types.ExtractionReport.to_json` plus ``chunk_kinds``
    (per chunk ordinal, its block kinds joined by "+", e.g. ``"text+table"``); ``""`` when unknown
    (failed files, rows written before the column existed). Read it with :meth:`report`.
    ``title``: the document's title (:func:`indexer.context.document_title`: confirmed metadata
    title, front matter, running header), ``""`` when unknown; the document-name catalog reads it.
    """

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
    needs_ocr_pages: tuple[int, ...] = ()
    language: str = ""
    extraction_report: str = ""
    title: str = ""

    @classmethod
    def from_row(cls, row: dict[str, object]) -> DocumentRecord:
        """A record from a table row (``needs_ocr_pages``, ``language``, ``extraction_report`` and
        ``title`` are null in rows written before they existed)."""
        pages = row.get("needs_ocr_pages") or ()
        return cls(**{**row, "needs_ocr_pages": tuple(pages),  # type: ignore[arg-type]
                      "language": row.get("language") or "",
                      "extraction_report": row.get("extraction_report") or "",
                      "title": row.get("title") or ""})

    @property
    def version(self) -> str:
        """What changes whenever the document's chunks do: its content hash and when it was indexed (a
        shadow rebuild re-indexes unchanged files, with new pages and chunk ids). For cache keys."""
        return f"{self.sha256}:{self.indexed_at}"

    def report(self) -> dict[str, object] | None:
        """The stored extraction report as a dict, or None when there is none (or it is unreadable)."""
        if not self.extraction_report:
            return None
        try:
            data = json.loads(self.extraction_report)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None


def chunk_row(c: Chunk, v: np.ndarray) -> dict[str, Any]:
    """The chunks-table row of ``c`` with its vector ``v`` (shape (dim,)), live (``retired`` false)."""
    row = asdict(c)
    row["indexed_text"] = c.indexed_text
    row["vector"] = np.asarray(v, dtype=np.float32).tolist()
    row["page_breaks"] = [{"offset": o, "page": p} for o, p in c.page_breaks]
    row["retired"] = False
    return row


def result_columns(names: Sequence[str]) -> list[str]:
    """The columns a search reads for its result rows: every column of the chunks table (``names``)
    but ``vector`` and ``indexed_text`` (a search result becomes a :func:`row_chunk`; reading and
    converting 384 floats per row to Python was part of each leg's cost at 1M chunks)."""
    return [n for n in names if n not in ("vector", "indexed_text")]


def rows_with_vectors(data: pa.Table) -> list[dict[str, Any]]:
    """The rows of ``data`` as dicts, its ``vector`` column as one float32 array per row (shape
    (dim,)) taken from one Arrow buffer instead of 384 Python floats per row (what ``to_list`` makes)."""
    column = data.column("vector").combine_chunks()
    rows = data.drop_columns(["vector"]).to_pylist()
    if pa.types.is_fixed_size_list(column.type) and column.null_count == 0:
        flat = column.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False)
        vectors = list(flat.reshape(len(rows), column.type.list_size))
    else:  # a variable-size list column (not written by this schema), or a null vector
        vectors = [np.asarray(v or (), dtype=np.float32) for v in column.to_pylist()]
    for row, vector in zip(rows, vectors, strict=True):
        row["vector"] = vector
    return rows


def row_chunk(r: dict[str, Any]) -> Chunk:
    """A :class:`Chunk` from a row (``context`` is absent in tables older than schema version 6,
    ``page_breaks`` in those older than version 7)."""
    return Chunk(chunk_id=r["chunk_id"], path=r["path"], text=r["text"], page=r["page"],
                 page_end=r["page_end"], section=r["section"], ordinal=r["ordinal"],
                 text_hash=r["text_hash"], context=r.get("context") or "", page_breaks=page_breaks(r))


def page_breaks(row: dict[str, Any]) -> tuple[tuple[int, int], ...]:
    """The ``(offset, page)`` breaks of a chunk row (``()`` when the column is absent or null)."""
    return tuple((int(b["offset"]), int(b["page"])) for b in row.get("page_breaks") or ())
