"""The extraction worker process: time limit, memory limit, errors, and recovery after a kill."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import ExtractionSettings, Settings
from core.errors import ExtractionError, IndexLockedError
from indexer.lock import WriterLock
from indexer.worker import ExtractionWorker
from tests import worker_targets


def _settings(timeout_s: float = 20.0, memory_mb: int = 1024) -> Settings:
    return Settings(extraction=ExtractionSettings(timeout_s=timeout_s, memory_mb=memory_mb))


@pytest.fixture()
def doc(tmp_path: Path) -> Path:
    p = tmp_path / "a.txt"
    p.write_text("grace period of thirty days")
    return p


def test_worker_returns_extracted_document(doc: Path) -> None:
    with ExtractionWorker(worker_targets.echo, _settings()) as w:
        result = w.extract(doc, doc.parent)
    assert result.path == "a.txt"
    assert result.blocks[0].text == "grace period of thirty days"


def test_hanging_extraction_is_killed_and_the_next_file_still_works(doc: Path) -> None:
    w = ExtractionWorker(worker_targets.hang, _settings(timeout_s=1.0))
    with pytest.raises(ExtractionError, match="longer than 1 s"):
        w.extract(doc, doc.parent)
    w._extract = worker_targets.echo  # the next file gets a fresh child
    assert w.extract(doc, doc.parent).blocks[0].text.startswith("grace")
    w.close()


def test_memory_bomb_is_stopped_by_the_memory_limit(doc: Path) -> None:
    with ExtractionWorker(worker_targets.balloon, _settings(memory_mb=512)) as w, \
            pytest.raises(ExtractionError, match="memory"):
        w.extract(doc, doc.parent)


def test_extraction_error_message_is_passed_through(doc: Path) -> None:
    with ExtractionWorker(worker_targets.refuse, _settings()) as w, \
            pytest.raises(ExtractionError, match="password-protected"):
        w.extract(doc, doc.parent)


def test_second_writer_on_same_data_dir_is_refused(tmp_path: Path) -> None:
    with WriterLock(tmp_path), pytest.raises(IndexLockedError, match="already writing"):
        WriterLock(tmp_path).acquire()


def test_writer_lock_is_free_again_after_release(tmp_path: Path) -> None:
    WriterLock(tmp_path).acquire().release()
    WriterLock(tmp_path).acquire().release()
