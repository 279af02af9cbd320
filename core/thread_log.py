"""The messages of threads the bot takes part in, persisted in LanceDB (table ``thread_messages``).

Slack sends the bot a ``message`` event for every message in the channels it is in. The bot keeps
those of threads it answered in (and, once, what ``conversations.replies`` showed of a thread it joined
late), so a follow-up's history is built from its own store: reading thread history from Slack is
rate limited to 1 request a minute and 15 messages for many apps
(https://docs.slack.dev/reference/methods/conversations.replies). Text is stored decoded (as the user
typed it). One row per (channel, ts): adding a message again replaces it. No Slack imports here.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import asdict, dataclass
from typing import Any

import pyarrow as pa

from core.store import sql_str

log = logging.getLogger(__name__)

TABLE = "thread_messages"
SCHEMA = pa.schema([
    ("channel", pa.string()), ("thread_ts", pa.string()), ("ts", pa.string()), ("user", pa.string()),
    ("text", pa.string()), ("created_at", pa.float64()),
])
MAX_THREAD_MESSAGES = 1000
"""Most messages read back for one thread (oldest dropped first)."""


@dataclass(frozen=True)
class ThreadMessage:
    """One human message in a thread: where, who, when (Slack ts strings) and its decoded text."""

    channel: str
    thread_ts: str
    ts: str
    user: str
    text: str
    created_at: float = 0.0


class ThreadLog:
    """Thread messages in the LanceDB database ``db`` (the answer log's). Thread-safe writes."""

    def __init__(self, db: Any) -> None:
        self._table = db.create_table(TABLE, schema=SCHEMA, exist_ok=True)
        self._lock = threading.Lock()

    def add(self, msg: ThreadMessage) -> None:
        """Store ``msg`` (replacing an earlier copy of the same channel and ts)."""
        row = asdict(msg) | {"created_at": msg.created_at or time.time()}
        with self._lock:
            self._table.delete(self._where(msg.channel, msg.ts))
            self._table.add(pa.Table.from_pylist([row], schema=SCHEMA))

    def thread(self, channel: str, thread_ts: str) -> list[ThreadMessage]:
        """The stored messages of a thread, oldest first (at most :data:`MAX_THREAD_MESSAGES`)."""
        where = f"channel = {sql_str(channel)} AND thread_ts = {sql_str(thread_ts)}"
        rows = self._table.search().where(where).limit(None).to_list()
        msgs = sorted((_message(r) for r in rows), key=lambda m: float(m.ts))
        return msgs[-MAX_THREAD_MESSAGES:]

    def has_thread(self, channel: str, thread_ts: str) -> bool:
        """True when any message of this thread is stored."""
        where = f"channel = {sql_str(channel)} AND thread_ts = {sql_str(thread_ts)}"
        return bool(self._table.search().where(where).limit(1).to_list())

    def delete(self, channel: str, ts: str) -> None:
        """Forget the message ``(channel, ts)`` (it was deleted in Slack); no error when unknown."""
        with self._lock:
            self._table.delete(self._where(channel, ts))

    @staticmethod
    def _where(channel: str, ts: str) -> str:
        return f"channel = {sql_str(channel)} AND ts = {sql_str(ts)}"


def _message(r: dict[str, Any]) -> ThreadMessage:
    return ThreadMessage(channel=r["channel"], thread_ts=r["thread_ts"], ts=r["ts"], user=r["user"],
                         text=r["text"], created_at=r["created_at"])
