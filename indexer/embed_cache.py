"""Chunk-level embedding cache: (chunk text hash, embedding key) → vector, in a LanceDB table.

Editing one paragraph re-embeds only the chunks whose text changed, a copied or moved file re-embeds
nothing, and a chunker change re-embeds only chunk texts never seen before, because every vector is
looked up here by the SHA-256 of its text before the model is asked. The embedding key
(:func:`embedding_key`) covers exactly what shapes a vector given its text: the embedding settings
(:func:`core.fingerprint.embedding_fingerprint`) plus the loaded model's id and dimension; vectors
of another model are never returned.

Table ``embedding_cache``: ``id`` (``<key[:16]>:<text_hash>``), ``key``, ``text_hash``, ``vector``
(variable-length float32 list, so one table serves every dimension). ``text_hash`` is the hash of the
embedded text (:func:`indexed_hash`: context + chunk text).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from core.database import Database
from core.embedder import Embedder
from core.fingerprint import embedding_key
from core.store import sql_str
from core.types import Chunk

log = logging.getLogger(__name__)

__all__ = ["Embedded", "EmbeddingCache", "embedding_key", "indexed_hash"]

TABLE = "embedding_cache"
LOOKUP_BATCH = 500
"""Ids per ``IN (...)`` filter."""
SCHEMA = pa.schema([("id", pa.string()), ("key", pa.string()), ("text_hash", pa.string()),
                    ("vector", pa.list_(pa.float32()))])


@dataclass(frozen=True)
class Embedded:
    """Vectors for a list of chunks: ``vectors`` shape (n, dim) in chunk order; ``embedded`` texts
    sent to the model; ``reused`` chunks whose vector came from the cache."""

    vectors: np.ndarray
    embedded: int
    reused: int


class EmbeddingCache:
    """The cache table in the data dir's :class:`~core.database.Database` (created on first write)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def _table(self, create: bool) -> Any | None:
        return self.db.table(TABLE, SCHEMA) if create else self.db.find_table(TABLE)

    def get(self, key: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        """Cached vectors of ``hashes`` under ``key``: text_hash → float32 vector (misses absent)."""
        tbl = self._table(create=False)
        if tbl is None or not hashes:
            return {}
        ids = sorted({_id(key, h) for h in hashes})
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(ids), LOOKUP_BATCH):
            where = f"id IN ({', '.join(sql_str(x) for x in ids[i:i + LOOKUP_BATCH])})"
            rows = tbl.search().where(where).select(["text_hash", "vector"]).limit(None).to_arrow()
            for h, v in zip(rows.column("text_hash").to_pylist(), rows.column("vector").to_pylist(),
                            strict=True):
                out[h] = np.asarray(v, dtype=np.float32)
        return out

    def put(self, key: str, vectors: dict[str, np.ndarray]) -> None:
        """Store ``text_hash → vector`` under ``key`` in one commit (existing ids are kept)."""
        if not vectors:
            return
        tbl = self._table(create=True)
        assert tbl is not None
        rows = [{"id": _id(key, h), "key": key, "text_hash": h,
                 "vector": np.asarray(v, dtype=np.float32).tolist()} for h, v in vectors.items()]
        data = pa.Table.from_pylist(rows, schema=SCHEMA)
        tbl.merge_insert("id").when_not_matched_insert_all().execute(data)

    def count(self) -> int:
        """Rows in the cache."""
        tbl = self._table(create=False)
        return 0 if tbl is None else int(tbl.count_rows())

    def embed(self, chunks: Sequence[Chunk], embedder: Embedder, key: str) -> Embedded:
        """Vectors for ``chunks`` (of their :attr:`~core.types.Chunk.indexed_text`): cached ones looked
        up, the others embedded (each distinct text once) and added to the cache before they are
        returned."""
        hashes = [indexed_hash(c) for c in chunks]
        cached = self.get(key, hashes)
        todo: dict[str, str] = {}
        for c, h in zip(chunks, hashes, strict=True):
            if h not in cached:
                todo.setdefault(h, c.indexed_text)
        fresh: dict[str, np.ndarray] = {}
        if todo:
            vecs = embedder.embed(list(todo.values()))
            fresh = dict(zip(todo, vecs, strict=True))
            self.put(key, fresh)
        both = {**cached, **fresh}
        dim = embedder.dimension
        vectors = (np.stack([both[h] for h in hashes]).astype(np.float32) if chunks
                   else np.zeros((0, dim), dtype=np.float32))
        reused = sum(h in cached for h in hashes)
        return Embedded(vectors, len(todo), reused)


def indexed_hash(chunk: Chunk) -> str:
    """Cache key of a chunk's embedded text: ``text_hash`` when it has no context (so vectors cached
    before contextual chunks stay valid), else the SHA-256 hex of its ``indexed_text``."""
    if not chunk.context:
        return chunk.text_hash
    return hashlib.sha256(chunk.indexed_text.encode()).hexdigest()


def _id(key: str, text_hash: str) -> str:
    return f"{key[:16]}:{text_hash}"
