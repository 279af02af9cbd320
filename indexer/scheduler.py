"""Periodic maintenance (reconcile, and later compaction/cleanup jobs) on an APScheduler
``BackgroundScheduler``.

Every job runs on the scheduler's single worker thread and inside ``serial`` (a lock shared with the
watcher's index worker), so at most one piece of code writes the index at any time.

Late runs are never skipped silently. APScheduler's default ``misfire_grace_time`` is 1 s: a run whose
wake-up is late by more than that (a busy process, a suspended VM, a job queued behind a long one on
the single worker) is dropped until the next interval. Here each job gets ``misfire_grace_time =
interval`` (its period) and ``coalesce=True``: a run delayed by less than one period runs once, late
(never a burst of catch-up runs); a run delayed longer — the next regular one is then due within the
period anyway — is *missed*, logged at ERROR with the reason and recorded in :attr:`history`
(``problem``/``problem_reason``/``problem_at``, shown by ``policybot status``), as is a job that raised.
A stop request (:class:`~core.errors.IndexingStopped`, process shutting down) is neither.
APScheduler 3 docs: https://apscheduler.readthedocs.io/en/3.x/userguide.html#missed-job-executions-and-coalescing
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from apscheduler.events import (
    EVENT_JOB_ERROR,
    EVENT_JOB_EXECUTED,
    EVENT_JOB_MAX_INSTANCES,
    EVENT_JOB_MISSED,
    JobEvent,
    JobExecutionEvent,
)
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.interval import IntervalTrigger

from core.errors import IndexingStopped

log = logging.getLogger(__name__)


@dataclass
class JobHistory:
    """What one named job did so far. Times are UNIX seconds (0.0: never)."""

    name: str
    interval_s: float
    runs: int = 0
    errors: int = 0
    missed: int = 0
    last_scheduled_at: float = 0.0
    last_finished_at: float = 0.0
    last_error: str = ""
    last_missed_at: float = 0.0
    problem: str = ""
    """``failed`` or ``missed``: the latest problem (kept after later good runs; compare ``problem_at``
    with ``last_finished_at``); "" when there never was one."""
    problem_reason: str = ""
    problem_at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """Plain dict of the fields."""
        return dict(self.__dict__)


class MaintenanceScheduler:
    """Runs named jobs every ``interval_s`` seconds, one at a time, under ``serial``.

    Args:
        serial: lock held while a job runs (share it with every other index writer in the process).

    Use :meth:`add_job` (before or after :meth:`start`), then :meth:`shutdown`.
    """

    def __init__(self, serial: threading.Lock | None = None) -> None:
        self.serial = serial or threading.Lock()
        self.history: dict[str, JobHistory] = {}
        self._sched = BackgroundScheduler(executors={"default": ThreadPoolExecutor(1)}, timezone=UTC)
        self._sched.add_listener(self._on_event, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR | EVENT_JOB_MISSED
                                 | EVENT_JOB_MAX_INSTANCES)

    def add_job(self, fn: Callable[[], object], interval_s: float, name: str, *,
                run_now: bool = False, best_effort: bool = False) -> None:
        """Run ``fn()`` every ``interval_s`` seconds (first run at once when ``run_now``, else after one
        interval). A job of the same ``name`` is replaced. ``fn``'s exceptions are logged and counted,
        never propagated.

        ``best_effort``: opportunistic work (e.g. precomputing vectors) that has no deadline: a run
        delayed by any amount (queued behind a long reconcile) runs once when the worker is free and is
        never counted as *missed* (APScheduler's ``misfire_grace_time=None``: "run no matter how
        late"). Other jobs get a grace time of one period, as the module docstring says."""
        kwargs: dict[str, Any] = {"next_run_time": datetime.now(UTC)} if run_now else {}
        grace = None if best_effort else max(1, math.ceil(interval_s))
        self._sched.add_job(self._serialized(fn, name), IntervalTrigger(seconds=interval_s), id=name,
                            name=name, misfire_grace_time=grace, coalesce=True,
                            max_instances=1, replace_existing=True, **kwargs)
        self.history[name] = JobHistory(name, interval_s)
        log.info("scheduled %s every %.0fs%s", name, interval_s, " (first run now)" if run_now else "")

    def run_soon(self, name: str) -> None:
        """Run job ``name`` as soon as the worker is free (its interval then continues from there).
        A job that is not scheduled (never added, or the scheduler was shut down) is logged, not raised:
        the caller is often a loop that must keep running."""
        try:
            self._sched.modify_job(name, next_run_time=datetime.now(UTC))
        except JobLookupError:
            log.warning("job %s is not scheduled (the scheduler is stopped or never had it); not run", name)

    def start(self) -> None:
        """Start the scheduler thread."""
        self._sched.start()

    def pause(self) -> None:
        """Stop waking up for jobs until :meth:`resume` (due runs then run late, not skipped)."""
        self._sched.pause()

    def resume(self) -> None:
        """Resume after :meth:`pause`."""
        self._sched.resume()

    def shutdown(self, wait: bool = True) -> None:
        """Stop; with ``wait`` a running job finishes first."""
        if self._sched.running:
            self._sched.shutdown(wait=wait)

    def _serialized(self, fn: Callable[[], object], name: str) -> Callable[[], object]:
        def run() -> object:
            with self.serial:
                t0 = time.perf_counter()
                try:
                    result = fn()
                except IndexingStopped:
                    log.info("job %s stopped: the process is shutting down", name)
                    return None
                log.debug("job %s finished in %.2fs", name, time.perf_counter() - t0)
                return result
        return run

    def _on_event(self, event: JobEvent) -> None:
        rec = self.history.get(event.job_id)
        if rec is None:
            return
        scheduled = getattr(event, "scheduled_run_time", None)
        now = time.time()
        if event.code == EVENT_JOB_MISSED:
            rec.missed += 1
            rec.last_missed_at = now
            late = now - scheduled.timestamp() if scheduled else 0.0
            due = f"{scheduled:%Y-%m-%d %H:%M:%S} UTC" if scheduled else "its time"
            reason = (f"the run due at {due} started {late:.0f} s late, more than "
                      f"its grace time of {math.ceil(rec.interval_s)} s (the worker was busy with another "
                      "job "
                      "or the process was suspended); the next run is due within one period")
            rec.problem, rec.problem_reason, rec.problem_at = "missed", reason, now
            log.error("job %s missed: %s", rec.name, reason)
        elif event.code == EVENT_JOB_MAX_INSTANCES:
            log.info("job %s still running or queued; the run due at %s is covered by it", rec.name,
                     scheduled)
        elif isinstance(event, JobExecutionEvent):
            rec.runs += 1
            rec.last_scheduled_at = scheduled.timestamp() if scheduled else 0.0
            rec.last_finished_at = now
            if event.code == EVENT_JOB_ERROR:
                rec.errors += 1
                rec.last_error = f"{type(event.exception).__name__}: {event.exception}"[:300]
                rec.problem, rec.problem_reason, rec.problem_at = "failed", rec.last_error, now
                log.error("job %s failed: %s", rec.name, rec.last_error)
