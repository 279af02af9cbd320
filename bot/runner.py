"""Serve the bolt app: Socket Mode (outbound websocket, no public URL) or HTTP mode.

HTTP mode runs an aiohttp web server (https://docs.aiohttp.org/en/stable/web.html) on its own
event-loop thread with a **route table**: :func:`slack_routes` gives ``POST /slack/events`` (Events API,
slash commands and interactivity; bolt verifies the signing secret and answers 401 to a bad signature
or a timestamp older than 5 minutes) and ``GET /healthz``; other routes (the health endpoints
``/livez``, ``/readyz``, ``/metrics``) are added by passing more :class:`Route` s. Bolt's ``App.dispatch``
is synchronous, so each Slack request runs on a small thread pool and the loop stays free.

A route's handler is an aiohttp handler (``async def handler(request) -> web.Response``), or use
:func:`sync_route` for a plain function ``(method, path, query, headers, body) -> Reply`` that runs on
the pool. Example::

    routes = [*slack_routes(bolt), sync_route("GET", "/readyz", lambda req: Reply(200, b"ok"))]
    server = HttpServer(routes, host="0.0.0.0", port=3000).start()
    ...
    server.stop()
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from aiohttp import web
from slack_bolt import App, BoltRequest
from slack_bolt.adapter.socket_mode import SocketModeHandler

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
TIMESTAMP_HEADER = "x-slack-request-timestamp"
"""Signed requests carry UNIX seconds here (https://docs.slack.dev/authentication/verifying-requests-from-slack);
a request without an integer is refused with 401 before bolt (whose verifier raises on it: a 500)."""
HEALTHZ_PATH = "/healthz"
BACKLOG = 128
"""Listen backlog: the default of 5 drops bursts of Slack deliveries."""
SHUTDOWN_TIMEOUT_S = 3.0
"""How long :meth:`HttpServer.stop` lets requests in flight finish (the whole stop must fit in the
5 s a container gets between SIGTERM and SIGKILL, with room for the watcher)."""
DISPATCH_THREADS = 8
POOL = web.AppKey("pool", ThreadPoolExecutor)
"""The thread pool :func:`sync_route` handlers run on (an application key of the server)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Route:
    """One HTTP route: ``method`` (``GET``, ``POST``, ...), exact ``path``, aiohttp ``handler``."""

    method: str
    path: str
    handler: Handler


@dataclass(frozen=True)
class Request:
    """What a :func:`sync_route` handler gets: the raw body (text), query string and lower-case headers."""

    method: str
    path: str
    query: str
    headers: Mapping[str, str]
    body: str


@dataclass(frozen=True)
class Reply:
    """What a :func:`sync_route` handler returns."""

    status: int
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)


def sync_route(method: str, path: str, fn: Callable[[Request], Reply]) -> Route:
    """A :class:`Route` whose handler is a blocking function, run on the server's thread pool (a body
    that is not UTF-8 gets 400 without calling it)."""

    async def handler(request: web.Request) -> web.StreamResponse:
        try:
            body = (await request.read()).decode("utf-8")
        except UnicodeDecodeError:  # Slack sends UTF-8 only: a forged or broken request
            return web.Response(status=400, text="request body is not UTF-8")
        req = Request(request.method, request.path, request.query_string,
                      {k.lower(): v for k, v in request.headers.items()}, body)
        pool = request.app[POOL]
        reply = await asyncio.get_running_loop().run_in_executor(pool, fn, req)
        headers = {k: v for k, v in reply.headers.items() if k.lower() != "content-length"}
        return web.Response(status=reply.status, body=reply.body, headers=headers)

    return Route(method, path, handler)


def slack_routes(app: App) -> list[Route]:
    """``POST /slack/events`` dispatched to the bolt ``app`` (401 without an integer request timestamp),
    and ``GET /healthz`` (``ok``)."""

    def events(req: Request) -> Reply:
        if not req.headers.get(TIMESTAMP_HEADER, "").strip().isdigit():  # unsigned: bolt would raise
            return Reply(401, b'{"error": "invalid request"}', {"content-type": "application/json"})
        resp = app.dispatch(BoltRequest(body=req.body, query=req.query, headers=dict(req.headers)))
        headers = {k: ", ".join(v) for k, v in resp.headers.items()}
        return Reply(resp.status, resp.body.encode("utf-8"), headers)

    async def healthz(request: web.Request) -> web.StreamResponse:
        return web.Response(text="ok")

    return [sync_route("POST", EVENTS_PATH, events), Route("GET", HEALTHZ_PATH, healthz)]


