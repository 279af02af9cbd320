"""The serving process's probes and metrics: ``GET /metrics``, ``/livez`` and ``/readyz``.

Served from the route table (:func:`policybot.serve.http_routes`): in HTTP mode beside
``/slack/events``, in Socket Mode on ``run --health-port N``.

* ``/livez`` — the process makes progress: the indexer-role loop (every process campaigns for the lease
  every few seconds) stepped recently and, in the leader, the watcher's loop is alive. 503 when stuck
  (a restart helps); never looks at the store or the LLMs.
* ``/readyz`` — ready for questions: the store is readable at a known version (the generation pointer
  and the live documents table's version), the models are loaded (:meth:`App.warm_up` finished), and
  Slack accepted the bot token (``auth.test``) when Slack is configured. Never the LLM provider: the
  chain ends in the extractive answerer. 503 until all hold (e.g. while models load).

Both answer a JSON object ``{"ok": bool, "checks": {name: {"ok": bool, "detail": str}}}``.
``/metrics`` is the Prometheus text format of :class:`core.metrics.Metrics` plus the state sources
registered here (documents, chunks, index lag, extraction failures, breakers, cache, leadership).
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from core.metrics import Metrics

if TYPE_CHECKING:
    from bot.runner import Reply, Request, Route
    from policybot.factory import App

log = logging.getLogger(__name__)

ROLE_STALE_S = 60.0
"""``/livez`` fails when the indexer-role loop has not stepped for this long (it steps every ≤ 5 s)."""
_EXTRACTION_REASONS = (("needs_ocr", re.compile(r"needs OCR|no usable text|no text", re.I)),
                       ("timeout", re.compile(r"took longer than|time ?out", re.I)),
                       ("memory", re.compile(r"memory limit|exceeded the memory", re.I)),
                       ("worker_died", re.compile(r"process died|did not start", re.I)),
                       ("encrypted", re.compile(r"encrypt|password", re.I)),
                       ("permission", re.compile(r"permission denied|cannot read", re.I)),
                       ("unsupported", re.compile(r"unsupported|not supported|converter|antiword", re.I)),
                       ("empty", re.compile(r"empty|no chunks", re.I)),
                       ("corrupt", re.compile(r"corrupt|damaged|invalid|not a (pdf|zip)|bad", re.I)))


def extraction_reason(error: str) -> str:
    """A reason *class* for a failed document's error text (a label value; ``other`` when unknown)."""
    return next((name for name, pattern in _EXTRACTION_REASONS if pattern.search(error or "")), "other")


def build_metrics(app: App) -> Metrics:
    """The process's :class:`Metrics` with the state sources of ``app`` registered."""
    from importlib.metadata import PackageNotFoundError, version

    from core.fingerprint import config_fingerprint

    try:
        ver = version("policybot")
    except PackageNotFoundError:
        ver = "unknown"
    metrics = Metrics(ver, config_fingerprint(app.settings))
    metrics.add_source("documents", lambda: _documents(app))
    metrics.add_source("index_lag", lambda: _index_lag(app))
    metrics.add_source("process", lambda: _process(app))
    return metrics


def _documents(app: App) -> Iterable[Metric]:
    docs = list(app.store.documents().values())
    states = GaugeMetricFamily("policybot_documents", "Indexed policy documents by state.", labels=["state"])
    ocr = sum(bool(d.needs_ocr_pages) or (d.status == "failed" and "needs OCR" in d.error) for d in docs)
    for state, n in (("indexed", sum(d.status == "indexed" for d in docs)),
                     ("failed", sum(d.status == "failed" for d in docs)), ("needs_ocr", ocr)):
        states.add_metric([state], n)
    failures = GaugeMetricFamily("policybot_extraction_failures",
                                 "Documents whose last extraction failed, by reason class.",
                                 labels=["reason"])
    reasons: dict[str, int] = {}
    for d in docs:
        if d.status == "failed":
            key = extraction_reason(d.error)
            reasons[key] = reasons.get(key, 0) + 1
    for reason, n in sorted(reasons.items()):
        failures.add_metric([reason], n)
    chunks = GaugeMetricFamily("policybot_chunks", "Chunks in the live index.",
                               value=app.store.count_chunks())
    return [states, failures, chunks]


