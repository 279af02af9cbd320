"""The one owner of the LanceDB connection of a data dir: hands out tables and runs their migrations.

Every module that keeps rows in LanceDB (:mod:`core.store`, :mod:`core.answer_log`,
:mod:`core.answer.unit_vectors`, :mod:`core.cache.store`, :mod:`indexer.embed_cache`) receives a
:class:`Database`, never the raw connection, and asks it for tables by name (in the manner of
sqlite-utils' ``Database``):

- :meth:`Database.table` opens a table, creating it with its schema when missing and adding the columns
  a newer schema has (all-null, or filled by a SQL default) — the one place schema migrations run;
- :meth:`Database.find_table` opens a table or says it is not there (None) without creating it;
- :meth:`Database.drop_table`, :meth:`Database.table_names`.

Table handles are opened once per process and shared. The connection is opened with LanceDB's
``read_consistency_interval`` = ``store.read_consistency_s``: a handle checks for commits made by
*other* processes at most that long after they landed (0 = on every read: strongly consistent, and one
round trip per read on object storage); writes through this process's handles are seen at once.
LanceDB docs, "Consistency": https://lancedb.github.io/lancedb/guides/tables/#consistency
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

import lancedb
import pyarrow as pa

from core.store_location import LANCEDB_FOLDER, StoreLocation

log = logging.getLogger(__name__)


class Database:
    """The LanceDB database under ``location`` (``<location>/lancedb``).

    Args:
        location: the data dir (:class:`~core.store_location.StoreLocation`, or a folder Path / URI string).
        read_consistency_s: bound on the staleness of another process's commits, in seconds (0: none).

    Thread-safe: handles are shared by every thread of the process (LanceDB tables are).
    """

    def __init__(self, location: StoreLocation | Any, read_consistency_s: float = 0.0) -> None:
        self.location = location if isinstance(location, StoreLocation) else StoreLocation.parse(location)
        self.read_consistency_s = float(read_consistency_s)
        self._conn = lancedb.connect(self.location.child(LANCEDB_FOLDER),
                                     read_consistency_interval=timedelta(seconds=self.read_consistency_s))
        self._handles: dict[str, Any] = {}
        self._migrated: set[tuple[str, tuple[str, ...]]] = set()
        """(table, columns of a schema) that :meth:`table` found complete through the kept handle:
        columns are only ever added, so the table's schema is not read again for that schema."""
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Database({self.location.uri!r}, read_consistency_s={self.read_consistency_s})"

    # ---- names ----------------------------------------------------------------------------
    def table_names(self) -> list[str]:
        """Names of the tables in the database (all pages)."""
        names: list[str] = []
        token: str | None = None
        while True:
            res: Any = self._conn.list_tables(page_token=token)
            names.extend(getattr(res, "tables", res))
            token = getattr(res, "page_token", None)
            if not token:
                return names

    def has_table(self, name: str) -> bool:
        """Whether table ``name`` exists."""
        return self.find_table(name) is not None

    # ---- handles ---------------------------------------------------------------------------
    def find_table(self, name: str) -> Any | None:
        """The table ``name``, or None when it does not exist (nothing is created)."""
        with self._lock:
            tbl = self._handles.get(name)
            if tbl is None:
                try:
                    tbl = self._conn.open_table(name)
                except (ValueError, FileNotFoundError):  # LanceDB: "Table ... was not found"
                    return None
                self._handles[name] = tbl
            return tbl

    def open_table(self, name: str) -> Any:
        """The table ``name``.

        Raises:
            ValueError: there is no such table (as LanceDB's ``open_table``).
        """
        tbl = self.find_table(name)
        if tbl is None:
            raise ValueError(f"Table '{name}' was not found in {self.location.uri}")
        return tbl

    def create_table(self, name: str, data: Any = None, schema: pa.Schema | None = None,
                     exist_ok: bool = False) -> Any:
        """Create table ``name`` from ``data`` (Arrow table / rows) or an empty ``schema``; with
        ``exist_ok`` an existing table is returned as is."""
        with self._lock:
            tbl = self._conn.create_table(name, data=data, schema=schema, exist_ok=exist_ok)
            self._handles[name] = tbl
            self._migrated = {k for k in self._migrated if k[0] != name}
            return tbl

    def table(self, name: str, schema: pa.Schema, defaults: Mapping[str, str] | None = None) -> Any:
        """Table ``name`` migrated to ``schema``: created (empty) when missing; columns of ``schema`` it
        lacks are added — filled with the SQL expression in ``defaults[column]`` when given, else null.

        Returns the (shared) handle. Once the table is known to have every column of ``schema``, later
        calls with that schema return the handle without reading the table's schema (a round trip to
        the latest manifest, paid on every write before).
        """
        key = (name, tuple(schema.names))
        tbl = self.find_table(name)
        if tbl is None:
            return self.create_table(name, schema=schema, exist_ok=True)
        if key in self._migrated:
            return tbl
        have = set(tbl.schema.names)  # one read of the schema (each ``tbl.schema`` is a call into LanceDB)
        missing = [f for f in schema if f.name not in have]
        if missing:
            with self._lock:
                fill = {f.name: defaults[f.name] for f in missing if defaults and f.name in defaults}
                if fill:
                    tbl.add_columns(fill)
                nulls = [f for f in missing if f.name not in fill]
                if nulls:
                    tbl.add_columns(pa.schema(nulls))
            log.info("table %s: added columns %s", name, [f.name for f in missing])
        with self._lock:
            if self._handles.get(name) is tbl:
                self._migrated.add(key)
        return tbl

    def drop_table(self, name: str) -> None:
        """Drop table ``name`` (no error when it does not exist) and forget its handle."""
        with self._lock:
            self._handles.pop(name, None)
            self._migrated = {k for k in self._migrated if k[0] != name}
            if name in self.table_names():
                self._conn.drop_table(name)

    def forget(self, names: Iterable[str]) -> None:
        """Release this process's handles of ``names`` (e.g. a generation no longer live: its index
        caches are freed); the tables stay."""
        with self._lock:
            for name in names:
                self._handles.pop(name, None)
                self._migrated = {k for k in self._migrated if k[0] != name}
