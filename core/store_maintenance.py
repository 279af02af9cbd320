"""LanceDB index upkeep for the chunks table: the BM25 full-text index, the ANN vector index, and
compaction with old-version cleanup.

- Full-text: created once; later adds and updates are searched by LanceDB as unindexed rows and
  deletions are applied at query time, so keyword search follows every commit. ``optimize`` folds
  the unindexed rows into the index.
- ANN: an IVF_HNSW_SQ index (IVF partitions, an HNSW graph per partition, 8-bit scalar-quantised
  vectors) once the table reaches ``index.ann_min_rows`` rows; below that LanceDB's flat search is
  exact and fast enough. Measured in issue 3: flat 226 ms vs HNSW 4 ms at 100k chunks, recall@20
  0.975. ``optimize`` adds new rows to it. LanceDB docs: "Vector indexes" / "IVF_HNSW_SQ".
- BTREE scalar indexes on ``chunk_id`` and ``path`` at the same threshold: without them every
  ``chunk_id IN (...)`` lookup (the reranker's cosines of BM25-only candidates, the answer cache's
  citation check) and the ``merge_insert`` of a file's chunks scans the whole id column (0.2 s per
  lookup at 1M chunks), and every ``path = …`` read (reference following reads a kept passage's
  document, a replacement reads the file's current rows) scans the path column (0.12 s).
- Compaction: thousands of single-file commits leave thousands of small fragments (one search went
  from 4 ms to 180 ms after 2,000 commits); ``Table.optimize`` merges them and deletes versions older
  than ``cleanup_older_than`` (kept for readers still holding an old version).
- When: ``Table.optimize`` (compaction, version cleanup and index update in one call — LanceDB's
  Python API offers no index-less compaction without pylance, and no delta-index option) also rebuilds
  the IVF_HNSW_SQ index, which at 1M chunks took ≈ 20 min of both cores on every run (bench/scale.py,
  docs/benchmarks.md). So a table with an ANN index is optimized only once some index misses
  ``index.optimize_min_unindexed_rows`` rows, or it has :data:`MAX_SMALL_FRAGMENTS` small fragments
  (the search slow-down of many commits); until then new rows are searched flat by LanceDB beside the
  index (a few ms for a few thousand rows) and old versions wait for that optimize. Tables without an
  ANN index are small and are optimized every time. (pylance's ``optimize_indices(num_indices_to_merge=0)``
  would add delta indexes instead; it is not used: a second Lance engine beside LanceDB's own risks
  writing an index format LanceDB cannot read.)
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from core.config import KeywordSettings
from core.store_schema import fts_column

log = logging.getLogger(__name__)

MAX_SMALL_FRAGMENTS = 200
"""A table with an ANN index is optimized anyway once it has this many small fragments (each commit adds
one; 2,000 of them made one search 45× slower)."""
ANN_PARTITION_ROWS = 4096
"""Default rows per IVF partition (``index.ann_partition_rows``; LanceDB's guidance is √n to n/4096
partitions)."""


SCALAR_INDEXED = ("chunk_id", "path")
"""Columns given a BTREE index at the ANN threshold: ``chunk_id`` (id lookups, ``merge_insert``) and
``path`` (a document's chunks: reference following, a replacement's current rows, scoped searches'
prefilter): each lookup scanned the column at 1M chunks (``path = …``: 122 ms median at load 12;
3.5 ms with the index, built in 0.6 s; docs/benchmarks.md)."""


def btree_columns(tbl: Any) -> set[str]:
    """Columns of ``tbl`` that have a BTREE index."""
    return {c for ix in tbl.list_indices() if "BTree" in str(ix.index_type) for c in ix.columns}


def index_types(tbl: Any) -> set[str]:
    """Index types present on ``tbl``, e.g. ``{"FTS", "IvfHnswSq"}``."""
    return {str(ix.index_type) for ix in tbl.list_indices()}


def ensure_indexes(tbl: Any, keyword: KeywordSettings, ann_min_rows: int | None,
                   partition_rows: int = ANN_PARTITION_ROWS) -> list[str]:
    """Create the BM25 index on :func:`~core.store_schema.fts_column` (``indexed_text``, or ``text``
    in older tables) when missing and, when ``ann_min_rows`` is given and the table has at least
    that many rows, the ANN index on ``vector`` (one IVF partition per ``partition_rows`` rows).
    Returns the names created."""
    have = index_types(tbl)
    created: list[str] = []
    if "FTS" not in have and tbl.count_rows():
        t0 = time.perf_counter()
        from lancedb.index import FTS

        config = FTS(with_position=False, lower_case=True, stem=keyword.stem,
                     remove_stop_words=keyword.remove_stop_words, ascii_folding=keyword.ascii_folding)
        tbl.create_index(fts_column(tbl.schema.names), config=config, replace=True)
        created.append("fts")
        log.info("fts index built rows=%d in %.0f ms", tbl.count_rows(), (time.perf_counter() - t0) * 1e3)
    rows = int(tbl.count_rows())
    if ann_min_rows is not None and rows >= ann_min_rows and not any("Hnsw" in t or "Ivf" in t for t in have):
        t0 = time.perf_counter()
        from lancedb.index import IvfHnswSq

        tbl.create_index("vector", config=IvfHnswSq(distance_type="cosine",
                                                     num_partitions=max(1, rows // partition_rows)))
        created.append("ann")
        log.info("ann index (IVF_HNSW_SQ) built rows=%d in %.1f s", rows, time.perf_counter() - t0)
    if ann_min_rows is not None and rows >= ann_min_rows:
        from lancedb.index import BTree

        have_btree = btree_columns(tbl)
        for column in SCALAR_INDEXED:
            if column not in have_btree:
                tbl.create_index(column, config=BTree(), replace=True)
                created.append(column)
                log.info("btree index on %s built rows=%d", column, rows)
    return created


def unindexed_rows(tbl: Any) -> tuple[bool, int]:
    """``(has an ANN index, most rows any index of the table does not cover yet)``."""
    ann, most = False, 0
    for ix in tbl.list_indices():
        kind = str(ix.index_type)
        ann = ann or "Hnsw" in kind or "Ivf" in kind
        stats = tbl.index_stats(ix.name)
        most = max(most, int(getattr(stats, "num_unindexed_rows", 0) or 0))
    return ann, most


def optimize_table(tables: list[Any], cleanup_older_than_s: float,
                   min_unindexed_rows: int = 5000) -> dict[str, object]:
    """``Table.optimize`` (compact, fold new rows into the indexes, delete versions older than the given
    age) each of ``tables`` where that is cheap or due (module docstring: a table with an ANN index only
    once an index misses ``min_unindexed_rows`` rows or it has many small fragments).

    Returns ``{"tables": [names], "reindexed": [names optimized], "seconds": float}``.
    """
    t0 = time.perf_counter()
    reindexed = []
    for tbl in tables:
        ann, unindexed = unindexed_rows(tbl)
        small = int(dict(tbl.stats())["fragment_stats"]["num_small_fragments"]) if ann else 0
        if ann and unindexed < min_unindexed_rows and small < MAX_SMALL_FRAGMENTS:
            log.info("%s: not optimized: %d unindexed rows (< %d) and %d small fragments (< %d) are "
                     "searched beside the ANN index", tbl.name, unindexed, min_unindexed_rows, small,
                     MAX_SMALL_FRAGMENTS)
            continue
        tbl.optimize(cleanup_older_than=timedelta(seconds=cleanup_older_than_s))
        reindexed.append(str(tbl.name))
    seconds = time.perf_counter() - t0
    names = [str(t.name) for t in tables]
    log.info("optimized %s (indexes updated: %s) in %.2f s", ",".join(names), ",".join(reindexed) or "none",
             seconds)
    return {"tables": names, "reindexed": reindexed, "seconds": round(seconds, 3)}


def prewarm_indexes(tbl: Any) -> list[str]:
    """Ask LanceDB to load each index of ``tbl`` into its cache now (``Table.prewarm_index``, lancedb
    docs: "reduce cold-start latency for subsequent queries"), so a serving process's first
    questions do not each pay for reading index pages from disk. Returns the names of the indexes
    asked for; an index type LanceDB cannot prewarm is ignored by LanceDB, and a failure is logged
    (never raised: prewarming is only a hint)."""
    names = []
    for ix in tbl.list_indices():
        try:
            tbl.prewarm_index(ix.name)
            names.append(ix.name)
        except Exception as exc:  # noqa: BLE001 - a hint; the first search reads the index anyway
            log.info("index %s not prewarmed: %s", ix.name, exc)
    return names

