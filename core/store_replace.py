"""Replacing a document's chunks in one commit, without a join over the whole chunks table.

Re-exported through :mod:`core.store` (``Store.replace_chunks`` / ``Store.replace_rows``); readers of
the chunks table go through :class:`core.store.Store`, which skips retired rows.

**The two steps** of a replacement (design and the alternatives weighed: docs/architecture.md, "The
store: replacing a document's chunks"):

1. :func:`switch` — **one** ``merge_insert`` commit keyed on ``chunk_id`` whose source is the new chunks
   (``retired = false``) plus the document's other rows in the table, copied with ``retired = true``.
   Ids in both are updated, new ids inserted, the old-only ids flagged. There is no
   ``when_not_matched_by_source_delete`` clause, so LanceDB never outer-joins the whole table (that
   clause made one replacement 2.8–4 s at 1M chunks); with the BTREE index on ``chunk_id``
   (:func:`core.store_maintenance.ensure_indexes`) the source ids are looked up in the index. Every
   reader skips ``retired`` rows, so this commit is the instant the document moves from its old
   chunks to its new ones: one table version holds either the old set or the new set as the live
   rows, never none and never both — for every process, whatever its read consistency.
2. :func:`purge` — ``delete`` of the retired rows (a second commit, invisible to readers: they never
   returned those rows). A crash before it only leaves retired rows, which the next replacement's
   purge or reconcile (:func:`purge`, from :func:`indexer.repair.repair_drift`) deletes; nothing is lost.

The ``retired`` column (nullable bool; null = live, as in every row written before the column existed)
is added to an existing table in place (an all-null column: a metadata-only change in Lance) by the
first replacement (:meth:`core.database.Database.table`), so it needs no schema-version bump and no
shadow rebuild. Sources: LanceDB "Tables" guide, merge insert
(https://lancedb.github.io/lancedb/guides/tables/); Lance ``LanceDataset.add_columns`` ("a pyarrow.Field
or Schema adds all NULL columns … in a metadata-only operation",
https://lancedb.github.io/lance/api/python/LanceDataset.add_columns.html). Measured at 1M chunks:
docs/benchmarks.md, "1M chunks: replacing a file".
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from core.store_schema import in_filter, path_filter

log = logging.getLogger(__name__)

RETIRED = "retired"
"""Column of a chunk row replaced by a newer version of its document, until :func:`purge` deletes it."""
RETIRED_FIELD = pa.field(RETIRED, pa.bool_())
LIVE_SQL = f"({RETIRED} IS NULL OR {RETIRED} = false)"
"""A filter on the live rows (null: rows written before the column existed)."""


def has_retired(tbl: Any) -> bool:
    """Whether the chunks table ``tbl`` has the :data:`RETIRED` column."""
    return RETIRED in tbl.schema.names


def live_where(tbl: Any, where: str | None) -> str | None:
    """``where`` restricted to live rows (unchanged on a table without the column)."""
    if not has_retired(tbl):
        return where
    return LIVE_SQL if where is None else f"({where}) AND {LIVE_SQL}"


def switch(tbl: Any, new: pa.Table, paths: Sequence[str]) -> list[str]:
    """Step 1: in one commit, make the rows of ``new`` the live rows of ``paths``.

    Args:
        tbl: the chunks table (with the :data:`RETIRED` column).
        new: the new rows, with every column of ``tbl`` (``retired`` may be absent: set false); ids unique.
        paths: the document's path (and a move's old path) whose other rows are retired (an id that
            two rows share — two writers before the indexer lease — is flagged through one source row).

    Returns:
        The chunk ids retired (to :func:`purge`).
    """
    schema = tbl.schema
    if RETIRED not in new.schema.names:
        new = new.append_column(RETIRED_FIELD, pa.array([False] * new.num_rows, pa.bool_()))
    new = new.select(schema.names).cast(schema)
    old = tbl.search().where(path_filter(paths)).select(schema.names).limit(None).to_arrow()
    old = old.filter(pc.invert(pc.is_in(old.column("chunk_id"), value_set=new.column("chunk_id"))))
    ids = old.column("chunk_id").to_pylist()
    first = sorted({i: n for n, i in reversed(list(enumerate(ids)))}.values())  # one row per id
    old = old.take(pa.array(first, pa.int64()))
    flag = pa.array([True] * old.num_rows, pa.bool_())
    old = old.set_column(old.schema.get_field_index(RETIRED), RETIRED_FIELD, flag).cast(schema)
    source = pa.concat_tables([new, old])
    tbl.merge_insert("chunk_id").when_matched_update_all().when_not_matched_insert_all().execute(source)
    return [str(i) for i in old.column("chunk_id").to_pylist()]


def purge(tbl: Any, ids: Sequence[str] | None = None) -> None:
    """Step 2: delete retired rows — those of ``ids`` (found through the ``chunk_id`` index), or every
    retired row when ``ids`` is None (reconcile: what a crash between the steps left)."""
    if not has_retired(tbl):
        return
    where = f"{RETIRED} = true"
    if ids is not None:
        if not ids:
            return
        where = f"{in_filter('chunk_id', ids)} AND {where}"
    tbl.delete(where)


def count_retired(tbl: Any) -> int:
    """Retired rows in ``tbl`` (0 after every completed replacement)."""
    return int(tbl.count_rows(f"{RETIRED} = true")) if has_retired(tbl) else 0


def top_live(run: Callable[[int], list[dict[str, Any]]], k: int) -> list[dict[str, Any]]:
    """The first ``k`` live rows of a ranked search: ``run(limit)`` returns up to ``limit`` rows best
    first; while retired rows took places (only between the two steps of a replacement), it is asked
    again for twice as many."""
    limit = k
    while True:
        rows = run(limit)
        live = [r for r in rows if not r.get(RETIRED)]
        if len(live) >= k or len(rows) < limit:
            return live[:k]
        limit *= 2
