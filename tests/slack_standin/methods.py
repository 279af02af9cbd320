"""Web API methods of the stand-in: argument checks, Slack's limits and state changes.

Each method takes the :class:`~tests.slack_standin.web_api.SlackState` and the parsed arguments and
returns the response fields (``ok`` is added by the server) or raises :class:`ApiError`. The agent
methods (chat stream, assistant threads, views) live in :mod:`tests.slack_standin.agent`; block, view
and chunk validation in :mod:`tests.slack_standin.blocks`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.slack_standin.agent import AGENT_METHODS
from tests.slack_standin.blocks import check_blocks
from tests.slack_standin.common import (
    MAX_BLOCKS,
    MAX_SECTION_TEXT,
    MAX_TEXT,
    ApiError,
    bot_message,
    channel_messages,
    clear_status,
    find,
    json_arg,
    req,
)
from tests.slack_standin.fixtures import load_fixture

__all__ = ["MAX_BLOCKS", "MAX_SECTION_TEXT", "METHODS", "ApiError", "check_blocks"]


def _message_body(args: dict[str, Any]) -> dict[str, Any]:
    blocks = json_arg(args, "blocks")
    text = args.get("text") or ""
    if blocks is not None:
        check_blocks(blocks)
    elif not text:
        raise ApiError("no_text")
    if len(text) > MAX_TEXT:
        raise ApiError("msg_too_long")
    return {"text": text, **({"blocks": blocks} if blocks is not None else {})}


def auth_test(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    body = load_fixture("api/auth.test.json")
    body.pop("ok", None)
    return body | {"user_id": state.bot_user_id, "bot_id": state.bot_id}


def post_message(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    (channel,) = req(args, "channel")
    body = _message_body(args)
    msgs = channel_messages(state, channel)
    thread_ts = args.get("thread_ts") or None
    if thread_ts and thread_ts not in msgs:
        raise ApiError("thread_not_found")
    ts = state.next_ts()
    msgs[ts] = bot_message(state, ts, body, thread_ts)
    clear_status(state, channel, thread_ts)
    return {"channel": channel, "ts": ts, "message": dict(msgs[ts])}


def update(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, ts = req(args, "channel", "ts")
    msg = find(state, channel, ts)
    if msg.get("bot_id") != state.bot_id:
        raise ApiError("cant_update_message")
    body = _message_body(args)
    msg.update(body)
    if "blocks" not in body:
        msg.pop("blocks", None)
    msg["edited"] = {"user": state.bot_user_id, "ts": state.next_ts()}
    return {"channel": channel, "ts": ts, "text": msg["text"], "message": dict(msg)}


def post_ephemeral(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, user = req(args, "channel", "user")
    body = _message_body(args)
    channel_messages(state, channel)
    ts = state.next_ts()
    state.ephemerals.append({"channel": channel, "user": user, "ts": ts,
                             "thread_ts": args.get("thread_ts"), **body})
    return {"message_ts": ts}


def replies(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    channel, ts = req(args, "channel", "ts")
    msgs = channel_messages(state, channel)
    if ts not in msgs:
        raise ApiError("thread_not_found")
    thread = [m for m in msgs.values() if m["ts"] == ts or m.get("thread_ts") == ts]
    thread.sort(key=lambda m: float(m["ts"]))
    return {"messages": [dict(m) for m in thread], "has_more": False,
            "response_metadata": {"next_cursor": ""}}


def _reaction(state: Any, args: dict[str, Any], add: bool) -> dict[str, Any]:
    channel, ts, name = req(args, "channel", "timestamp", "name")
    find(state, channel, ts)
    users = state.reactions.setdefault((channel, ts), {}).setdefault(name, set())
    if add and state.bot_user_id in users:
        raise ApiError("already_reacted")
    if not add and state.bot_user_id not in users:
        raise ApiError("no_reaction")
    (users.add if add else users.discard)(state.bot_user_id)
    return {}


def users_info(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    (user,) = req(args, "user")
    if not user.startswith(("U", "W")):
        raise ApiError("user_not_found")
    team = state.user_teams.get(user, "T0FAKETEAM")
    body = {"id": user, "team_id": team, "name": user.lower(), "is_bot": False, "tz": "Etc/UTC",
            "profile": {"real_name": f"Fake {user}", "display_name": user}}
    if user in state.user_enterprises:  # an Enterprise Grid user (users.info's enterprise_user object)
        body["enterprise_user"] = {"id": user, "enterprise_id": state.user_enterprises[user],
                                   "teams": [team]}
    return {"user": body}


def conversations_open(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    """Open (or return) the app's DM with one user: ``channel.id`` is ``D`` + the user id's tail."""
    (users,) = req(args, "users")
    ids = [u.strip() for u in str(users).split(",") if u.strip()]
    if len(ids) != 1 or not ids[0].startswith(("U", "W")):
        raise ApiError("user_not_found")
    channel = "D" + ids[0][1:]
    state.messages.setdefault(channel, {})
    return {"channel": {"id": channel}}


def connections_open(state: Any, args: dict[str, Any]) -> dict[str, Any]:
    if not state.socket_url:
        raise ApiError("socket_mode_not_enabled")
    return {"url": state.socket_url}


METHODS: dict[str, Callable[[Any, dict[str, Any]], dict[str, Any]]] = {
    "auth.test": auth_test,
    "chat.postMessage": post_message,
    "chat.update": update,
    "chat.postEphemeral": post_ephemeral,
    "conversations.replies": replies,
    "conversations.open": conversations_open,
    "reactions.add": lambda s, a: _reaction(s, a, True),
    "reactions.remove": lambda s, a: _reaction(s, a, False),
    "users.info": users_info,
    "apps.connections.open": connections_open,
    **AGENT_METHODS,
}
