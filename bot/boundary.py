"""The error boundary of the question path: every question gets exactly one reply.

:class:`Replies` opens a :class:`~bot.reply.Reply` when a question is accepted (before it is queued)
and starts its watchdog: a question still unanswered after ``slack.answer_timeout_s`` gets one "giving
up" reply with an error id, and whatever the worker produces later is dropped. :meth:`Replies.failed`
is the one handler for exceptions of the background work and of Bolt's global error handler: it logs
the traceback with a fresh error id and makes the reason and the id the reply (or a note under an
answer that was posted but could not be saved), clearing the thread status.
"""

from __future__ import annotations

import logging
import threading

from slack_sdk import WebClient

from bot.errors import failure_text, new_error_id, reason, timeout_text, unsaved_text
from bot.questions import Question
from bot.reply import Reply
from core.config import Settings

log = logging.getLogger(__name__)


class Replies:
    """Open replies by question ``(channel, ts)``, each with its timeout watchdog. Thread-safe."""

    def __init__(self, settings: Settings, client: WebClient) -> None:
        self.settings = settings
        self.client = client
        self._open: dict[tuple[str, str], tuple[Reply, threading.Timer]] = {}
        self._lock = threading.Lock()

    def open(self, q: Question, *, timeout: bool = True) -> Reply:
        """A new reply to ``q``; with ``timeout`` its ``slack.answer_timeout_s`` watchdog starts now."""
        s = self.settings
        reply = Reply(self.client, q, base_url=s.links.base_url, stream=s.slack.stream)
        timer = threading.Timer(s.slack.answer_timeout_s, self._timed_out, (reply,))
        timer.daemon = True
        with self._lock:
            self._open[q.key] = (reply, timer)
        if timeout:
            timer.start()
        return reply

    def get(self, key: tuple[str, str]) -> Reply | None:
        """The open reply to the question ``key``, if any."""
        with self._lock:
            entry = self._open.get(key)
        return entry[0] if entry else None

    def done(self, reply: Reply) -> None:
        """The work on ``reply`` has ended: stop its watchdog and forget it."""
        reply.close()
        with self._lock:
            entry = self._open.pop(reply.q.key, None)
        if entry is not None:
            entry[1].cancel()

    def failed(self, reply: Reply, exc: BaseException) -> str:
        """Handle an exception of ``reply``'s work: log it with a new error id, write the failure as
        the reply (a note under an already delivered answer) and close it. Returns the error id."""
        error_id = new_error_id()
        q = reply.q
        log.error("question %s/%s failed [error id %s]: %s", q.channel, q.ts, error_id, reason(exc),
                  exc_info=exc)
        text = unsaved_text(error_id) if reply.answer is not None else failure_text(reason(exc), error_id)
        try:
            reply.fail(text)
        except Exception:  # Slack itself is failing: nothing more can be said there
            log.exception("could not deliver the failure reply [error id %s]", error_id)
        self.done(reply)
        return error_id

    def _timed_out(self, reply: Reply) -> None:
        error_id = new_error_id()
        seconds = self.settings.slack.answer_timeout_s
        q = reply.q
        try:
            if reply.time_out(timeout_text(seconds, error_id)):
                log.error("question %s/%s unanswered after %g s; gave up [error id %s]", q.channel, q.ts,
                          seconds, error_id)
        except Exception:
            log.exception("could not deliver the timeout reply [error id %s]", error_id)
        with self._lock:
            self._open.pop(q.key, None)
