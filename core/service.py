"""The answer service: the one interface the CLI, the console chat, the Slack bot and eval call.

``ask`` turns a question (plus the thread's history and the asker's folder scope) into an
:class:`~core.types.Answer`. ``ask_stream`` yields :class:`~core.types.Progress` steps (searching,
reading, answering), then text deltas as a provider streams them, and ends with the final Answer.
Implementations live beside this protocol; callers receive one by constructor.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from core.types import Answer, Progress, Turn

StreamItem = str | Progress | Answer
"""What ``ask_stream`` yields: progress steps, text deltas, and last the final Answer."""


class AnswerService(Protocol):
    """Answers questions about the indexed policies."""

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)) -> Answer:
        """Answer ``question``. ``scope`` holds folder globs (relative to the policy root, ``**`` = all);
        retrieval never uses documents outside it. Never raises for a bad question: it refuses."""
        ...

    def ask_stream(
        self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)
    ) -> Iterator[StreamItem]:
        """Like :meth:`ask`, but yields :class:`Progress` steps and text deltas (str) first and the
        final :class:`Answer` last. Callers that show only text skip the Progress items."""
        ...
