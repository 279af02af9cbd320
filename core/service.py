"""The answer service: the one interface the CLI, the console chat, the Slack bot and eval call.

``ask`` turns a question (plus the thread's history and the asker's folder scope) into an
:class:`~core.types.Answer`. ``ask_stream`` yields text deltas as a provider streams them and ends with
the final Answer. Implementations live beside this protocol; callers receive one by constructor.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from core.types import Answer, Turn


class AnswerService(Protocol):
    """Answers questions about the indexed policies."""

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)) -> Answer:
        """Answer ``question``. ``scope`` holds folder globs (relative to the policy root, ``**`` = all);
        retrieval never uses documents outside it. Never raises for a bad question: it refuses."""
        ...

    def ask_stream(
        self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)
    ) -> Iterator[str | Answer]:
        """Like :meth:`ask`, but yields text deltas (str) first and the final :class:`Answer` last."""
        ...
