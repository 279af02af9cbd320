"""File names: one Unicode normal form, and names that cannot be stored.

Every relative path the index stores, compares or shows is in NFC (Unicode TR #15): macOS writes
decomposed accents ("Ä" as "A" + U+0308), a folder copied from it keeps them on Linux, and the scope
typed in config or Slack is usually precomposed; NFC makes them one string (:func:`nfc`). The file on
disk keeps its own spelling: :func:`disk_path` finds it from an NFC relative path.


POSIX file names are bytes; Python decodes undecodable bytes to lone surrogates
(PEP 383 ``surrogateescape``), which cannot be encoded into the store, hashed into a chunk id or
printed. Such a file is never extracted: it gets a failed documents row under an escaped name
(``bad\\xffname.md``) whose reason tells the user to rename it, and every other file carries on.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

BAD_NAME_REASON = "file name is not valid UTF-8; rename it"


def is_bad_name(name: str) -> bool:
    """True when ``name`` holds undecodable bytes (lone surrogates) and cannot be stored as UTF-8."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def safe_name(name: str) -> str:
    """``name`` with undecodable bytes written as ``\\xNN`` escapes (valid UTF-8; unchanged when valid)."""
    if not is_bad_name(name):
        return name
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def nfc(name: str) -> str:
    """``name`` in Unicode normal form C (a name with undecodable bytes is returned unchanged)."""
    return name if is_bad_name(name) else unicodedata.normalize("NFC", name)


def same_name(a: str, b: str) -> bool:
    """Whether two file names are the same once both are in NFC."""
    return a == b or nfc(a) == nfc(b)


def disk_path(root: Path, rel: str) -> Path:
    """The path on disk of ``rel`` (POSIX, NFC) under ``root``: each component is matched to the
    directory entry that equals it in NFC when the exact spelling is absent; components not found
    are kept as given (the path then does not exist)."""
    path = root
    for part in rel.split("/"):
        exact = path / part
        if exact.exists() or not path.is_dir():
            path = exact
            continue
        try:
            match = next((e for e in os.listdir(path) if same_name(e, part)), part)
        except OSError:
            match = part
        path = path / match
    return path

