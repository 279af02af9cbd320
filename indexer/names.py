"""File names that cannot be stored: names that are not valid UTF-8.

POSIX file names are bytes; Python decodes undecodable bytes to lone surrogates
(PEP 383 ``surrogateescape``), which cannot be encoded into the store, hashed into a chunk id or
printed. Such a file is never extracted: it gets a failed documents row under an escaped name
(``bad\\xffname.md``) whose reason tells the user to rename it, and every other file carries on.
"""

from __future__ import annotations

import os

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
