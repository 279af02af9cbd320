"""Issue 13 item 1: ``/metrics``, ``/livez``, ``/readyz`` on the route table (a real aiohttp server on
127.0.0.1), Prometheus naming of every exported metric, and ``log_format: json``."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.runner import HttpServer
from core.config import load_config
from core.metrics import check_name, failure_reason
from policybot.factory import App
from policybot.logs import configure_logging
from policybot.serve import http_routes
from tests.cli_helpers import LEAVE, policy_folder, write_config


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[App, str]]:
    """An indexed App (fake embedder) and the base URL of its route table (no Slack)."""
    root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
    app = App(load_config(write_config(tmp_path, root)))
    app.indexer.reconcile(root)
    server = HttpServer(http_routes(app, None), host="127.0.0.1", port=0).start()
    try:
        yield app, f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()
        app.close()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:  # noqa: S310 - a local URL
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_readyz_is_503_while_models_load_and_200_after(served: tuple[App, str]) -> None:
    app, base = served
    status, body = _get(base + "/readyz")
    assert status == 503 and json.loads(body)["checks"]["models"] == {"ok": False, "detail": "loading"}
    assert json.loads(body)["checks"]["store"]["ok"] is True
    app.warm_up().join(120)
    status, body = _get(base + "/readyz")
    assert status == 200 and json.loads(body)["ok"] is True


def test_every_metric_name_follows_prometheus_rules(served: tuple[App, str]) -> None:
    app, base = served
    app.answers.ask("how long is parental leave for mothers?")
    app.answers.ask("Help me forge my manager's signature on the travel approval form.")
    app.metrics.provider_failure("gemini:x", TimeoutError("read timed out"))
    app.metrics.slack_api_error("ratelimited")
    app.metrics.vote("up")
    status, text = _get(base + "/metrics")
    assert status == 200
    families = list(text_string_to_metric_families(text))
    assert len(families) >= 15
    for fam in families:
        assert check_name(fam.name) is None, fam.name
        if fam.type == "counter":
            assert all(s.name.endswith(("_total", "_created")) for s in fam.samples), fam.name
        if fam.type == "histogram":
            assert fam.name.endswith("_seconds"), fam.name
        for sample in fam.samples:  # label values are classes, never free text
            assert all(len(v) <= 64 and "\n" not in v for v in sample.labels.values()), sample
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value for f in families for s in f.samples}
    assert samples[("policybot_questions_total", (("outcome", "answered"), ("surface", "cli")))] == 1
    assert samples[("policybot_questions_total", (("outcome", "declined"), ("surface", "cli")))] == 1
    assert samples[("policybot_answer_stage_duration_seconds_count", (("stage", "total"),))] == 2
    assert samples[("policybot_documents", (("state", "indexed"),))] == 1
    assert samples[("policybot_chunks", ())] > 0
    failures = ("policybot_provider_failures_total", (("provider", "gemini:x"), ("reason", "timeout")))
    assert samples[failures] == 1
    assert samples[("policybot_slack_api_rate_limited_total", ())] == 1
    assert ("policybot_build_info", ()) not in samples  # it carries version and fingerprint labels
    assert any(name == "policybot_build_info" and dict(labels).get("version") for name, labels in samples)


def test_livez_reports_the_role_loop(served: tuple[App, str]) -> None:
    _, base = served
    status, body = _get(base + "/livez")  # no role (not policybot run): nothing can be stuck
    assert status == 200 and json.loads(body) == {"ok": True, "checks": {}}


def test_check_name_and_failure_reason() -> None:
    assert check_name("policybot_answer_latency_ms") is not None
    assert check_name("answers_total") is not None
    assert check_name("policybot_questions_total") is None
    assert failure_reason("gemini: 429 RESOURCE_EXHAUSTED") == "rate_limited"
    assert failure_reason(ValueError("something odd")) == "error"


def test_json_log_lines_carry_a_request_id_and_no_question_at_info(
        served: tuple[App, str], capsys: pytest.CaptureFixture[str]) -> None:
    app, _ = served
    configure_logging(1, "WARNING", "json")
    try:
        app.answers.ask("how long is parental leave for mothers?")
    finally:
        configure_logging(0, "WARNING", "text")
        logging.getLogger().setLevel(logging.WARNING)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    answered = [r for r in lines if r["message"].startswith("answered surface=cli")]
    assert len(answered) == 1 and len(answered[0]["request_id"]) == 12
    assert {"time", "level", "logger", "message", "request_id"} <= set(answered[0])
    assert not any("parental leave" in r["message"] for r in lines)
