"""Wiring helpers for the composition root: the chunk-hash source and the cache itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from core.cache.answer_cache import AnswerCache, ChunkHashes
from core.cache.store import TABLE_NAME, CacheTable
from core.config import Settings
from core.embedder import Embedder
from core.store import Store, sql_str

HASH_BATCH = 500
"""Chunk ids per ``IN (...)`` filter."""


def store_chunk_hashes(store: Store) -> ChunkHashes:
    """``chunk_hashes(ids) -> {id: text_hash}`` read from the index's chunks table (absent ids: deleted)."""

    def chunk_hashes(chunk_ids: Sequence[str]) -> Mapping[str, str]:
        out: dict[str, str] = {}
        ids = list(dict.fromkeys(chunk_ids))
        for i in range(0, len(ids), HASH_BATCH):
            where = f"chunk_id IN ({', '.join(sql_str(c) for c in ids[i:i + HASH_BATCH])})"
            for row in store.chunk_rows(where, columns=["chunk_id", "text_hash"]):
                out[row["chunk_id"]] = row["text_hash"]
        return out

    return chunk_hashes


def store_chunks_version(store: Store) -> Callable[[], object]:
    """A token of the chunks table's state: (LanceDB version, row count); None when there is none.

    The row count guards against a dropped-and-recreated table reusing a version number.
    """

    def version() -> object:
        tbl = store.db.find_table(store.chunks_table_name)
        if tbl is None:  # no chunks table yet
            return None
        return (int(tbl.version), int(tbl.count_rows()))

    return version


def stored_dimension(store: Store) -> int | None:
    """Question-vector length of the existing ``answer_cache`` table; None when there is none."""
    tbl = store.db.find_table(TABLE_NAME)
    if tbl is None:
        return None
    size: int = tbl.schema.field("vector").type.list_size
    return size


def make_answer_cache(store: Store, embedder: Embedder, settings: Settings, fingerprint: str,
                      clock: Callable[[], float] | None = None, *,
                      dimension: int | None = None) -> AnswerCache:
    """Build the verified-answer cache on ``store``'s LanceDB (table ``answer_cache``).

    ``fingerprint`` is the index's config fingerprint (:func:`core.fingerprint.config_fingerprint`).
    ``dimension`` defaults to ``embedder.dimension`` (loads the model). Admin tools that never embed
    (stats, forget, invalidate, expire) pass :func:`stored_dimension` instead — never a guess, since a
    table of another dimension is dropped and recreated.
    """
    table = CacheTable(store.db, embedder.dimension if dimension is None else dimension)
    kwargs = {"clock": clock} if clock is not None else {}
    return AnswerCache(table, embedder, settings.cache, fingerprint=fingerprint,
                       chunk_hashes=store_chunk_hashes(store), chunks_version=store_chunks_version(store),
                       glossary=settings.retrieval.glossary, **kwargs)
