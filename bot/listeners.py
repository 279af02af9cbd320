"""Bolt listeners: plain functions that hand work to the background executor and return at once.

Slack wants an ack within 3 s and retries otherwise (https://docs.slack.dev/apis/events-api/#responding).
The middleware (:mod:`bot.middleware`) has already deduplicated the event and decided whether the
message is a question; a listener only queues the work: answering (through the error boundary,
:mod:`bot.boundary`), storing a thread message, a vote, a deletion, the App Home. Bolt's global error
handler (:func:`register`) gives a question whose middleware failed its one reply with an error id.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt import Ack, App, BoltContext, BoltResponse
from slack_sdk import WebClient

from bot.boundary import Replies
from bot.feedback import REASON_CALLBACK, Feedback
from bot.guards import Dedupe
from bot.home import Home
from bot.inbound import decode
from bot.middleware import RecentThreads
from bot.questions import QUESTION, THREAD, Question, classify_message, deleted_ts, question_of, thread_of
from bot.render import FEEDBACK_ACTION, render_notice
from bot.reply import Reply, ReplyClosed
from bot.responder import Responder
from bot.work import BackgroundWork
from core.answer_log import AnswerLog
from core.message_kind import GREETING_HINT
from core.thread_log import ThreadMessage

log = logging.getLogger(__name__)

HINT = GREETING_HINT


@dataclass
class Bot:
    """Collaborators of the listeners (built once by :func:`bot.app.build_app`)."""

    client: WebClient
    responder: Responder
    answer_log: AnswerLog
    work: BackgroundWork
    replies: Replies
    feedback: Feedback
    home: Home
    dedupe: Dedupe
    recent: RecentThreads
    commands: Callable[[str, str, str], None]

    # ---- questions -------------------------------------------------------------------------
    def enqueue(self, q: Question, bot_user_id: str | None) -> None:
        """Open the reply (its timeout starts now) and queue the answer."""
        self.work.submit(self.run, q, self.replies.open(q), bot_user_id)

    def run(self, q: Question, reply: Reply, bot_user_id: str | None) -> None:
        """Answer ``q`` within the error boundary: whatever happens, one reply."""
        if not reply.begin():
            log.info("question %s/%s was closed before its turn (timeout or deleted)", q.channel, q.ts)
            return
        try:
            if q.kind == "empty":
                reply.say(HINT)
            else:
                self.responder.answer(q, reply, bot_user_id=bot_user_id)
                self.recent.add(q.channel, q.thread_ts)
            self.replies.done(reply)
        except ReplyClosed:
            log.info("answer to %s/%s dropped: its reply was already closed", q.channel, q.ts)
        except Exception as exc:
            self.replies.failed(reply, exc)

    def ephemeral(self, q: Question, text: str) -> None:
        """A short note only the asker sees, in the question's thread."""
        msg = render_notice(text)
        self.client.chat_postEphemeral(channel=q.channel, user=q.user, thread_ts=q.thread_ts, text=msg.text,
                                       blocks=msg.blocks)

    def store_message(self, event: dict[str, Any], thread: tuple[str, str], bot_user_id: str | None) -> None:
        """Keep a message of a thread the bot answered in (thread context for follow-ups)."""
        self.answer_log.messages.add(ThreadMessage(
            channel=thread[0], thread_ts=thread[1], ts=str(event["ts"]), user=str(event.get("user", "")),
            text=decode(str(event.get("text") or ""), bot_user_id)))

    def deleted(self, channel: str, ts: str) -> None:
        """A message was deleted: stop its question if still queued; forget it if it was an answer."""
        reply = self.replies.get((channel, ts))
        if reply is not None and reply.cancel():
            self.replies.done(reply)
            log.info("question %s/%s deleted while queued: not answered", channel, ts)
        self.feedback.message_deleted(channel, ts)

    def error_reply(self, error: Exception, body: dict[str, Any], bot_user_id: str | None) -> bool:
        """Bolt's global error handler: when the failed request was a question to the bot (or in a
        thread it answered), queue its one reply with an error id. True when a reply was queued."""
        event = body.get("event") or {}
        if event.get("type") not in {"message", "app_mention"}:
            return False
        verdict = classify_message(event, bot_user_id)
        recent = thread_of(event) in self.recent
        if verdict == "ignore" or (verdict == "followup" and not recent):
            return False
        q = question_of(event, bot_user_id)
        if not self.dedupe.claim(f"msg:{q.channel}:{q.ts}"):
            return False  # another delivery of the same message is being handled
        self.work.submit(self.replies.failed, self.replies.open(q, timeout=False), error)
        return True


