"""Prometheus metrics of one policybot process (``GET /metrics``), on prometheus-client.

Naming follows https://prometheus.io/docs/practices/naming/: every name starts with ``policybot_``,
durations are in seconds (``_seconds``), counters end in ``_total``, and labels take a small fixed set of
values (outcomes, surfaces, stages, provider names from the config, reason *classes* — never a question,
a user, a file or an error text). :func:`check_name` is the rule a test applies to every exported name.

Two kinds of series:

* **events** this process observes — questions by outcome and surface, answer latency per stage, LLM
  provider calls and failures, votes, Slack Web API errors and 429s, reconcile durations — are
  counters and histograms on :class:`Metrics` (one per process, built by the composition root);
* **state** read when scraped — documents by state, chunks, index lag, extraction failures by reason,
  breaker state, cache hits/misses, leadership — comes from *sources* registered with
  :meth:`Metrics.add_source`: callables returning metric families (``prometheus_client.core``), so
  nothing is polled between scrapes and a broken source only drops its own series (logged).

Each replica exports its own series; Prometheus sums them (``sum by (outcome)``).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    Info,
    generate_latest,
)
from prometheus_client.core import Metric
from prometheus_client.registry import Collector

from core.types import Answer

log = logging.getLogger(__name__)

OUTCOMES = ("answered", "declined", "cached", "error")
"""``policybot_questions_total{outcome}``: answered (cited), declined (a refusal or an unsafe request),
cached (served from the verified-answer cache), error (the service raised)."""
SURFACES = ("slack", "cli", "console", "eval")
"""``policybot_questions_total{surface}``: where the question came from."""
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
"""Histogram buckets in seconds: 5 ms (one retrieval leg) to 2 minutes (a slow LLM)."""
RECONCILE_BUCKETS = (0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3600.0)
NAME = re.compile(r"^policybot_[a-z][a-z0-9_]*$")
_UNITS = ("_seconds", "_bytes", "_total", "_info", "_ratio", "_count", "_sum", "_bucket", "_created")
_REASONS = (("timeout", re.compile(r"time(d)? ?out|deadline", re.I)),
            ("rate_limited", re.compile(r"\b429\b|rate.?limit|quota|resource.?exhausted", re.I)),
            ("auth", re.compile(r"\b40[13]\b|api.?key|unauthori[sz]ed|permission|forbidden", re.I)),
            ("server", re.compile(r"\b5\d\d\b|unavailable|overloaded|internal", re.I)),
            ("connection", re.compile(r"connect|resolve|network|refused|reset", re.I)),
            ("bad_response", re.compile(r"schema|json|parse|empty|without a final", re.I)))


def check_name(name: str) -> str | None:
    """Why ``name`` breaks the naming rules (prefix, snake case, a counter's ``_total``), or None."""
    if not NAME.match(name):
        return f"{name}: not policybot_ followed by lower snake case"
    if re.search(r"_(milliseconds|ms|minutes|hours|kb|mb|percent)(_|$)", name):
        return f"{name}: not in base units (seconds, bytes, ratio)"
    return None


def failure_reason(exc_or_text: BaseException | str) -> str:
    """A reason *class* for a provider failure (``timeout``, ``rate_limited``, ``auth``, ``server``,
    ``connection``, ``bad_response`` or ``error``): a label value, never the message itself."""
    text = exc_or_text if isinstance(exc_or_text, str) else f"{type(exc_or_text).__name__}: {exc_or_text}"
    return next((name for name, pattern in _REASONS if pattern.search(text)), "error")


def outcome_of(answer: Answer) -> str:
    """``cached``, ``declined`` (``found`` False) or ``answered``."""
    if answer.cached:
        return "cached"
    return "answered" if answer.found else "declined"


class _Sources(Collector):
    """Calls every registered source at scrape time."""

    def __init__(self) -> None:
        self.sources: list[tuple[str, Callable[[], Iterable[Metric]]]] = []

    def collect(self) -> Iterator[Metric]:
        for name, source in list(self.sources):
            try:
                yield from list(source())
            except Exception as exc:  # noqa: BLE001 - one broken source drops only its series
                log.warning("metrics source %s failed (%s)", name, exc)


class Metrics:
    """The process's collectors on a private registry (tests build as many as they like).

    Args:
        version: the package version (``policybot_build_info{version}``).
        config_fingerprint: :func:`core.fingerprint.config_fingerprint` of the running config.
    """

    def __init__(self, version: str = "", config_fingerprint: str = "") -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.questions = Counter("policybot_questions_total", "Questions answered, by outcome and surface.",
                                 ["outcome", "surface"], registry=r)
        self.stage_seconds = Histogram(
            "policybot_answer_stage_duration_seconds", "Answer latency per stage (retrieve, rerank, "
            "generate, ..., total), seconds.", ["stage"], buckets=LATENCY_BUCKETS, registry=r)
        self.provider_calls = Counter("policybot_provider_calls_total", "LLM provider calls.", ["provider"],
                                      registry=r)
        self.provider_failures = Counter("policybot_provider_failures_total",
                                         "LLM provider failures, by reason class.", ["provider", "reason"],
                                         registry=r)
        self.votes = Counter("policybot_votes_total", "Votes on answers (up, down, withdrawn).", ["vote"],
                             registry=r)
        self.slack_api_errors = Counter("policybot_slack_api_errors_total",
                                        "Slack Web API calls that failed, by error class.", ["error"],
                                        registry=r)
        self.slack_rate_limited = Counter("policybot_slack_api_rate_limited_total",
                                          "Slack Web API calls answered 429 (rate limited).", registry=r)
        self.reconcile_seconds = Histogram("policybot_reconcile_duration_seconds",
                                           "Reconcile duration, seconds.", buckets=RECONCILE_BUCKETS,
                                           registry=r)
        Info("policybot_build", "Version and config fingerprint of this process.", registry=r).info(
            {"version": version, "config_fingerprint": config_fingerprint[:16]})
        self._sources = _Sources()
        r.register(self._sources)
        self._lock = threading.Lock()
        for outcome in OUTCOMES:  # every outcome is exported from the start (rate() needs a zero)
            for surface in SURFACES:
                self.questions.labels(outcome, surface)

    # ---- events ------------------------------------------------------------------------------
    def question(self, surface: str, answer: Answer | None, seconds: float) -> None:
        """Count one question (``answer`` None: the service raised) and its stage latencies
        (``answer.timings_ms``, plus ``total`` = ``seconds``)."""
        outcome = "error" if answer is None else outcome_of(answer)
        self.questions.labels(outcome, surface if surface in SURFACES else "other").inc()
        self.stage_seconds.labels("total").observe(seconds)
        for stage, ms in (answer.timings_ms if answer is not None else {}).items():
            if stage != "total" and re.fullmatch(r"[a-z_]{1,32}", stage):
                self.stage_seconds.labels(stage).observe(max(0.0, ms) / 1000.0)

    def provider_call(self, provider: str) -> None:
        """Count a call to LLM ``provider`` (its configured name)."""
        self.provider_calls.labels(provider).inc()

    def provider_failure(self, provider: str, error: BaseException | str) -> None:
        """Count a failure of ``provider``, labelled with :func:`failure_reason`."""
        self.provider_failures.labels(provider, failure_reason(error)).inc()

    def vote(self, vote: str | None) -> None:
        """Count a vote change (``up``, ``down``, None = withdrawn)."""
        self.votes.labels(vote or "withdrawn").inc()

    def slack_api_error(self, error: str) -> None:
        """Count a failed Slack Web API call: ``error`` is Slack's error code (``channel_not_found``),
        ``ratelimited`` (a 429, also counted in ``policybot_slack_api_rate_limited_total``),
        ``server_error`` or ``connection``."""
        code = error if re.fullmatch(r"[a-z_]{1,40}", error or "") else "other"
        self.slack_api_errors.labels(code).inc()
        if code == "ratelimited":
            self.slack_rate_limited.inc()

    def reconciled(self, seconds: float) -> None:
        """Observe a reconcile's duration."""
        self.reconcile_seconds.observe(seconds)

    # ---- state and exposition ------------------------------------------------------------------
    def add_source(self, name: str, source: Callable[[], Iterable[Metric]]) -> None:
        """Register ``source`` (called at each scrape; returns metric families)."""
        with self._lock:
            self._sources.sources.append((name, source))

    def render(self) -> tuple[bytes, str]:
        """The text exposition format and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def names(self) -> list[str]:
        """Every exported sample name (for the naming test)."""
        return sorted({s.name for m in self.registry.collect() for s in m.samples})


def labelled(values: Mapping[str, float]) -> list[tuple[list[str], float]]:
    """``[([label value], value)]`` rows of a one-label family, sorted."""
    return [([k], float(v)) for k, v in sorted(values.items())]
