"""``policybot run --http-port N`` (issue 15, items 2 and 10): the real command in a child process serves
``POST /slack/events`` — following docs/slack.md's HTTP-mode steps (export SLACK_BOT_TOKEN and
SLACK_SIGNING_SECRET, then ``policybot run --http-port N``) — against the local Slack: the URL
verification challenge is answered, a signed mention gets one threaded answer, a bad signature gets 401;
SIGTERM then stops it cleanly with exit 0 and a consistent index. Mode selection is never guessed.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from core.config import Secrets, SlackSettings
from core.errors import ConfigError
from policybot.serve import choose_mode
from tests.cli_helpers import LEAVE, CliProcess, cli_env, free_port, policy_folder, run_cli, write_config
from tests.slack_standin import EventsDriver, SlackStandIn, SocketModeServer, event_body, load_fixture
from tests.slack_standin.web_api import APP_TOKEN, BOT_TOKEN

SECRET = "test-signing-secret-42"
STOP_GRACE_S = 5.0
"""The SIGTERM stop's bound from issue 15's Done-when ("exits 0 within 5 s"; docker's default grace
before SIGKILL is 10 s). Measured 1.9-3.2 s at load ~11."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[SlackStandIn, CliProcess, str, Path]]:
    """docs/slack.md's HTTP steps: tokens exported, ``policybot run --http-port N`` started."""
    with SlackStandIn() as slack:
        root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
        cfg = write_config(tmp_path, root, slack={"api_base_url": slack.base_url, "stream": False})
        port = free_port()
        env = cli_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_SIGNING_SECRET=SECRET)
        proc = CliProcess("--config", str(cfg), "run", "--http-port", str(port), "--host", "127.0.0.1",
                          env=env)
        try:
            m = proc.wait_for(r"serving Slack in HTTP mode at (http://\S+/slack/events)")
            yield slack, proc, m.group(1), cfg
        finally:
            proc.kill()


def test_signed_mention_is_answered_and_sigterm_stops_cleanly(
        served: tuple[SlackStandIn, CliProcess, str, Path]) -> None:
    slack, proc, url, cfg = served
    driver = EventsDriver(url, SECRET, slack)
    try:
        body = event_body("app_mention", text="<@U0FAKEBOT1> how long is parental leave for mothers?")
        assert driver.send_event(body).status == 200
        assert slack.wait_for(lambda: bool(slack.calls_to("chat.postMessage")), timeout=120)
    finally:
        driver.close()
    (post,) = slack.calls_to("chat.postMessage")
    assert "26 weeks" in json.dumps(post.args.get("blocks")) and post.args["thread_ts"] == body["event"]["ts"]
    health = run_cli("--config", str(cfg), "health")  # the container's check: HTTP mode → its server
    assert health.returncode == 0 and health.stdout.strip() == "healthy"
    code, seconds = proc.stop(signal.SIGTERM, timeout=STOP_GRACE_S)
    print(f"SIGTERM → exit {code} in {seconds:.2f} s")
    assert code == 0 and "Traceback" not in proc.stderr
    status = run_cli("--config", str(cfg), "status", "--json")
    data = json.loads(status.stdout)
    assert data["documents"]["indexed"] == 1 and data["chunks"] > 0 and data["index"]["building"] is None


def test_url_verification_and_bad_signature(served: tuple[SlackStandIn, CliProcess, str, Path]) -> None:
    slack, _, url, _ = served
    driver = EventsDriver(url, SECRET, slack)
    try:
        challenge = load_fixture("events/url_verification.json")
        reply = driver.send_event(challenge)
        assert reply.status == 200 and challenge["challenge"] in reply.body
        forged = driver.send_event(event_body("app_mention"), secret="not-the-secret")
        assert forged.status == 401
    finally:
        driver.close()
    assert not slack.calls_to("chat.postMessage")


def test_http_port_without_signing_secret_refuses_to_start(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    cfg = write_config(tmp_path, root)
    out = run_cli("--config", str(cfg), "run", "--http-port", "0", env=cli_env(SLACK_BOT_TOKEN=BOT_TOKEN))
    assert out.returncode == 2 and "SLACK_SIGNING_SECRET" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "data").exists()  # refused before any work


