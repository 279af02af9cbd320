"""Top-level extract functions for the pipeline isolation tests (spawned children import them by name)."""

from __future__ import annotations

import time
from pathlib import Path

from core.config import Settings
from core.types import ExtractedDocument
from indexer.extract import extract_file


def hang_on_marker(path: Path, root: Path, settings: Settings) -> ExtractedDocument:
    """Hang forever on files whose name contains ``hang``; extract the others normally."""
    if "hang" in path.name:
        time.sleep(3600)
    return extract_file(path, root, settings)
