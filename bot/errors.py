"""The one place where a failure in the Slack question path becomes text for the person who asked.

Every failure gets an error id (8 hex characters) that is both in the reply and in the log line with
the traceback, so an admin can find the cause from a screenshot. The reason shown is short and says
what happened, never the internals: a :class:`~core.errors.PolicybotError` shows its own message
(written to say what to do), other exceptions a fixed phrase for their kind.
"""

from __future__ import annotations

import secrets

from slack_sdk.errors import SlackApiError

from core.errors import PolicybotError


def new_error_id() -> str:
    """A fresh error id, e.g. ``"3f9a2c1b"``."""
    return secrets.token_hex(4)


def reason(exc: BaseException) -> str:
    """A short user-facing reason for ``exc``."""
    if isinstance(exc, PolicybotError):
        return str(exc)
    if isinstance(exc, SlackApiError):
        return f"Slack refused my reply ({exc.response.get('error') or exc.response.status_code})"
    if isinstance(exc, TimeoutError):
        return "something I depend on did not answer in time"
    if isinstance(exc, OSError) or "LanceError(IO)" in str(exc):  # LanceDB raises I/O as RuntimeError
        return "my data store could not be read"
    return "an internal error stopped me"


def failure_text(why: str, error_id: str) -> str:
    """The reply to a question that failed: the reason and the error id."""
    return (f"Sorry, I couldn't answer this: {why}. Please try again in a minute; if it keeps "
            f"happening, give your admin the error id `{error_id}`.")


def timeout_text(seconds: float, error_id: str) -> str:
    """The "giving up" reply to a question still unanswered after ``slack.answer_timeout_s``."""
    return (f"Sorry, I'm giving up on this one: finding the answer took longer than {seconds:g} s. "
            f"Please ask again in a minute (error id `{error_id}`).")


def unsaved_text(error_id: str) -> str:
    """The note added under an answer that was posted but could not be saved in the answer log."""
    return (f":warning: This answer could not be saved, so votes on it won't count "
            f"(error id `{error_id}`).")
