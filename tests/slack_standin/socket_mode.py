"""A local Socket Mode endpoint: a websocket server that slack_sdk's SocketModeClient connects to.

``apps.connections.open`` on the Web API stand-in returns this server's ``ws://127.0.0.1:<port>`` URL.
On connect it sends the ``hello`` frame; tests push envelopes with :meth:`SocketModeServer.send` and
read the client's acks (``{"envelope_id": ...}``) with :meth:`wait_ack`. Frame shapes:
``../shared/slack-fixtures/socket_mode/frames.json``.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve

from tests.slack_standin.fixtures import load_fixture
from tests.slack_standin.web_api import SlackStandIn


class SocketModeServer:
    """Websocket server on 127.0.0.1 (random port), registered with ``standin`` as the socket URL."""

    def __init__(self, standin: SlackStandIn) -> None:
        self.standin = standin
        self.connected = threading.Event()
        self.acks: dict[str, tuple[float, dict[str, Any]]] = {}
        self._cond = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="socket-standin", daemon=True)
        self._server: Server | None = None
        self._conns: list[ServerConnection] = []

    def __enter__(self) -> SocketModeServer:
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        port = self._server.sockets[0].getsockname()[1]
        self.standin.state.socket_url = f"ws://127.0.0.1:{port}/link/?ticket=fake-ticket&app_id=A0FAKEAPP1"
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    async def _start(self) -> Server:
        return await serve(self._handler, "127.0.0.1", 0)

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _handler(self, ws: ServerConnection) -> None:
        self._conns.append(ws)
        await ws.send(json.dumps(load_fixture("socket_mode/frames.json")["hello"]))
        self.connected.set()
        async for raw in ws:
            data = json.loads(raw)
            if "envelope_id" in data:
                with self._cond:
                    self.acks[data["envelope_id"]] = (time.monotonic(), data)
                    self._cond.notify_all()

    def send(self, frame: dict[str, Any]) -> float:
        """Send ``frame`` to the newest connection; returns the monotonic send time."""
        ws = self._conns[-1]
        sent = time.monotonic()
        asyncio.run_coroutine_threadsafe(ws.send(json.dumps(frame)), self._loop).result(5)
        return sent

    def wait_ack(self, envelope_id: str, timeout: float = 10.0) -> tuple[float, dict[str, Any]] | None:
        """The (monotonic time, frame) of the ack for ``envelope_id``, or None after ``timeout``."""
        end = time.monotonic() + timeout
        with self._cond:
            while envelope_id not in self.acks:
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self.acks[envelope_id]
