"""Run the bolt app: Socket Mode (outbound websocket, no public URL) or HTTP mode (``/slack/events``).

HTTP mode serves the Events API, slash commands and interactivity at ``/slack/events`` through a small
threaded adapter over bolt's ``App.dispatch`` (the request body is verified by bolt with the signing
secret; a bad signature or a timestamp older than 5 minutes gets 401).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from slack_bolt import App, BoltRequest
from slack_bolt.adapter.socket_mode import SocketModeHandler

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"


def run_socket_mode(app: App, app_token: str) -> None:
    """Connect with the app-level token (``xapp-…``) and serve until interrupted (blocks).

    ``apps.connections.open`` is called on the app's WebClient, so ``slack.api_base_url`` applies.
    """
    handler = SocketModeHandler(app, app_token, web_client=app.client)
    log.info("connecting to Slack in Socket Mode")
    handler.start()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default listen backlog of 5 drops bursts of Slack deliveries


def make_http_server(app: App, port: int, host: str = "0.0.0.0") -> ThreadingHTTPServer:
    """A threaded HTTP server dispatching POST ``/slack/events`` to ``app`` (port 0 picks a free one)."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server naming)
            parts = urlsplit(self.path)
            if parts.path != EVENTS_PATH:
                self._reply(404, b"not found", {})
                return
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8")
            headers: dict[str, str | Sequence[str]] = {k.lower(): v for k, v in self.headers.items()}
            resp = app.dispatch(BoltRequest(body=body, query=parts.query, headers=headers))
            out_headers = {k: ", ".join(v) for k, v in resp.headers.items()}
            self._reply(resp.status, resp.body.encode("utf-8"), out_headers)

        def do_GET(self) -> None:  # noqa: N802
            ok = urlsplit(self.path).path == "/healthz"
            self._reply(200 if ok else 404, b"ok" if ok else b"not found", {})

        def _reply(self, status: int, data: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for k, v in headers.items():
                if k.lower() != "content-length":
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            log.debug("http: " + format, *args)

    return _Server((host, port), Handler)


def run_http(app: App, port: int) -> None:
    """Serve ``/slack/events`` (and ``/healthz``) on ``port`` until interrupted (blocks)."""
    server = make_http_server(app, port)
    log.info("serving Slack HTTP mode on port %d at %s", server.server_address[1], EVENTS_PATH)
    try:
        server.serve_forever()
    finally:
        server.server_close()
