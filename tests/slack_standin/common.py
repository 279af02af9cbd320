"""Shared pieces of the Web API stand-in's methods: errors, argument parsing, Slack's limits and the
message store helpers.

Limits: https://docs.slack.dev/reference/block-kit/blocks (50 blocks per message, 3,000 characters per
section text), https://docs.slack.dev/reference/methods/chat.postMessage (40,000 characters of text).
"""

from __future__ import annotations

import json
from typing import Any

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_TEXT = 40000


class ApiError(Exception):
    """An ``ok: false`` response with ``code`` (and extra fields such as ``errors``)."""

    def __init__(self, code: str, **extra: Any) -> None:
        super().__init__(code)
        self.code = code
        self.extra = extra


def req(args: dict[str, Any], *names: str) -> list[Any]:
    """The values of required arguments, or ``invalid_arguments`` naming the missing ones."""
    missing = [n for n in names if not args.get(n)]
    if missing:
        raise ApiError("invalid_arguments", errors=[f"missing required field: {n}" for n in missing])
    return [args[n] for n in names]


def json_arg(args: dict[str, Any], name: str) -> Any:
    """An argument that may arrive JSON-encoded (form bodies) or as JSON already (JSON bodies)."""
    value = args.get(name)
    if isinstance(value, str) and value:
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            raise ApiError(f"invalid_{name}") from None
    return value


def bot_message(state: Any, ts: str, body: dict[str, Any], thread_ts: str | None) -> dict[str, Any]:
    """A message as the bot posts it (``user`` + ``bot_id``)."""
    msg = {"type": "message", "user": state.bot_user_id, "bot_id": state.bot_id, "ts": ts, **body}
    if thread_ts:
        msg["thread_ts"] = thread_ts
    return msg


def channel_messages(state: Any, channel: str) -> dict[str, dict[str, Any]]:
    """The messages of ``channel`` by ts (``channel_not_found`` for a malformed id)."""
    if channel[:1] not in {"C", "G", "D"}:
        raise ApiError("channel_not_found")
    messages: dict[str, dict[str, Any]] = state.messages.setdefault(channel, {})
    return messages


def find(state: Any, channel: str, ts: str) -> dict[str, Any]:
    """The message ``(channel, ts)`` or ``message_not_found``."""
    msg: dict[str, Any] | None = state.messages.get(channel, {}).get(ts)
    if msg is None:
        raise ApiError("message_not_found")
    return msg


def clear_status(state: Any, channel: str, thread_ts: str | None) -> None:
    """Slack clears a thread's status when the app replies in it."""
    if thread_ts and any(s["channel_id"] == channel and s["thread_ts"] == thread_ts for s in state.statuses):
        state.statuses.append({"channel_id": channel, "thread_ts": thread_ts, "status": ""})
