"""Answer one question in Slack: thread history, the answer service, posting (streamed or not), logging.

Runs in the background executor, never in a listener. History for follow-ups comes from the answer
log (questions and answers exactly as asked and given), topped up with ``conversations.replies`` for
the thread's other human messages when the bot may read them.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import deque
from collections.abc import Sequence
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.questions import Question, clean_text, scope_for
from bot.render import SlackMessage, render_answer, render_notice
from bot.streaming import SlackStream
from core.answer_log import AnswerLog, AnswerRecord
from core.config import Settings
from core.errors import PolicybotError
from core.service import AnswerService
from core.types import Answer, Turn

log = logging.getLogger(__name__)

STATUS_TEXT = "Searching the policies…"
MAX_HISTORY_MESSAGES = 50


class Responder:
    """Answers :class:`~bot.questions.Question` objects in Slack; collaborators by constructor."""

    def __init__(self, settings: Settings, client: WebClient, service: AnswerService,
                 answer_log: AnswerLog) -> None:
        self.settings = settings
        self.client = client
        self.service = service
        self.log = answer_log
        self.handler_ms: deque[float] = deque(maxlen=1000)
        """Milliseconds from picking up a question to its logged answer (latest 1,000)."""

    def answer(self, q: Question, *, bot_user_id: str | None = None) -> AnswerRecord | None:
        """Ask the service and post the answer in ``q``'s thread; returns the logged record.

        A service failure posts an apology (the PolicybotError message when there is one).
        """
        start = time.perf_counter()
        self._set_status(q, STATUS_TEXT)
        history = self.history(q, bot_user_id)
        scope = scope_for(self.settings.slack, q.channel, q.is_dm)
        try:
            answer, parts = self._ask_and_post(q, history, scope)
        except PolicybotError as exc:
            self.notice(q, f"Sorry, I could not answer that: {exc}")
            return None
        rec = AnswerRecord(
            answer_id=uuid.uuid4().hex, channel=q.channel, thread_ts=q.thread_ts, question_ts=q.ts,
            message_ts=parts[0], user=q.user, question=q.text, answer=answer.answer,
            citations=list(answer.citations), provider=answer.provider, cached=answer.cached,
            parts=tuple(parts), scope=tuple(scope), details=dict(answer.details), found=answer.found,
            answerability=getattr(answer, "answerability", None))  # None until the service rates it
        self.log.record(rec)
        ms = (time.perf_counter() - start) * 1000
        self.handler_ms.append(ms)
        log.info("answered %s/%s in %.0f ms (%s, %d messages, history %d)", q.channel, q.ts, ms,
                 answer.provider, len(parts), len(history))
        return rec

    def history(self, q: Question, bot_user_id: str | None = None) -> list[Turn]:
        """The thread's turns before ``q``, oldest first (empty for a new thread)."""
        if not q.in_thread:
            return []
        timed: list[tuple[float, Turn]] = []
        known: set[str] = set()
        for rec in self.log.thread(q.channel, q.thread_ts):
            if float(rec.question_ts) < float(q.ts):
                timed += [(float(rec.question_ts), Turn("user", rec.question)),
                          (float(rec.message_ts), Turn("assistant", rec.answer))]
            known |= {rec.question_ts, *rec.parts}
        for m in self._replies(q):
            ts = str(m.get("ts", ""))
            if ts in known or not ts or float(ts) >= float(q.ts) or m.get("bot_id") or m.get("subtype"):
                continue
            text = clean_text(str(m.get("text") or ""), bot_user_id)
            if text:
                timed.append((float(ts), Turn("user", text)))
        timed.sort(key=lambda t: t[0])
        return [t for _, t in timed]

    def notice(self, q: Question, text: str, *, ephemeral: bool = False) -> None:
        """Post a short bot message in ``q``'s thread (ephemeral to the asker when asked)."""
        msg = render_notice(text)
        if ephemeral:
            self.client.chat_postEphemeral(channel=q.channel, user=q.user, thread_ts=q.thread_ts,
                                           text=msg.text, blocks=msg.blocks)
        else:
            self.client.chat_postMessage(channel=q.channel, thread_ts=q.thread_ts, text=msg.text,
                                         blocks=msg.blocks)

    def ask_ephemeral(self, q: Question) -> Answer:
        """Answer ``q`` visible only to the asker (slash command); not logged, no votes."""
        scope = scope_for(self.settings.slack, q.channel, q.is_dm)
        answer = self.service.ask(q.text, history=(), scope=scope)
        for m in render_answer(answer, base_url=self.settings.links.base_url):
            self.client.chat_postEphemeral(channel=q.channel, user=q.user, text=m.text, blocks=m.blocks)
        return answer

    def _ask_and_post(self, q: Question, history: Sequence[Turn],
                      scope: Sequence[str]) -> tuple[Answer, list[str]]:
        base = self.settings.links.base_url
        if not self.settings.slack.stream:
            answer = self.service.ask(q.text, history=history, scope=scope)
            return answer, self._post(q, render_answer(answer, base_url=base))
        stream = SlackStream(self.client, q, base)
        final: Answer | None = None
        for item in self.service.ask_stream(q.text, history=history, scope=scope):
            if isinstance(item, Answer):
                final = item
                break
            if item:
                stream.add(item)
        if final is None:
            raise PolicybotError("the answer service ended without an answer; check its logs")
        if not stream.started:
            return final, self._post(q, render_answer(final, base_url=base))
        return final, stream.finish(final)

    def _post(self, q: Question, messages: Sequence[SlackMessage]) -> list[str]:
        return [str(self.client.chat_postMessage(channel=q.channel, thread_ts=q.thread_ts, text=m.text,
                                                 blocks=m.blocks, unfurl_links=False)["ts"])
                for m in messages]

    def _replies(self, q: Question) -> list[dict[str, Any]]:
        try:
            resp = self.client.conversations_replies(channel=q.channel, ts=q.thread_ts,
                                                     limit=MAX_HISTORY_MESSAGES)
        except SlackApiError as exc:
            log.info("conversations.replies unavailable (%s); history from the log only",
                     exc.response.get("error"))
            return []
        return list(resp.get("messages") or [])

    def _set_status(self, q: Question, status: str) -> None:
        if not (q.is_dm and q.in_thread):
            return
        try:
            self.client.assistant_threads_setStatus(channel_id=q.channel, thread_ts=q.thread_ts,
                                                    status=status)
        except SlackApiError as exc:
            log.debug("assistant.threads.setStatus refused (%s)", exc.response.get("error"))
