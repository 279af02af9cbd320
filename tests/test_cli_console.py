"""The console chat keeps a conversation (issue 15, item 6): a follow-up is condensed with the earlier
turns exactly as the Slack responder passes them (user question, assistant answer, oldest first), so it
is answered from the thread's topic. Fake embedder, real LanceDB, the extractive answerer.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from core.answer.extractive import ExtractiveAnswerer
from core.answering import PolicyAnswerService
from core.embedder import FakeEmbedder
from core.message_kind import GREETING_HINT
from core.retrieval import HybridRetriever
from core.types import Answer, Turn
from policybot.console import chat
from tests.retrieval_helpers import ANSWER, RETRIEVAL, add_document, new_store

FIRST = "How many weeks of parental leave do mothers get?"
FOLLOW_UP = "And how is it paid?"


class Recording:
    """Wraps the answer service and records what the chat passed to it."""

    def __init__(self, inner: PolicyAnswerService) -> None:
        self.inner = inner
        self.histories: list[tuple[Turn, ...]] = []
        self.answers: list[Answer] = []

    def ask_stream(self, question: str, *, history: tuple[Turn, ...] = (), scope: tuple[str, ...] = ("**",)):
        self.histories.append(tuple(history))
        for item in self.inner.ask_stream(question, history=history, scope=scope):
            if isinstance(item, Answer):
                self.answers.append(item)
            yield item

    def ask(self, question: str, **kw: object) -> Answer:  # the protocol's other half
        raise NotImplementedError


def _service(tmp_path: Path) -> PolicyAnswerService:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "hr/leave.md", [
        "Mothers get 26 weeks of parental leave after the birth of a child.",
        "Parental leave pay for mothers is 80 percent of the base salary, paid monthly through payroll."])
    add_document(store, emb, "finance/bonus.md", ["The annual bonus is paid in March, in one payment."])
    return PolicyAnswerService(HybridRetriever(store, emb, RETRIEVAL), ExtractiveAnswerer(ANSWER))


def _chat(service: Recording, questions: list[str]) -> None:
    lines = iter([*questions, "exit"])
    chat(service, Console(record=True, width=150), read=lambda _prompt: next(lines))  # type: ignore[arg-type]


def test_follow_up_in_the_console_is_answered_from_the_thread(tmp_path: Path) -> None:
    rec = Recording(_service(tmp_path))
    _chat(rec, [FIRST, FOLLOW_UP])
    first, follow = rec.answers
    assert rec.histories[1] == (Turn("user", FIRST), Turn("assistant", first.answer))  # as Slack passes it
    assert follow.details.get("standalone_question", "") != FOLLOW_UP
    assert {c.file for c in follow.citations} == {"hr/leave.md"}


def test_the_same_follow_up_without_the_thread_loses_the_topic(tmp_path: Path) -> None:
    rec = Recording(_service(tmp_path))
    _chat(rec, [FOLLOW_UP])
    assert "finance/bonus.md" in {c.file for c in rec.answers[0].citations}


def test_an_acknowledgement_in_the_console_gets_no_answer(tmp_path: Path) -> None:
    service = Recording(_service(tmp_path))
    console = Console(record=True, width=150)
    lines = iter(["thanks, that helps", "exit"])
    asked = chat(service, console, read=lambda _prompt: next(lines))  # type: ignore[arg-type]
    assert asked == 0 and service.histories == [] and "policybot>" not in console.export_text()


def test_a_bare_greeting_in_the_console_gets_the_one_line_hint(tmp_path: Path) -> None:
    service = Recording(_service(tmp_path))
    console = Console(record=True, width=150)
    lines = iter(["hi", "exit"])
    chat(service, console, read=lambda _prompt: next(lines))  # type: ignore[arg-type]
    assert service.histories == []
    assert f"policybot> {GREETING_HINT}" in console.export_text()
