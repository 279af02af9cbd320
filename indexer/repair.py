"""Reconcile's drift repair: the documents and chunks tables must agree.

A crash between the per-file commits (chunks first, then the documents row) can leave chunks
without a documents row, or a documents row whose chunks are missing or incomplete; one inside a chunk
replacement leaves retired rows (:mod:`core.store_replace`), which are deleted first. Orphan chunks are
deleted; a document whose stored chunk count differs from its row, or that owns a duplicated
chunk id (two concurrent writers before the writer lock existed), has its chunks dropped and is
re-indexed (its vectors come
back from the embedding cache, so the repair embeds nothing).
"""

from __future__ import annotations

import logging

from core.store import DocumentRecord, Store

log = logging.getLogger(__name__)


def repair_drift(store: Store, known: dict[str, DocumentRecord]) -> tuple[set[str], int]:
    """Delete orphan chunks of ``store``; return (paths to re-index, number of repairs).

    Orphans: chunks whose path has no documents row, or whose row records no chunks. Paths to
    re-index: rows with ``chunk_count > 0`` whose stored chunk count differs.
    """
    store.purge_retired()  # a replacement interrupted between its two commits (core.store_replace)
    counts = store.chunk_counts()
    orphans = sorted(p for p in counts if p not in known or known[p].chunk_count == 0)
    if orphans:
        store.delete_chunks(orphans)
        log.warning("repair: deleted orphan chunks of %d paths", len(orphans))
    dup_paths = _paths_with_duplicate_ids(store) - set(orphans)
    if dup_paths:
        store.delete_chunks(sorted(dup_paths))
        log.warning("repair: duplicate chunk ids in %d documents; re-indexing them", len(dup_paths))
    stale = {p for p, rec in known.items() if rec.chunk_count > 0 and counts.get(p, 0) != rec.chunk_count}
    stale |= {p for p in dup_paths if p in known}
    if stale:
        log.warning("repair: %d documents have missing chunks; re-indexing them", len(stale))
    return stale, len(orphans) + len(stale)


def _paths_with_duplicate_ids(store: Store) -> set[str]:
    """Paths owning a chunk id that appears more than once (left by two concurrent writers)."""
    if store.duplicate_chunk_ids() == 0:
        return set()
    seen: dict[str, str] = {}
    paths: set[str] = set()
    for row in store.chunk_rows(columns=["chunk_id", "path"]):
        if row["chunk_id"] in seen:
            paths |= {row["path"], seen[row["chunk_id"]]}
        seen[row["chunk_id"]] = row["path"]
    return paths
