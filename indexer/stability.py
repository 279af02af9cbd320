"""The stability gate: is a file finished being written, so that indexing it now is safe?

A file is *ready* when (1) its (size, mtime_ns) has not changed for ``stable_s`` seconds of observation
(two looks at least ``stable_s`` apart; a copied file's preserved mtime is never trusted alone), (2) it
opens for reading (an SMB share refuses a file another client still holds), and (3) its format's
trailer is present: a PDF ends with ``%%EOF`` in its last 1024 bytes (ISO 32000-1 §7.5.5; readers such
as Acrobat search that window), a DOCX (zip) has its end-of-central-directory record ``PK\\x05\\x06``
in its last 65,557 bytes (PKWARE APPNOTE 6.3.10 §4.3.16: 22 bytes + a comment of up to 65,535).

A file that is still changing is looked at again after ``stable_s``. A file that is stable but does not
open or lacks its trailer is retried with exponential backoff (``stable_s`` doubling, capped at
``retry_max_s``); it is never dropped. Only after ``incomplete_timeout_s`` without any change is it
handed on anyway, so the indexer records why it fails (e.g. "truncated PDF"); that record is not
final: the next change to the file re-indexes it.
"""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

log = logging.getLogger(__name__)

PDF_EOF = b"%%EOF"
PDF_TAIL = 1024
"""Bytes at the end of a PDF searched for ``%%EOF`` (ISO 32000-1 §7.5.5; Acrobat's window)."""
ZIP_EOCD = b"PK\x05\x06"
ZIP_TAIL = 22 + 65535
"""End-of-central-directory record (22 bytes) plus the longest zip comment (APPNOTE §4.3.16)."""
ZIP_SUFFIXES = frozenset({".docx", ".xlsx", ".pptx", ".odt", ".zip"})

CHANGING = "still being written (its size or modification time changed within watch.stable_s)"
State = Literal["ready", "wait", "gone"]


@dataclass(frozen=True)
class Verdict:
    """The gate's answer for one path: ``ready`` (index now), ``wait`` (look again at ``retry_at``,
    monotonic seconds) or ``gone`` (no such regular file). ``reason`` says why it waits; ``gives_up_at``
    (monotonic s, 0.0: never) is when a stable but incomplete file is handed on anyway and recorded as
    failed if it is still incomplete."""

    state: State
    retry_at: float = 0.0
    reason: str = ""
    gives_up_at: float = 0.0


@dataclass
class _Seen:
    size: int
    mtime_ns: int
    since: float
    failures: int = 0


class StabilityGate:
    """Decides when a file that was just written is safe to index (see the module docstring).

    Args:
        stable_s: seconds (size, mtime) must stay unchanged under observation.
        retry_max_s: longest wait between two looks at a stable but unreadable/incomplete file.
        incomplete_timeout_s: a stable file still incomplete after this long is handed on anyway.

    Not thread-safe: one worker thread owns it. Times are ``time.monotonic()`` seconds.
    """

    def __init__(self, stable_s: float, retry_max_s: float = 60.0,
                 incomplete_timeout_s: float = 600.0) -> None:
        self.stable_s = stable_s
        self.retry_max_s = retry_max_s
        self.incomplete_timeout_s = incomplete_timeout_s
        self._seen: dict[Path, _Seen] = {}

    def check(self, path: Path, now: float) -> Verdict:
        """Look at ``path`` once and say whether it is ready (never raises for file-system errors)."""
        try:
            st = path.stat()
        except FileNotFoundError:
            self.forget(path)
            return Verdict("gone")
        except OSError as exc:
            return self._backoff(path, now, f"cannot stat ({exc.strerror})")
        if not stat.S_ISREG(st.st_mode):
            self.forget(path)
            return Verdict("gone")
        seen = self._seen.get(path)
        if seen is None or (seen.size, seen.mtime_ns) != (st.st_size, st.st_mtime_ns):
            self._seen[path] = _Seen(st.st_size, st.st_mtime_ns, now)
            return Verdict("wait", now + self.stable_s, CHANGING)
        if now - seen.since < self.stable_s:
            return Verdict("wait", seen.since + self.stable_s, CHANGING)
        problem = incomplete_reason(path, st.st_size)
        if problem is None:
            self.forget(path)
            return Verdict("ready")
        if now - seen.since >= self.incomplete_timeout_s:
            log.warning("%s still %s after %.0fs unchanged; indexing it anyway", path, problem,
                        now - seen.since)
            self.forget(path)
            return Verdict("ready", reason=problem)
        wait = self._backoff(path, now, problem)
        return replace(wait, gives_up_at=seen.since + self.incomplete_timeout_s)

    def forget(self, path: Path) -> None:
        """Drop what is remembered about ``path`` (after it was indexed, or when it is gone)."""
        self._seen.pop(path, None)

    def _backoff(self, path: Path, now: float, reason: str) -> Verdict:
        seen = self._seen.setdefault(path, _Seen(-1, -1, now))
        seen.failures += 1
        delay = min(max(self.stable_s, 0.05) * 2 ** min(seen.failures, 20), self.retry_max_s)
        log.debug("%s not ready (%s); retry #%d in %.1fs", path, reason, seen.failures, delay)
        return Verdict("wait", now + delay, reason)


def incomplete_reason(path: Path, size: int) -> str | None:
    """Why ``path`` (of ``size`` bytes) looks unfinished, or None when it opens and looks complete.

    Checks that it opens for reading and, by suffix, the PDF ``%%EOF`` marker or the zip
    end-of-central-directory record; other types only need to open.
    """
    suffix = path.suffix.lower()
    window = PDF_TAIL if suffix == ".pdf" else ZIP_TAIL if suffix in ZIP_SUFFIXES else 0
    try:
        with path.open("rb") as fh:
            if window == 0:
                return None
            fh.seek(max(0, size - window), os.SEEK_SET)
            tail = fh.read(window)
    except OSError as exc:
        return f"cannot open ({exc.strerror})"
    if suffix == ".pdf":
        return None if PDF_EOF in tail else "incomplete PDF (no %%EOF trailer yet)"
    return None if ZIP_EOCD in tail else "incomplete zip (no end-of-central-directory record yet)"
