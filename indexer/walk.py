"""The reconcile scan: which files under the policy root are indexed, and which cannot be.

Shared by :mod:`indexer.pipeline` (reconcile, watcher events) so both apply the same rules.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
from pathlib import Path

from core.config import Settings
from indexer.extract import relative_posix
from indexer.names import nfc, safe_name
from indexer.patterns import folder_ignored, is_indexable

log = logging.getLogger(__name__)


TWIN_NAME_REASON = ("another file in this folder has the same name written with other Unicode characters "
                    "(an accent as one character or as letter + accent); rename or remove one of them")


def scan(root: Path, settings: Settings, problems: dict[str, str] | None = None) -> dict[str, Path]:
    """Indexable files under ``root``: relative POSIX path → absolute path (sorted by path).

    Names that are not valid UTF-8 are keyed by their escaped form (:mod:`indexer.names`).
    Symlink rule: a file symlink whose target is also inside ``root`` is skipped (its target is
    indexed under its own path, so the text is never cited twice); one pointing outside ``root`` is
    indexed under the link's name. Folder symlinks are not followed. Entries that cannot be indexed
    (unreadable folder, broken symlink, symlink loop, two files whose names are equal in NFC, a named
    pipe, socket or device file) go into ``problems`` (relative path → reason).
    """
    found: dict[str, Path] = {}
    skipped: dict[str, str] = {} if problems is None else problems
    real_root = root.resolve()

    def unreadable(exc: OSError) -> None:
        rel = safe_name(relative_posix(Path(exc.filename or root), root))
        if not folder_ignored(rel, settings):
            skipped[rel] = f"cannot read the folder ({exc.strerror})"

    for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = nfc(safe_name(path.relative_to(root).as_posix()))
            if not is_indexable(rel, settings):
                continue
            if path.is_symlink():
                reason = symlink_problem(path, real_root)
                if reason == "":
                    continue
                if reason is not None:
                    skipped[rel] = reason
                    continue
            if not path.is_file():
                odd = not_regular_reason(path)
                if odd:
                    skipped[rel] = odd
                continue
            if rel in found:  # the same name in NFC and NFD: which one is meant cannot be told
                del found[rel]
                skipped[rel] = TWIN_NAME_REASON
            elif rel not in skipped:
                found[rel] = path
    return found


NOT_REGULAR = {stat.S_IFIFO: "a named pipe", stat.S_IFSOCK: "a socket",
               stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device"}


def not_regular_reason(path: Path) -> str:
    """The failure reason of ``path`` when it (or the file its symlink points at) exists but is not a
    regular file — a named pipe, socket or device, which would block or never end when read — else
    "" (a regular file, a folder or nothing there). Looks with ``stat`` only; never opens it."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return ""
    kind = NOT_REGULAR.get(stat.S_IFMT(mode))
    if kind is None:
        return ""
    return (f"not a regular file ({kind}); policybot reads only ordinary files: remove it from the "
            "policy folder or replace it with the policy file")


def symlink_problem(path: Path, real_root: Path) -> str | None:
    """For a symlink ``path`` under the root (resolved: ``real_root``): None to index the link,
    "" to skip it silently (its target is inside the root), else the failure reason."""
    try:
        target = path.resolve(strict=True)
    except RuntimeError:
        return "symbolic link loop"
    except OSError as exc:
        return "symbolic link loop" if exc.errno == errno.ELOOP else "broken symbolic link"
    if target.is_relative_to(real_root):
        log.debug("skipping %s: its target %s is inside the policy root", path, target)
        return ""
    return None


def unscanned(rel: str, problems: dict[str, str]) -> bool:
    """Whether ``rel`` could not be looked at by :func:`scan`: it is one of ``problems`` or lies in a
    folder that is (an unreadable folder; ``.``: the root itself). Such a document is not gone: its
    rows stay and keep serving until the folder can be read again."""
    if rel in problems or "." in problems:
        return True
    return any(rel.startswith(folder + "/") for folder in problems)
