"""Watcher runtime: observer choice and automatic polling fallback, the one-writer lock, the reconcile
schedule (on start, periodic drift repair, late runs not skipped), extra maintenance jobs and the
``watch.json`` state read by ``policybot status``. Real observers, real LanceDB, FakeEmbedder."""

from __future__ import annotations

import errno
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from watchdog.observers.inotify import InotifyObserver

from core.errors import IndexLockedError
from indexer.scheduler import MaintenanceScheduler
from indexer.watch_state import read_watch_state
from indexer.watcher import start_watching
from policybot import render
from tests.watcher_helpers import (
    Watched,
    assert_index_matches_folder,
    indexed,
    settle,
    texts,
    wait_for,
    watching,
)


class InotifyAtWatchLimit(InotifyObserver):
    """The real inotify observer on a machine whose fs.inotify.max_user_watches is used up: starting
    it fails exactly as watchdog reports it (OSError ENOSPC)."""

    def start(self) -> None:
        raise OSError(errno.ENOSPC, "inotify watch limit reached")


@pytest.mark.parametrize("observer", ["native", "polling"])
def test_observer_kind_follows_the_config(tmp_path: Path, observer: str) -> None:
    with watching(tmp_path, observer) as w:
        assert w.watcher.observer_kind == observer


def test_inotify_watch_limit_falls_back_to_polling_and_still_indexes(tmp_path: Path) -> None:
    with watching(tmp_path, "auto", native_factory=InotifyAtWatchLimit) as w:
        assert w.watcher.observer_kind == "polling"
        assert "watch limit" in w.watcher.observer_reason
        (w.root / "late.md").write_text("# Late\n\nLate arrivals must inform their manager.\n")
        settle(w, lambda: "inform their manager" in texts(w, "late.md"))


def test_second_indexer_on_the_same_data_dir_refuses_to_start(tmp_path: Path) -> None:
    with watching(tmp_path, "polling") as w, pytest.raises(IndexLockedError, match="already writing"):
        start_watching(w.settings, w.indexer)
    again = start_watching(w.settings, w.indexer)  # the lock is released on stop
    again.stop()


def test_reconcile_on_start_indexes_files_that_arrived_while_not_watching(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "old.md").write_text("# Old\n\nThis file was there before the watcher started.\n")
    with watching(tmp_path, "native") as w:
        settle(w, lambda: indexed(w) == {"old.md"})
        assert w.indexer.calls == []  # found by the reconcile, not by an event
        assert w.watcher.scheduler.history["reconcile"].runs >= 1


def test_periodic_reconcile_repairs_drift_events_cannot_see(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "a.md").write_text("# A\n\nRule A applies to everyone.\n")
    with watching(tmp_path, "native", reconcile_interval_s=0.5) as w:
        settle(w, lambda: indexed(w) == {"a.md"})
        w.store.delete_document("a.md")  # drift: rows lost behind the watcher's back
        settle(w, lambda: indexed(w) == {"a.md"})
        assert_index_matches_folder(w)


def test_maintenance_jobs_run_periodically_and_never_alongside_index_writes(tmp_path: Path) -> None:
    overlaps: list[bool] = []
    with watching(tmp_path, "polling") as w:
        lock = w.watcher.write_lock

        def compact() -> None:
            overlaps.append(lock.acquire(blocking=False))  # held by the scheduler: must fail
        w.watcher.scheduler.add_job(compact, 0.2, "compact")
        assert wait_for(lambda: len(overlaps) >= 2)
    assert not any(overlaps)


def test_late_run_is_not_skipped(tmp_path: Path) -> None:
    sched = MaintenanceScheduler(threading.Lock())
    sched.add_job(lambda: None, 2.0, "reconcile")
    sched.start()
    try:
        sched.pause()  # the process is stalled (busy, suspended VM) past the due time...
        time.sleep(3.5)  # ...by more than APScheduler's default 1 s grace: due at 2.0, woken at 3.5
        sched.resume()
        assert wait_for(lambda: sched.history["reconcile"].runs >= 1, 10)
        assert sched.history["reconcile"].missed == 0  # APScheduler's defaults drop the 2.0 run here
    finally:
        sched.shutdown()


def test_state_file_reports_observer_kind_for_status(tmp_path: Path) -> None:
    with watching(tmp_path, "polling") as w:
        state = read_watch_state(w.store.blobs)
        assert state is not None
        assert state["observer_kind"] == "polling" and state["running"] is True
    final = read_watch_state(w.store.blobs)
    assert final is not None and final["running"] is False


def _pending_status(w: Watched) -> dict[str, Any]:
    from policybot.status import collect

    data: dict[str, Any] = {}

    def listed() -> bool:
        data.update(collect(w.settings, w.store))
        return any(f.get("gives_up_at") for f in data["pending"]["files"])

    assert wait_for(listed), data.get("pending")
    return data


def test_status_names_a_truncated_pdf_why_it_waits_and_when_it_fails(tmp_path: Path) -> None:
    """A truncated PDF (no %%EOF) waits in the stability gate: ``status`` (JSON and text) names it, the
    reason and when it is recorded as failed — not only ``1 pending``."""
    with watching(tmp_path, "native", incomplete_timeout_s=600) as w:
        (w.root / "handbook.pdf").write_bytes(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")
        data = _pending_status(w)
        console = Console(record=True, width=300)
        render.status(console, data)
    (entry,) = data["pending"]["files"]
    assert data["pending"]["count"] == 1 and entry["path"] == "handbook.pdf"
    assert "incomplete PDF" in entry["reason"]
    assert entry["gives_up_at"] >= entry["since"] + 590  # watch.incomplete_timeout_s after it settled
    line = next(x for x in console.export_text().splitlines() if x.startswith("pending: handbook.pdf"))
    assert "looks incomplete" in line and "recorded as failed" in line
