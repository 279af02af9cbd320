"""Removals held back: a reconcile never empties the index by surprise.

A policy folder that exists but is empty, or lost most of its files at once (a network share that
failed to mount over an empty mount point, a sync client that emptied the folder, a wrong path), looks
exactly like every document being deleted. A reconcile (``policybot index``, the start of ``watch`` /
``run``, the watcher's periodic reconcile) that would remove **every** indexed document, or more than
``index.max_removal_fraction`` of them when more than :data:`MIN_DOCUMENTS_FOR_SHARE` are indexed,
therefore removes none: the index keeps serving, a WARNING is logged and the held removals are recorded
in the blob ``state/held_removals.json`` of the data dir (:mod:`core.blobs`), which ``policybot status``
shows with the cause and what to do. ``policybot index --allow-removals`` removes them deliberately; a
later reconcile that removes nothing unexpected (the files came back) clears the record.

The same fail-safe idea as rsync's ``--max-delete`` (https://download.samba.org/pub/rsync/rsync.1):
a mass deletion must be asked for.
"""

from __future__ import annotations

import logging
import os
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.blobs import BlobStore, read_json_record, write_json_record
from core.config import IndexSettings, Settings
from indexer.patterns import is_indexable
from indexer.walk import unscanned

if TYPE_CHECKING:  # status reads the record without importing LanceDB
    from core.store import DocumentRecord, Store

log = logging.getLogger(__name__)

HELD_KEY = "state/held_removals.json"
"""The record's key in the data dir's blob store."""
MIN_DOCUMENTS_FOR_SHARE = 10
"""The share rule applies only above this many indexed documents: in a small index one or two
deletions are already a large share (half of 4 is 2 files), and deleting them is ordinary editing.
Removing *every* document is held whatever the count."""
LISTED = 20
"""Paths named in the record (the count is always complete)."""


@dataclass(frozen=True)
class HeldRemovals:
    """Removals a reconcile held back.

    Attributes:
        count: documents it would have removed.
        indexed: documents indexed at the time.
        files: the first :data:`LISTED` of them (relative paths, sorted).
        root: the policy folder reconciled (absolute).
        reason: what happened and what to do (one line).
        at: UNIX seconds of the reconcile.
    """

    count: int
    indexed: int
    files: tuple[str, ...]
    root: str
    reason: str
    at: float

    def to_json(self) -> dict[str, Any]:
        """``{"count", "indexed", "files", "root", "reason", "at"}``."""
        return {**asdict(self), "files": list(self.files)}


def removal_problem(removing: int, indexed: int, max_fraction: float) -> str | None:
    """Why removing ``removing`` of ``indexed`` documents must be held ("every indexed document", or
    "N of M indexed documents (more than P%)"), or None when it may go ahead."""
    if removing <= 0 or indexed <= 0:
        return None
    if removing >= indexed:
        return f"every indexed document ({indexed})"
    if indexed > MIN_DOCUMENTS_FOR_SHARE and removing / indexed > max_fraction:
        return f"{removing} of {indexed} indexed documents (over index.max_removal_fraction {max_fraction:g})"
    return None


def hold(blobs: BlobStore, gone: list[str], indexed: int, root: str, problem: str) -> HeldRemovals:
    """Record (and log at WARNING) that the removal of ``gone`` was held for ``problem``; returns it."""
    reason = (f"a reconcile of {root} would remove {problem}: their files are gone from the folder (an "
              "unmounted share? an emptied sync folder?). Nothing was removed and the index keeps serving; "
              "if the files really were deleted, run policybot index --allow-removals (with policybot run or "
              "watch stopped: it needs the indexer lease)")
    held = HeldRemovals(len(gone), indexed, tuple(sorted(gone)[:LISTED]), root, reason, time.time())
    log.warning("removals held: %s", reason)
    write_json_record(blobs, HELD_KEY, held.to_json())  # never raises: a held removal stays held
    return held


def read_held(blobs: BlobStore) -> dict[str, Any] | None:
    """The held-removals record (see :meth:`HeldRemovals.to_json`), or None when none is held."""
    return read_json_record(blobs, HELD_KEY)


def clear_held(blobs: BlobStore) -> None:
    """Drop the record (a reconcile went ahead without holding anything); no-op when there is none."""
    if read_held(blobs) is None:
        return
    try:
        blobs.delete(HELD_KEY)
        log.info("held removals cleared")
    except Exception as exc:
        log.warning("cannot delete %s (%s)", HELD_KEY, exc)


def check_removals(store: Store, files: dict[str, Path], problems: dict[str, str], root: Path,
                   index: IndexSettings, *, allow: bool = False) -> HeldRemovals | None:
    """Decide, before a reconcile writes anything, whether its removals are held.

    Args:
        store: the live generation (its documents are "indexed").
        files: the scan of ``root`` (relative path → absolute path); ``problems``: paths the scan could
            not read (their rows are never removals).
        root: the policy folder (named in the reason).
        index: ``max_removal_fraction``.
        allow: ``--allow-removals``: never hold (and clear an earlier record).

    Returns:
        The recorded :class:`HeldRemovals`, or None when the removals may go ahead (an earlier record
        is then cleared). A vanished document with the size of a new file counts as a likely move,
        not a removal (moves are detected by content later: :mod:`indexer.moves`).
    """
    known = store.documents()
    gone = [] if allow else lost_documents(known, files, problems)
    problem = removal_problem(len(gone), len(known), index.max_removal_fraction)
    if problem is None:
        clear_held(store.blobs)
        return None
    return hold(store.blobs, gone, len(known), str(root), problem)


def lost_documents(known: dict[str, DocumentRecord], files: dict[str, Path],
                   problems: dict[str, str]) -> list[str]:
    """Indexed paths no longer in ``files`` (nor unreadable), less one per new file of the same size."""
    sizes: Counter[int] = Counter()
    for rel, path in files.items():
        if rel not in known:
            try:
                sizes[path.stat().st_size] += 1
            except OSError:
                continue
    lost = []
    for rel, rec in known.items():
        if rel in files or unscanned(rel, problems):
            continue
        if sizes[rec.size] > 0:
            sizes[rec.size] -= 1
        else:
            lost.append(rel)
    return lost


def has_indexable_file(root: Path, settings: Settings) -> bool:
    """Whether ``root`` holds at least one file ``policies.include``/``ignore`` let in (stops at the
    first). The watcher asks before it applies a deletion: in an emptied folder it leaves the decision
    to a reconcile, where :func:`check_removals` holds it."""
    for dirpath, _, names in os.walk(root):
        base = Path(dirpath).relative_to(root)
        if any(is_indexable((base / n).as_posix(), settings) for n in names):
            return True
    return False
