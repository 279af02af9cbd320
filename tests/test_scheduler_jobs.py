"""Jobs run late rather than never (issue 16, item 6): a real APScheduler-backed
:class:`~indexer.scheduler.MaintenanceScheduler` whose single worker is blocked by a long job. A job due
while it is blocked by less than its period runs once, late; one blocked past its grace time (its
period) is missed — logged at ERROR with the reason — and a job that raises is logged at ERROR too;
both show in ``policybot status`` with their reasons. Time scales are seconds with wide margins; the
assertions are on what ran, never on how fast.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import pytest
from rich.console import Console

from core.blobs import LocalBlobStore
from core.config import Settings
from core.store_state import IndexState
from indexer.scheduler import MaintenanceScheduler
from indexer.watch_state import write_watch_state
from policybot import render
from policybot.status import build

BLOCK_S = 5.0


def _wait(pred: object, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def test_blocked_worker_late_job_runs_once_and_missed_job_is_an_error(caplog: pytest.LogCaptureFixture,
                                                                       tmp_path: Path) -> None:
    sched = MaintenanceScheduler()
    release, started = threading.Event(), threading.Event()
    late_runs: list[float] = []

    def blocker() -> None:
        started.set()
        release.wait(BLOCK_S)

    sched.add_job(blocker, 1000, "blocker", run_now=True)
    sched.add_job(lambda: late_runs.append(time.monotonic()), 4, "late")     # due at +4 s, grace 4 s
    sched.add_job(lambda: None, 1, "tight")                                  # due at +1 s, grace 1 s
    with caplog.at_level(logging.INFO, logger="indexer.scheduler"):
        sched.start()
        try:
            assert started.wait(30)
            freed = time.monotonic() + BLOCK_S
            assert _wait(lambda: len(late_runs) >= 1 and sched.history["tight"].missed >= 1, 60)
            time.sleep(1.0)
        finally:
            sched.shutdown(wait=True)
    assert len(late_runs) == 1 and late_runs[0] >= freed - 1.0  # once, after the worker was free
    tight = sched.history["tight"]
    assert tight.problem == "missed" and "grace time of 1 s" in tight.problem_reason
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert any("job tight missed" in r.getMessage() for r in errors)
    assert sched.history["late"].missed == 0 and sched.history["late"].problem == ""

    settings = Settings(data_dir=tmp_path)
    blobs = LocalBlobStore(tmp_path / "blobs")
    write_watch_state(blobs, {"jobs": {n: h.to_json() for n, h in sched.history.items()}})
    data = build(settings, [], 0, IndexState(), blobs)
    (problem,) = data["job_problems"]
    assert problem["job"] == "tight" and problem["kind"] == "missed" and "grace time" in problem["reason"]
    console = Console(record=True, width=300)
    render.status(console, data)
    assert "job tight missed" in console.export_text()


def test_best_effort_job_blocked_past_its_period_runs_late_and_is_not_missed() -> None:
    sched = MaintenanceScheduler()
    release, started = threading.Event(), threading.Event()
    runs: list[float] = []

    def blocker() -> None:
        started.set()
        release.wait(3.0)

    sched.add_job(blocker, 1000, "blocker", run_now=True)
    sched.add_job(lambda: runs.append(time.monotonic()), 1, "precompute", best_effort=True)  # due at +1 s
    sched.start()
    try:
        assert started.wait(30)
        freed = time.monotonic() + 3.0
        assert _wait(lambda: len(runs) >= 1, 60)
    finally:
        sched.shutdown(wait=True)
    assert runs[0] >= freed - 1.0  # it waited for the worker: late by ~2 periods, yet it ran
    rec = sched.history["precompute"]
    assert rec.missed == 0 and rec.problem == ""


def test_failing_job_is_an_error_with_its_reason(caplog: pytest.LogCaptureFixture) -> None:
    sched = MaintenanceScheduler()

    def broken() -> None:
        raise OSError(28, "No space left on device")

    sched.add_job(broken, 1000, "store-optimize", run_now=True)
    with caplog.at_level(logging.ERROR, logger="indexer.scheduler"):
        sched.start()
        try:
            assert _wait(lambda: sched.history["store-optimize"].errors == 1)
        finally:
            sched.shutdown(wait=True)
    rec = sched.history["store-optimize"]
    assert rec.problem == "failed" and "No space left on device" in rec.problem_reason
    assert any("job store-optimize failed" in r.getMessage() for r in caplog.records)


def test_run_soon_after_shutdown_logs_instead_of_raising(caplog: pytest.LogCaptureFixture) -> None:
    """The watcher's loop asks for a reconcile while the process stops (the scheduler already shut
    down): that must not raise in the loop's thread (it would stop indexing silently)."""
    sched = MaintenanceScheduler()
    sched.add_job(lambda: None, 1000, "reconcile")
    sched.start()
    sched.shutdown(wait=True)
    with caplog.at_level(logging.WARNING, logger="indexer.scheduler"):
        sched.run_soon("reconcile")
        sched.run_soon("never-added")
    assert sum("is not scheduled" in r.getMessage() for r in caplog.records) >= 1
