"""The weekly gap post to policy owners, and the latest report kept for admins.

:class:`WeeklyGapJob` runs on the maintenance scheduler every ``gaps.check_interval_s`` seconds (an
hour by default) and does its work once per week: the week starts at the most recent
``gaps.weekday`` ``gaps.hour``:00 in ``gaps.timezone``. For that week it claims (exactly once across
processes and restarts, :class:`core.claims.Claims`) the key ``<week>:report`` to build the report and
store it as the latest (``gaps/latest.json`` in the :class:`core.blobs.BlobStore`, read by the admin
App Home), and ``<week>:<owner>`` per owner to post that owner the groups touching their folders.
An owner with no such group gets nothing (nothing to say); a failed post releases the owner's claim,
so the next check retries it. A process that was down at the due hour posts on its first check later
in the week. (An APScheduler cron trigger alone would skip a week whose due hour fell while the
process was down, and fire twice with two replicas.)

Posting goes through the :class:`Notifier` protocol: ``bot.gaps.SlackNotifier`` posts with slack_sdk;
tests use a fake. No Slack imports here.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from core.blobs import BlobStore
from core.claims import Claims
from core.config import WEEKDAYS, GapsSettings
from core.gaps.render import from_json, to_json
from core.gaps.report import GapGroup, GapReport

log = logging.getLogger(__name__)

LATEST_KEY = "gaps/latest.json"
CLAIM_NAMESPACE = "gaps-weekly"
CLAIM_TTL_S = 8 * 24 * 3600.0
"""A week's claims outlive the week, so a late check in the same week never posts twice."""


@dataclass(frozen=True)
class OwnerDigest:
    """What one owner is sent: the groups touching their folders, the globs they own, the window."""

    owner: str
    globs: tuple[str, ...]
    groups: tuple[GapGroup, ...]
    since: float
    until: float


class Notifier(Protocol):
    """Delivers a digest to its owner (a Slack user or channel). Raises on failure."""

    def send(self, digest: OwnerDigest) -> None:
        """Post ``digest`` to ``digest.owner``."""
        ...


def digests(report: GapReport, owners: dict[str, str]) -> list[OwnerDigest]:
    """One digest per owner with at least one group whose ``owners`` name them (config order)."""
    globs: dict[str, list[str]] = {}
    for glob, owner in owners.items():
        globs.setdefault(owner, []).append(glob)
    out = []
    for owner, mine in globs.items():
        groups = tuple(g for g in report.groups if owner in g.owners)
        if groups:
            out.append(OwnerDigest(owner, tuple(mine), groups, report.since, report.until))
    return out


def save_latest(blobs: BlobStore, report: GapReport) -> None:
    """Store ``report`` as the latest (JSON at :data:`LATEST_KEY`)."""
    blobs.put(LATEST_KEY, json.dumps(to_json(report), ensure_ascii=False).encode("utf-8"))


def load_latest(blobs: BlobStore) -> GapReport | None:
    """The latest stored report, or None (none yet, or unreadable: logged)."""
    blob = blobs.get(LATEST_KEY)
    if blob is None:
        return None
    try:
        data: dict[str, Any] = json.loads(blob.data)
        return from_json(data)
    except (ValueError, KeyError, TypeError) as exc:
        log.warning("%s is unreadable (%s); the next report replaces it", LATEST_KEY, exc)
        return None


def week_start(now: float, settings: GapsSettings) -> datetime:
    """The most recent ``weekday`` ``hour``:00 in ``timezone`` at or before ``now`` (aware datetime)."""
    local = datetime.fromtimestamp(now, ZoneInfo(settings.timezone))
    due = local.replace(hour=settings.hour, minute=0, second=0, microsecond=0)
    due -= timedelta(days=(local.weekday() - WEEKDAYS.index(settings.weekday)) % 7)
    return due if due <= local else due - timedelta(days=7)


class WeeklyGapJob:
    """Builds and posts the weekly report (see the module docstring).

    Args:
        build: ``build(now)`` → the report for the window ending at ``now``.
        notifier: posts owner digests. settings: ``gaps`` settings (owners, schedule).
        blobs: where the latest report and the claims live. clock: unix seconds.
    """

    def __init__(self, build: Callable[[float], GapReport], notifier: Notifier, settings: GapsSettings,
                 blobs: BlobStore, clock: Callable[[], float] = time.time) -> None:
        self._build = build
        self._notifier = notifier
        self._settings = settings
        self._blobs = blobs
        self._clock = clock
        self._claims = Claims(blobs, CLAIM_NAMESPACE, ttl_s=CLAIM_TTL_S, clock=clock)

    def run(self) -> list[str]:
        """Do this week's work if not done yet; returns the owners posted to (empty: nothing to do or
        nothing to say). Raises what ``build`` raises (claims released first)."""
        now = self._clock()
        week = week_start(now, self._settings).isoformat()
        owners = list(dict.fromkeys(self._settings.owners.values()))
        claimed = [k for k in ["report", *owners] if self._claims.claim(f"{week}:{k}")]
        if not claimed:
            return []
        try:
            report = self._build(now)
        except Exception:
            self._release(week, claimed)
            raise
        if "report" in claimed:
            save_latest(self._blobs, report)
        self._claims.sweep()
        return self._post(week, report, set(claimed))

    def _post(self, week: str, report: GapReport, claimed: set[str]) -> list[str]:
        posted = []
        for digest in digests(report, self._settings.owners):
            if digest.owner not in claimed:
                continue
            try:
                self._notifier.send(digest)
            except Exception as exc:  # one owner's failure never stops the others; retried next check
                log.error("gap report to %s failed (%s: %s); retrying at the next check", digest.owner,
                          type(exc).__name__, exc)
                self._release(week, [digest.owner])
                continue
            posted.append(digest.owner)
        log.info("weekly gap report (%s): %d groups, posted to %d owners", week, len(report.groups),
                 len(posted))
        return posted

    def _release(self, week: str, keys: Sequence[str]) -> None:
        for k in keys:
            self._claims.release(f"{week}:{k}")


class Scheduler(Protocol):
    """What :func:`schedule_gap_job` needs (``indexer.scheduler.MaintenanceScheduler`` fits)."""

    def add_job(self, fn: Callable[[], object], interval_s: float, name: str, *,
                run_now: bool = False) -> None: ...


JOB_NAME = "gaps-weekly"


def schedule_gap_job(scheduler: Scheduler, job: WeeklyGapJob, settings: GapsSettings) -> None:
    """Check every ``settings.check_interval_s`` seconds (first check at once) whether this week's
    report is due (job ``gaps-weekly``)."""
    scheduler.add_job(job.run, settings.check_interval_s, JOB_NAME, run_now=True)
