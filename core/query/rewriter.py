"""LLM rewriting of a follow-up into a standalone question (used by :mod:`core.query.condense`), and of
a question into the language of the documents it is searched in (used by :mod:`core.retrieval`).

:class:`Rewriter` is the small protocol; :class:`ProviderRewriter` is the real implementation over
any :class:`~core.llm.base.AnswerProvider` (a Gemini or OpenAI-compatible provider, or the whole
fallback chain), and :class:`FakeRewriter` the in-memory fake.

The providers only speak the grounding protocol (numbered sources → JSON answer with citations), so
the conversation is passed as source [1] and the question is the rewrite instruction; the model
"answers" with the standalone question citing [1]. A result is rejected (``None``, so the caller
falls back to the deterministic merge) when the provider fails, says ``found=false``, is the
extractive answerer (it would quote the conversation back), or returns something that is not one
short question.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

from core.errors import ProviderError
from core.llm.base import AnswerProvider, Generation, GenerationRequest
from core.types import Chunk, ScoredChunk, Turn

log = logging.getLogger(__name__)

INSTRUCTION = (
    "Source [1] is a conversation with an employee about company policies. Rewrite the employee's "
    "follow-up question below as ONE standalone question that can be understood without the "
    "conversation: keep the policy, product, plan and document names and the topic from the earlier "
    "questions, replace pronouns with what they refer to, and change only what the follow-up changes. "
    "Do not answer it. Reply with the rewritten question only, citing [1].\n"
    "Follow-up question: {question}"
)
TRANSLATE_INSTRUCTION = (
    "Source [1] is an employee's question about company policies. The policy documents it will be "
    "searched in are written in {language}. Translate the question into {language} as a search "
    "query: use the words a {language} policy document would use, keep names, plan and product names, "
    "numbers and amounts as they are. Do not answer it. Reply with the translated question only, "
    "citing [1]."
)
"""The instruction of :meth:`ProviderRewriter.translate` (the question travels as source [1])."""
MAX_REWRITE_CHARS = 400
_CITATION = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")


@runtime_checkable
class Rewriter(Protocol):
    """Rewrites a follow-up question into a standalone one."""

    name: str

    def rewrite(self, question: str, history: Sequence[Turn]) -> str | None:
        """The standalone question, or ``None`` when it cannot rewrite (the caller falls back)."""
        ...

    def translate(self, question: str, language: str) -> str | None:
        """``question`` as a search query in ``language`` (an English language name, e.g.
        ``"German"``), or ``None`` when it cannot (retrieval then searches with the question only)."""
        ...


class ProviderRewriter:
    """A :class:`Rewriter` over an :class:`~core.llm.base.AnswerProvider` (see the module doc).

    Args:
        provider: e.g. :class:`core.llm.gemini.GeminiProvider` or the fallback chain.
        max_turns: most recent history turns put in source [1].
    """

    def __init__(self, provider: AnswerProvider, max_turns: int = 6) -> None:
        self.provider = provider
        self.name = f"rewrite:{provider.name}"
        self.max_turns = max_turns

    def rewrite(self, question: str, history: Sequence[Turn]) -> str | None:
        """Ask the provider; ``None`` on any failure or unusable reply (logged with the reason)."""
        request = GenerationRequest(question=INSTRUCTION.format(question=question),
                                    sources=[conversation_source(history[-self.max_turns:])])
        try:
            gen = self.provider.generate(request)
        except ProviderError as exc:
            log.warning("%s failed: %s", self.name, exc)
            return None
        return self._accepted(gen)

    def translate(self, question: str, language: str) -> str | None:
        """Ask the provider for ``question`` in ``language`` (question as source [1]); ``None`` on
        any failure or unusable reply (logged with the reason)."""
        source = conversation_source([Turn("user", question)])
        request = GenerationRequest(question=TRANSLATE_INSTRUCTION.format(language=language),
                                    sources=[source])
        try:
            gen = self.provider.generate(request)
        except ProviderError as exc:
            log.warning("%s translation failed: %s", self.name, exc)
            return None
        return self._accepted(gen)

    def _accepted(self, gen: Generation) -> str | None:
        text = clean_rewrite(gen.text)
        if not gen.found or gen.provider.startswith("extractive") or text is None:
            log.info("%s: reply rejected (provider %s, found=%s)", self.name, gen.provider, gen.found)
            return None
        return text


def conversation_source(history: Sequence[Turn]) -> ScoredChunk:
    """The conversation as one pseudo-chunk (``path="(conversation)"``), numbered [1] in the prompt."""
    text = "\n".join(f"{'Employee' if t.role == 'user' else 'policybot'}: {t.text.strip()}" for t in history)
    chunk = Chunk(chunk_id="conversation", path="(conversation)", text=text, page=None, page_end=None,
                  section="", ordinal=0, text_hash="")
    return ScoredChunk(chunk, score=1.0)


def clean_rewrite(text: str) -> str | None:
    """The first non-empty line of ``text`` without citations and quotes; ``None`` when it is empty or
    longer than :data:`MAX_REWRITE_CHARS`."""
    lines = [ln.strip() for ln in _CITATION.sub("", text).splitlines() if ln.strip()]
    if not lines:
        return None
    line = lines[0].strip("\"'“”` ").removeprefix("Standalone question:").strip()
    if not line or len(line) > MAX_REWRITE_CHARS:
        return None
    return line


class FakeRewriter:
    """In-memory :class:`Rewriter`: returns the scripted rewrite (or translation) of a question, else
    ``None``."""

    name = "rewrite:fake"

    def __init__(self, rewrites: Mapping[str, str] | None = None,
                 translations: Mapping[tuple[str, str], str] | None = None) -> None:
        self.rewrites = dict(rewrites or {})
        self.translations = dict(translations or {})
        self.calls: list[tuple[str, tuple[Turn, ...]]] = []
        self.translate_calls: list[tuple[str, str]] = []

    def translate(self, question: str, language: str) -> str | None:
        """The scripted translation of ``(question, language)`` (records the call)."""
        self.translate_calls.append((question, language))
        return self.translations.get((question, language))

    def rewrite(self, question: str, history: Sequence[Turn]) -> str | None:
        """The scripted rewrite of ``question`` (records the call)."""
        self.calls.append((question, tuple(history)))
        return self.rewrites.get(question)
