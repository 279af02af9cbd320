"""Stream an answer into Slack as the answer service produces it.

Primary path: the chat stream API — ``chat.startStream`` / ``chat.appendStream`` / ``chat.stopStream``
(https://docs.slack.dev/reference/methods/chat.startStream); the sources and the vote hint are attached
as blocks when the stream stops. Fallback when the stream API is refused (older workspaces, missing
scope, unknown method): post the first text, ``chat.update`` it as more arrives, and replace it with
the fully rendered answer at the end.
"""

from __future__ import annotations

import logging

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.questions import Question
from bot.render import escape, render_answer, tail_blocks
from core.types import Answer

log = logging.getLogger(__name__)

APPEND_CHARS = 256
"""Buffer this many characters before ``chat.appendStream`` (slack_sdk's ChatStream default)."""
UPDATE_CHARS = 1000
"""Buffer this many characters between ``chat.update`` calls in the fallback (Tier 3: ~50/min)."""


class SlackStream:
    """One streamed reply to ``q``. Call :meth:`add` per text delta, then :meth:`finish`."""

    def __init__(self, client: WebClient, q: Question, base_url: str | None) -> None:
        self.client = client
        self.q = q
        self.base_url = base_url
        self.ts: str | None = None
        self.mode: str = "none"  # "stream" | "update"
        self.sent = ""  # escaped text already in Slack
        self.buffer = ""

    @property
    def started(self) -> bool:
        """True once a message exists in Slack."""
        return self.ts is not None

    def add(self, delta: str) -> None:
        """Buffer ``delta`` (escaped) and send when enough has accumulated (the first delta at once)."""
        self.buffer += escape(delta)
        if not self.started:
            self._start()
        elif len(self.buffer) >= (APPEND_CHARS if self.mode == "stream" else UPDATE_CHARS):
            self._flush()

    def finish(self, answer: Answer) -> list[str]:
        """Send the rest, attach sources and hint; returns the ts of every message of the answer."""
        self._flush()
        assert self.ts is not None
        if self.mode == "stream":
            self.client.chat_stopStream(channel=self.q.channel, ts=self.ts,
                                        blocks=tail_blocks(answer, self.base_url))
            if self.sent == escape(answer.answer):
                return [self.ts]
            log.warning("streamed text differs from the final answer; replacing it")
        messages = render_answer(answer, base_url=self.base_url)
        self.client.chat_update(channel=self.q.channel, ts=self.ts, text=messages[0].text,
                                blocks=messages[0].blocks)
        rest = [self.client.chat_postMessage(channel=self.q.channel, thread_ts=self.q.thread_ts, text=m.text,
                                             blocks=m.blocks, unfurl_links=False)["ts"] for m in messages[1:]]
        return [self.ts, *rest]

    def _start(self) -> None:
        text, self.buffer = self.buffer, ""
        try:
            resp = self.client.chat_startStream(
                channel=self.q.channel, thread_ts=self.q.thread_ts, markdown_text=text,
                recipient_user_id=self.q.user, recipient_team_id=self.q.team)
            self.mode = "stream"
        except SlackApiError as exc:
            log.info("chat.startStream refused (%s); falling back to chat.update", exc.response.get("error"))
            resp = self.client.chat_postMessage(channel=self.q.channel, thread_ts=self.q.thread_ts,
                                                text=text[:3000] or "…")
            self.mode = "update"
        self.ts = str(resp["ts"])
        self.sent = text

    def _flush(self) -> None:
        if not self.buffer or self.ts is None:
            return
        text, self.buffer = self.buffer, ""
        if self.mode == "stream":
            self.client.chat_appendStream(channel=self.q.channel, ts=self.ts, markdown_text=text)
            self.sent += text
        else:
            self.sent += text
            self.client.chat_update(channel=self.q.channel, ts=self.ts, text=self.sent[:40000])
