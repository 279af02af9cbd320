"""Interactive console chat on an :class:`~core.service.AnswerService` (``policybot run`` without Slack).

One conversation per session: earlier turns are passed as history, so follow-ups work once the
service condenses them. Chat text is classified as in Slack (:func:`core.message_kind.message_kind`): an
acknowledgement ("thanks, that helps") gets no answer, a bare greeting gets the one-line
:data:`~core.message_kind.GREETING_HINT`; only questions reach the service. Type ``exit``, ``quit``
or press Ctrl-D to leave.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from rich.console import Console

from core.message_kind import GREETING_HINT, message_kind
from core.service import AnswerService
from core.types import Answer, Turn
from policybot import render

log = logging.getLogger(__name__)

QUIT = frozenset({"exit", "quit", ":q", "bye"})


def chat(service: AnswerService, console: Console, read: Callable[[str], str] = input) -> int:
    """Read questions from ``read`` until EOF or ``exit``; stream each answer with its sources.

    Returns the number of questions answered.
    """
    console.print("[bold]policybot console[/bold] — ask about the policies; 'exit' or Ctrl-D to leave.")
    history: list[Turn] = []
    asked = 0
    while True:
        try:
            question = read("you> ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return asked
        if not question:
            continue
        if question.lower() in QUIT:
            return asked
        kind = message_kind(question)
        if kind != "question":
            log.debug("console message is not a question (%s); no answer", kind)
            if kind == "empty":
                console.print(f"[bold cyan]policybot>[/bold cyan] {GREETING_HINT}")
            continue
        final = _answer(service, console, question, history)
        history += [Turn("user", question), Turn("assistant", final.answer)]
        asked += 1


def _answer(service: AnswerService, console: Console, question: str, history: list[Turn]) -> Answer:
    streamed = False
    final: Answer | None = None
    console.print("[bold cyan]policybot>[/bold cyan] ", end="")
    for item in service.ask_stream(question, history=tuple(history)):
        if isinstance(item, Answer):
            final = item
        elif isinstance(item, str):  # Progress steps are for Slack's task updates
            console.print(item, end="", markup=False, highlight=False)
            streamed = True
    console.print()
    assert final is not None
    render.answer(console, final, show_text=not streamed)
    return final
