"""Top-level extract functions for the pipeline isolation tests (spawned children import them by name).

The format extractors are imported here, at module level, so a fresh child imports them before it
reports ready and its first file is not slowed by imports under the time limit.
"""

from __future__ import annotations

import time
from pathlib import Path

import indexer.extract.docx
import indexer.extract.markdown
import indexer.extract.pdf  # noqa: F401
from core.config import Settings
from core.types import ExtractedDocument
from indexer.extract import extract_file


def hang_on_marker(path: Path, root: Path, settings: Settings) -> ExtractedDocument:
    """Hang forever on files whose name contains ``hang``; extract the others normally."""
    if "hang" in path.name:
        time.sleep(3600)
    return extract_file(path, root, settings)
