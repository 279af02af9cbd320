"""Hostile input at the Slack surface, found by trying to break ``policybot run``: tokens Slack refuses,
unsigned requests with a malformed timestamp or body, event types nobody subscribed to, and signed
events missing their channel or ts.

Tokens: the real command in a child process against the local Slack (``tests/slack_standin``). Events:
the bolt app built by ``bot.app.build_app``, served over HTTP and driven by the signed-event driver.
"""

from __future__ import annotations

from pathlib import Path

from tests.cli_helpers import LEAVE, cli_env, policy_folder, run_cli, write_config
from tests.slack_standin import SlackStandIn
from tests.slack_standin.web_api import APP_TOKEN, BOT_TOKEN


# ---- tokens Slack refuses --------------------------------------------------------------------------
def _run_with(tmp_path: Path, slack: SlackStandIn, *args: str, **env: str) -> tuple[int, str]:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    cfg = write_config(tmp_path, root, slack={"api_base_url": slack.base_url, "stream": False})
    out = run_cli("--config", str(cfg), "run", *args, env=cli_env(**env))
    return out.returncode, out.stderr


def test_a_bot_token_slack_refuses_is_one_error_line_naming_it(tmp_path: Path) -> None:
    with SlackStandIn() as slack:
        code, err = _run_with(tmp_path, slack, "--http-port", "0", "--host", "127.0.0.1",
                              SLACK_BOT_TOKEN="xoxb-not-this-app", SLACK_SIGNING_SECRET="s")
    assert code == 2 and "Traceback" not in err
    assert "refused SLACK_BOT_TOKEN (invalid_auth)" in err and slack.base_url in err


def test_an_app_token_slack_refuses_is_one_error_line_naming_it(tmp_path: Path) -> None:
    with SlackStandIn() as slack:
        code, err = _run_with(tmp_path, slack, SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_APP_TOKEN=APP_TOKEN + "x")
    assert code == 2 and "Traceback" not in err
    assert "refused SLACK_APP_TOKEN (invalid_auth)" in err
