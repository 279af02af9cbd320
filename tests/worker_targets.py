"""Top-level extract functions for the worker tests (spawned children import them by name)."""

from __future__ import annotations

import time
from pathlib import Path

from core.config import Settings
from core.errors import ExtractionError
from core.types import Block, ExtractedDocument


def echo(path: Path, root: Path, settings: Settings) -> ExtractedDocument:
    """Return the file's text as one block."""
    rel = path.relative_to(root).as_posix()
    return ExtractedDocument(rel, [Block(rel, path.read_text())], pages=1)


def hang(path: Path, root: Path, settings: Settings) -> ExtractedDocument:
    """Never finish (a pathological PDF)."""
    time.sleep(3600)
    raise AssertionError("unreachable")


def balloon(path: Path, root: Path, settings: Settings) -> ExtractedDocument:
    """Allocate far more memory than the limit (a decompression bomb)."""
    chunks = [bytearray(64 * 1024 * 1024) for _ in range(200)]
    raise AssertionError(f"allocated {len(chunks)} chunks")


def refuse(path: Path, root: Path, settings: Settings) -> ExtractedDocument:
    """Fail like an unreadable file."""
    raise ExtractionError("file is password-protected")