def _index_lag(app: App) -> Iterable[Metric]:
    """Seconds since the oldest change the running watcher has not indexed yet (0 when none)."""
    from indexer.watch_state import read_watch_state
    from policybot.status import watcher_running

    watch = read_watch_state(app.blobs) or {}
    lag = 0.0
    if watcher_running(watch) and int(watch.get("pending") or 0):
        lag = max(0.0, time.time() - float(watch.get("oldest_pending_at") or time.time()))
    return [GaugeMetricFamily("policybot_index_lag_seconds", "Age of the oldest change not indexed yet.",
                              value=lag)]


def _process(app: App) -> Iterable[Metric]:
    """Leadership, readiness, LLM breakers and the verified-answer cache's counters of this process."""
    role = app.role
    out: list[Metric] = [
        GaugeMetricFamily("policybot_indexer_leader", "1 when this process holds the indexer lease.",
                          value=1.0 if role is not None and role.is_leader else 0.0),
        GaugeMetricFamily("policybot_ready", "1 when /readyz answers 200.",
                          value=1.0 if ready(app)[0] else 0.0)]
    chain = app.__dict__.get("provider")
    states = getattr(chain, "breaker_states", None)
    if states is not None:
        fam = GaugeMetricFamily("policybot_provider_breaker_open",
                                "1 while the provider's circuit breaker is open (it is skipped).",
                                labels=["provider"])
        for name, state in sorted(states().items()):
            fam.add_metric([name], 1.0 if state == "open" else 0.0)
        out.append(fam)
    cache = app.__dict__.get("answer_cache")
    if cache is not None:
        hits, misses = cache.counters()
        fam_c = CounterMetricFamily("policybot_cache_lookups", "Verified-answer cache lookups by result.",
                                    labels=["result", "reason"])
        fam_c.add_metric(["hit", ""], hits)
        for reason, n in sorted(misses.items()):
            fam_c.add_metric(["miss", reason], n)
        out.append(fam_c)
    return out


# ---- probes -----------------------------------------------------------------------------------------
Checks = dict[str, dict[str, Any]]


def live(app: App) -> tuple[bool, Checks]:
    """``/livez``: the role loop stepped within :data:`ROLE_STALE_S`; the leader's watcher is alive."""
    checks: Checks = {}
    role = app.role
    if role is not None:
        age = time.monotonic() - role.last_step_at
        checks["indexer_role"] = {"ok": age < ROLE_STALE_S, "detail": f"last step {age:.1f} s ago"}
        watcher = role.service
        if watcher is not None:
            alive = bool(getattr(watcher, "alive", True))
            checks["watcher"] = {"ok": alive, "detail": "running" if alive else "its loop stopped"}
    return all(c["ok"] for c in checks.values()), checks


def ready(app: App) -> tuple[bool, Checks]:
    """``/readyz``: store readable at a known version, models loaded, Slack auth ok when configured."""
    checks: Checks = {"store": _store_check(app)}
    loaded = app.models_ready.is_set()
    checks["models"] = {"ok": loaded, "detail": "loaded" if loaded else "loading"}
    if app.secrets.slack_bot_token:
        ok = app.slack_auth_ok
        checks["slack"] = {"ok": bool(ok), "detail": {None: "not checked yet", True: "auth.test ok",
                                                      False: "auth.test failed"}[ok]}
    return all(c["ok"] for c in checks.values()), checks


def _store_check(app: App) -> dict[str, Any]:
    try:
        state = app.store.state()
        version = app.store.table_version()
    except Exception as exc:  # noqa: BLE001 - any failure means not ready; the detail says which
        return {"ok": False, "detail": f"unreadable: {type(exc).__name__}: {str(exc)[:200]}"}
    return {"ok": True, "detail": f"generation {state.generation}, documents version {version}"}


def routes(app: App) -> list[Route]:
    """``GET /metrics``, ``/livez``, ``/readyz`` for the route table."""
    from bot.runner import sync_route

    return [sync_route("GET", "/metrics", lambda req: _metrics(app, req)),
            sync_route("GET", "/livez", lambda req: _probe(live(app))),
            sync_route("GET", "/readyz", lambda req: _probe(ready(app)))]


def _metrics(app: App, req: Request) -> Reply:
    from bot.runner import Reply

    body, content_type = app.metrics.render()
    return Reply(200, body, {"Content-Type": content_type})


def _probe(result: tuple[bool, Checks]) -> Reply:
    from bot.runner import Reply

    ok, checks = result
    body = json.dumps({"ok": ok, "checks": checks}).encode("utf-8")
    return Reply(200 if ok else 503, body, {"Content-Type": "application/json"})
