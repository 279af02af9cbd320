"""A local, threaded HTTP server speaking the Gemini REST API and OpenAI chat completions.

Tests script it per model with a queue of :class:`~tests.llm_standin.replies.Reply` and point the real
``google-genai`` and ``openai`` clients at :attr:`StandIn.url`. Every request is recorded (with its
monotonic arrival time) so tests can check what was sent and how long a client waited between retries.

Routes:
- ``POST /v1beta/models/{model}:generateContent`` and ``...:streamGenerateContent?alt=sse`` (Gemini;
  ``/v1/models/...`` too)
- ``POST /v1/chat/completions`` (OpenAI; ``"stream": true`` answers with SSE and ``data: [DONE]``)

An unscripted request gets HTTP 500 naming the model, so a missing script fails loudly.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Literal
from urllib.parse import urlsplit

from tests.llm_standin import replies as r

Api = Literal["gemini", "openai"]
_GEMINI_PATH = re.compile(r"^/v1(beta|alpha)?/models/[^/:]+:(generateContent|streamGenerateContent)$")


@dataclass(frozen=True)
class RecordedRequest:
    """A request the stand-in received: api, model, path, JSON body, headers, monotonic arrival time."""

    api: Api
    model: str
    path: str
    body: dict[str, Any]
    headers: dict[str, str]
    received_at: float
    stream: bool


class StandIn:
    """The stand-in server. Use as a context manager; it listens on 127.0.0.1 at a random port."""

    def __init__(self) -> None:
        self._queues: dict[tuple[Api, str], deque[r.Reply]] = defaultdict(deque)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.requests: list[RecordedRequest] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:54321`` (OpenAI clients append ``/v1``)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def script(self, api: Api, model: str, *replies: r.Reply) -> None:
        """Queue ``replies`` for the next requests to ``model`` of ``api``, in order."""
        with self._lock:
            self._queues[(api, model)].extend(replies)

    def requests_for(self, api: Api, model: str) -> list[RecordedRequest]:
        """The recorded requests to ``model`` of ``api``, oldest first."""
        with self._lock:
            return [q for q in self.requests if q.api == api and q.model == model]

    def _next(self, api: Api, model: str, record: RecordedRequest) -> r.Reply | None:
        with self._lock:
            self.requests.append(record)
            queue = self._queues[(api, model)]
            return queue.popleft() if queue else None

    def wait(self, seconds: float) -> None:
        """Sleep ``seconds`` in a handler, waking early when the server stops."""
        self._stop.wait(seconds)

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def _make_handler(standin: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
            return

        def do_POST(self) -> None:  # noqa: N802 - stdlib naming
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b"{}"
            body = json.loads(raw or b"{}")
            path = urlsplit(self.path).path
            try:
                if _GEMINI_PATH.match(path):
                    self._gemini(path, body)
                elif path == "/v1/chat/completions":
                    self._openai(path, body)
                else:
                    self._json(404, {}, {"error": {"code": 404, "message": f"no route {path}"}})
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up (timeout): nothing to send

        def _record(
            self, api: Api, model: str, path: str, body: dict[str, Any], stream: bool
        ) -> r.Reply | None:
            headers = dict(self.headers.items())
            rec = RecordedRequest(api, model, path, body, headers, time.monotonic(), stream)
            return standin._next(api, model, rec)

        def _gemini(self, path: str, body: dict[str, Any]) -> None:
            model, _, method = path.split("/models/", 1)[1].partition(":")
            stream = method == "streamGenerateContent"
            reply = self._record("gemini", model, path, body, stream)
            if not self._common(reply, "gemini", model, r.gemini_error):
                return
            assert reply is not None
            events = r.gemini_events(reply)
            if stream:
                self._sse([json.dumps(e) for e in events], reply.chunk_delay_s, done=False)
            else:
                self._json(200, {}, r.gemini_merge(events))

        def _openai(self, path: str, body: dict[str, Any]) -> None:
            model = str(body.get("model", ""))
            stream = bool(body.get("stream"))
            reply = self._record("openai", model, path, body, stream)
            if not self._common(reply, "openai", model, r.openai_error):
                return
            assert reply is not None
            if not stream:
                self._json(200, {}, r.openai_completion(model, reply))
                return
            deltas, finish = r.openai_deltas(reply)
            events = [r.openai_chunk(model, d, None) for d in deltas] + [r.openai_chunk(model, None, finish)]
            self._sse([json.dumps(e) for e in events], reply.chunk_delay_s, done=True)

        def _common(self, reply: r.Reply | None, api: str, model: str, render: Any) -> bool:
            """Handle the replies that look the same for every route; True when the caller continues."""
            if reply is None:
                self._json(500, {}, {"error": {"code": 500, "message": f"stand-in: nothing scripted for "
                                                                     f"{api} model {model!r}"}})
                return False
            if reply.kind == "hang":
                standin.wait(reply.hang_s)
                self.close_connection = True
                return False
            if reply.kind in ("rate_limit", "unavailable", "bad_request"):
                status, headers, payload = render(reply)
                self._json(status, headers, payload)
                return False
            return True

        def _json(self, status: int, headers: dict[str, str], payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def _sse(self, events: list[str], delay_s: float, *, done: bool) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            for i, event in enumerate(events):
                if i and delay_s:
                    standin.wait(delay_s)
                self.wfile.write(f"data: {event}\r\n\r\n".encode())
                self.wfile.flush()
            if done:
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

    return Handler
