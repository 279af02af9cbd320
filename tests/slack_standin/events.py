"""Drive a bolt app over HTTP the way Slack does: signed Events API, slash command and interactivity
requests, including retries with ``X-Slack-Retry-Num``.

Signing: https://docs.slack.dev/authentication/verifying-requests-from-slack —
``v0=hex(HMAC-SHA256(signing_secret, "v0:{timestamp}:{body}"))`` in ``X-Slack-Signature``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx

from tests.slack_standin.web_api import SlackStandIn


def sign(secret: str, timestamp: str, body: str) -> str:
    """Slack's v0 request signature of ``body`` sent at ``timestamp`` (unix seconds as a string)."""
    base = f"v0:{timestamp}:{body}".encode()
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


@dataclass
class Delivery:
    """One HTTP delivery: status and body returned, when it was sent and answered (monotonic s)."""

    status: int
    body: str
    sent_at: float
    acked_at: float


class EventsDriver:
    """Sends Slack's HTTP requests to ``url`` (the app's ``/slack/events``).

    When ``standin`` is given, a message event's message is first put into the stand-in's state (as
    real Slack stores a message before it delivers the event), so the app can reply in its thread.
    """

    def __init__(self, url: str, signing_secret: str, standin: SlackStandIn | None = None) -> None:
        self.url = url
        self.secret = signing_secret
        self.standin = standin
        self.http = httpx.Client(timeout=30.0)

    def close(self) -> None:
        """Close the HTTP client."""
        self.http.close()

    def send_event(self, body: dict[str, Any], *, retry_num: int | None = None,
                   timestamp: int | None = None, secret: str | None = None) -> Delivery:
        """POST an Events API body as JSON, signed; ``retry_num`` adds Slack's retry headers."""
        self._mirror(body.get("event") or {})
        headers = {}
        if retry_num is not None:
            headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"}
        return self._post(json.dumps(body), "application/json", headers, timestamp, secret)

    def send_command(self, command: str, text: str, *, user: str = "U0FAKEUSR1",
                     channel: str = "C0FAKEPOL1") -> Delivery:
        """POST a slash command (form-encoded, as Slack sends it)."""
        form = {"token": "fake-verification-token", "team_id": "T0FAKETEAM", "team_domain": "fake-workspace",
                "channel_id": channel, "channel_name": "policy-help", "user_id": user,
                "user_name": user.lower(), "command": command, "text": text, "api_app_id": "A0FAKEAPP1",
                "response_url": "https://hooks.example.invalid/commands/T0FAKETEAM/1/fake",
                "trigger_id": "0000000000.1111111111.fake"}
        return self._post(urlencode(form), "application/x-www-form-urlencoded", {}, None, None)

    def send_interaction(self, payload: dict[str, Any]) -> Delivery:
        """POST an interactivity payload (``payload=<url-encoded JSON>``)."""
        body = urlencode({"payload": json.dumps(payload)})
        return self._post(body, "application/x-www-form-urlencoded", {}, None, None)

    def _post(self, body: str, ctype: str, extra: dict[str, str], timestamp: int | None,
              secret: str | None) -> Delivery:
        ts = str(int(time.time()) if timestamp is None else timestamp)
        headers = {"Content-Type": ctype, "X-Slack-Request-Timestamp": ts,
                   "X-Slack-Signature": sign(secret or self.secret, ts, body), **extra}
        sent = time.monotonic()
        resp = self.http.post(self.url, content=body.encode(), headers=headers)
        return Delivery(resp.status_code, resp.text, sent, time.monotonic())

    def _mirror(self, event: dict[str, Any]) -> None:
        if self.standin is None or event.get("type") not in {"message", "app_mention"}:
            return
        if event.get("subtype") or not event.get("channel") or not event.get("ts"):
            return
        with self.standin.lock:
            if event["ts"] in self.standin.state.messages.get(event["channel"], {}):
                return
        self.standin.add_message(event["channel"], event.get("text", ""), event.get("user", ""),
                                 ts=event["ts"], thread_ts=event.get("thread_ts"))
