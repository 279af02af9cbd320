"""From a Slack event to a question (pure functions over event dicts).

Which messages are questions (https://docs.slack.dev/reference/events/message):
``app_mention`` always; a DM (``channel_type: im``); a channel message that mentions the bot; a reply,
without a mention, in a thread the bot already answered (unless the channel is ``mention_only``) — a
``thread_broadcast`` ("also send to channel") is such a reply too. Never: the bot's own or other bots'
messages (``bot_id``, ``subtype: bot_message``), edits (``message_changed`` — an edit must not produce
a second answer), deletions, other subtypes. The text is decoded once here (:func:`bot.inbound.decode`),
so the answer service, the log and the cache all see what the user typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from bot.inbound import decode
from core.config import SlackSettings
from core.message_kind import Kind, message_kind

ANSWERED_SUBTYPES = {None, "file_share", "thread_broadcast"}

Verdict = Literal["answer", "followup", "ignore"]
QUESTION = "policybot_question"
"""Bolt context key (set by :mod:`bot.middleware`): the :class:`Question` to answer, or None."""
THREAD = "policybot_thread"
"""Bolt context key: ``(channel, thread_ts)`` when the message belongs to a thread the bot answered."""


@dataclass(frozen=True)
class Question:
    """A question to answer: where it was asked, by whom, and its decoded text (bot mention removed).

    ``thread_ts`` is the thread the answer goes to (the message's own ts when it starts a thread);
    ``team`` the asker's team id when the event carries it; ``kind`` what :func:`message_kind` made of
    the text. Only questions from members of the installing organisation are answered
    (:mod:`bot.membership`).
    """

    channel: str
    ts: str
    thread_ts: str
    user: str
    text: str
    team: str | None = None
    is_dm: bool = False
    in_thread: bool = False
    kind: Kind = "question"

    @property
    def key(self) -> tuple[str, str]:
        """``(channel, ts)`` of the asking message."""
        return self.channel, self.ts


def mentions(text: str, bot_user_id: str | None) -> bool:
    """True when ``text`` contains ``<@bot_user_id>``."""
    return bool(bot_user_id) and f"<@{bot_user_id}" in text


def is_dm(event: dict[str, Any]) -> bool:
    """True for a direct-message (``im``) conversation."""
    return event.get("channel_type") == "im" or str(event.get("channel", "")).startswith("D")


def user_team(event: dict[str, Any]) -> str | None:
    """The asker's team id (``user_team``, else ``team``), or None when the event has neither."""
    return event.get("user_team") or event.get("team") or None


def question_of(event: dict[str, Any], bot_user_id: str | None) -> Question:
    """The :class:`Question` of a message or ``app_mention`` event."""
    ts = str(event["ts"])
    thread_ts = str(event.get("thread_ts") or ts)
    text = decode(str(event.get("text") or ""), bot_user_id)
    return Question(
        channel=str(event["channel"]), ts=ts, thread_ts=thread_ts, user=str(event.get("user", "")),
        text=text, team=user_team(event), is_dm=is_dm(event), in_thread=thread_ts != ts,
        kind=message_kind(text),
    )


def classify_message(event: dict[str, Any], bot_user_id: str | None) -> Verdict:
    """``answer`` (DM or mention), ``followup`` (a thread reply or broadcast that is a question only if
    the bot answered in that thread) or ``ignore``."""
    subtype = event.get("subtype")
    if subtype not in ANSWERED_SUBTYPES or event.get("bot_id") or event.get("user") == bot_user_id:
        return "ignore"
    if not event.get("user") or not str(event.get("text") or "").strip():
        return "ignore"
    if not event.get("channel") or not event.get("ts"):  # nowhere to answer (not a real Slack message)
        return "ignore"
    text = str(event.get("text") or "")
    if mentions(text, bot_user_id) or (is_dm(event) and subtype != "thread_broadcast"):
        return "answer"
    if event.get("thread_ts") and event.get("thread_ts") != event.get("ts"):
        return "followup"
    return "ignore"


def deleted_ts(event: dict[str, Any]) -> str | None:
    """The ts of the message a ``message`` event deletes: ``message_deleted`` (``deleted_ts``), or a
    ``message_changed`` whose new message is a ``tombstone`` (a deleted message that has replies);
    None for any other event."""
    subtype = event.get("subtype")
    if subtype == "message_deleted":
        return str(event.get("deleted_ts") or (event.get("previous_message") or {}).get("ts") or "") or None
    message = event.get("message") or {}
    if subtype == "message_changed" and (message.get("subtype") == "tombstone" or message.get("deleted")):
        return str(message.get("ts") or "") or None
    return None


def thread_of(event: dict[str, Any]) -> tuple[str, str] | None:
    """``(channel, thread_ts)`` of a message posted in a thread (not its parent), else None."""
    thread_ts, ts = event.get("thread_ts"), event.get("ts")
    if not thread_ts or thread_ts == ts or not event.get("channel"):
        return None
    return str(event["channel"]), str(thread_ts)


def scope_for(settings: SlackSettings, channel: str, dm: bool) -> tuple[str, ...]:
    """Folder globs the question may search: the channel's scope, else ``default_scope`` (DMs too)."""
    ch = None if dm else settings.channels.get(channel)
    return ch.scope if ch is not None else settings.default_scope


def mention_only(settings: SlackSettings, channel: str) -> bool:
    """True when thread replies in ``channel`` are answered only with a mention."""
    ch = settings.channels.get(channel)
    return bool(ch and ch.mention_only)
