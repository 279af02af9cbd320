"""Count and time every question: an :class:`~core.service.AnswerService` wrapper that gives each
question a request id (the ``request_id`` of every log record written while it is answered,
:data:`core.request_id.REQUEST_ID`) and records its outcome, surface and stage latencies in
:class:`core.metrics.Metrics`.

The question text is logged only at DEBUG; INFO carries the request id, the surface, the outcome and
the time.
"""

from __future__ import annotations

import contextvars
import logging
import time
from collections.abc import Iterator, Sequence

from core.metrics import Metrics, outcome_of
from core.request_id import REQUEST_ID, new_request_id
from core.service import AnswerService, StreamItem
from core.types import Answer, Turn

log = logging.getLogger(__name__)

class MeteredAnswerService:
    """``inner`` with metrics and a request id per question.

    Args:
        inner: the answer service to wrap.
        metrics: the process's :class:`Metrics`.
        surface: where questions come from (``slack``, ``cli``, ``console``; :data:`core.metrics.SURFACES`).
    """

    def __init__(self, inner: AnswerService, metrics: Metrics, surface: str) -> None:
        self.inner = inner
        self.metrics = metrics
        self.surface = surface

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)) -> Answer:
        """``inner.ask``, counted and timed (an exception is counted as ``error`` and re-raised)."""
        token, t0 = self._start(question), time.perf_counter()
        answer: Answer | None = None
        try:
            answer = self.inner.ask(question, history=history, scope=scope)
            return answer
        finally:
            self._finish(answer, t0, token)

    def ask_stream(
        self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)
    ) -> Iterator[StreamItem]:
        """``inner.ask_stream``, counted and timed when the final Answer arrives (or the stream fails)."""
        token, t0 = self._start(question), time.perf_counter()
        answer: Answer | None = None
        try:
            for item in self.inner.ask_stream(question, history=history, scope=scope):
                if isinstance(item, Answer):
                    answer = item
                yield item
        finally:
            self._finish(answer, t0, token)

    def _start(self, question: str) -> contextvars.Token[str]:
        token = REQUEST_ID.set(new_request_id())
        log.debug("question (%s): %s", self.surface, question)
        return token

    def _finish(self, answer: Answer | None, t0: float, token: contextvars.Token[str]) -> None:
        seconds = time.perf_counter() - t0
        try:
            self.metrics.question(self.surface, answer, seconds)
            log.info("answered surface=%s outcome=%s in %.3f s", self.surface,
                     "error" if answer is None else outcome_of(answer), seconds)
        finally:
            try:
                REQUEST_ID.reset(token)
            except ValueError:  # a stream finished in another context than it started in
                REQUEST_ID.set("")
