"""The provider protocol every answer generator implements (LLMs, the extractive answerer, the chain).

The fallback chain is itself an :class:`AnswerProvider`: same interface, tries each in order.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from core.types import ScoredChunk, Turn


@dataclass(frozen=True)
class GenerationRequest:
    """What a provider answers from.

    Attributes:
        question: the (standalone) question.
        sources: retrieved chunks in rerank order; the prompt numbers them 1..n in this order.
        history: the conversation so far (oldest first), for follow-ups.
        augmentations: extra context snippets (config ``llm.keyword_augmentations`` that matched).
        documents: for a comparison or multi-document question, the documents (paths) the sources
            were spread over, in rank order (:attr:`core.retrieval.RetrievalResult.documents`): the
            answer quotes one passage per document and says which is which. ``()`` otherwise.
    """

    question: str
    sources: Sequence[ScoredChunk]
    history: Sequence[Turn] = ()
    augmentations: Sequence[str] = ()
    documents: Sequence[str] = ()


@dataclass(frozen=True)
class Generation:
    """A provider's answer.

    Attributes:
        text: the answer text shown to users (never None, never thinking text).
        cited: 1-based numbers of the sources the answer cites (validated to exist).
        provider: who produced it, e.g. ``"gemini:gemini-2.5-flash"`` or ``"extractive"``.
        found: False for "not in the policies" and for declined (unsafe) requests.
        score: the provider's confidence in 0..1 when it has one (the extractive answerer does).
        attempts: providers tried before this one, with their failure reasons (chain only).
        answerability: calibrated probability in [0, 1] that the sources answer the question (the
            extractive answerer's; ``None`` when the provider has none).
        answer_type: the question's expected answer type (:mod:`core.answer.answer_type`), ``""`` if unknown.
        signals: the answerability inputs (:mod:`core.answer.answerability`), for eval and calibration.
        pages: source number → the (last) page its quoted text is on (extractive answers); a cited
            source not in it is cited with its chunk's first page.
        first_pages: source number → the earlier page the quoted text starts on, when its quoted
            pieces span a page break (a list item's lead-in or a table row's column headers on the
            page before, a lead-in's list items on the page after); the citation then spans
            ``first_pages[n]``–``pages[n]``.
    """

    text: str
    cited: Sequence[int]
    provider: str
    found: bool = True
    score: float | None = None
    attempts: Sequence[str] = field(default_factory=tuple)
    answerability: float | None = None
    answer_type: str = ""
    signals: Mapping[str, float] = field(default_factory=dict)
    pages: Mapping[int, int | None] = field(default_factory=dict)
    first_pages: Mapping[int, int | None] = field(default_factory=dict)


class AnswerProvider(Protocol):
    """Generates a grounded answer from numbered sources."""

    name: str

    def generate(self, request: GenerationRequest) -> Generation:
        """Answer ``request``. Raises :class:`core.errors.ProviderError` on any failure."""
        ...

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        """Yield text deltas as they arrive, then the final :class:`Generation`.

        Raises :class:`core.errors.ProviderError` (before the first delta where possible)."""
        ...
