"""The Web API stand-in: an HTTP server on 127.0.0.1 (random port) that keeps Slack state.

It implements the methods policybot calls (see :data:`tests.slack_standin.methods.METHODS`), parses
JSON and form bodies like Slack does, checks tokens, required arguments and Slack's limits, records
every call, and injects faults on demand (HTTP 429 with ``Retry-After``, ``ok: false`` error codes,
delays). Response and error shapes follow ``../shared/slack-fixtures/api/``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.slack_standin.methods import METHODS, ApiError

BOT_TOKEN = "xoxb-fake-bot-token"
APP_TOKEN = "xapp-fake-app-token"


@dataclass
class Fault:
    """A fault served for the next ``times`` calls of one method.

    ``status=429`` with ``retry_after`` (seconds) models rate limiting; ``error`` an ``ok: false``
    error code; ``delay_s`` sleeps before answering (then the call proceeds normally if no error).
    """

    error: str | None = None
    status: int = 200
    retry_after: int | None = None
    delay_s: float = 0.0
    times: int = 1


@dataclass
class Call:
    """One recorded Web API call: method, parsed arguments, monotonic time, HTTP status returned."""

    method: str
    args: dict[str, Any]
    at: float
    status: int = 200
    ok: bool = True


@dataclass
class SlackState:
    """What the stand-in remembers: messages per channel (by ts), reactions, streams, assistant state,
    views."""

    bot_user_id: str = "U0FAKEBOT1"
    bot_id: str = "B0FAKEBOT1"
    messages: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    ephemerals: list[dict[str, Any]] = field(default_factory=list)
    reactions: dict[tuple[str, str], dict[str, set[str]]] = field(default_factory=dict)
    streams: dict[tuple[str, str], str] = field(default_factory=dict)  # (channel, ts) -> "open"/"stopped"
    statuses: list[dict[str, Any]] = field(default_factory=list)
    prompts: list[dict[str, Any]] = field(default_factory=list)
    titles: list[dict[str, Any]] = field(default_factory=list)
    views: list[dict[str, Any]] = field(default_factory=list)  # views.open: {"trigger_id", "view"}
    home_views: dict[str, dict[str, Any]] = field(default_factory=dict)  # views.publish by user
    user_teams: dict[str, str] = field(default_factory=dict)  # users.info team per user (default ours)
    user_enterprises: dict[str, str] = field(default_factory=dict)  # users.info enterprise id per user
    socket_url: str | None = None
    last_us: int = 1718000000_000000  # latest ts handed out or seen, in microseconds

    def next_ts(self) -> str:
        """A fresh message ts after every ts seen so far, in Slack's ``seconds.micros`` format."""
        self.last_us += 100
        return f"{self.last_us // 1_000_000}.{self.last_us % 1_000_000:06d}"

    def see_ts(self, ts: str) -> None:
        """Note a ts that came from outside (a human message) so later ts are greater."""
        sec, _, micro = ts.partition(".")
        self.last_us = max(self.last_us, int(sec) * 1_000_000 + int(micro.ljust(6, "0")[:6]))


