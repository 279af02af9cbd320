"""A follow-up's history: the thread as the bot saw it, from its own store.

The answer log holds every question the bot answered and its answer; the thread log
(:attr:`core.answer_log.AnswerLog.messages`) holds the thread's other messages, stored from the
``message`` events Slack sends anyway. So a follow-up never needs ``conversations.replies``, which many
apps may call only once a minute for 15 messages
(https://docs.slack.dev/reference/methods/conversations.replies). The call remains a best-effort
top-up for a thread the bot joins late (messages from before its first answer there), made at most
once per thread, without waiting out rate limits, and switched off with ``slack.replies_top_up:
false``. Acknowledgements and content-free messages are left out of the history.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.inbound import decode
from bot.questions import Question
from core.answer_log import AnswerLog
from core.message_kind import message_kind
from core.thread_log import ThreadMessage
from core.types import Turn

log = logging.getLogger(__name__)

TOP_UP_LIMIT = 15
"""Messages asked of ``conversations.replies`` (the limit for non-Marketplace apps)."""


class History:
    """Builds the turns before a question. ``replies_client`` (no 429 retries) is used for the
    top-up; None turns the top-up off."""

    def __init__(self, answer_log: AnswerLog, replies_client: WebClient | None) -> None:
        self.log = answer_log
        self.client = replies_client
        self._blocked_until = 0.0
        self._lock = threading.Lock()

    def turns(self, q: Question, bot_user_id: str | None) -> list[Turn]:
        """The thread's turns before ``q``, oldest first (empty for a new thread)."""
        if not q.in_thread:
            return []
        answers = self.log.thread(q.channel, q.thread_ts)
        messages = self.log.messages.thread(q.channel, q.thread_ts)
        if not answers and not messages:
            messages = self.top_up(q, bot_user_id)
        timed: list[tuple[float, Turn]] = []
        known: set[str] = set()
        for rec in answers:
            if float(rec.question_ts) < float(q.ts):
                timed += [(float(rec.question_ts), Turn("user", rec.question)),
                          (float(rec.message_ts), Turn("assistant", rec.answer))]
            known |= {rec.question_ts, *rec.parts}
        for m in messages:
            if m.ts not in known and float(m.ts) < float(q.ts) and message_kind(m.text) == "question":
                timed.append((float(m.ts), Turn("user", m.text)))
        timed.sort(key=lambda t: t[0])
        return [t for _, t in timed]

    def top_up(self, q: Question, bot_user_id: str | None) -> list[ThreadMessage]:
        """The thread's human messages from ``conversations.replies`` (stored in the thread log), or
        ``[]`` when the top-up is off, rate limited, or refused."""
        with self._lock:
            if self.client is None or time.monotonic() < self._blocked_until:
                return []
        try:
            resp = self.client.conversations_replies(channel=q.channel, ts=q.thread_ts, limit=TOP_UP_LIMIT)
        except SlackApiError as exc:
            self._refused(exc)
            return []
        found = [_message(q, m, bot_user_id) for m in resp.get("messages") or [] if _human(m)]
        for m in found:
            self.log.messages.add(m)
        return found

    def _refused(self, exc: SlackApiError) -> None:
        error = exc.response.get("error")
        if error == "ratelimited":
            headers = {k.lower(): v for k, v in (exc.response.headers or {}).items()}
            wait = float(headers.get("retry-after") or 60)
            with self._lock:
                self._blocked_until = time.monotonic() + wait
        log.info("conversations.replies unavailable (%s); history from the bot's own log", error)


def _human(m: dict[str, Any]) -> bool:
    return bool(m.get("ts") and m.get("user") and m.get("text")) and not (m.get("bot_id") or m.get("subtype"))


def _message(q: Question, m: dict[str, Any], bot_user_id: str | None) -> ThreadMessage:
    return ThreadMessage(channel=q.channel, thread_ts=q.thread_ts, ts=str(m["ts"]), user=str(m["user"]),
                         text=decode(str(m["text"]), bot_user_id))
