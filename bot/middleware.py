"""Bolt middleware (``app.use``): dedupe, the question gate, membership and rate limits, before any
listener.

Every request passes, in order:

1. :meth:`Gate.dedupe_events` — an event that can cause work (a mention, a message that may be a
   question, a reaction) is claimed by ``event_id`` in the shared store; a repeat (Slack's retry,
   possibly after a restart) is acked and dropped here.
2. :meth:`Gate.inbound` — a ``message``/``app_mention`` becomes a :class:`~bot.questions.Question`
   (text decoded once) when it is one: addressed to the bot, or a reply in a thread the bot answered
   (``mention_only`` channels excepted); each message is claimed once by ``(channel, ts)`` (a channel
   mention arrives as both event types); acknowledgements and content-free thread replies are not
   questions. A message in a thread the bot answered is marked to be stored (thread context).
3. :meth:`bot.membership.Members.check` — Slack Connect: a request of any kind (question, reaction,
   App Home, ``/policy``, button, modal, shortcut) from a person outside the installing organisation
   stops here, with a one-line notice where a reply is expected.
4. :meth:`Gate.limits` — per-user and per-channel rate limits; over the limit the asker gets a polite
   ephemeral note and the question is dropped.

Results go to the listener through the Bolt context: :data:`QUESTION` and :data:`THREAD`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slack_bolt import App, BoltContext, BoltResponse

from bot.guards import Dedupe, RateLimiter
from bot.membership import Members
from bot.questions import QUESTION, THREAD, Question, classify_message, mention_only, question_of, thread_of
from core.answer_log import AnswerLog
from core.config import Settings
from core.lru import LockedLRU

log = logging.getLogger(__name__)

CLAIMED_EVENTS = {"app_mention", "reaction_added", "reaction_removed"}
SLOW_DOWN = ("You're asking faster than I can keep up ({limit} questions a minute). "
             "Please try again in a minute.")
Notify = Callable[[Question, str], None]


class RecentThreads:
    """Threads this process answered in (latest ``size``): a follow-up there still gets an error
    reply when the answer log cannot be read."""

    def __init__(self, size: int = 10_000) -> None:
        self._seen: LockedLRU[tuple[str, str], bool] = LockedLRU(size)

    def add(self, channel: str, thread_ts: str) -> None:
        """Remember a thread the bot answered in."""
        self._seen.put((channel, thread_ts), True)

    def __contains__(self, key: object) -> bool:
        return key in self._seen


@dataclass
class Gate:
    """The middleware; ``notify(q, text)`` tells the asker something ephemeral (in the background);
    ``members`` is the membership check (Slack Connect)."""

    settings: Settings
    answer_log: AnswerLog
    dedupe: Dedupe
    user_limit: RateLimiter
    channel_limit: RateLimiter
    notify: Notify
    members: Members
    recent: RecentThreads = field(default_factory=RecentThreads)

    def install(self, app: App) -> None:
        """Register the middleware functions in order (module doc)."""
        app.use(self.dedupe_events)
        app.use(self.inbound)
        app.use(self.members.check)
        app.use(self.limits)

    def dedupe_events(self, body: dict[str, Any], context: BoltContext,
                      next: Callable[[], None]) -> BoltResponse | None:  # noqa: A002 (bolt's name)
        """Drop a repeated delivery of an event that can cause work."""
        event_id, event = body.get("event_id"), body.get("event") or {}
        claimable = body.get("type") == "event_callback" and self._claimable(event, context.bot_user_id)
        if claimable and event_id and not self.dedupe.claim(f"ev:{event_id}"):
            log.info("event %s already handled; repeat dropped", event_id)
            return BoltResponse(status=200, body="")
        next()
        return None

    @staticmethod
    def _claimable(event: dict[str, Any], bot_user_id: str | None) -> bool:
        kind = event.get("type")
        if kind == "message":
            return classify_message(event, bot_user_id) != "ignore"
        return kind in CLAIMED_EVENTS

    def inbound(self, body: dict[str, Any], context: BoltContext, next: Callable[[], None]) -> None:  # noqa: A002
        """Put the message's :class:`Question` (or None) and thread into the context."""
        context[QUESTION], context[THREAD] = None, None
        event = body.get("event") or {}
        if body.get("type") == "event_callback" and event.get("type") in {"message", "app_mention"}:
            self._inbound(body, event, context)
        next()

    def _inbound(self, body: dict[str, Any], event: dict[str, Any], context: BoltContext) -> None:
        bot = context.bot_user_id
        verdict = classify_message(event, bot)
        thread = thread_of(event)
        known = verdict != "ignore" and thread is not None and self._known(*thread)
        context[THREAD] = thread if known else None
        if verdict == "ignore" or (verdict == "followup" and (not known or mention_only(
                self.settings.slack, str(event.get("channel"))))):
            return
        q = question_of(event, bot)
        if not self.dedupe.claim(f"msg:{q.channel}:{q.ts}"):
            log.info("message %s/%s already handled; repeat dropped", q.channel, q.ts)
            return
        if q.kind == "ack" or (q.kind == "empty" and q.in_thread):
            log.info("message %s/%s is not a question (%s); no answer", q.channel, q.ts, q.kind)
            return
        context[QUESTION] = q

    def _known(self, channel: str, thread_ts: str) -> bool:
        try:
            return self.answer_log.has_thread(channel, thread_ts)
        except Exception:
            if (channel, thread_ts) in self.recent:
                raise  # Bolt's error handler replies in that thread with an error id
            log.exception("answer log unreadable; %s/%s treated as a thread the bot is not in",
                          channel, thread_ts)
            return False

    def limits(self, context: BoltContext, next: Callable[[], None]) -> None:  # noqa: A002
        """Drop a question over the per-user or per-channel limit (the asker is told)."""
        q: Question | None = context.get(QUESTION)
        if q is not None and q.kind == "question":
            s = self.settings.slack
            limit = None
            if not self.user_limit.allow(q.user):
                limit = s.user_rate_per_minute
            elif not self.channel_limit.allow(q.channel):
                limit = s.channel_rate_per_minute
            if limit is not None:
                log.info("rate limit hit by %s in %s", q.user, q.channel)
                context[QUESTION] = None
                self.notify(q, SLOW_DOWN.format(limit=limit))
        next()
