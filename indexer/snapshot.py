"""``<data_dir>/index_snapshot.json``: the documents rows and chunk count of the live generation, written
by the one writer after every index operation, so ``policybot status`` answers without importing
LanceDB (~3 s cold here) — the status command must stay under a second.

The snapshot is used only while it is provably current: it records the generation, the latest version
of both tables and the names and sizes of their data files; a reader compares them with the generation
pointer, the newest manifest in each table's ``_versions`` folder and the ``data`` folder listings on
disk (directory listings only). Anything else — a write by another
tool, a compaction, an older data dir — makes :func:`read_snapshot` return None and the caller reads
the tables. Only a local data dir has a snapshot: on an object store (``s3://`` …) nothing is written
and status reads the tables. Lance on-disk format (manifest naming V1 ``<n>.manifest``,
V2 ``<u64::MAX - n>.manifest``):
https://lancedb.github.io/lance/format.html
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.store_location import LANCEDB_FOLDER
from core.store_state import read_local_state, table_names

if TYPE_CHECKING:
    from core.store import Store

log = logging.getLogger(__name__)

SNAPSHOT_FILE = "index_snapshot.json"
_U64_MAX = 2**64 - 1


def table_version(data_dir: Path, table: str) -> int | None:
    """The newest version of LanceDB table ``table`` under ``data_dir``, from its manifest file
    names; None when the table has no manifests."""
    folder = data_dir / LANCEDB_FOLDER / f"{table}.lance" / "_versions"
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    versions = []
    for name in names:
        stem, dot, ext = name.partition(".")
        if ext == "manifest" and dot and stem.isdigit():
            n = int(stem)
            versions.append(_U64_MAX - n if n > 2**63 else n)
    return max(versions, default=None)


def table_files(data_dir: Path, table: str) -> list[list[object]]:
    """``[[name, size], ...]`` of the table's data files (a damaged or replaced file changes it)."""
    folder = data_dir / LANCEDB_FOLDER / f"{table}.lance" / "data"
    try:
        with os.scandir(folder) as it:
            return sorted([e.name, e.stat().st_size] for e in it if e.is_file())
    except OSError:
        return []


def _versions(data_dir: Path, generation: int) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in table_names(generation):
        out[name] = table_version(data_dir, name)
        out[f"{name}/data"] = table_files(data_dir, name)
    return out


def write_snapshot(store: Store) -> None:
    """Write the snapshot of ``store``'s live generation (errors are logged, never raised); nothing
    for an object-store data dir."""
    data_dir = store.location.local
    if data_dir is None:
        return
    try:
        generation = store.state().generation
        live = store.shadow(generation)
        data = {"generation": generation, "versions": _versions(data_dir, generation),
                "chunks": live.count_chunks(), "written_at": time.time(),
                "documents": [asdict(d) for d in live.documents().values()]}
        path = data_dir / SNAPSHOT_FILE
        tmp = path.with_name(f".{SNAPSHOT_FILE}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except Exception as exc:  # the snapshot only speeds status up; the tables stay the truth
        log.info("index snapshot not written (%s); status reads the tables", exc)


def read_snapshot(data_dir: Path) -> dict[str, Any] | None:
    """The snapshot when it matches the live generation and the newest table versions on disk, else
    None. Shape: ``{"generation", "versions", "chunks", "written_at", "documents": [row dicts]}``."""
    try:
        data = json.loads((data_dir / SNAPSHOT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    generation = read_local_state(data_dir).generation
    if data.get("generation") != generation or data.get("versions") != _versions(data_dir, generation):
        return None
    return data
