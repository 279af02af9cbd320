"""``policybot run`` checks the Slack tokens with Slack before indexing: a refused token is one ``error:``
line naming the variable, Slack's error code and what to do, exit 2, no traceback (HTTP mode: the bot
token via ``auth.test``; Socket Mode: the app token via ``apps.connections.open``)."""

from __future__ import annotations

from pathlib import Path

from tests.cli_helpers import LEAVE, cli_env, free_port, policy_folder, run_cli, write_config
from tests.slack_standin import SlackStandIn
from tests.slack_standin.web_api import BOT_TOKEN


def _config(tmp_path: Path, slack: SlackStandIn) -> Path:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    return write_config(tmp_path, root, slack={"api_base_url": slack.base_url})


def test_a_revoked_bot_token_in_http_mode_is_one_error_line_before_indexing(tmp_path: Path) -> None:
    with SlackStandIn() as slack:
        env = cli_env(SLACK_BOT_TOKEN="xoxb-revoked", SLACK_SIGNING_SECRET="s3cret")
        out = run_cli("--config", str(_config(tmp_path, slack)), "run", "--http-port", str(free_port()),
                      "--host", "127.0.0.1", env=env, timeout=120)
    (line,) = [x for x in out.stderr.splitlines() if x.strip()]
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert line.startswith("error: Slack at ") and "refused SLACK_BOT_TOKEN (invalid_auth" in line
    assert "export it as SLACK_BOT_TOKEN" in line
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.lance"))


def test_a_refused_app_token_in_socket_mode_is_one_error_line(tmp_path: Path) -> None:
    with SlackStandIn() as slack:
        env = cli_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_APP_TOKEN="xapp-revoked")
        out = run_cli("--config", str(_config(tmp_path, slack)), "run", env=env, timeout=120)
    (line,) = [x for x in out.stderr.splitlines() if x.strip()]
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert line.startswith("error: Slack at ") and "refused SLACK_APP_TOKEN (invalid_auth" in line
    assert "connections:write" in line
