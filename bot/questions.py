"""From a Slack event to a question (pure functions over event dicts).

Which messages are questions (https://docs.slack.dev/reference/events/message):
``app_mention`` always; a DM (``channel_type: im``); a channel message that mentions the bot; a reply,
without a mention, in a thread the bot already answered (unless the channel is ``mention_only``).
Never: the bot's own or other bots' messages (``bot_id``, ``subtype: bot_message``), edits
(``message_changed`` — an edit must not produce a second answer), deletions (``message_deleted``),
other subtypes, and ``thread_broadcast`` without a mention (usually a "thanks" to the channel).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from core.config import SlackSettings

_USER_MENTION = re.compile(r"<@[UW][A-Z0-9]+(?:\|[^>]*)?>")
ANSWERED_SUBTYPES = {None, "file_share", "thread_broadcast"}

Verdict = Literal["answer", "followup", "ignore"]


@dataclass(frozen=True)
class Question:
    """A question to answer: where it was asked, by whom, and its text with bot mentions removed.

    ``thread_ts`` is the thread the answer goes to (the message's own ts when it starts a thread).
    """

    channel: str
    ts: str
    thread_ts: str
    user: str
    text: str
    team: str | None = None
    is_dm: bool = False
    in_thread: bool = False


def mentions(text: str, bot_user_id: str | None) -> bool:
    """True when ``text`` contains ``<@bot_user_id>``."""
    return bool(bot_user_id) and f"<@{bot_user_id}" in text


def clean_text(text: str, bot_user_id: str | None) -> str:
    """``text`` without the bot's mention; other user mentions become ``@user``; trimmed."""
    if bot_user_id:
        text = re.sub(rf"<@{re.escape(bot_user_id)}(?:\|[^>]*)?>", " ", text)
    text = _USER_MENTION.sub("@user", text)
    return " ".join(text.split())


def is_dm(event: dict[str, Any]) -> bool:
    """True for a direct-message (``im``) conversation."""
    return event.get("channel_type") == "im" or str(event.get("channel", "")).startswith("D")


def question_of(event: dict[str, Any], bot_user_id: str | None) -> Question:
    """The :class:`Question` of a message or ``app_mention`` event."""
    ts = str(event["ts"])
    thread_ts = str(event.get("thread_ts") or ts)
    return Question(
        channel=str(event["channel"]), ts=ts, thread_ts=thread_ts, user=str(event.get("user", "")),
        text=clean_text(str(event.get("text") or ""), bot_user_id), team=event.get("team"),
        is_dm=is_dm(event), in_thread=thread_ts != ts,
    )


def classify_message(event: dict[str, Any], bot_user_id: str | None) -> Verdict:
    """``answer`` (DM or mention), ``followup`` (a thread reply that is a question only if the bot
    answered in that thread) or ``ignore``."""
    subtype = event.get("subtype")
    if subtype not in ANSWERED_SUBTYPES or event.get("bot_id") or event.get("user") == bot_user_id:
        return "ignore"
    if not event.get("user") or not str(event.get("text") or "").strip():
        return "ignore"
    mentioned = mentions(str(event.get("text") or ""), bot_user_id)
    if subtype == "thread_broadcast":
        return "answer" if mentioned else "ignore"
    if mentioned or is_dm(event):
        return "answer"
    if event.get("thread_ts") and event.get("thread_ts") != event.get("ts"):
        return "followup"
    return "ignore"


def scope_for(settings: SlackSettings, channel: str, dm: bool) -> tuple[str, ...]:
    """Folder globs the question may search: the channel's scope, else ``default_scope`` (DMs too)."""
    ch = None if dm else settings.channels.get(channel)
    return ch.scope if ch is not None else settings.default_scope


def mention_only(settings: SlackSettings, channel: str) -> bool:
    """True when thread replies in ``channel`` are answered only with a mention."""
    ch = settings.channels.get(channel)
    return bool(ch and ch.mention_only)
