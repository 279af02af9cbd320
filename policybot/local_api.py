"""Warm answers for ``policybot ask``: a running ``policybot run`` / ``watch`` serves questions on a Unix
socket in its data dir, so ``ask`` does not load the models again (~10 s cold, ~0.3 s warm here).

Protocol (one request per connection, one JSON line each way)::

    → {"op": "ask", "question": str, "scope": [glob, ...]}
    ← {"ok": true, "answer": Answer.to_json()}  |  {"ok": false, "error": one-line text}

The socket is ``policybot.sock`` in the data dir's local runtime folder
(:attr:`core.store_location.StoreLocation.runtime_dir`: the data dir itself when it is a folder, a
private folder keyed by the URI for an object store), mode 0600 (only the owner's processes may ask). A stale
socket file (its process died) is replaced; one that answers belongs to another live process and is left
alone. A data dir path too long for a socket address (~107 bytes) simply means no warm path. The
client imports nothing heavy (``socket`` and ``json``), so a warm ``ask`` is mostly the answer's time.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import socketserver
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import PolicybotError

if TYPE_CHECKING:
    from core.service import AnswerService

log = logging.getLogger(__name__)

SOCKET_FILE = "policybot.sock"
MAX_SOCKET_PATH = 104
"""Longest socket path used (Linux allows 107 bytes, macOS 103)."""
CONNECT_TIMEOUT_S = 1.0
ANSWER_TIMEOUT_S = 300.0
MAX_REQUEST_BYTES = 1 << 20


def socket_path(runtime_dir: Path) -> Path | None:
    """Where the socket in ``runtime_dir`` (a data dir's runtime folder) lives, or None when the path is
    too long for a socket."""
    path = runtime_dir / SOCKET_FILE
    return path if len(os.fsencode(path)) <= MAX_SOCKET_PATH else None


def ask_running(runtime_dir: Path, question: str, scope: Sequence[str]) -> dict[str, Any] | None:
    """The answer JSON from a process serving the data dir whose runtime folder is ``runtime_dir``, or
    None when none is running.

    Raises:
        PolicybotError: the running process answered with an error (its one-line text).
    """
    path = socket_path(runtime_dir)
    if path is None or not path.exists():
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(CONNECT_TIMEOUT_S)
            sock.connect(str(path))
            sock.settimeout(ANSWER_TIMEOUT_S)
            req = {"op": "ask", "question": question, "scope": list(scope)}
            sock.sendall(json.dumps(req, ensure_ascii=False).encode() + b"\n")
            reply = _read_line(sock)
    except OSError as exc:  # not running any more, or it went away mid-answer: answer here
        log.info("no warm answer from %s (%s); loading the models here", path, exc)
        return None
    data = _parse_reply(reply)
    if data is None:  # it stopped mid-answer (SIGTERM) or is not a policybot process: answer here
        log.info("no warm answer from %s (no complete reply); loading the models here", path)
        return None
    log.info("answered by the running policybot process on %s", path)
    if not data.get("ok"):
        raise PolicybotError(str(data.get("error") or "the running policybot process could not answer"))
    answer: dict[str, Any] = data["answer"]
    return answer


def _parse_reply(reply: bytes) -> dict[str, Any] | None:
    """The reply object when ``reply`` is one of the protocol's (module docstring), else None: empty
    (the process closed the connection without answering), not JSON, or without its keys."""
    try:
        data = json.loads(reply)
    except ValueError:
        return None
    if not isinstance(data, dict) or (data.get("ok") and not isinstance(data.get("answer"), dict)):
        return None
    return data


def _read_line(sock: socket.socket) -> bytes:
    chunks = []
    while True:
        block = sock.recv(65536)
        if not block:
            break
        chunks.append(block)
        if block.endswith(b"\n"):
            break
    return b"".join(chunks)


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        line = self.rfile.readline(MAX_REQUEST_BYTES)
        if not line.strip():  # a liveness probe (connect and close)
            return
        try:
            req = json.loads(line)
            if req.get("op") != "ask" or not str(req.get("question") or "").strip():
                raise PolicybotError("bad request: expected {\"op\": \"ask\", \"question\": ...}")
            scope = tuple(str(g) for g in req.get("scope") or ("**",))
            answer = self.server.service().ask(str(req["question"]), scope=scope)
            reply: dict[str, Any] = {"ok": True, "answer": answer.to_json()}
        except PolicybotError as exc:
            reply = {"ok": False, "error": str(exc)}
        except (ValueError, AttributeError):
            reply = {"ok": False, "error": "bad request: not a JSON object"}
        except Exception as exc:  # a bug answering one question must not stop the server
            log.exception("local ask failed")
            reply = {"ok": False, "error": "the running policybot process failed to answer "
                                           f"({type(exc).__name__}); see its log"}
        self.wfile.write(json.dumps(reply, ensure_ascii=False).encode() + b"\n")


class _Server(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True
    service: Callable[[], AnswerService]


class LocalApiServer:
    """Serves the answer service that ``service()`` returns (built on the first question) on the data
    dir's socket from a background thread (see the module docstring).

    Use ``start()`` and ``stop()``; ``start`` never raises (no warm path is not an error).
    """

    def __init__(self, runtime_dir: Path, service: Callable[[], AnswerService]) -> None:
        self.path = socket_path(runtime_dir)
        self.service = service
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> LocalApiServer:
        """Bind and serve in the background (logged at INFO when not possible)."""
        if self.path is None:
            log.info("data dir path too long for a local socket; policybot ask will load its own models")
            return self
        try:
            if self.path.exists() and _answers(self.path):
                log.info("another process serves %s; not serving warm answers here", self.path)
                return self
            self.path.unlink(missing_ok=True)
            server = _Server(str(self.path), _Handler)
            os.chmod(self.path, 0o600)
        except OSError as exc:
            log.info("cannot serve warm answers on %s (%s)", self.path, exc)
            return self
        server.service = self.service
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, args=(0.2,), name="policybot-local-api",
                                        daemon=True)
        self._thread.start()
        log.info("serving warm answers for policybot ask on %s", self.path)
        return self

    def stop(self) -> None:
        """Stop serving and remove the socket file."""
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self.path is not None:
            self.path.unlink(missing_ok=True)
        self._server = None


def _answers(path: Path) -> bool:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(CONNECT_TIMEOUT_S)
            sock.connect(str(path))
        return True
    except OSError:
        return False
