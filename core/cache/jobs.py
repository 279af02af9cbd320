"""Keeping the verified-answer cache current: the TTL job, published metrics, admin stats text.

- :func:`schedule_cache_jobs`: the TTL job (:meth:`AnswerCache.expire`, every
  ``cache.expire_interval_s``) and a metrics job (flush serving counters, publish this process's
  hits / misses / invalidations to the blob ``state/cache_metrics.json`` of the data dir's shared store
  every :data:`METRICS_INTERVAL_S`)
  on the maintenance scheduler (``indexer.scheduler.MaintenanceScheduler``, APScheduler).
- :func:`stats_json` / :func:`stats_text`: what ``/policy cache stats`` and ``policybot cache stats`` show.

The scheduler is typed by a Protocol, so core never imports the indexer. (Invalidation on source
changes is wired in the composition root: ``policybot.factory.App.invalidate_cached_answers`` subscribes
to ``Indexer.subscribe_invalidated``.)
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from core.blobs import BlobStore
from core.cache.answer_cache import AnswerCache
from core.cache.types import CacheStats
from core.config import Settings

log = logging.getLogger(__name__)

METRICS_KEY = "state/cache_metrics.json"
"""Blob key of the serving process's published cache counters."""
METRICS_INTERVAL_S = 60.0
"""How often the serving process flushes serving counters and publishes its metrics."""


class Scheduler(Protocol):
    """What :func:`schedule_cache_jobs` needs (``indexer.scheduler.MaintenanceScheduler`` fits)."""

    def add_job(self, fn: Callable[[], object], interval_s: float, name: str, *,
                run_now: bool = False) -> None: ...


def schedule_cache_jobs(scheduler: Scheduler, cache: AnswerCache, settings: Settings,
                        blobs: BlobStore) -> None:
    """Add ``cache-expire`` (TTL, every ``cache.expire_interval_s`` s, first run at once) and
    ``cache-metrics`` (every :data:`METRICS_INTERVAL_S` s, to ``blobs``) to ``scheduler``."""
    scheduler.add_job(cache.expire, settings.cache.expire_interval_s, "cache-expire", run_now=True)
    scheduler.add_job(lambda: publish_metrics(cache, blobs), METRICS_INTERVAL_S, "cache-metrics")


def publish_metrics(cache: AnswerCache, blobs: BlobStore) -> None:
    """Flush serving counters and write this process's stats as JSON to :data:`METRICS_KEY`."""
    data = stats_json(cache.stats()) | {"published_at": time.time()}
    blobs.put(METRICS_KEY, json.dumps(data).encode("utf-8"))


def read_published(blobs: BlobStore) -> dict[str, Any] | None:
    """The metrics last published by the serving process, or None (never published / unreadable)."""
    try:
        blob = blobs.get(METRICS_KEY)
        data: dict[str, Any] | None = json.loads(blob.data) if blob is not None else None
    except (OSError, ValueError):
        return None
    return data


def stats_json(stats: CacheStats) -> dict[str, Any]:
    """``{"entries": {status: n}, "times_served", "hits", "misses": {reason: n},
    "invalidations": {reason: n}}``."""
    return dataclasses.asdict(stats)


def stats_text(data: dict[str, Any]) -> str:
    """Plain-text lines for admins from :func:`stats_json` output (or published metrics)."""
    e = data["entries"]
    misses = data.get("misses") or {}
    lines = [f"entries: {e.get('active', 0)} active, {e.get('candidate', 0)} candidates, "
             f"{e.get('invalidated', 0)} invalidated · served {data['times_served']} times in total",
             f"hits: {data['hits']} · misses: {sum(misses.values())} ({_counts(misses)})",
             f"invalidations: {_counts(data.get('invalidations') or {})}"]
    if data.get("published_at"):
        at = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(data["published_at"]))
        lines.append(f"(hits, misses and invalidations of the serving process as of {at})")
    return "\n".join(lines)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])) or "none"
