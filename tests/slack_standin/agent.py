"""Agent-messaging methods of the stand-in: the chat stream, thread status and prompts, and views.

- ``chat.startStream`` / ``appendStream`` / ``stopStream`` (https://docs.slack.dev/reference/methods/chat.startStream):
  ``markdown_text`` and/or ``chunks``; a stream in a channel (not a DM) needs ``recipient_user_id``
  and ``recipient_team_id``; appending to a stopped stream is ``message_not_in_streaming_state``.
  Each message keeps the chunks it received (``msg["chunks"]``) in order.
- ``assistant.threads.setStatus`` (``thread_ts`` required), ``setSuggestedPrompts`` (1–4 prompts;
  ``thread_ts`` optional — agent apps leave it out), ``setTitle``.
- ``views.open`` (a modal; ``trigger_id`` required) and ``views.publish`` (a Home tab for ``user_id``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.slack_standin.blocks import check_blocks, check_chunks, check_view
from tests.slack_standin.common import (
    MAX_TEXT,
    ApiError,
    bot_message,
    channel_messages,
    clear_status,
    find,
    json_arg,
    req,
)


def _apply(msg: dict[str, Any], args: dict[str, Any]) -> None:
    """Add a stream call's ``markdown_text`` and ``chunks`` to ``msg`` (text chunks extend its text)."""
    chunks = check_chunks(json_arg(args, "chunks")) if args.get("chunks") else []
    msg["text"] = msg.get("text", "") + (args.get("markdown_text") or "")
    msg["text"] += "".join(c["text"] for c in chunks if c["type"] == "markdown_text")
    msg.setdefault("chunks", []).extend(chunks)
    if len(msg["text"]) > MAX_TEXT:
        raise ApiError("msg_too_long")


def start_stream(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, thread_ts = req(args, "channel", "thread_ts")
    msgs = channel_messages(state, channel)
    if thread_ts not in msgs:
        raise ApiError("thread_not_found")
    if not channel.startswith("D") and not (args.get("recipient_user_id") and args.get("recipient_team_id")):
        raise ApiError("invalid_arguments", errors=["recipient_user_id and recipient_team_id are required "
                                                    "when streaming to channels"])
    ts = state.next_ts()
    msg = bot_message(state, ts, {"text": ""}, thread_ts)
    _apply(msg, args)
    msgs[ts] = msg
    state.streams[(channel, ts)] = "open"
    clear_status(state, channel, thread_ts)
    return {"channel": channel, "ts": ts}


def append_stream(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, ts = req(args, "channel", "ts")
    if not (args.get("markdown_text") or args.get("chunks")):
        raise ApiError("invalid_arguments", errors=["markdown_text or chunks is required"])
    if state.streams.get((channel, ts)) != "open":
        raise ApiError("message_not_in_streaming_state")
    _apply(find(state, channel, ts), args)
    return {"channel": channel, "ts": ts}


def stop_stream(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, ts = req(args, "channel", "ts")
    if state.streams.get((channel, ts)) != "open":
        raise ApiError("message_not_in_streaming_state")
    msg = find(state, channel, ts)
    _apply(msg, args)
    blocks = json_arg(args, "blocks")
    if blocks is not None:
        check_blocks(blocks)
        msg["blocks"] = blocks
    state.streams[(channel, ts)] = "stopped"
    return {"channel": channel, "ts": ts, "message": dict(msg)}


def set_status(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, thread_ts = req(args, "channel_id", "thread_ts")
    state.statuses.append({"channel_id": channel, "thread_ts": thread_ts, "status": args.get("status", "")})
    return {}


def set_prompts(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    (channel,) = req(args, "channel_id")
    prompts = json_arg(args, "prompts")
    if not isinstance(prompts, list) or not 0 < len(prompts) <= 4:
        raise ApiError("invalid_arguments", errors=["prompts must hold 1-4 items"])
    if any(not p.get("title") or not p.get("message") for p in prompts):
        raise ApiError("invalid_arguments", errors=["each prompt needs title and message"])
    state.prompts.append({"channel_id": channel, "thread_ts": args.get("thread_ts"), "prompts": prompts,
                          "title": args.get("title")})
    return {}


def set_title(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, thread_ts, title = req(args, "channel_id", "thread_ts", "title")
    state.titles.append({"channel_id": channel, "thread_ts": thread_ts, "title": title})
    return {}


def views_open(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    (trigger_id,) = req(args, "trigger_id")
    view = json_arg(args, "view")
    check_view(view, "modal")
    state.views.append({"trigger_id": trigger_id, "view": view})
    return {"view": {"id": f"V{len(state.views):08d}", **view}}


def views_publish(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    (user,) = req(args, "user_id")
    view = json_arg(args, "view")
    check_view(view, "home")
    state.home_views[user] = view
    return {"view": {"id": f"VHOME{user}", **view}}


AGENT_METHODS: dict[str, Callable[[Any, dict[str, Any]], dict[str, Any]]] = {
    "chat.startStream": start_stream,
    "chat.appendStream": append_stream,
    "chat.stopStream": stop_stream,
    "assistant.threads.setStatus": set_status,
    "assistant.threads.setSuggestedPrompts": set_prompts,
    "assistant.threads.setTitle": set_title,
    "views.open": views_open,
    "views.publish": views_publish,
}
