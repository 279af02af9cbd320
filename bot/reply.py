"""The one reply to one question in Slack — streamed, updated or posted — and never a second one.

Modes (https://docs.slack.dev/reference/methods/chat.startStream and chat.appendStream/stopStream):

- ``stream`` (``slack.stream``): the first progress step starts the stream with a ``task_update``
  chunk; each later step marks the previous task complete and the next one in progress; the answer
  text follows as ``markdown_text`` (buffered); ``chat.stopStream`` completes the last task and attaches
  the sources and the feedback buttons.
- ``update``: when ``chat.startStream`` is refused (old workspace, missing scope, unknown method — not
  a 5xx), progress goes to the thread status, the first text is posted and ``chat.update``-d as more
  arrives, and the rendered answer replaces it at the end.
- ``post`` (streaming off, or nothing was streamed): progress as thread status, the rendered answer
  posted at the end.

Closing: :meth:`Reply.finish` delivers the answer; :meth:`Reply.fail` writes a failure as *the* reply
(into the message that already exists, else a new message, retried on 5xx and rate limits for up to
~8 s) and clears the status; :meth:`Reply.cancel` closes a reply whose work has not started. After
closing, every write raises :class:`ReplyClosed`, so a late answer is dropped, not posted twice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.models.messages.chunk import TaskUpdateChunk

from bot.questions import Question
from bot.render import Block, escape, progress_title, render_answer, render_notice, tail_blocks
from core.types import Answer, Progress

log = logging.getLogger(__name__)

T = TypeVar("T")
APPEND_CHARS = 256
"""Buffer this many characters before ``chat.appendStream`` (slack_sdk's ChatStream default)."""
UPDATE_CHARS = 1000
"""Buffer this many characters between ``chat.update`` calls in the fallback (Tier 3: ~50/min)."""
MAX_APPEND_CHARS = 10_000
"""Largest ``markdown_text`` per stream call (Slack's limit is 12,000)."""
RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0)
"""Waits between attempts to deliver a failure reply: 5 attempts within 7.5 s."""
TRANSIENT_ERRORS = {"ratelimited", "internal_error", "fatal_error", "service_unavailable", "request_timeout"}


class ReplyClosed(Exception):
    """The reply was already closed (answered, failed, timed out or cancelled)."""


def transient(exc: Exception) -> bool:
    """True for a Slack failure worth retrying: HTTP 5xx, a rate limit or a server-side error code."""
    if isinstance(exc, SlackApiError):
        return exc.response.status_code >= 500 or exc.response.get("error") in TRANSIENT_ERRORS
    return isinstance(exc, OSError)


