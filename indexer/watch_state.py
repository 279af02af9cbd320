"""``<data_dir>/watch.json``: what the running watcher reports to ``policybot status`` (another process).

Shape: ``{"pid", "root", "observer_kind": "native"|"polling", "observer_reason", "started_at",
"pending", "oldest_pending_at", "jobs": {name: JobHistory.to_json()}, "updated_at"}``; times are UNIX
seconds (``oldest_pending_at`` 0.0: nothing pending; index lag = now - oldest_pending_at). Written
atomically (temp file + ``os.replace``) so a reader never sees half a file.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

STATE_FILE = "watch.json"


def write_watch_state(data_dir: Path, state: dict[str, Any]) -> None:
    """Replace ``data_dir/watch.json`` with ``state`` (errors are logged, never raised)."""
    path = data_dir / STATE_FILE
    tmp = path.with_suffix(".json.tmp")
    try:
        tmp.write_text(json.dumps(state, ensure_ascii=False, default=str), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("cannot write %s (%s)", path, exc.strerror)


def read_watch_state(data_dir: Path) -> dict[str, Any] | None:
    """The last state written by a watcher on ``data_dir``, or None when there is none (or it is
    unreadable). The watcher may have stopped since: compare ``pid``/``updated_at``."""
    try:
        data = json.loads((data_dir / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
