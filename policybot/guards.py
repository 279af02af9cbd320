"""Checks and messages of the CLI's error boundary (:mod:`policybot.cli`): is there an index, and the
one-line text of OS errors and damaged-index errors."""

from __future__ import annotations

from pathlib import Path

from core.config import Settings
from core.errors import PolicybotError, StoreError
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


def os_error_text(exc: OSError) -> str:
    """One line naming the path and the cause of an OS error, with what to do."""
    where = exc.filename if exc.filename is not None else "a file"
    if isinstance(exc, PermissionError):
        return f"{where}: permission denied; fix its permissions or pass another --data-dir"
    if isinstance(exc, FileExistsError | NotADirectoryError):
        return (f"{where}: a file is in the way where a folder is needed; check data_dir / --data-dir "
                "(it must be a folder)")
    cause = exc.strerror or str(exc)
    return f"{where}: {cause}; check the path, its permissions and free disk space"


def unreadable_store(settings: object, exc: Exception) -> StoreError:
    """The :class:`StoreError` for a LanceDB error ``exc`` reading the index of ``settings``."""
    where = settings.data_dir if isinstance(settings, Settings) else "the data dir"
    first = (str(exc).splitlines() or [type(exc).__name__])[0][:200]
    return StoreError(f"the index under {where} is unreadable ({first}); move it aside and run "
                      "policybot index")
