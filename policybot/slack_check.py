"""Check the Slack tokens with Slack before ``run`` does any work (indexing can take minutes).

``auth.test`` checks ``SLACK_BOT_TOKEN`` (both modes); in Socket Mode ``apps.connections.open`` checks
``SLACK_APP_TOKEN`` (the only Web API method that takes an app-level token; the WebSocket URL it returns
is not used and expires unused). A refused token becomes one :class:`~core.errors.CredentialError`
naming the variable, Slack's error code and what to do (:func:`policybot.boundary.accepted_by_slack`);
a network failure becomes :class:`~core.errors.ServiceUnreachableError` (:func:`policybot.boundary.reaching`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.config import Secrets, Settings
from policybot.boundary import accepted_by_slack, reaching

if TYPE_CHECKING:
    from policybot.serve import ServeMode


def check_slack_tokens(settings: Settings, secrets: Secrets, mode: ServeMode) -> None:
    """Ask Slack whether the tokens ``mode`` needs are valid (console mode: nothing to check).

    Raises:
        CredentialError: Slack refused a token (names the variable, Slack's error code, what to do).
        ServiceUnreachableError: Slack's Web API at ``slack.api_base_url`` cannot be reached.
    """
    if mode.kind == "console":
        return
    from slack_sdk import WebClient

    base = settings.slack.api_base_url
    checks = [("SLACK_BOT_TOKEN", secrets.slack_bot_token, "auth.test")]
    if mode.kind == "socket":
        checks.append(("SLACK_APP_TOKEN", secrets.slack_app_token, "apps.connections.open"))
    for var, token, method in checks:
        client = WebClient(token=token, base_url=base)
        with reaching("Slack", base, "slack.api_base_url"), accepted_by_slack(var, base):
            client.api_call(method)
