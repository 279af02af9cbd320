"""Answer one question in Slack: status, history, the answer service, the reply, the answer log.

Runs in the background executor, never in a listener, always through a :class:`~bot.reply.Reply`
opened by :class:`~bot.boundary.Replies` (so a failure or a timeout still ends in exactly one reply).
Order in the thread: the status ("Searching the policies…") right away, then the service's progress
steps as task updates, the streamed answer text, and the sources with the feedback buttons.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import deque
from collections.abc import Sequence

from slack_sdk import WebClient

from bot.history import History
from bot.questions import Question, scope_for
from bot.render import render_answer
from bot.reply import Reply
from core.answer_log import AnswerLog, AnswerRecord
from core.config import Settings
from core.errors import PolicybotError
from core.service import AnswerService
from core.types import Answer, Progress, Turn

log = logging.getLogger(__name__)

STATUS_TEXT = "Searching the policies…"


class Responder:
    """Answers :class:`~bot.questions.Question` objects in Slack; collaborators by constructor."""

    def __init__(self, settings: Settings, client: WebClient, service: AnswerService,
                 answer_log: AnswerLog, history: History) -> None:
        self.settings = settings
        self.client = client
        self.service = service
        self.log = answer_log
        self.history = history
        self.handler_ms: deque[float] = deque(maxlen=1000)
        """Milliseconds from picking up a question to its logged answer (latest 1,000)."""

    def answer(self, q: Question, reply: Reply, *, bot_user_id: str | None = None) -> AnswerRecord:
        """Ask the service, deliver the answer through ``reply`` and log it; returns the record.

        Raises whatever fails (the caller's boundary turns it into the reply), and
        :class:`~bot.reply.ReplyClosed` when the reply was closed meanwhile (timeout, deletion).
        """
        start = time.perf_counter()
        reply.status(STATUS_TEXT)
        history = self.history.turns(q, bot_user_id)
        scope = scope_for(self.settings.slack, q.channel, q.is_dm)
        answer = self._ask(q, reply, history, scope)
        parts = reply.finish(answer)
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

    def _ask(self, q: Question, reply: Reply, history: Sequence[Turn], scope: Sequence[str]) -> Answer:
        for item in self.service.ask_stream(q.text, history=history, scope=scope):
            if isinstance(item, Answer):
                return item
            if isinstance(item, Progress):
                reply.progress(item)
            elif item:
                reply.add(item)
        raise PolicybotError("the answer service ended without an answer; check its logs")

    def ask_ephemeral(self, q: Question) -> Answer:
        """Answer ``q`` visible only to the asker (slash command); not logged, no votes."""
        scope = scope_for(self.settings.slack, q.channel, q.is_dm)
        answer = self.service.ask(q.text, history=(), scope=scope)
        for m in render_answer(answer, base_url=self.settings.links.base_url, feedback=False):
            self.client.chat_postEphemeral(channel=q.channel, user=q.user, text=m.text, blocks=m.blocks)
        return answer
