"""Web API methods of the stand-in: argument checks, Slack's limits and state changes.

Each method takes the :class:`~tests.slack_standin.web_api.SlackState` and the parsed arguments and
returns the response fields (``ok`` is added by the server) or raises :class:`ApiError`.
Limits: https://docs.slack.dev/reference/block-kit/blocks (50 blocks per message, 3,000 characters per
section text), https://docs.slack.dev/reference/methods/chat.postMessage (40,000 characters of text).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.slack_standin.fixtures import load_fixture

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_TEXT = 40000


class ApiError(Exception):
    """An ``ok: false`` response with ``code`` (and extra fields such as ``errors``)."""

    def __init__(self, code: str, **extra: Any) -> None:
        super().__init__(code)
        self.code = code
        self.extra = extra


def _req(args: dict[str, Any], *names: str) -> list[Any]:
    missing = [n for n in names if not args.get(n)]
    if missing:
        raise ApiError("invalid_arguments", errors=[f"missing required field: {n}" for n in missing])
    return [args[n] for n in names]


def _json_arg(args: dict[str, Any], name: str) -> Any:
    value = args.get(name)
    if isinstance(value, str) and value:
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            raise ApiError(f"invalid_{name}") from None
    return value


def check_blocks(blocks: Any) -> None:
    """Raise ``invalid_blocks`` unless ``blocks`` is a list of ≤ 50 valid blocks."""
    if not isinstance(blocks, list):
        raise ApiError("invalid_blocks", errors=["blocks must be an array"])
    if len(blocks) > MAX_BLOCKS:
        raise ApiError("invalid_blocks",
                       errors=[f"no more than {MAX_BLOCKS} items allowed [json-pointer:/blocks]"])
    for i, b in enumerate(blocks):
        _check_block(i, b)


def _check_block(i: int, b: Any) -> None:
    if not isinstance(b, dict) or not b.get("type"):
        raise ApiError("invalid_blocks", errors=[f"missing type [json-pointer:/blocks/{i}]"])
    if b["type"] == "section":
        text = (b.get("text") or {}).get("text", "")
        if not 0 < len(text) <= MAX_SECTION_TEXT:
            raise ApiError("invalid_blocks", errors=[
                f"must be 1-{MAX_SECTION_TEXT} characters [json-pointer:/blocks/{i}/text/text]"])
    elif b["type"] == "context":
        els = b.get("elements") or []
        if not 0 < len(els) <= 10 or any(not (e.get("text") or e.get("image_url")) for e in els):
            raise ApiError("invalid_blocks", errors=[f"bad elements [json-pointer:/blocks/{i}/elements]"])
    elif b["type"] not in {"divider", "rich_text", "markdown", "header", "context_actions", "actions"}:
        raise ApiError("invalid_blocks", errors=[f"unknown block type [json-pointer:/blocks/{i}/type]"])


def _message_body(args: dict[str, Any]) -> dict[str, Any]:
    blocks = _json_arg(args, "blocks")
    text = args.get("text") or ""
    if blocks is not None:
        check_blocks(blocks)
    elif not text:
        raise ApiError("no_text")
    if len(text) > MAX_TEXT:
        raise ApiError("msg_too_long")
    return {"text": text, **({"blocks": blocks} if blocks is not None else {})}


def _bot_message(state: Any, ts: str, body: dict[str, Any], thread_ts: str | None) -> dict[str, Any]:
    msg = {"type": "message", "user": state.bot_user_id, "bot_id": state.bot_id, "ts": ts, **body}
    if thread_ts:
        msg["thread_ts"] = thread_ts
    return msg


def _channel(state: Any, channel: str) -> dict[str, dict[str, Any]]:
    if channel[:1] not in {"C", "G", "D"}:
        raise ApiError("channel_not_found")
    return state.messages.setdefault(channel, {})


def _find(state: Any, channel: str, ts: str) -> dict[str, Any]:
    msg = state.messages.get(channel, {}).get(ts)
    if msg is None:
        raise ApiError("message_not_found")
    return msg


def auth_test(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    body = load_fixture("api/auth.test.json")
    body.pop("ok", None)
    return body | {"user_id": state.bot_user_id, "bot_id": state.bot_id}


def post_message(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    (channel,) = _req(args, "channel")
    body = _message_body(args)
    msgs = _channel(state, channel)
    thread_ts = args.get("thread_ts") or None
    if thread_ts and thread_ts not in msgs:
        raise ApiError("thread_not_found")
    ts = state.next_ts()
    msgs[ts] = _bot_message(state, ts, body, thread_ts)
    _clear_status(state, channel, thread_ts)
    return {"channel": channel, "ts": ts, "message": dict(msgs[ts])}


def update(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, ts = _req(args, "channel", "ts")
    msg = _find(state, channel, ts)
    if msg.get("bot_id") != state.bot_id:
        raise ApiError("cant_update_message")
    body = _message_body(args)
    msg.update(body)
    if "blocks" not in body:
        msg.pop("blocks", None)
    msg["edited"] = {"user": state.bot_user_id, "ts": state.next_ts()}
    return {"channel": channel, "ts": ts, "text": msg["text"], "message": dict(msg)}


def post_ephemeral(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, user = _req(args, "channel", "user")
    body = _message_body(args)
    _channel(state, channel)
    ts = state.next_ts()
    state.ephemerals.append({"channel": channel, "user": user, "ts": ts,
                             "thread_ts": args.get("thread_ts"), **body})
    return {"message_ts": ts}


def start_stream(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, thread_ts = _req(args, "channel", "thread_ts")
    msgs = _channel(state, channel)
    if thread_ts not in msgs:
        raise ApiError("thread_not_found")
    ts = state.next_ts()
    msgs[ts] = _bot_message(state, ts, {"text": args.get("markdown_text") or ""}, thread_ts)
    state.streams[(channel, ts)] = "open"
    _clear_status(state, channel, thread_ts)
    return {"channel": channel, "ts": ts}


def append_stream(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, ts, text = _req(args, "channel", "ts", "markdown_text")
    if state.streams.get((channel, ts)) != "open":
        raise ApiError("message_not_in_streaming_state")
    msg = _find(state, channel, ts)
    msg["text"] += text
    if len(msg["text"]) > MAX_TEXT:
        raise ApiError("msg_too_long")
    return {"channel": channel, "ts": ts}


def stop_stream(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, ts = _req(args, "channel", "ts")
    if state.streams.get((channel, ts)) != "open":
        raise ApiError("message_not_in_streaming_state")
    msg = _find(state, channel, ts)
    msg["text"] += args.get("markdown_text") or ""
    blocks = _json_arg(args, "blocks")
    if blocks is not None:
        check_blocks(blocks)
        msg["blocks"] = blocks
    state.streams[(channel, ts)] = "stopped"
    return {"channel": channel, "ts": ts, "message": dict(msg)}


def replies(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, ts = _req(args, "channel", "ts")
    msgs = _channel(state, channel)
    if ts not in msgs:
        raise ApiError("thread_not_found")
    thread = [m for m in msgs.values() if m["ts"] == ts or m.get("thread_ts") == ts]
    thread.sort(key=lambda m: float(m["ts"]))
    return {"messages": [dict(m) for m in thread], "has_more": False,
            "response_metadata": {"next_cursor": ""}}


def _reaction(state: Any, args: dict[str, Any], add: bool) -> dict[str, Any]:
    channel, ts, name = _req(args, "channel", "timestamp", "name")
    _find(state, channel, ts)
    users = state.reactions.setdefault((channel, ts), {}).setdefault(name, set())
    if add and state.bot_user_id in users:
        raise ApiError("already_reacted")
    if not add and state.bot_user_id not in users:
        raise ApiError("no_reaction")
    (users.add if add else users.discard)(state.bot_user_id)
    return {}


def users_info(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    (user,) = _req(args, "user")
    if not user.startswith(("U", "W")):
        raise ApiError("user_not_found")
    return {"user": {"id": user, "team_id": "T0FAKETEAM", "name": user.lower(), "is_bot": False,
                     "tz": "Etc/UTC", "profile": {"real_name": f"Fake {user}", "display_name": user}}}


def conversations_open(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    """Open (or return) the app's DM with one user: ``channel.id`` is ``D`` + the user id's tail."""
    (users,) = _req(args, "users")
    ids = [u.strip() for u in str(users).split(",") if u.strip()]
    if len(ids) != 1 or not ids[0].startswith(("U", "W")):
        raise ApiError("user_not_found")
    channel = "D" + ids[0][1:]
    state.messages.setdefault(channel, {})
    return {"channel": {"id": channel}}


def _clear_status(state: Any, channel: str, thread_ts: str | None) -> None:
    if thread_ts and any(s["channel_id"] == channel and s["thread_ts"] == thread_ts for s in state.statuses):
        state.statuses.append({"channel_id": channel, "thread_ts": thread_ts, "status": ""})


def set_status(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, thread_ts = _req(args, "channel_id", "thread_ts")
    state.statuses.append({"channel_id": channel, "thread_ts": thread_ts, "status": args.get("status", "")})
    return {}


def set_prompts(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    (channel,) = _req(args, "channel_id")
    prompts = _json_arg(args, "prompts")
    if not isinstance(prompts, list) or not 0 < len(prompts) <= 4:
        raise ApiError("invalid_arguments", errors=["prompts must hold 1-4 items"])
    if any(not p.get("title") or not p.get("message") for p in prompts):
        raise ApiError("invalid_arguments", errors=["each prompt needs title and message"])
    state.prompts.append({"channel_id": channel, "thread_ts": args.get("thread_ts"), "prompts": prompts})
    return {}


def set_title(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, thread_ts, title = _req(args, "channel_id", "thread_ts", "title")
    state.titles.append({"channel_id": channel, "thread_ts": thread_ts, "title": title})
    return {}


def connections_open(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    if not state.socket_url:
        raise ApiError("socket_mode_not_enabled")
    return {"url": state.socket_url}


METHODS: dict[str, Callable[[Any, dict[str, Any]], dict[str, Any]]] = {
    "auth.test": auth_test,
    "chat.postMessage": post_message,
    "chat.update": update,
    "chat.postEphemeral": post_ephemeral,
    "chat.startStream": start_stream,
    "chat.appendStream": append_stream,
    "chat.stopStream": stop_stream,
    "conversations.replies": replies,
    "conversations.open": conversations_open,
    "reactions.add": lambda s, a: _reaction(s, a, True),
    "reactions.remove": lambda s, a: _reaction(s, a, False),
    "users.info": users_info,
    "assistant.threads.setStatus": set_status,
    "assistant.threads.setSuggestedPrompts": set_prompts,
    "assistant.threads.setTitle": set_title,
    "apps.connections.open": connections_open,
}