@dataclass
class Listeners:
    """The Bolt listener functions (argument names are Bolt's injection names)."""

    bot: Bot

    def on_message(self, event: dict[str, Any], context: BoltContext) -> None:
        """``message`` / ``app_mention``: a deletion, a thread message to keep, a question to answer."""
        bot = self.bot
        if (ts := deleted_ts(event)) is not None:
            bot.work.submit(bot.deleted, str(event.get("channel")), ts, ordered=True)
            return
        if context.get(THREAD) is not None:
            bot.work.submit(bot.store_message, event, context[THREAD], context.bot_user_id, ordered=True)
        if (q := context.get(QUESTION)) is not None:
            bot.enqueue(q, context.bot_user_id)

    def on_reaction(self, event: dict[str, Any], context: BoltContext) -> None:
        """``reaction_added`` / ``reaction_removed``: a vote (in order, so a removal never overtakes)."""
        added = event.get("type") == "reaction_added"
        self.bot.work.submit(self.bot.feedback.reaction, event, added, context.bot_user_id, ordered=True)

    def on_feedback(self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        """A feedback button: the vote; a 👎 opens the reason modal now (its trigger lives 3 s)."""
        ack()
        container, user = body.get("container") or {}, str((body.get("user") or {}).get("id"))
        where = (str(container.get("channel_id")), str(container.get("message_ts")))
        value = str(action.get("value") or "")
        answer_id = self.bot.feedback.reason_wanted(*where, user, value)
        if answer_id is not None and body.get("trigger_id"):
            self.bot.feedback.open_reason(client, str(body["trigger_id"]), answer_id)
        self.bot.work.submit(self.bot.feedback.click, *where, user, value, ordered=True)

    def on_reason(self, ack: Ack, body: dict[str, Any], view: dict[str, Any]) -> None:
        """The reason modal submitted: store the text with the vote."""
        ack()
        user = str((body.get("user") or {}).get("id"))
        self.bot.work.submit(self.bot.feedback.reason_submitted, view, user, ordered=True)

    def on_home(self, event: dict[str, Any], client: WebClient) -> None:
        """``app_home_opened``: the DM welcome or the Home tab."""
        self.bot.work.submit(self.bot.home.opened, client, event)

    def on_command(self, ack: Ack, command: dict[str, Any]) -> None:
        """``/policy``."""
        ack()
        self.bot.work.submit(self.bot.commands, str(command.get("text") or ""), str(command.get("user_id")),
                             str(command.get("channel_id")))

    def on_other_event(self, event: dict[str, Any]) -> None:
        """Any other event type (subscribed in the app settings but not used): acknowledged with 200 so
        Slack neither retries it nor counts it as a failed delivery."""
        log.debug("event %s not used; acknowledged", event.get("type"))

    def on_error(self, error: Exception, body: dict[str, Any], context: BoltContext) -> BoltResponse | None:
        """Bolt's global error handler: log, and give a failed question its one reply."""
        log.error("Slack request failed in bolt: %s", error, exc_info=error)
        queued = self.bot.error_reply(error, body, context.bot_user_id)
        return BoltResponse(status=200, body="") if queued else None  # 200: Slack need not retry


def register(app: App, bot: Bot) -> None:
    """Register the listeners, the ``/policy`` command, feedback buttons, the reason modal and the
    global error handler."""
    on = Listeners(bot)
    app.event("app_mention")(on.on_message)
    app.event("message")(on.on_message)
    app.event("reaction_added")(on.on_reaction)
    app.event("reaction_removed")(on.on_reaction)
    app.event("app_home_opened")(on.on_home)
    app.command("/policy")(on.on_command)
    app.action(FEEDBACK_ACTION)(on.on_feedback)
    app.view(REASON_CALLBACK)(on.on_reason)
    app.event(re.compile(".*"))(on.on_other_event)  # last: only events no listener above takes
    app.use(acknowledge_rate_limited)
    app.error(on.on_error)


def acknowledge_rate_limited(body: dict[str, Any], next: Callable[[], None]) -> BoltResponse | None:  # noqa: A002
    """Middleware: Slack's ``app_rate_limited`` notice (sent to the request URL when the app gets more than
    30,000 events an hour from a workspace; https://docs.slack.dev/apis/events-api/#rate-limiting) is
    logged and acknowledged with 200 (bolt has no listener for it: a 404)."""
    if body.get("type") != "app_rate_limited":
        next()
        return None
    log.warning("Slack rate-limited event deliveries to this app (team %s, minute %s): events of that "
                "minute were not delivered", body.get("team_id"), body.get("minute_rate_limited"))
    return BoltResponse(status=200, body="")
