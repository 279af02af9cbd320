"""Which files under the policy root are indexed: ``policies.include`` and ``policies.ignore``.

Shared by the reconcile scan and the watcher so both agree. Patterns are shell globs (``fnmatch``),
matched case-insensitively:

- ``include`` patterns match the file name (``*.pdf``) or, when they contain ``/``, the relative path.
- ``ignore`` patterns ending in ``/`` (``@eaDir/``) match any folder on the path; others match the file
  name or any folder name (``.*`` hides hidden files and hidden folders) or, when they contain ``/``,
  the relative path.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import PurePosixPath

from core.config import Settings


def is_indexable(rel_path: str, settings: Settings) -> bool:
    """True when ``rel_path`` (relative to the policy root, POSIX) is included and not ignored."""
    path = PurePosixPath(rel_path.lower())
    if not path.parts or rel_path.endswith("/"):
        return False
    return _included(path, settings.policies.include) and not _ignored(path, settings.policies.ignore)


def _included(path: PurePosixPath, patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(str(path) if "/" in p else path.name, p.lower()) for p in patterns)


def _ignored(path: PurePosixPath, patterns: tuple[str, ...]) -> bool:
    folders = path.parts[:-1]
    for raw in patterns:
        p = raw.lower()
        if p.endswith("/"):
            if any(fnmatchcase(f, p.rstrip("/")) for f in folders):
                return True
        elif "/" in p:
            if fnmatchcase(str(path), p):
                return True
        elif any(fnmatchcase(part, p) for part in path.parts):
            return True
    return False


def folder_ignored(rel_folder: str, settings: Settings) -> bool:
    """True when the folder ``rel_folder`` (relative, POSIX) or one of its parents is ignored."""
    return _ignored(PurePosixPath(rel_folder.lower()) / "_", settings.policies.ignore)
