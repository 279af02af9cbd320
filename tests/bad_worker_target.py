"""An extract target whose module refuses to import inside a spawned worker (a worker that dies at
start-up, for tests/test_bad_input.py)."""

from __future__ import annotations

import os
from pathlib import Path

from core.config import Settings
from core.types import ExtractedDocument
from indexer.extract import extract_file

if os.environ.get("POLICYBOT_TEST_BREAK_WORKER"):  # set by the test after the parent imported it
    raise ImportError("bad_worker_target cannot be imported in a worker")


def extract(path: Path, root: Path, settings: Settings) -> ExtractedDocument:
    """Extract normally (never reached in a worker)."""
    return extract_file(path, root, settings)
