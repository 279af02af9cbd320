"""Which index generation is live: a small JSON pointer file, replaced atomically.

An index *generation* is one pair of LanceDB tables (``documents``/``chunks`` for generation 0,
``documents_<g>``/``chunks_<g>`` for g ≥ 1). A config change builds a new generation beside the live
one (a shadow rebuild) and then swaps the pointer, so readers never see a half-built index.

The pointer ``<data_dir>/index_state.json`` is written to a temporary file, fsynced, and moved over the
old one with :func:`os.replace` (atomic on POSIX), so a reader or a crash sees the old or the new
pointer, never a torn one.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

log = logging.getLogger(__name__)

STATE_FILE = "index_state.json"


@dataclass(frozen=True)
class IndexState:
    """The pointer's content.

    Attributes:
        generation: the live generation (what queries read).
        fingerprint: config fingerprint of the live generation ("" before the first reconcile).
        building: the generation a shadow rebuild is writing, or None.
        building_fingerprint: the fingerprint that generation is being built for.
        swapped_at: Unix time of the last swap (0 when never swapped).
        embedding_fingerprint: :func:`core.fingerprint.embedding_fingerprint` of the live
            generation's vectors ("" when unknown: data dirs from before it was recorded).
        root: the policy folder the last reconcile indexed (absolute; "" before the first).
        reconciled_at: Unix time the last reconcile finished (0 before the first).
    """

    generation: int = 0
    fingerprint: str = ""
    building: int | None = None
    building_fingerprint: str = ""
    swapped_at: float = 0.0
    embedding_fingerprint: str = ""
    root: str = ""
    reconciled_at: float = 0.0

    def to_json(self) -> dict[str, object]:
        """The fields as a JSON-able dict (also the file format)."""
        return asdict(self)


def table_names(generation: int) -> tuple[str, str]:
    """``(documents table, chunks table)`` of ``generation`` (generation 0 keeps the plain names)."""
    if generation == 0:
        return "documents", "chunks"
    return f"documents_{generation}", f"chunks_{generation}"


def read_state(data_dir: Path) -> IndexState:
    """The pointer in ``data_dir``; the default (generation 0, no fingerprint) when there is none.

    A corrupt file is logged and read as the default, which makes the next reconcile rebuild.
    """
    path = data_dir / STATE_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return IndexState()
    except (OSError, ValueError) as exc:
        log.warning("%s unreadable (%s); assuming generation 0", path, exc)
        return IndexState()
    known = {f.name for f in fields(IndexState)}
    return IndexState(**{k: v for k, v in raw.items() if k in known})


def write_state(data_dir: Path, state: IndexState) -> None:
    """Atomically replace the pointer in ``data_dir`` with ``state`` (temp file, fsync, os.replace)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / STATE_FILE
    tmp = path.with_name(f".{STATE_FILE}.{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(state.to_json(), fh, sort_keys=True)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    log.info("index state: live generation %d fingerprint %s building %s", state.generation,
             state.fingerprint[:12], state.building)