def test_mode_is_never_guessed() -> None:
    both = Secrets(slack_bot_token=BOT_TOKEN, slack_app_token=APP_TOKEN, slack_signing_secret=SECRET)
    bot_only = Secrets(slack_bot_token=BOT_TOKEN, slack_signing_secret=SECRET)
    assert choose_mode(SlackSettings(), both).kind == "socket"
    assert choose_mode(SlackSettings(), both, http_port=3000).kind == "http"
    assert choose_mode(SlackSettings(mode="http", http_port=8080), both).port == 8080
    assert choose_mode(SlackSettings(), Secrets()).kind == "console"
    with pytest.raises(ConfigError, match="SLACK_APP_TOKEN"):
        choose_mode(SlackSettings(), bot_only)  # formerly: HTTP mode on port 3000, silently


def test_a_retry_after_the_process_restarted_is_not_answered_again(tmp_path: Path) -> None:
    """Issue 16 item 2 at process level: a signed event answered by ``policybot run --http-port``, the
    process stopped and started again on the same data dir, the same event redelivered with
    ``X-Slack-Retry-Num: 2`` → one answer in total (the event's claim lives in the data dir's store)."""
    body = event_body("app_mention", text="<@U0FAKEBOT1> how long is parental leave for mothers?")
    fresh = event_body("app_mention", text="<@U0FAKEBOT1> how long is parental leave for fathers?",
                       ts="1718000500.000100")
    with SlackStandIn() as slack:
        root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
        cfg = write_config(tmp_path, root, slack={"api_base_url": slack.base_url, "stream": False})
        env = cli_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_SIGNING_SECRET=SECRET)
        for deliveries in ([(body, None)], [(body, 2), (fresh, None)]):
            proc = CliProcess("--config", str(cfg), "run", "--http-port", str(free_port()), "--host",
                              "127.0.0.1", env=env)
            try:
                url = proc.wait_for(r"serving Slack in HTTP mode at (http://\S+/slack/events)").group(1)
                driver = EventsDriver(url, SECRET, slack)
                for event, retry in deliveries:
                    assert driver.send_event(event, retry_num=retry).status == 200
                answered = {event["event"]["ts"] for event, retry in deliveries if retry is None}
                assert slack.wait_for(lambda want=answered: want <= {
                    c.args.get("thread_ts") for c in slack.calls_to("chat.postMessage")}, timeout=120)
                driver.close()
                assert proc.stop(signal.SIGTERM, timeout=STOP_GRACE_S)[0] == 0
            finally:
                proc.kill()
    threads = [c.args.get("thread_ts") for c in slack.calls_to("chat.postMessage")]
    assert sorted(threads) == sorted([body["event"]["ts"], fresh["event"]["ts"]])


def _probe(port: int, path: str) -> int:
    """The HTTP status of ``GET http://127.0.0.1:port/path`` (0 when nothing answers)."""
    try:
        return httpx.get(f"http://127.0.0.1:{port}{path}", timeout=10).status_code
    except httpx.HTTPError:
        return 0


def _wait_ready(port: int, timeout: float = 120) -> int:
    """``/readyz``'s status once it is 200, or its last status when ``timeout`` s pass."""
    deadline, status = time.monotonic() + timeout, 0
    while time.monotonic() < deadline and (status := _probe(port, "/readyz")) != 200:
        time.sleep(0.5)
    return status


def test_health_port_serves_the_probes_in_socket_mode(tmp_path: Path) -> None:
    """``run --health-port N`` in Socket Mode: ``/livez``, ``/readyz`` and ``/metrics`` answer on N."""
    with SlackStandIn() as slack, SocketModeServer(slack):
        root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
        cfg = write_config(tmp_path, root, slack={"api_base_url": slack.base_url, "stream": False})
        port = free_port()
        proc = CliProcess("--config", str(cfg), "run", "--health-port", str(port), "--host", "127.0.0.1",
                          env=cli_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_APP_TOKEN=APP_TOKEN))
        try:
            proc.wait_for(r"connected to Slack in Socket Mode")
            assert _wait_ready(port) == 200
            assert _probe(port, "/livez") == 200
            assert "policybot_questions_total" in httpx.get(f"http://127.0.0.1:{port}/metrics").text
        finally:
            proc.kill()


def test_health_port_serves_the_probes_beside_the_console_chat(tmp_path: Path) -> None:
    """Without Slack tokens, ``run --health-port N`` opens the console chat and still serves the probes."""
    root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
    cfg = write_config(tmp_path, root)
    port = free_port()
    proc = CliProcess("--config", str(cfg), "run", "--health-port", str(port), "--host", "127.0.0.1",
                      stdin=subprocess.PIPE)
    try:
        proc.wait_for(r"opening a console")
        assert _wait_ready(port) == 200 and _probe(port, "/livez") == 200
    finally:
        proc.kill()
