"""Check the Slack tokens with Slack before ``run`` does any work (indexing can take minutes).

``auth.test`` checks ``SLACK_BOT_TOKEN`` (both modes); in Socket Mode ``apps.connections.open`` checks
``SLACK_APP_TOKEN`` (the only Web API method that takes an app-level token; the WebSocket URL it returns
is not used and expires unused). A refused token becomes one :class:`~core.errors.CredentialError`
naming the variable, Slack's error code (https://api.slack.com/methods/auth.test#errors) and what to do;
a network failure becomes :class:`~core.errors.ServiceUnreachableError` (:func:`policybot.boundary.reaching`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.config import Secrets, Settings
from core.errors import CredentialError
from policybot.boundary import reaching

if TYPE_CHECKING:
    from slack_sdk import WebClient

    from policybot.serve import ServeMode

_WHERE = {
    "SLACK_BOT_TOKEN": "the Bot User OAuth Token (xoxb-...) under OAuth & Permissions of your Slack app",
    "SLACK_APP_TOKEN": "an app-level token (xapp-...) with the connections:write scope under Basic "
                       "Information → App-Level Tokens of your Slack app",
}
_CAUSES = {
    "invalid_auth": "the token is wrong, revoked or from another workspace",
    "not_authed": "no token reached Slack",
    "token_revoked": "the token was revoked",
    "token_expired": "the token expired",
    "account_inactive": "the app was uninstalled or its workspace deactivated",
    "not_allowed_token_type": "this is another kind of token",
}


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
        with reaching("Slack", base, "slack.api_base_url"):
            _refused_as_error(var, method, client, base)


def _refused_as_error(var: str, method: str, client: WebClient, url: str) -> None:
    from slack_sdk.errors import SlackApiError

    try:
        client.api_call(method)
    except SlackApiError as exc:
        code = str(exc.response.get("error") or f"HTTP {exc.response.status_code}")
        raise CredentialError(token_refused_text(var, code, url)) from None


def token_refused_text(var: str, code: str, url: str) -> str:
    """The one line for Slack (its Web API at ``url``) refusing the token in environment variable
    ``var`` with error ``code``."""
    cause = _CAUSES.get(code, "Slack refused it")
    return (f"Slack at {url} refused {var} ({code}: {cause}); copy {_WHERE[var]}, export it as {var} and run "
            "policybot run again (see docs/slack.md)")
