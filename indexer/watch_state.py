"""What the running watcher reports to ``policybot status`` (another process, maybe on another machine).

Kept as the blob ``state/watch.json`` in the data dir's shared store (:mod:`core.blobs`). Shape:
``{"pid", "host", "root", "observer_kind": "native"|"polling", "observer_reason", "started_at",
"pending", "oldest_pending_at", "jobs": {name: JobHistory.to_json()}, "updated_at"}``; times are UNIX
seconds (``oldest_pending_at`` 0.0: nothing pending; index lag = now - oldest_pending_at). Each write
replaces the whole object, so a reader never sees half of one.
"""

from __future__ import annotations

import logging
from typing import Any

from core.blobs import BlobStore, read_json_record, write_json_record

log = logging.getLogger(__name__)

STATE_KEY = "state/watch.json"


def write_watch_state(blobs: BlobStore, state: dict[str, Any]) -> None:
    """Replace the watcher's state with ``state`` (errors are logged, never raised)."""
    write_json_record(blobs, STATE_KEY, state)


def read_watch_state(blobs: BlobStore) -> dict[str, Any] | None:
    """The last state written by a watcher on this data dir, or None when there is none (or it is
    unreadable). The watcher may have stopped since: compare ``pid``/``host``/``updated_at``."""
    return read_json_record(blobs, STATE_KEY)