class SlackStandIn:
    """A local Slack Web API. Use as a context manager; ``base_url`` goes to ``WebClient(base_url=...)``."""

    def __init__(self) -> None:
        self.state = SlackState()
        self.calls: list[Call] = []
        self.lock = threading.RLock()
        self._faults: dict[str, list[Fault]] = {}
        self._server = _Server(("127.0.0.1", 0), _make_handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        name="slack-standin", daemon=True)

    # ---- lifecycle ------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/api/``."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/api/"

    def __enter__(self) -> SlackStandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    # ---- test helpers ---------------------------------------------------------------------
    def fail(self, method: str, fault: Fault) -> None:
        """Serve ``fault`` for the next ``fault.times`` calls of ``method``."""
        with self.lock:
            self._faults.setdefault(method, []).append(fault)

    def add_message(self, channel: str, text: str, user: str = "U0FAKEUSR1", *,
                    ts: str | None = None, thread_ts: str | None = None) -> str:
        """Put a human message into the channel (as if typed in Slack); returns its ts."""
        with self.lock:
            ts = ts or self.state.next_ts()
            self.state.see_ts(ts)
            msg: dict[str, Any] = {"type": "message", "user": user, "text": text, "ts": ts}
            if thread_ts:
                msg["thread_ts"] = thread_ts
            self.state.messages.setdefault(channel, {})[ts] = msg
            return ts

    def calls_to(self, method: str, *, ok_only: bool = True) -> list[Call]:
        """Recorded calls of ``method`` (only successful ones unless ``ok_only=False``)."""
        with self.lock:
            return [c for c in self.calls if c.method == method and (c.ok or not ok_only)]

    def bot_messages(self, channel: str | None = None) -> list[dict[str, Any]]:
        """Messages posted by the bot (any channel unless given), oldest first."""
        with self.lock:
            chans = [channel] if channel else list(self.state.messages)
            out = [m | {"channel": c} for c in chans for m in self.state.messages.get(c, {}).values()
                   if m.get("bot_id") == self.state.bot_id]
        return sorted(out, key=lambda m: float(m["ts"]))

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
        """Poll ``predicate`` until true or ``timeout`` seconds pass; returns its last value."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return True
            time.sleep(0.02)
        return predicate()

    # ---- request handling -----------------------------------------------------------------
    def handle(self, method: str, args: dict[str, Any], token: str | None) -> tuple[int, dict[str, str], Any]:
        """Serve one call: faults first, then auth, then the method. Returns (status, headers, body)."""
        fault = self._take_fault(method)
        if fault is not None and fault.delay_s:
            time.sleep(fault.delay_s)
        status, headers, body = self._serve(method, args, token, fault)
        with self.lock:
            self.calls.append(Call(method, args, time.monotonic(), status, bool(body.get("ok"))))
        return status, headers, body

    def _serve(self, method: str, args: dict[str, Any], token: str | None,
               fault: Fault | None) -> tuple[int, dict[str, str], dict[str, Any]]:
        if fault is not None and fault.status == 429:
            return 429, {"Retry-After": str(fault.retry_after or 1)}, {"ok": False, "error": "ratelimited"}
        if fault is not None and fault.error:
            return fault.status, {}, {"ok": False, "error": fault.error}
        if method not in METHODS:
            return 404, {}, {"ok": False, "error": "unknown_method"}
        if not token:
            return 200, {}, {"ok": False, "error": "not_authed"}
        wanted = APP_TOKEN if method == "apps.connections.open" else BOT_TOKEN
        if token != wanted:
            return 200, {}, {"ok": False, "error": "invalid_auth"}
        try:
            with self.lock:
                return 200, {}, {"ok": True} | METHODS[method](self.state, args)
        except ApiError as exc:
            return 200, {}, {"ok": False, "error": exc.code} | exc.extra

    def _take_fault(self, method: str) -> Fault | None:
        with self.lock:
            queue = self._faults.get(method)
            if not queue:
                return None
            fault = queue[0]
            fault.times -= 1
            if fault.times <= 0:
                queue.pop(0)
            return fault


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


def _make_handler(standin: SlackStandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server naming)
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8") if length else ""
            args: dict[str, Any] = dict(parse_qsl(parts.query))
            if "json" in (self.headers.get("Content-Type") or ""):
                args.update(json.loads(raw or "{}"))
            else:
                args.update(parse_qsl(raw, keep_blank_values=True))
            auth = self.headers.get("Authorization") or ""
            token = auth[7:] if auth.startswith("Bearer ") else args.pop("token", None)
            method = parts.path.rsplit("/", 1)[-1]
            status, headers, body = standin.handle(method, args, token)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return

    return Handler
