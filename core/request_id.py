"""The id of the question being answered on this thread: set by :class:`core.metered.MeteredAnswerService`
for the duration of one question, added to every log record by :mod:`policybot.logs` (``request_id``),
so one question's lines can be found together (``log_format: json``)."""

from __future__ import annotations

import contextvars
import uuid

REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("policybot_request_id", default="")
"""The id of the question being answered in this context ("" outside one)."""


def new_request_id() -> str:
    """A short random id (12 hex digits)."""
    return uuid.uuid4().hex[:12]
