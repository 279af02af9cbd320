"""Logging and library noise: quiet by default, loud with ``-v``.

One stderr handler (rich) with a filter: policybot's own loggers (``core``, ``indexer``, ``bot``,
``policybot``) pass at ``log_level`` (WARNING by default), everything third-party only at ERROR (the
clients in :data:`RAISING`, whose errors reach us as exceptions, only at CRITICAL) —
library warnings (Python ``warnings`` are routed into the ``py.warnings`` logger) included. ``-v`` shows
INFO of our own and the libraries' warnings, ``-vv`` DEBUG of our own and the libraries' INFO.
Progress bars of the libraries (tqdm's ``TQDM_DISABLE``, Hugging Face's ``HF_HUB_DISABLE_PROGRESS_BARS``,
transformers' ``TRANSFORMERS_VERBOSITY``) stay off below ``-vv``; these variables are set before the
libraries are imported (commands import them lazily) and are inherited by the extraction worker.
The filter sits on the handler, so no logger's own level is changed (tests that capture logs keep
working after a CLI run in the same process).

``log_format: json`` replaces the rich handler with one that writes one JSON object per line
(python-json-logger: ``time``, ``level``, ``logger``, ``message``, ``request_id`` — the question's id
from :data:`core.request_id.REQUEST_ID`, "" outside a question — and ``exc_info`` when present).
"""

from __future__ import annotations

import logging
import os
import sys

from rich.console import Console
from rich.logging import RichHandler

from core.request_id import REQUEST_ID

OWN = frozenset({"core", "indexer", "bot", "policybot"})
"""Top-level packages whose loggers follow ``log_level`` / ``-v``."""
QUIET_ENV = {"TQDM_DISABLE": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1", "TRANSFORMERS_VERBOSITY": "error",
             "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1"}
RAISING = ("slack_sdk.web",)
"""Loggers of library clients that log an ERROR and then raise the same failure to us (slack_sdk's
WebClient logs ``Failed to send a request to Slack API server`` before raising): at default verbosity
their records pass only at CRITICAL, because the CLI's error boundary already prints the cause as one
``error:`` line; ``-v`` shows them."""
LIBRARY_LEVEL = {0: logging.ERROR, 1: logging.WARNING}
"""Level at which third-party records pass, by ``-v`` count (INFO from ``-vv`` on)."""


class _Levels(logging.Filter):
    """Own records at ``own`` and above, third-party records at ``library`` and above."""

    def __init__(self) -> None:
        super().__init__()
        self.own = logging.WARNING
        self.library = logging.ERROR
        self.raising = logging.CRITICAL

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.split(".", 1)[0] in OWN:
            return record.levelno >= self.own
        if record.name.startswith(RAISING):
            return record.levelno >= self.raising
        return record.levelno >= self.library


def level_for(verbose: int, log_level: str = "WARNING") -> int:
    """``log_level`` at 0, INFO at 1 (DEBUG if ``log_level`` already is), DEBUG at 2 or more."""
    if verbose >= 2 or log_level == "DEBUG":
        return logging.DEBUG
    if verbose == 1:
        return logging.INFO
    level: int = logging.getLevelName(log_level)
    return level


class _RequestId(logging.Filter):
    """Adds ``record.request_id`` (the question being answered, "" outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


class _JsonHandler(logging.StreamHandler):  # type: ignore[type-arg,unused-ignore]
    """stderr, one JSON object per record."""


def _handler(log_format: str) -> logging.Handler:
    root = logging.getLogger()
    kind: type[logging.Handler] = _JsonHandler if log_format == "json" else RichHandler
    handler = next((h for h in root.handlers if type(h) is kind), None)
    for other in [h for h in root.handlers if isinstance(h, RichHandler | _JsonHandler) and h is not handler]:
        root.removeHandler(other)
    if handler is not None:
        return handler
    if log_format == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler = _JsonHandler(sys.stderr)
        handler.setFormatter(JsonFormatter(
            "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"}))
    else:
        handler = RichHandler(console=Console(stderr=True), show_path=False, log_time_format="[%X]")
    handler.addFilter(_RequestId())
    root.addHandler(handler)
    return handler


def configure_logging(verbose: int, log_level: str = "WARNING", log_format: str = "text") -> None:
    """Set up the stderr handler (rich text, or JSON lines for ``log_format="json"``) and its filter,
    and the library quieting, for ``verbose`` (0, 1, 2+)."""
    root = logging.getLogger()
    handler = _handler(log_format)
    levels = next((f for f in handler.filters if isinstance(f, _Levels)), None)
    if levels is None:
        levels = _Levels()
        handler.addFilter(levels)
    levels.own = level_for(verbose, log_level)
    levels.library = LIBRARY_LEVEL.get(verbose, logging.INFO)
    levels.raising = logging.CRITICAL if verbose == 0 else levels.library
    root.setLevel(min(levels.own, levels.library))
    logging.captureWarnings(True)
    if verbose < 2:
        for key, value in QUIET_ENV.items():
            os.environ.setdefault(key, value)