class Reply:
    """The reply to ``q`` (see the module docstring). Thread-safe; all Slack writes hold its lock."""

    def __init__(self, client: WebClient, q: Question, *, base_url: str | None, stream: bool) -> None:
        self.client, self.q, self.base_url = client, q, base_url
        self.mode: Literal["stream", "update", "post"] = "stream" if stream else "post"
        self.ts: str | None = None
        self.sent = ""  # escaped text already in Slack
        self.buffer = ""
        self.task: tuple[str, str] | None = None  # (id, title) of the task in progress
        self.answer: Answer | None = None  # set once delivered
        self.started = self.closed = False
        self.lock = threading.RLock()

    # ---- lifecycle -------------------------------------------------------------------------
    def begin(self) -> bool:
        """Mark the work as started; False when the reply is already closed (skip the work)."""
        with self.lock:
            self.started = not self.closed
            return self.started

    def cancel(self) -> bool:
        """Close without a word if the work has not started (its question was deleted)."""
        with self.lock:
            if self.started or self.closed:
                return False
            self.closed = True
            return True

    def close(self) -> None:
        """Nothing more will be written (the answer is delivered and logged)."""
        with self.lock:
            self.closed = True

    def _check(self) -> None:
        if self.closed:
            raise ReplyClosed(f"reply to {self.q.channel}/{self.q.ts} is closed")

    # ---- progress and text -----------------------------------------------------------------
    def status(self, text: str) -> None:
        """Set (``""``: clear) the thread's status line; a refusal is logged, never raised."""
        try:
            self.client.assistant_threads_setStatus(channel_id=self.q.channel, thread_ts=self.q.thread_ts,
                                                    status=text)
        except SlackApiError as exc:
            log.debug("assistant.threads.setStatus refused (%s)", exc.response.get("error"))

    def progress(self, p: Progress) -> None:
        """Show a step: a task update in the stream, else the thread status."""
        with self.lock:
            self._check()
            title = progress_title(p)
            if self.mode != "stream":
                self.status(title + "…")
                return
            chunks = [] if self.task is None else [_task(*self.task, "complete")]
            chunks.append(_task(p.step, title, "in_progress"))
            self.task = (p.step, title)
            if self.ts is None:
                self._start(chunks=chunks)
            else:
                self.client.chat_appendStream(channel=self.q.channel, ts=self.ts, chunks=chunks)

    def add(self, delta: str) -> None:
        """Add answer text (escaped); sent when enough has accumulated (at once for the first text)."""
        with self.lock:
            self._check()
            self.buffer += escape(delta)
            if self.mode == "post":
                return
            if self.ts is None and self.mode == "stream":
                self._start(text=self.buffer)
            elif self.ts is None:
                self._post_first()
            elif len(self.buffer) >= (APPEND_CHARS if self.mode == "stream" else UPDATE_CHARS):
                self._flush()

    def finish(self, answer: Answer) -> list[str]:
        """Deliver ``answer`` with sources and feedback buttons; the ts of each of its messages."""
        with self.lock:
            self._check()
            if self.mode == "stream" and self.ts is not None:
                parts = self._stop(answer)
            elif self.mode == "update" and self.ts is not None:
                parts = self._replace(answer)
            else:
                parts = self._post_all(answer)
            self.answer = answer
            return parts

    def say(self, text: str) -> None:
        """Post ``text`` as the whole reply (a hint, not an answer) and close."""
        with self.lock:
            self._check()
            msg = render_notice(text)
            self.ts = self._post(msg.text, msg.blocks)
            self.closed = True

    # ---- failure ---------------------------------------------------------------------------
    def fail(self, text: str) -> bool:
        """Make ``text`` the reply (or a note under a delivered answer) and close; False when the
        reply was already closed. The status is cleared either way."""
        with self.lock:
            if self.closed:
                return False
            self.closed = True
            try:
                self._write_failure(text)
            finally:
                self.status("")
            return True

    def time_out(self, text: str) -> bool:
        """:meth:`fail` with ``text`` unless the answer was already delivered (then the late
        logging is no reason to say anything); False when nothing was written."""
        with self.lock:
            return self.answer is None and self.fail(text)

    def _write_failure(self, text: str) -> None:
        ts = self.ts
        if ts is None:
            msg = render_notice(text)
            self.ts = self._post(msg.text, msg.blocks, retry=True)
        elif self.answer is not None:
            blocks = render_answer(self.answer, base_url=self.base_url)[0].blocks
            note = {"type": "context", "elements": [{"type": "mrkdwn", "text": escape(text)}]}
            self._deliver(lambda: self.client.chat_update(channel=self.q.channel, ts=ts, text=text,
                                                          blocks=[*blocks, note]))
        elif self.mode == "stream":
            chunks = [_task(*self.task, "error")] if self.task else None
            self._deliver(lambda: self.client.chat_stopStream(
                channel=self.q.channel, ts=ts, markdown_text="\n\n" + escape(text), chunks=chunks))
        else:
            msg = render_notice(text)
            self._deliver(lambda: self.client.chat_update(channel=self.q.channel, ts=ts, text=msg.text,
                                                          blocks=msg.blocks))

    def _deliver(self, call: Callable[[], T]) -> T:
        for delay in (*RETRY_DELAYS_S, None):
            try:
                return call()
            except (SlackApiError, OSError) as exc:
                if delay is None or not transient(exc):
                    raise
                log.warning("Slack write failed (%s); retrying in %.1f s", exc, delay)
                time.sleep(delay)
        raise AssertionError("unreachable")

    # ---- Slack calls -----------------------------------------------------------------------
    def _post(self, text: str, blocks: list[Block] | None, *, retry: bool = False) -> str:
        def call() -> Any:
            return self.client.chat_postMessage(channel=self.q.channel, thread_ts=self.q.thread_ts, text=text,
                                                blocks=blocks, unfurl_links=False)
        return str((self._deliver(call) if retry else call())["ts"])

    def _start(self, *, text: str = "", chunks: list[TaskUpdateChunk] | None = None) -> None:
        try:
            resp = self.client.chat_startStream(
                channel=self.q.channel, thread_ts=self.q.thread_ts, markdown_text=text or None,
                chunks=chunks, recipient_user_id=self.q.user, recipient_team_id=self.q.team)
        except SlackApiError as exc:
            if transient(exc):
                raise
            log.info("chat.startStream refused (%s); falling back to chat.update", exc.response.get("error"))
            self.mode = "update"
            if self.task is not None:
                self.status(self.task[1] + "…")
            if text:
                self._post_first()
            return
        self.ts, self.sent = str(resp["ts"]), text
        self.buffer = "" if text else self.buffer

    def _post_first(self) -> None:
        text, self.buffer = self.buffer, ""
        self.ts, self.sent = self._post(text[:3000] or "…", None), text

    def _flush(self) -> None:
        while self.buffer and self.ts is not None:
            text, self.buffer = self.buffer[:MAX_APPEND_CHARS], self.buffer[MAX_APPEND_CHARS:]
            self.sent += text
            if self.mode == "stream":
                self.client.chat_appendStream(channel=self.q.channel, ts=self.ts, markdown_text=text)
            else:
                self.client.chat_update(channel=self.q.channel, ts=self.ts, text=self.sent[:40000])

    def _stop(self, answer: Answer) -> list[str]:
        assert self.ts is not None
        if not self.sent and not self.buffer:
            self.buffer = escape(answer.answer)
        self._flush()
        chunks = [_task(*self.task, "complete")] if self.task else None
        self.client.chat_stopStream(channel=self.q.channel, ts=self.ts, chunks=chunks,
                                    blocks=tail_blocks(answer, self.base_url))
        if self.sent == escape(answer.answer):
            return [self.ts]
        log.warning("streamed text differs from the final answer; replacing it")
        return self._replace(answer)

    def _replace(self, answer: Answer) -> list[str]:
        assert self.ts is not None
        self._flush()
        first, *rest = render_answer(answer, base_url=self.base_url)
        self.client.chat_update(channel=self.q.channel, ts=self.ts, text=first.text, blocks=first.blocks)
        return [self.ts, *(self._post(m.text, m.blocks) for m in rest)]

    def _post_all(self, answer: Answer) -> list[str]:
        parts: list[str] = []
        for m in render_answer(answer, base_url=self.base_url):
            parts.append(self._post(m.text, m.blocks))
            if self.ts is None:
                self.ts = parts[0]
        return parts


def _task(task_id: str, title: str, status: str) -> TaskUpdateChunk:
    return TaskUpdateChunk(id=task_id, title=title, status=status)
