"""Renames and moves: a new path whose bytes equal a vanished indexed path's is the same file moved.

Matching is by SHA-256 of the content (only new files whose size equals some vanished file's size are
hashed), so a directory move, a move in from elsewhere in the tree and a case-only rename are all
found the same way. A move rewrites the path (and the path-derived chunk ids) of the stored rows and
keeps their vectors: nothing is extracted or embedded again.
"""

from __future__ import annotations

import logging
import os
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import numpy as np

from core.store import DocumentRecord, Store, page_breaks, sql_str
from core.types import Chunk
from indexer.chunker import chunk_id
from indexer.names import nfc, same_name

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Move:
    """``src`` (vanished, indexed) → ``dst`` (new path with the same bytes, ``sha256``)."""

    src: str
    dst: str
    sha256: str


def find_moves(new: dict[str, Path], vanished: dict[str, DocumentRecord], fingerprint: str,
               sha256: Callable[[Path], str]) -> tuple[list[Move], dict[str, str]]:
    """Pair new paths with vanished indexed documents of the same content.

    Args:
        new: relative path → absolute path of files not in the documents table.
        vanished: documents whose files are gone.
        fingerprint: only documents indexed under this config fingerprint can move.
        sha256: hashes a file (raises OSError when it cannot be read).

    Returns:
        The moves, and every hash computed (relative path → sha256) so it is not computed twice.
    """
    by_size: dict[int, list[DocumentRecord]] = defaultdict(list)
    for rec in vanished.values():
        if rec.status == "indexed" and rec.fingerprint == fingerprint and rec.chunk_count > 0:
            by_size[rec.size].append(rec)
    moves: list[Move] = []
    hashes: dict[str, str] = {}
    for dst, path in new.items():
        try:
            size = path.stat().st_size
            if size not in by_size:
                continue
            hashes[dst] = sha256(path)
        except OSError:
            continue
        same = [r for r in by_size[size] if r.sha256 == hashes[dst]]
        if same:
            src = _closest(same, dst)
            by_size[size].remove(src)
            moves.append(Move(src.path, dst, hashes[dst]))
    return moves, hashes


def _closest(candidates: list[DocumentRecord], dst: str) -> DocumentRecord:
    """Prefer a candidate with the same file name (ignoring case), else the first."""
    name = PurePosixPath(dst).name.lower()
    return next((r for r in candidates if PurePosixPath(r.path).name.lower() == name), candidates[0])


def moved_chunks(store: Store, src: str, dst: str) -> tuple[list[Chunk], np.ndarray]:
    """The stored chunks of ``src`` re-addressed to ``dst`` (new ids), with their vectors."""
    rows = sorted(store.chunk_rows(f"path = {sql_str(src)}"), key=lambda r: r["ordinal"])
    chunks = [Chunk(chunk_id=chunk_id(dst, r["ordinal"], r["text"]), path=dst, text=r["text"],
                    page=r["page"], page_end=r["page_end"], section=r["section"], ordinal=r["ordinal"],
                    text_hash=r["text_hash"], context=r.get("context") or "",
                    page_breaks=page_breaks(r)) for r in rows]
    vectors = np.asarray([r["vector"] for r in rows], dtype=np.float32)
    return chunks, vectors


def exists_exact(path: Path) -> bool:
    """True when ``path`` exists with exactly this spelling, up to Unicode normalisation (on a
    case-insensitive file system a case-only rename leaves ``Path.exists()`` true for the old name;
    an NFC name from the index matches the decomposed name a macOS copy left on disk)."""
    try:
        return any(same_name(entry, path.name) for entry in os.listdir(path.parent))
    except OSError:
        return False


class Listings:
    """Folder listings read once and kept, for :func:`exists_exact` on many paths in one operation.

    Checking every same-size indexed document of a new file (``Indexer.index_path``) listed the
    document's folder once per document: with n documents in one folder, a bulk copy of n files made
    n² ``os.listdir`` calls and n³ name comparisons. Here each folder is listed once per operation and
    its names are kept in NFC, so a check is one set lookup; the answer is :func:`exists_exact`'s as
    of the listing (callers use one instance for one operation only)."""

    def __init__(self) -> None:
        self._names: dict[Path, frozenset[str]] = {}

    def exists_exact(self, path: Path) -> bool:
        """:func:`exists_exact` of ``path``, its folder listed at most once by this instance."""
        names = self._names.get(path.parent)
        if names is None:
            try:
                names = frozenset(nfc(entry) for entry in os.listdir(path.parent))
            except OSError:
                return False
            self._names[path.parent] = names
        return nfc(path.name) in names


def prefix_moves(docs: dict[str, DocumentRecord], src: str, dst: str) -> list[tuple[str, str]]:
    """``(old, new)`` paths when ``src`` → ``dst`` renames a file or a folder of indexed files."""
    if src in docs:
        return [(src, dst)]
    head = src.rstrip("/") + "/"
    return [(p, dst.rstrip("/") + "/" + p[len(head):]) for p in sorted(docs) if p.startswith(head)]
