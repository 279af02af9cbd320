"""Extraction in an isolated worker process, with a time limit and a memory limit.

A PDF that hangs or inflates to gigabytes (a ~300 KB FlateDecode bomb does) must not take the indexer
down with it. :class:`ExtractionWorker` keeps one *spawned* child process (not forked: LanceDB is not
fork-safe) that extracts files one at a time. The child caps its address space with ``RLIMIT_AS``
(``extraction.memory_mb`` above its size at start); the parent waits at most ``extraction.timeout_s``
per file and kills the child when it overruns. Either way the file is reported as failed with a
one-line reason and the next file gets a fresh child. A child whose address space has grown past
half the limit (Python keeps freed memory; a 400-page PDF leaves a large heap) retires after its
reply, so a normal file is never killed for memory a previous file left behind.

Python docs: multiprocessing "Contexts and start methods"; resource.setrlimit.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
import re
import resource
import signal
import time
import warnings
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from core.config import ExtractionSettings, Settings
from core.errors import ExtractionError
from core.types import ExtractedDocument

log = logging.getLogger(__name__)

ExtractFn = Callable[[Path, Path, Settings], ExtractedDocument]
STARTUP_TIMEOUT_S = 120.0
"""How long a fresh child may take to start (imports), not counted in ``extraction.timeout_s``."""


def _child_main(conn: Connection, extract: ExtractFn, settings: Settings, memory_mb: int) -> None:
    """Child loop: receive (path, root), send (status, doc | reason, retire); ``retire`` tells the
    parent this child exits after the reply because its address space grew past half the limit.

    The limit is ``memory_mb`` on top of the child's address space at start: a spawned child
    re-imports the parent's main module, and importing lancedb alone reserves ~1.4 GB of virtual
    memory that is never used, which must not count against the extraction.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it kills us
    warnings.simplefilter("ignore")  # library warnings (pypdf's repair notes) are not user output
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")  # as the CLI formats them
    base = _address_space()
    limit = base + memory_mb * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError) as exc:  # e.g. above the hard limit: tell the parent why
        conn.send(("failed", f"cannot set the memory limit of {memory_mb} MB ({exc})", False))
        return
    conn.send(("ready", None, False))
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        status, payload = _extract_one(extract, Path(msg[0]), Path(msg[1]), settings, memory_mb)
        retire = _address_space() > base + (limit - base) // 2
        conn.send((status, payload, retire))
        if retire:
            return


def _extract_one(extract: ExtractFn, path: Path, root: Path, settings: Settings,
                 memory_mb: int) -> tuple[str, object]:
    try:
        return "ok", extract(path, root, settings)
    except ExtractionError as exc:
        return "error", str(exc)
    except MemoryError:
        return "error", f"extraction exceeded the memory limit ({memory_mb} MB)"
    except Exception as exc:  # one bad file must never stop the others
        return "error", f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


def _address_space() -> int:
    """This process's virtual memory size in bytes (what RLIMIT_AS limits); 0 when unknown."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


_TRANSIENT = re.compile(r"took longer than (?P<timeout>[\d.e+-]+) s|memory limit (?:of )?\(?(?P<mb>\d+) MB"
                        r"|extraction worker process did not start|extraction process died")


def should_retry(reason: str, extraction: ExtractionSettings) -> bool:
    """Whether a recorded failure ``reason`` was transient and must be retried now.

    Rule: failures caused by the time or memory limit are retried when the limit that applied
    (named in the reason) differs from the current ``extraction.timeout_s`` / ``memory_mb``; a
    worker that did not start or died without naming a limit is retried on every reconcile. Content
    errors (encrypted, damaged, no text) are retried only when the file changes.
    """
    m = _TRANSIENT.search(reason)
    if m is None:
        return False
    if m.group("timeout") is not None:
        try:
            return float(m.group("timeout")) != float(f"{extraction.timeout_s:g}")
        except ValueError:
            return True
    if m.group("mb") is not None:
        return int(m.group("mb")) != extraction.memory_mb
    return True


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread while a child is spawned: the child inherits the mask through
    fork and exec, so a Ctrl-C while it imports cannot print a traceback (it ignores SIGINT once
    running). The parent's main thread still gets the signal."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


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
        with _sigint_blocked():  # the child starts with Ctrl-C blocked: no traceback from its imports
            proc.start()
        child.close()
        self._proc, self._conn = proc, parent
        cause = self._startup_failure(proc, parent)
        if cause is not None:
            self._kill()
            raise ExtractionError(f"the extraction worker process did not start: {cause}")
        return parent

    @staticmethod
    def _startup_failure(proc: BaseProcess, conn: Connection) -> str | None:
        """None when the child reported ready; else the real cause (its message or exit code)."""
        try:
            if not conn.poll(STARTUP_TIMEOUT_S):
                return f"no answer within {STARTUP_TIMEOUT_S:g} s"
            status, payload, _ = conn.recv()
        except (EOFError, ConnectionResetError, OSError):
            proc.join(5)
            return (f"it exited at start-up with exit code {proc.exitcode} (its error, if any, is "
                    "printed above)")
        return None if status == "ready" else str(payload)

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
            status, payload, retire = conn.recv()
        except (EOFError, ConnectionResetError):
            code = self._proc.exitcode if self._proc is not None else None
            self._kill()
            raise ExtractionError(
                f"extraction process died (exit code {code}); the file may exceed the memory limit "
                f"of {self._settings.extraction.memory_mb} MB (extraction.memory_mb)") from None
        log.debug("extracted %s in %.0f ms", path.name, (time.perf_counter() - t0) * 1e3)
        if retire:  # the child exits by itself; the next file gets a fresh one
            log.info("extraction worker retired after %s (address space above half of %d MB)", path.name,
                     self._settings.extraction.memory_mb)
            self._retire()
        if status == "error":
            raise ExtractionError(str(payload))
        result: Any = payload
        return result

    def abort(self) -> None:
        """Kill the child now (shutdown: a file under way is abandoned, its caller gets an
        ExtractionError); the next :meth:`extract` starts a new one. Safe from any thread."""
        proc = self._proc
        if proc is not None and proc.is_alive():
            proc.kill()

    def _retire(self) -> None:
        if self._proc is not None:
            self._proc.join(5)
        self._kill()

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
