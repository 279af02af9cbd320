"""Stored unit vectors: the embeddings of every quotable unit (sentence, list item, table row) of a
chunk, computed once per chunk text and kept in the store, so answering only looks them up.

The extractive answerer scores each quotable unit of the kept passages by its cosine with the question
(:mod:`core.answer.evidence`). Embedding those units on every question was almost all of the answer
time (docs/benchmarks.md, "Stored unit vectors"). Now:

- :class:`UnitVectors` — table ``unit_vectors`` in the data dir's :class:`~core.database.Database`
  (a folder or an object store: ``s3://``, ``gs://``, ``az://``): one row per (key, chunk text hash)
  with the chunk's unit texts (:func:`~core.answer.sentences.embedded_text`) and their L2-normalised
  vectors, row-major float32 (``len(texts) × dimension``). Rows are keyed by the chunk's ``text_hash``
  (SHA-256 of its text), so they survive moves, copies and shadow rebuilds, and a changed chunk simply
  has no row until the job runs.
- :class:`UnitVectorJob` — the indexer role's maintenance job ``unit-vectors`` (every
  ``index.unit_vectors_interval_s``; ``policybot watch`` / the leader of ``policybot run``): embeds
  the units of the live chunks that have no row, in batches, for at most :data:`RUN_BUDGET_S` per run
  (it holds the index write lock meanwhile), and skips at once when the index did not change since
  its last complete pass. Indexing itself (``policybot index``) never does this work, so its
  throughput is unchanged.
- At answer time :meth:`UnitVectors.lookup` returns the stored vectors of the kept chunks (one
  filtered read); units without one (a chunk indexed since the job last ran, or a unit text the
  splitter now cuts differently) are embedded on the fly as before.

The key covers what shapes a vector given its text — the embedding key
(:func:`core.fingerprint.embedding_key`: embedding settings, model id, dimension) — plus
:data:`~core.answer.sentences.SPLIT_VERSION`; rows of another key are never returned.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pyarrow as pa

from core.answer.sentences import SPLIT_VERSION, embedded_text, quotable, split_units
from core.database import Database
from core.embedder import Embedder
from core.store_maintenance import index_types, optimize_table
from core.store_schema import in_filter, sql_str
from core.types import Chunk

log = logging.getLogger(__name__)

TABLE = "unit_vectors"
SCHEMA = pa.schema([("id", pa.string()), ("key", pa.string()), ("text_hash", pa.string()),
                    ("texts", pa.list_(pa.string())), ("vectors", pa.list_(pa.float32()))])
LOOKUP_BATCH = 500
"""Ids per ``IN (...)`` filter."""
RUN_BUDGET_S = 20.0
"""Seconds one job run keeps embedding (then it returns the write lock; the next run continues)."""
BATCH_CHUNKS = 32
"""Chunks embedded and written per commit by the job."""


def units_key(embedding_key: str) -> str:
    """SHA-256 hex of the embedding key (:func:`core.fingerprint.embedding_key`) and the splitter's
    :data:`~core.answer.sentences.SPLIT_VERSION`."""
    return hashlib.sha256(f"{embedding_key}\x00units-v{SPLIT_VERSION}".encode()).hexdigest()


def chunk_unit_texts(text: str) -> list[str]:
    """The distinct texts the answerer embeds for a chunk of ``text``, in reading order."""
    return list(dict.fromkeys(embedded_text(u) for u in quotable(split_units(text, 1))))


def normalised(vectors: np.ndarray) -> np.ndarray:
    """Rows of ``vectors`` scaled to unit length (zero rows stay zero); float32."""
    arr = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    return np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)


class UnitVectors:
    """The ``unit_vectors`` table (created on first write).

    Args:
        db: the data dir's database.
        embedding_key: returns the embedding key (called once, on first use: it may load the model).
    """

    def __init__(self, db: Database, embedding_key: Callable[[], str]) -> None:
        self.db = db
        self._embedding_key = embedding_key
        self._key: str | None = None

    @property
    def key(self) -> str:
        """:func:`units_key` of the embedding key."""
        if self._key is None:
            self._key = units_key(self._embedding_key())
        return self._key

    def lookup(self, chunks: Sequence[Chunk]) -> dict[str, np.ndarray]:
        """Unit text → stored L2-normalised float32 vector (shape (dimension,)) for the units of
        ``chunks``; chunks without a row contribute nothing. Raises what LanceDB raises."""
        tbl = self.db.find_table(TABLE)
        if tbl is None or not chunks:
            return {}
        out: dict[str, np.ndarray] = {}
        for rows in self._rows(tbl, sorted({c.text_hash for c in chunks}), ["texts", "vectors"]):
            texts = rows.column("texts").to_pylist()
            flat = rows.column("vectors").combine_chunks()
            offsets = flat.offsets.to_numpy()
            values = flat.values.to_numpy(zero_copy_only=False)
            for i, ts in enumerate(texts):
                if ts:
                    block = values[offsets[i]:offsets[i + 1]].reshape(len(ts), -1)
                    out.update(zip(ts, block, strict=True))
        return out

    def stored_hashes(self) -> set[str]:
        """Chunk text hashes that have a row under :attr:`key`."""
        tbl = self.db.find_table(TABLE)
        if tbl is None:
            return set()
        rows = tbl.search().where(f"key = {sql_str(self.key)}").select(["text_hash"]).limit(None).to_arrow()
        return set(rows.column("text_hash").to_pylist())

    def put(self, units: Mapping[str, tuple[Sequence[str], np.ndarray]]) -> None:
        """Store ``chunk text hash → (unit texts, vectors of shape (len(texts), dimension))`` in one
        commit; an existing row of the same id is replaced."""
        if not units:
            return
        rows = [{"id": self._id(h), "key": self.key, "text_hash": h, "texts": list(texts),
                 "vectors": np.asarray(vecs, dtype=np.float32).reshape(-1)}
                for h, (texts, vecs) in units.items()]
        data = pa.Table.from_pylist(rows, schema=SCHEMA)
        tbl = self.db.table(TABLE, SCHEMA)
        tbl.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(data)

    def prune(self, gone: Iterable[str]) -> int:
        """Delete the rows under :attr:`key` of the chunk text hashes ``gone`` (texts no longer in the
        index: edited or deleted chunks), in batches; returns how many were asked for."""
        tbl = self.db.find_table(TABLE)
        ids = [self._id(h) for h in sorted(gone)]
        if tbl is None or not ids:
            return 0
        for i in range(0, len(ids), LOOKUP_BATCH):
            tbl.delete(in_filter("id", ids[i:i + LOOKUP_BATCH]))
        return len(ids)

    def optimize(self, cleanup_older_than_s: float) -> None:
        """Compact the table (each job commit adds a fragment; a lookup reads every fragment's ids)
        and delete versions older than ``cleanup_older_than_s``
        (:func:`core.store_maintenance.optimize_table`). The first call on a non-empty table also
        builds a BTREE index on ``id``: without it every lookup and ``merge_insert`` scans the whole id
        column (one row per chunk text: a million at 1M chunks); later optimizes fold new rows in.
        LanceDB docs: "Scalar indexes" (BTREE)."""
        tbl = self.db.find_table(TABLE)
        if tbl is None:
            return
        if "BTree" not in index_types(tbl) and tbl.count_rows():
            from lancedb.index import BTree

            tbl.create_index("id", config=BTree(), replace=True)
            log.info("btree index on %s.id built rows=%d", TABLE, tbl.count_rows())
        optimize_table([tbl], cleanup_older_than_s)

    def count(self) -> int:
        """Rows in the table (every key)."""
        tbl = self.db.find_table(TABLE)
        return 0 if tbl is None else int(tbl.count_rows())

    def _rows(self, tbl: Any, hashes: Sequence[str], columns: list[str]) -> list[pa.Table]:
        ids = [self._id(h) for h in hashes]
        return [tbl.search().where(in_filter("id", ids[i:i + LOOKUP_BATCH]))
                .select(columns).limit(None).to_arrow() for i in range(0, len(ids), LOOKUP_BATCH)]

    def _id(self, text_hash: str) -> str:
        return f"{self.key[:16]}:{text_hash}"


class ChunkSource(Protocol):
    """What the job reads of the index (:class:`core.store.Store` fits)."""

    @property
    def generation(self) -> int: ...

    def table_version(self) -> int: ...

    def chunk_rows(self, where: str | None = None,
                   columns: list[str] | None = None) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class FillResult:
    """One job run: ``chunks`` whose rows were written, ``units`` embedded, ``remaining`` chunks
    still without a row, ``skipped`` when the index had not changed since the last complete pass."""

    chunks: int = 0
    units: int = 0
    remaining: int = 0
    skipped: bool = False


class UnitVectorJob:
    """The ``unit-vectors`` maintenance job (see the module doc).

    Args:
        vectors: the table.
        store: the live index.
        embedder: the same embedder the answerer uses (passages: :meth:`Embedder.embed`).
        budget_s: seconds of embedding per run (:data:`RUN_BUDGET_S`); at least one batch runs.
        stop: when it returns True the run ends after the batch under way (process shutting down).
        cleanup_older_than_s: a run that wrote rows compacts the table and deletes versions older
            than this (``index.cleanup_older_than_s``).
    """

    def __init__(self, vectors: UnitVectors, store: ChunkSource, embedder: Embedder, *,
                 budget_s: float = RUN_BUDGET_S, stop: Callable[[], bool] = lambda: False,
                 cleanup_older_than_s: float = 600.0) -> None:
        self.vectors = vectors
        self.store = store
        self.embedder = embedder
        self.budget_s = budget_s
        self.stop = stop
        self.cleanup_older_than_s = cleanup_older_than_s
        self._complete_at: tuple[int, int] | None = None

    def run(self) -> FillResult:
        """Embed and store the units of live chunks without a row, until done or out of budget."""
        version = (self.store.generation, self.store.table_version())
        if version == self._complete_at:
            return FillResult(skipped=True)
        live = {r["text_hash"] for r in self.store.chunk_rows(columns=["text_hash"])}
        stored = self.vectors.stored_hashes()
        todo = sorted(live - stored)
        t0, chunks, units = time.perf_counter(), 0, 0
        for start in range(0, len(todo), BATCH_CHUNKS):
            if start and (self.stop() or time.perf_counter() - t0 > self.budget_s):
                break
            done, embedded = self._fill(todo[start:start + BATCH_CHUNKS])
            chunks, units = chunks + done, units + embedded
        remaining = len(todo) - chunks
        pruned = 0
        if remaining == 0:  # a complete pass: rows of texts that left the index go (bounded table)
            self._complete_at = version
            pruned = self.vectors.prune(stored - live)
        if chunks or pruned:
            self.vectors.optimize(self.cleanup_older_than_s)
            log.info("unit vectors: %d chunks (%d units) in %.1fs, %d chunks left", chunks, units,
                     time.perf_counter() - t0, remaining)
        return FillResult(chunks, units, remaining)

    def _fill(self, hashes: Sequence[str]) -> tuple[int, int]:
        """Rows for the chunks of ``hashes``: (chunks written, distinct units embedded)."""
        where = in_filter("text_hash", hashes)
        texts = {r["text_hash"]: r["text"] for r in self.store.chunk_rows(where, ["text_hash", "text"])}
        per_chunk = {h: chunk_unit_texts(texts[h]) for h in hashes if h in texts}
        distinct = list(dict.fromkeys(t for ts in per_chunk.values() for t in ts))
        vecs = normalised(self.embedder.embed(distinct)) if distinct else np.zeros((0, 0), np.float32)
        index = dict(zip(distinct, vecs, strict=True))
        dim = vecs.shape[1] if len(distinct) else 0
        self.vectors.put({h: (ts, np.stack([index[t] for t in ts]) if ts else np.zeros((0, dim), np.float32))
                          for h, ts in per_chunk.items()})
        return len(per_chunk), len(distinct)
