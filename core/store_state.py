"""Which index generation is live: a small JSON pointer file, replaced atomically.

An index *generation* is one pair of LanceDB tables (``documents``/``chunks`` for generation 0,
``documents_<g>``/``chunks_<g>`` for g ≥ 1). A config change builds a new generation beside the live
one (a shadow rebuild) and then swaps the pointer, so readers never see a half-built index.

The pointer is one small object, ``state/index.json`` in the data dir's blob store (:mod:`core.blobs`:
a file replaced atomically on local disk, an object PUT on S3/GCS/Azure), so every process — the indexer
and any number of bot replicas, on any machine — reads the same pointer, and a reader or a crash sees
the old or the new pointer, never a torn one. Local data dirs from before kept it in
``<data_dir>/index_state.json``, which is still read until the first write.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from core.blobs import BlobStore, LocalBlobStore
from core.store_location import BLOBS_FOLDER

log = logging.getLogger(__name__)

STATE_FILE = "index_state.json"
"""The legacy pointer file of a local data dir (read when the blob does not exist yet)."""
STATE_KEY = "state/index.json"
"""The pointer's key in the data dir's blob store."""


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


class StatePointer:
    """The generation pointer, kept as the blob :data:`STATE_KEY` in the shared store (every process on
    the data dir reads the same object; only the indexer holding the lease writes it).

    Reads are cached for ``max_age_s`` seconds (the store's read consistency: a replica follows a swap
    at most that late); this process's own writes are seen at once. A data dir from before the pointer
    moved into the blob store is read from its ``index_state.json`` (``legacy``) until the first write.

    Args:
        blobs: the data dir's :class:`~core.blobs.BlobStore`.
        max_age_s: how long a read is reused (0: every call reads).
        legacy: the old pointer file of a local data dir (None for an object store).
        clock: monotonic seconds.
    """

    def __init__(self, blobs: BlobStore, max_age_s: float = 0.0, legacy: Path | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._blobs = blobs
        self._max_age = max_age_s
        self._legacy = legacy
        self._clock = clock
        self._cached: tuple[float, IndexState] | None = None
        self._lock = threading.Lock()

    def read(self) -> IndexState:
        """The pointer (default state when there is none; a corrupt one is logged and read as the
        default, which makes the next reconcile rebuild)."""
        with self._lock:
            now = self._clock()
            if self._cached is not None and now - self._cached[0] < self._max_age:
                return self._cached[1]
            state = self._load()
            self._cached = (now, state)
            return state

    def write(self, state: IndexState) -> None:
        """Replace the pointer with ``state`` (one object write: readers see the old or the new one)."""
        with self._lock:
            self._blobs.put(STATE_KEY, json.dumps(state.to_json(), sort_keys=True).encode("utf-8"))
            self._cached = (self._clock(), state)
        log.info("index state: live generation %d fingerprint %s building %s", state.generation,
                 state.fingerprint[:12], state.building)

    def exists(self) -> bool:
        """Whether a pointer was ever written (in the blob store, or the legacy file)."""
        return self._blobs.get(STATE_KEY) is not None or (self._legacy is not None and self._legacy.is_file())

    def _load(self) -> IndexState:
        blob = self._blobs.get(STATE_KEY)
        if blob is not None:
            return _parse(blob.data, STATE_KEY)
        if self._legacy is not None:
            try:
                return _parse(self._legacy.read_bytes(), str(self._legacy))
            except FileNotFoundError:
                pass
            except OSError as exc:
                log.warning("%s unreadable (%s); assuming generation 0", self._legacy, exc)
        return IndexState()


def read_local_state(data_dir: Path) -> IndexState:
    """The pointer of the local data dir ``data_dir``, read without creating anything (the blob, else
    the legacy ``index_state.json``, else the default) — for readers that must not import LanceDB
    (:mod:`indexer.snapshot`, ``policybot status``)."""
    blobs = LocalBlobStore(data_dir / BLOBS_FOLDER, create=False)
    return StatePointer(blobs, legacy=data_dir / STATE_FILE).read()


def _parse(data: bytes, where: str) -> IndexState:
    try:
        raw = json.loads(data)
    except ValueError as exc:
        log.warning("%s unreadable (%s); assuming generation 0", where, exc)
        return IndexState()
    if not isinstance(raw, dict):
        log.warning("%s is not a JSON object; assuming generation 0", where)
        return IndexState()
    kept = {k: v for k, v in raw.items() if k in _TYPES and _of_type(v, _TYPES[k])}
    if len(kept) != sum(k in _TYPES for k in raw):
        log.warning("%s has values of the wrong type (%s); using the defaults for them", where,
                    ", ".join(sorted(k for k in raw if k in _TYPES and k not in kept)))
    return IndexState(**kept)


_TYPES: dict[str, tuple[type, ...]] = {
    "generation": (int,), "fingerprint": (str,), "building": (int, type(None)),
    "building_fingerprint": (str,), "swapped_at": (int, float), "embedding_fingerprint": (str,),
    "root": (str,), "reconciled_at": (int, float)}
"""The JSON types each :class:`IndexState` field accepts (a hand-edited or damaged pointer with others
would raise far from here: a TypeError traceback in ``status``)."""


def _of_type(value: object, types: tuple[type, ...]) -> bool:
    return isinstance(value, types) and not isinstance(value, bool)
