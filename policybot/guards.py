"""Checks of the CLI before it opens anything: is there an index in the data dir (without importing
LanceDB, so ``status`` and ``ask`` stay fast)."""

from __future__ import annotations

from pathlib import Path

from core.errors import PolicybotError
from core.store_state import STATE_FILE


def has_index(data_dir: Path) -> bool:
    """True when ``data_dir`` holds an index (a generation pointer or a LanceDB folder).

    Raises:
        PolicybotError: ``data_dir`` is a file.
    """
    if data_dir.exists() and not data_dir.is_dir():
        raise PolicybotError(f"{data_dir}: is a file, not a folder; point data_dir / --data-dir at a folder")
    lance = data_dir / "lancedb"
    return (data_dir / STATE_FILE).is_file() or (lance.is_dir() and any(lance.iterdir()))
