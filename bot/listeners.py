"""Bolt listeners: plain functions that check, deduplicate and hand work to the background executor.

Every listener returns within milliseconds (Slack wants an ack within 3 s and retries otherwise:
https://docs.slack.dev/apis/events-api/#responding). Exactly once: an event id is processed once
(Slack's retries reuse it), and a message (channel, ts) is answered once (``app_mention`` and
``message`` both arrive for a channel mention).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt import Ack, App, BoltContext

from bot.guards import Deduper, RateLimiter
from bot.questions import Question, classify_message, mention_only, question_of
from bot.responder import Responder
from bot.work import BackgroundWork
from core.answer_log import AnswerLog, Vote
from core.config import Settings

log = logging.getLogger(__name__)

REACTION_ALIASES = {"thumbsup": "+1", "thumbsdown": "-1"}
FEEDBACK_VALUES: dict[str, Vote] = {"good-feedback": "up", "bad-feedback": "down"}
SUGGESTED_PROMPTS = [
    {"title": "Leave", "message": "How many days of annual leave do I get?"},
    {"title": "Expenses", "message": "What can I claim as travel expenses?"},
    {"title": "Insurance", "message": "What is the grace period for premium payment?"},
]
SLOW_DOWN = ("You're asking faster than I can keep up ({limit} questions a minute). "
             "Please try again in a minute.")


@dataclass
class Bot:
    """Collaborators of the listeners (built once by :func:`bot.app.build_app`)."""

    settings: Settings
    responder: Responder
    answer_log: AnswerLog
    work: BackgroundWork
    dedupe: Deduper
    user_limit: RateLimiter
    channel_limit: RateLimiter
    commands: Callable[[str, str, str], None]

    # ---- messages --------------------------------------------------------------------------
    def handle_message(self, event: dict[str, Any], verdict: str, bot_user_id: str | None) -> None:
        """Answer a message event classified ``answer`` or ``followup`` (at most once per message)."""
        q = question_of(event, bot_user_id)
        if verdict == "followup" and (mention_only(self.settings.slack, q.channel)
                                      or not self.answer_log.has_thread(q.channel, q.thread_ts)):
            return
        if not self.dedupe.claim(f"msg:{q.channel}:{q.ts}"):
            log.info("duplicate delivery of %s/%s dropped", q.channel, q.ts)
            return
        if not q.text:
            self.responder.notice(q, "Ask me a question about the company policies.")
            return
        if self.allowed(q):
            self.responder.answer(q, bot_user_id=bot_user_id)

    def allowed(self, q: Question) -> bool:
        """Apply the per-user and per-channel rate limits; tell the asker (ephemeral) when over."""
        s = self.settings.slack
        if not self.user_limit.allow(q.user):
            limit = s.user_rate_per_minute
        elif not self.channel_limit.allow(q.channel):
            limit = s.channel_rate_per_minute
        else:
            return True
        log.info("rate limit hit by %s in %s", q.user, q.channel)
        self.responder.notice(q, SLOW_DOWN.format(limit=limit), ephemeral=True)
        return False

    # ---- votes -----------------------------------------------------------------------------
    def handle_reaction(self, event: dict[str, Any], added: bool, bot_user_id: str | None) -> None:
        """Turn a reaction on one of the bot's answers into a vote (removal undoes it)."""
        item = event.get("item") or {}
        name = str(event.get("reaction", "")).split("::")[0]
        vote = self.settings.slack.reactions.get(REACTION_ALIASES.get(name, name))
        user = str(event.get("user", ""))
        if vote is None or item.get("type") != "message" or user == bot_user_id:
            return
        rec = self.answer_log.find_by_message(str(item.get("channel")), str(item.get("ts")))
        if rec is None:
            return
        if added:
            self.answer_log.set_vote(rec.answer_id, user, vote)
        elif self.answer_log.votes(rec.answer_id).get(user) == vote:
            self.answer_log.set_vote(rec.answer_id, user, None)

    def handle_feedback(self, channel: str, message_ts: str, user: str, value: str) -> None:
        """A feedback button press on an answer: the same vote as a reaction."""
        vote = FEEDBACK_VALUES.get(value)
        rec = self.answer_log.find_by_message(channel, message_ts)
        if vote is not None and rec is not None:
            self.answer_log.set_vote(rec.answer_id, user, vote)


def register(app: App, bot: Bot) -> None:
    """Register a listener for every subscribed event, the ``/policy`` command and feedback buttons."""

    def first_time(body: dict[str, Any]) -> bool:
        event_id = body.get("event_id")
        return not event_id or bot.dedupe.claim(f"ev:{event_id}")

    def on_message(event: dict[str, Any], body: dict[str, Any], context: BoltContext) -> None:
        verdict = classify_message(event, context.bot_user_id)
        if verdict == "ignore":
            log.debug("message %s ignored (subtype %s)", event.get("ts"), event.get("subtype"))
        elif first_time(body):
            bot.work.submit(bot.handle_message, event, verdict, context.bot_user_id)

    def on_reaction(event: dict[str, Any], body: dict[str, Any], context: BoltContext) -> None:
        if first_time(body):
            added = event.get("type") == "reaction_added"
            bot.work.submit(bot.handle_reaction, event, added, context.bot_user_id, ordered=True)

    def on_thread_started(event: dict[str, Any], body: dict[str, Any], context: BoltContext) -> None:
        thread = event.get("assistant_thread") or {}
        if first_time(body) and context.client is not None:
            bot.work.submit(lambda: context.client.assistant_threads_setSuggestedPrompts(
                channel_id=thread["channel_id"], thread_ts=thread["thread_ts"],
                title="Ask me about the company policies", prompts=SUGGESTED_PROMPTS))

    def on_context_changed(event: dict[str, Any]) -> None:
        thread = event.get("assistant_thread") or {}
        log.debug("assistant thread context changed: %s", thread.get("context"))

    def on_command(ack: Ack, command: dict[str, Any]) -> None:
        ack()
        bot.work.submit(bot.commands, str(command.get("text") or ""), str(command.get("user_id")),
                        str(command.get("channel_id")))

    def on_feedback(ack: Ack, body: dict[str, Any], action: dict[str, Any]) -> None:
        ack()
        container = body.get("container") or {}
        value = str(action.get("value") or "")
        bot.work.submit(bot.handle_feedback, str(container.get("channel_id")),
                        str(container.get("message_ts")), str((body.get("user") or {}).get("id")), value,
                        ordered=True)

    app.event("app_mention")(on_message)
    app.event("message")(on_message)
    app.event("reaction_added")(on_reaction)
    app.event("reaction_removed")(on_reaction)
    app.event("assistant_thread_started")(on_thread_started)
    app.event("assistant_thread_context_changed")(on_context_changed)
    app.command("/policy")(on_command)
    app.action("answer_feedback")(on_feedback)
