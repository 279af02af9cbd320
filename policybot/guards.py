"""Checks of the CLI before it opens anything: is there an index in the data dir (without importing
LanceDB, so ``status`` and ``ask`` stay fast on a local folder)."""

from __future__ import annotations

from pathlib import Path

from core.errors import PolicybotError
from core.store_location import BLOBS_FOLDER, LANCEDB_FOLDER
from core.store_state import STATE_FILE, STATE_KEY


def has_index(data_dir: Path) -> bool:
    """True when the local folder ``data_dir`` holds an index (a generation pointer or a LanceDB
    folder); looks without creating anything. (An object-store data dir: ``App.store.has_index()``,
    see :func:`policybot.context.has_index_of`.)

    Raises:
        PolicybotError: ``data_dir`` is a file.
    """
    if data_dir.exists() and not data_dir.is_dir():
        raise PolicybotError(f"{data_dir}: is a file, not a folder; point data_dir / --data-dir at a folder")
    lance = data_dir / LANCEDB_FOLDER
    pointers = (data_dir / STATE_FILE, data_dir / BLOBS_FOLDER / STATE_KEY)
    return any(p.is_file() for p in pointers) or (lance.is_dir() and any(lance.iterdir()))
