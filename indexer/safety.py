"""Guards that keep a reconcile from losing a working index (issues 15 and 16).

* :func:`check_root` — the index remembers the policy folder it reconciles (``IndexState.root``); a
  reconcile of another folder against a non-empty index is refused (:class:`RootMismatchError`, naming
  both folders and ``--switch-root``) before anything is scanned or removed.
* :func:`environmental_failure` — a reconcile in which *every* file it tried (new or changed) failed
  for one reason that is not the files' fault (the extraction worker cannot start; or, when several
  files hit it, the worker dying, the time or memory limit, permission denied) is aborted:
  :class:`Checkpoint` restores the tables it touched to their versions at the start (LanceDB keeps
  every table version until ``optimize`` cleans old ones up).
* :func:`check_swap` — a shadow rebuild never replaces a non-empty live generation with an empty one
  unless the folder really holds no indexable file.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import ReconcileAbortedError, RootMismatchError
from core.store import Store
from indexer.summary import IndexSummary

log = logging.getLogger(__name__)

_MACHINE = re.compile(r"extraction worker process did not start", re.IGNORECASE)
"""Failure reasons that are never the file's doing: the worker cannot start (reason written by
:mod:`indexer.worker`). One file is enough."""
_LIMITS = re.compile(r"extraction process died|took longer than [\d.e+-]+ s|exceeded the memory limit"
                     r"|memory limit of \d+ MB|Permission denied|cannot read the file", re.IGNORECASE)
"""Reasons that are usually one file's doing (a huge or hostile PDF, one file saved without read
permission), but the machine's (limits set too low, an overloaded host, a share whose permissions
changed) when :data:`MIN_FILES_FOR_LIMITS` or more files all hit the same one. A single unreadable new
file is therefore recorded as failed and shown in ``status`` instead of aborting every reconcile."""
MIN_FILES_FOR_LIMITS = 3


def check_root(store: Store, root: Path, *, switch_root: bool) -> None:
    """Refuse to reconcile ``root`` against an index that holds another folder.

    Allowed: no folder recorded yet (a new or older data dir), the same folder, an index without
    documents, or ``switch_root``. Reads the generation pointer and the documents table only.

    Raises:
        RootMismatchError: the index holds documents of another folder; the message names both
            folders, how to keep the index and ``--switch-root``.
    """
    recorded = store.state().root
    if not recorded or switch_root or Path(recorded) == root:
        return
    count = len(store.documents())
    if count == 0:
        return
    raise RootMismatchError(
        f"the index in {store.data_dir} holds the policy folder {recorded} ({count} documents), not "
        f"{root}; nothing was changed. To keep this index, pass {recorded} as the folder (or set "
        f"policies.root to it); to index {root} instead and drop the documents of {recorded}, add "
        "--switch-root")


def environmental_failure(summary: IndexSummary) -> str | None:
    """The one reason every file tried in this run failed for, when it is not the files' fault; None
    when any file indexed or moved, none failed now, the reasons differ, or the reason is about the
    file (unchanged files were not tried and do not count)."""
    if summary.indexed or summary.moved or not summary.new_failures:
        return None
    reasons = set(summary.new_failures)
    if len(reasons) != 1:
        return None
    (reason,) = reasons
    if _MACHINE.search(reason):
        return reason
    if _LIMITS.search(reason) and len(summary.new_failures) >= MIN_FILES_FOR_LIMITS:
        return reason
    return None


@dataclass
class Checkpoint:
    """Versions of a generation's tables at the start of a reconcile, to roll back to.

    ``versions`` maps table name → LanceDB version (tables that did not exist are dropped on rollback).
    """

    store: Store
    versions: dict[str, int | None] = field(default_factory=dict)

    @classmethod
    def take(cls, store: Store) -> Checkpoint:
        """Remember the current versions of ``store``'s documents and chunks tables."""
        cp = cls(store)
        existing = set(store.table_names())
        for name in (store.documents_table_name, store.chunks_table_name):
            cp.versions[name] = _table(store, name).version if name in existing else None
        return cp

    def rollback(self) -> None:
        """Restore each table to its remembered version (a new version with the old content)."""
        existing = set(self.store.table_names())
        for name, version in self.versions.items():
            if name not in existing:
                continue
            if version is None:
                self.store.db.drop_table(name)
                continue
            tbl = _table(self.store, name)
            if tbl.version != version:
                tbl.restore(version)
                log.warning("rolled back table %s to version %d", name, version)


def abort_environmental(checkpoint: Checkpoint, summary: IndexSummary, root: Path) -> None:
    """Roll back and raise when every file failed for one machine-side reason (else do nothing).

    Raises:
        ReconcileAbortedError: naming the reason, the file count and that nothing changed.
    """
    reason = environmental_failure(summary)
    if reason is None:
        return
    checkpoint.rollback()
    raise ReconcileAbortedError(
        f"every file tried in {root} ({len(summary.new_failures)}) failed for the same reason, which is "
        "not the files' "
        f"fault: {reason}; the index was left as it was. Fix the cause and run policybot index again")


def check_swap(live: Store, shadow: Store, *, folder_files: int) -> None:
    """Refuse to swap in ``shadow`` when it has no chunks while ``live`` has some and the folder has
    files (they all failed: an empty generation would answer nothing).

    Raises:
        ReconcileAbortedError: naming the reason of the first failure and that the live index stays.
    """
    if folder_files == 0 or shadow.count_chunks() > 0:
        return
    live_chunks = live.count_chunks()
    if live_chunks == 0:
        return
    failed = [d for d in shadow.documents().values() if d.status == "failed"]
    why = f" (first failure: {failed[0].path}: {failed[0].error})" if failed else ""
    raise ReconcileAbortedError(
        f"the rebuild of the index produced no chunks from {folder_files} files{why}; the live index "
        f"({live_chunks} chunks) was kept. Fix the cause and run policybot index again")


def _table(store: Store, name: str) -> Any:
    return store.db.open_table(name)