class HttpServer:
    """An aiohttp server for ``routes`` on its own thread; the socket is bound at construction, so
    :attr:`port` is known at once (port 0 picks a free one).

    Also offers the ``http.server`` names the tests' harness uses: :meth:`serve_forever`,
    :meth:`shutdown`, :meth:`server_close`, :attr:`server_address`.

    Raises:
        OSError: the address is in use or not allowed (the CLI names host and port).
    """

    def __init__(self, routes: Sequence[Route], host: str = "0.0.0.0", port: int = 3000) -> None:
        self.host = host
        self._sock = socket.create_server((host, port), backlog=BACKLOG, reuse_port=False)
        self.server_address = self._sock.getsockname()[:2]
        self._pool = ThreadPoolExecutor(DISPATCH_THREADS, thread_name_prefix="policybot-http")
        self._web = web.Application()
        self._web[POOL] = self._pool
        for r in routes:
            self._web.router.add_route(r.method, r.path, r.handler)
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._stopped = threading.Event()

    @property
    def port(self) -> int:
        """The bound port."""
        return int(self.server_address[1])

    def start(self) -> HttpServer:
        """Serve on a background thread; returns when the server accepts connections."""
        self._thread = threading.Thread(target=self._loop.run_forever, name="policybot-http-loop",
                                        daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=30)
        log.info("HTTP server on %s:%d (%s)", self.host, self.port,
                 ", ".join(sorted({str(r.resource.canonical) for r in self._web.router.routes()
                                   if r.resource is not None})))
        return self

    async def _start(self) -> None:
        self._runner = web.AppRunner(self._web, handle_signals=False, access_log=None,
                                     shutdown_timeout=SHUTDOWN_TIMEOUT_S)
        await self._runner.setup()
        await web.SockSite(self._runner, self._sock, backlog=BACKLOG).start()

    def stop(self) -> None:
        """Stop accepting, let requests in flight finish (≤ :data:`SHUTDOWN_TIMEOUT_S`), stop the thread."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        if self._thread is not None and self._runner is not None:
            fut = asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop)
            try:
                fut.result(timeout=SHUTDOWN_TIMEOUT_S + 2)
            except Exception as exc:  # noqa: BLE001 - stopping anyway
                log.info("HTTP server stop: %s", exc)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
        self._sock.close()
        self._pool.shutdown(wait=False, cancel_futures=True)

    # http.server-style names (tests/slack_standin/harness.py) ---------------------------------------
    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Start (if needed) and block until :meth:`shutdown`."""
        if self._thread is None:
            self.start()
        self._stopped.wait()

    def shutdown(self) -> None:
        """Same as :meth:`stop`."""
        self.stop()

    def server_close(self) -> None:
        """Same as :meth:`stop`."""
        self.stop()


def make_http_server(app: App, port: int, host: str = "0.0.0.0") -> HttpServer:
    """An :class:`HttpServer` with :func:`slack_routes` of ``app`` (not started; port 0 picks one)."""
    return HttpServer(slack_routes(app), host=host, port=port)


def run_socket_mode(app: App, app_token: str, stop: threading.Event | None = None) -> None:
    """Connect with the app-level token (``xapp-…``) and serve until ``stop`` is set or the main thread
    is interrupted (blocks). ``apps.connections.open`` is called on the app's WebClient, so
    ``slack.api_base_url`` applies."""
    handler = SocketModeHandler(app, app_token, web_client=app.client)
    log.info("connecting to Slack in Socket Mode")
    handler.connect()
    try:
        (stop or threading.Event()).wait()
    finally:
        handler.close()


def run_http(app: App, port: int, host: str = "0.0.0.0", stop: threading.Event | None = None) -> None:
    """Serve :func:`slack_routes` on ``host:port`` until ``stop`` is set or the main thread is interrupted
    (blocks)."""
    server = make_http_server(app, port, host).start()
    log.info("serving Slack HTTP mode on %s:%d at %s", host, server.port, EVENTS_PATH)
    try:
        (stop or threading.Event()).wait()
    finally:
        server.stop()
