"""Wire the Slack bot (``bot/``) to the collaborators of :class:`~policybot.factory.App` and serve it.

The mode is chosen from what the operator asked for, never guessed (:func:`choose_mode`):

* ``--http-port N`` or ``slack.mode: http`` → HTTP mode: ``POST /slack/events`` on ``host:port``
  (needs ``SLACK_BOT_TOKEN`` and ``SLACK_SIGNING_SECRET``);
* else ``SLACK_APP_TOKEN`` set (or ``slack.mode: socket``) → Socket Mode;
* no ``SLACK_BOT_TOKEN`` → the console chat;
* a bot token without an app token and without HTTP mode → an error saying which to set.

**Adding an HTTP route**: append :class:`bot.runner.Route` s in :func:`http_routes` — the one route table
both the HTTP mode server and the health-port server of Socket Mode serve (``GET /metrics``, ``/livez``,
``/readyz``: :mod:`policybot.observability`). **A health port for Socket Mode** is
:attr:`ServeMode.health_port` (``run --health-port N``).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from core.config import Secrets, SlackSettings
from core.errors import ConfigError
from policybot.boundary import accepted_by_slack, reaching

if TYPE_CHECKING:
    from slack_bolt import App as BoltApp

    from bot.runner import HttpServer, Route, SocketModeHandler
    from policybot.factory import App

log = logging.getLogger(__name__)

Kind = Literal["console", "socket", "http"]
SERVE_FILE = "serve.json"
"""``serve.json`` in the data dir's local runtime folder (the data dir itself when it is a folder:
:attr:`core.store_location.StoreLocation.runtime_dir`): ``{"pid", "mode", "host", "port"}`` while ``run``
serves (read by ``policybot health``, the container's health check)."""


def write_serve_info(runtime_dir: Path, info: dict[str, object] | None) -> None:
    """Record (or with None remove, when it is this process's) how this process serves."""
    path = runtime_dir / SERVE_FILE
    if info is None:
        try:
            mine = json.loads(path.read_text(encoding="utf-8")).get("pid") == os.getpid()
        except (OSError, ValueError, AttributeError):
            mine = False
        if mine:  # another replica on this machine may have written it since
            path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{SERVE_FILE}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"pid": os.getpid(), **info}), encoding="utf-8")
    os.replace(tmp, path)


@dataclass(frozen=True)
class ServeMode:
    """How ``policybot run`` talks to people.

    Attributes:
        kind: ``console`` (no Slack tokens), ``socket`` (Socket Mode) or ``http`` (HTTP mode).
        host, port: the HTTP mode listen address (``--host`` / ``slack.http_host``, ``--http-port`` /
            ``slack.http_port``).
        health_port: in Socket Mode and the console chat, serve the route table's non-Slack routes on
            this port (None: none).
    """

    kind: Kind
    host: str = "0.0.0.0"
    port: int = 3000
    health_port: int | None = None


def choose_mode(slack: SlackSettings, secrets: Secrets, http_port: int | None = None,
                host: str | None = None, health_port: int | None = None) -> ServeMode:
    """The serve mode from the flags, ``slack.mode`` and the tokens set (see the module docstring).

    Raises:
        ConfigError: the tokens the chosen mode needs are missing (the message names them).
    """
    wants_http = http_port is not None or slack.mode == "http"
    if not secrets.slack_bot_token:
        if wants_http or slack.mode == "socket":
            which = "HTTP" if wants_http else "Socket"
            raise ConfigError(f"Slack {which} mode needs SLACK_BOT_TOKEN (xoxb-...); export it (see "
                              "docs/slack.md), or run without Slack for the console chat")
        return ServeMode("console", host or slack.http_host, health_port=health_port)
    if wants_http:
        if not secrets.slack_signing_secret:
            raise ConfigError("Slack HTTP mode needs SLACK_SIGNING_SECRET (Basic Information → App "
                              "Credentials → Signing Secret) to verify Slack's requests; export it")
        return ServeMode("http", host or slack.http_host, slack.http_port if http_port is None else http_port,
                         health_port)
    if not secrets.slack_app_token:
        raise ConfigError("SLACK_BOT_TOKEN is set but SLACK_APP_TOKEN is not: Socket Mode needs the "
                          "app-level token (xapp-...); or use HTTP mode with policybot run --http-port 3000 "
                          "(or slack.mode: http) and SLACK_SIGNING_SECRET; see docs/slack.md")
    return ServeMode("socket", host or slack.http_host, health_port=health_port)


def build_bolt(app: App, root: Path) -> BoltApp:
    """The bolt app on ``app.answers_cached`` (votes feed ``app.answer_cache``); ``/policy reindex``
    reconciles ``root``. Checks the bot token with Slack (``auth.test``).

    Raises:
        ServiceUnreachableError: Slack's Web API cannot be reached (DNS, refused, TLS, timeout).
        CredentialError: Slack refused ``SLACK_BOT_TOKEN`` (``auth.test``).
    """
    from bot.app import build_app, make_client
    from bot.home_admin import admin_section
    from core.gaps.jobs import load_latest
    from core.topics import suggested_questions

    cache = app.answer_cache if app.settings.cache.enabled else None
    admin = admin_section(app.settings.slack.admins, lambda: _status(app), lambda: load_latest(app.blobs))
    client = make_client(app.settings, app.secrets, on_error=app.metrics.slack_api_error)
    url = app.settings.slack.api_base_url
    with reaching("Slack", url, "slack.api_base_url"), accepted_by_slack("SLACK_BOT_TOKEN", url):
        try:
            bolt = build_app(app.settings, app.secrets, app.answers_cached, app.answer_log, blobs=app.blobs,
                             status=lambda: _status_text(app), client=client,
                             on_vote=lambda answer_id, user, vote: app.metrics.vote(vote),
                             reindex=lambda path: _reindex_text(app, root, path), cache=cache,
                             topics=lambda scope: suggested_questions(app.store, scope),
                             home_sections=[admin])
        except Exception:
            app.slack_auth_ok = False
            raise
    app.slack_auth_ok = True  # bolt checked the token with auth.test
    return bolt


