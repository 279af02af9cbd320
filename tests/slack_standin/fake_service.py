"""A deterministic answer service for the bot tests (the model is not the subject).

It knows a few facts keyed by (subject, plan). A follow-up that names only a plan ("And for Plan B?")
takes its subject from the latest user turn of the history, so it can only be answered when the bot
passes the thread's history. Every call is recorded (question, history, scope).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from core.service import StreamItem
from core.types import Answer, Citation, Progress, Turn

FACTS = {
    ("grace period", "plan a"): "Plan A allows a grace period of thirty days for premium payment.",
    ("grace period", "plan b"): "Plan B allows a grace period of fifteen days for premium payment.",
    ("parental leave", ""): "Parental leave is 16 weeks at full pay for every parent.",
    ("vacation", ""): "Full-time staff get 25 vacation days a year.",
}
SUBJECTS = ("grace period", "parental leave", "vacation")
PLANS = ("plan a", "plan b")
NOT_FOUND = "I could not find this in the policies."


@dataclass(frozen=True)
class AskCall:
    """One recorded call of the fake service."""

    question: str
    history: tuple[Turn, ...]
    scope: tuple[str, ...]


@dataclass
class FakeAnswerService:
    """Implements :class:`core.service.AnswerService` deterministically.

    ``long_answer`` (characters) makes every answer that long; ``extra_text`` is appended (e.g. text
    containing ``<!channel>`` as a document might); ``delay_s`` simulates work; ``stream_words``
    makes ``ask_stream`` yield word deltas (otherwise it yields only the final Answer).
    """

    long_answer: int = 0
    extra_text: str = ""
    delay_s: float = 0.0
    stream_words: bool = False
    calls: list[AskCall] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)) -> Answer:
        """Answer from :data:`FACTS`, resolving a missing subject from ``history``."""
        with self._lock:
            self.calls.append(AskCall(question, tuple(history), tuple(scope)))
        if self.delay_s:
            time.sleep(self.delay_s)
        q = question.lower()
        earlier = [_find(t.text.lower(), SUBJECTS) for t in reversed(history) if t.role == "user"]
        subject = _find(q, SUBJECTS) or next((s for s in earlier if s), "")
        plan = _find(q, PLANS)
        text = FACTS.get((subject, plan)) or FACTS.get((subject, ""))
        if text is None:
            return Answer(answer=NOT_FOUND, citations=[], provider="fake", found=False)
        if self.long_answer:
            text = _long(text, self.long_answer)
        name = subject.replace(" ", "-")
        cite = Citation(file=f"hr/{name}.md", page=None, section="Eligibility", score=0.9)
        pdf = Citation(file="insurance/policy.pdf", page=12, section="Premium", score=0.8)
        return Answer(answer=text + self.extra_text, citations=[cite, pdf], provider="fake")

    def ask_stream(self, question: str, *, history: Sequence[Turn] = (),
                   scope: Sequence[str] = ("**",)) -> Iterator[StreamItem]:
        """Progress steps (as the real service: documents in scope, passages read, answering), word
        deltas (when ``stream_words``), then the final Answer."""
        yield Progress("search", len(SUBJECTS) + 1)
        yield Progress("read", 2)
        yield Progress("answer")
        answer = self.ask(question, history=history, scope=scope)
        if self.stream_words:
            words = answer.answer.split(" ")
            for i, w in enumerate(words):
                yield w if i == len(words) - 1 else w + " "
        yield answer


def _find(text: str, options: Sequence[str]) -> str:
    return next((o for o in options if o in text), "")


def _long(text: str, size: int) -> str:
    out: list[str] = []
    n = 0
    while n < size:
        para = f"Paragraph {len(out) + 1}. {text} " * 5
        out.append(para.strip())
        n += len(para) + 2
    return "\n\n".join(out)[:size]
