"""Extraction in an isolated worker process, with a time limit and a memory limit.

A PDF that hangs or inflates to gigabytes (a ~300 KB FlateDecode bomb does) must not take the indexer
down with it. :class:`ExtractionWorker` keeps one *spawned* child process (not forked: LanceDB is not
fork-safe) that extracts files one at a time. The child caps its address space with
``RLIMIT_AS`` (``extraction.memory_mb``); the parent waits at most ``extraction.timeout_s`` per file and
kills the child when it overruns. Either way the file is reported as failed with a one-line reason
and the next file gets a fresh child.

Python docs: multiprocessing "Contexts and start methods"; resource.setrlimit.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import resource
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from core.config import Settings
from core.errors import ExtractionError
from core.types import ExtractedDocument

log = logging.getLogger(__name__)

ExtractFn = Callable[[Path, Path, Settings], ExtractedDocument]
STARTUP_TIMEOUT_S = 120.0
"""How long a fresh child may take to start (imports), not counted in ``extraction.timeout_s``."""


def _child_main(conn: Connection, extract: ExtractFn, settings: Settings, memory_mb: int) -> None:
    """Child loop: receive (path, root), send ("ok", doc) | ("error", reason)."""
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    conn.send(("ready", None))
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        path, root = msg
        try:
            conn.send(("ok", extract(Path(path), Path(root), settings)))
        except ExtractionError as exc:
            conn.send(("error", str(exc)))
        except MemoryError:
            conn.send(("error", f"extraction exceeded the memory limit ({memory_mb} MB)"))
        except Exception as exc:  # one bad file must never stop the others
            conn.send(("error", f"{type(exc).__name__}: {exc}".splitlines()[0][:300]))


class ExtractionWorker:
    """Runs ``extract(path, root, settings)`` in a spawned child with time and memory limits.

    Args:
        extract: a picklable top-level function (the format dispatcher).
        settings: passed to ``extract``; ``extraction.timeout_s`` and ``extraction.memory_mb`` apply.

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, extract: ExtractFn, settings: Settings) -> None:
        self._extract = extract
        self._settings = settings
        self._ctx = mp.get_context("spawn")
        self._proc: BaseProcess | None = None
        self._conn: Connection | None = None

    def __enter__(self) -> ExtractionWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ensure(self) -> Connection:
        if self._proc is not None and self._proc.is_alive() and self._conn is not None:
            return self._conn
        self._kill()
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(
            target=_child_main, name="policybot-extract", daemon=True,
            args=(child, self._extract, self._settings, self._settings.extraction.memory_mb),
        )
        proc.start()
        child.close()
        self._proc, self._conn = proc, parent
        try:
            ready = parent.poll(STARTUP_TIMEOUT_S) and parent.recv()[0] == "ready"
        except (EOFError, ConnectionResetError):
            ready = False
        if not ready:
            self._kill()
            raise ExtractionError(f"the extraction worker process did not start within {STARTUP_TIMEOUT_S:g} s")
        return parent

    def extract(self, path: Path, root: Path) -> ExtractedDocument:
        """Extract ``path`` (absolute) relative to ``root``.

        Raises:
            ExtractionError: the file is unreadable, the child ran out of time or memory, or died.
        """
        conn = self._ensure()
        timeout = self._settings.extraction.timeout_s
        t0 = time.perf_counter()
        conn.send((str(path), str(root)))
        if not conn.poll(timeout):
            self._kill()
            raise ExtractionError(f"extraction took longer than {timeout:g} s and was stopped "
                                  "(extraction.timeout_s)")
        try:
            status, payload = conn.recv()
        except (EOFError, ConnectionResetError):
            code = self._proc.exitcode if self._proc is not None else None
            self._kill()
            raise ExtractionError(
                f"extraction process died (exit code {code}); the file may exceed the memory limit "
                f"of {self._settings.extraction.memory_mb} MB (extraction.memory_mb)") from None
        log.debug("extracted %s in %.0f ms", path.name, (time.perf_counter() - t0) * 1e3)
        if status == "error":
            raise ExtractionError(str(payload))
        result: Any = payload
        return result

    def _kill(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            self._proc.kill()
            self._proc.join(5)
        if self._conn is not None:
            self._conn.close()
        self._proc, self._conn = None, None

    def close(self) -> None:
        """Stop the child (politely when idle)."""
        if self._conn is not None and self._proc is not None and self._proc.is_alive():
            try:
                self._conn.send(None)
                self._proc.join(2)
            except (BrokenPipeError, OSError):
                pass
        self._kill()