def http_routes(app: App, bolt: BoltApp | None) -> list[Route]:
    """The route table: Slack's ``/slack/events`` and ``/healthz`` (when ``bolt`` is given), then
    ``/metrics``, ``/livez`` and ``/readyz`` (:mod:`policybot.observability`). Served in HTTP mode and on
    the Socket Mode health port."""
    from bot.runner import slack_routes
    from policybot.observability import routes as probe_routes

    routes: list[Route] = []
    if bolt is not None:
        routes += slack_routes(bolt)
    return routes + probe_routes(app)


def serve_slack(app: App, mode: ServeMode, root: Path, stop: threading.Event | None = None) -> None:
    """Serve Slack in ``mode`` until ``stop`` is set or the main thread is interrupted (blocks).

    Raises:
        ServiceUnreachableError: Slack cannot be reached. ConfigError: Slack refused a token, or the
            HTTP port cannot be bound.
    """
    bolt = build_bolt(app, root)
    servers: list[HttpServer] = []
    handler: SocketModeHandler | None = None
    try:
        if mode.kind == "http":
            servers.append(_listen(http_routes(app, bolt), mode.host, mode.port))
            if mode.health_port is not None and mode.health_port != mode.port:
                servers.append(_listen(http_routes(app, None), mode.host, mode.health_port))
            write_serve_info(app.runtime_dir,
                             {"mode": "http", "host": mode.host, "port": servers[0].port})
            print(f"serving Slack in HTTP mode at http://{mode.host}:{servers[0].port}/slack/events "
                  "(Ctrl-C to stop)", flush=True)
        else:
            if mode.health_port is not None:
                servers.append(_listen(http_routes(app, None), mode.host, mode.health_port))
                write_serve_info(app.runtime_dir, {"mode": "http", "host": mode.host,
                                                   "port": servers[0].port})
            handler = _connect_socket_mode(app, bolt)
            print("connected to Slack in Socket Mode (Ctrl-C to stop)", flush=True)
        (stop or threading.Event()).wait()
    finally:
        write_serve_info(app.runtime_dir, None)
        if handler is not None:
            handler.close()
        for server in servers:
            server.stop()


@contextmanager
def health_served(app: App, mode: ServeMode) -> Iterator[None]:
    """Serve ``GET /metrics``, ``/livez`` and ``/readyz`` on ``mode.health_port`` while the block runs
    (the console chat; the Slack modes do it in :func:`serve_slack`). Nothing when no port is set.

    Raises:
        ConfigError: the port cannot be bound.
    """
    port = mode.health_port
    server = None if port is None else _listen(http_routes(app, None), mode.host, port)
    try:
        yield
    finally:
        if server is not None:
            server.stop()


def _connect_socket_mode(app: App, bolt: BoltApp) -> SocketModeHandler:
    """Open the Socket Mode connection with ``SLACK_APP_TOKEN``.

    Raises:
        ServiceUnreachableError: Slack cannot be reached. CredentialError: Slack refused the app token.
    """
    from bot.runner import SocketModeHandler

    assert app.secrets.slack_app_token is not None
    handler = SocketModeHandler(bolt, app.secrets.slack_app_token, web_client=bolt.client)
    url = app.settings.slack.api_base_url
    with reaching("Slack Socket Mode", url, "slack.api_base_url"), accepted_by_slack("SLACK_APP_TOKEN", url):
        handler.connect()
    return handler


def _listen(routes: list[Route], host: str, port: int) -> HttpServer:
    from bot.runner import HttpServer

    try:
        return HttpServer(routes, host=host, port=port).start()
    except OSError as exc:
        raise ConfigError(f"cannot listen on {host}:{port} ({exc.strerror or exc}); pick another --http-port "
                          "or --host, or stop what uses it") from None


def _status(app: App) -> dict[str, object]:
    from policybot.status import collect

    return collect(app.settings, app.store)


def _status_text(app: App) -> str:
    from policybot.status import collect

    data = collect(app.settings, app.store)
    docs = data["documents"]
    failed = [f"• {f['path']}: {f['error']}" for f in data["files"] if f["status"] == "failed"]
    head = f"{docs['indexed']} documents indexed, {docs['failed']} failed, {data['chunks']} chunks"
    return "\n".join([head, *failed])


def _reindex_text(app: App, root: Path, path: str | None) -> str:
    """``/policy reindex [file]``: run here only while this process leads the index (or, without a role,
    holding the indexer lease); a replica that does not lead names the leader instead."""
    from indexer.lock import WriterLock, describe

    def work() -> str:
        if path is None:
            return json.dumps(app.indexer.reconcile(root).to_json())
        return str(app.indexer.index_path(root / path))

    if app.role is not None:
        if app.role.is_leader:
            return work()
        return (f"another policybot process leads the index ({describe(app.lease.holder())}); it reindexes "
                "(its watcher follows the folder and reconciles periodically)")
    with WriterLock(app.lease):
        return work()
