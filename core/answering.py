"""``PolicyAnswerService``: the :class:`~core.service.AnswerService` used by the CLI, console chat,
Slack bot and eval.

Data flow: question (+ thread history) → follow-up condensation (:func:`core.query.condense.condense`:
the LLM rewriter when one is given, else a deterministic merge; ``answer.condense``) →
:class:`~core.retrieval.HybridRetriever` (embed, vector + BM25 legs, fusion,
optional reranker) → :class:`~core.llm.base.AnswerProvider` (the extractive answerer by default, or the
LLM fallback chain) → :class:`~core.types.Answer` with citations of the sources the provider cited,
the provider's name, per-stage timings (``embed``, ``retrieve``, ``rerank``, ``generate``, ``total``
in ms) and ``retrieved`` (all top-k chunks, for eval).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Protocol

from core.answer.answer_type import classify
from core.answer.extractive import NOT_FOUND_TEXT, Assessment
from core.answer.safety import check as safety_check
from core.errors import ProviderError
from core.llm.base import AnswerProvider, Generation, GenerationRequest
from core.query.condense import condense
from core.query.rewriter import Rewriter
from core.quotes import quoted
from core.retrieval import ALL, HybridRetriever, RetrievalResult, scope_paths
from core.service import StreamItem
from core.types import Answer, Citation, Progress, ScoredChunk, Turn

log = logging.getLogger(__name__)

_MARKER = re.compile(r"\[(\d{1,3})\]")
"""A source marker ``[n]`` in an answer's text."""


class Assessor(Protocol):
    """Assesses how answerable a request is (the extractive answerer is one)."""

    def assess(self, request: GenerationRequest) -> Assessment:
        """Answerability, answer type and signals of ``request``."""
        ...


class PolicyAnswerService:
    """Safety check → retrieval → (rerank) → provider → :class:`Answer`.

    Args:
        retriever: hybrid retriever (with its optional reranker).
        provider: the answer provider (extractive answerer, or the LLM chain ending in it).
        condense_follow_ups: rewrite a follow-up into a standalone question from the history before
            retrieval (``answer.condense``).
        rewriter: the LLM rewriter for follow-ups (``None``: the deterministic merge only).
        assessor: fills ``Answer.answerability`` / ``answer_type`` when the provider that answered
            reports none (an LLM); ``None`` leaves them as the provider gave them.
    """

    def __init__(self, retriever: HybridRetriever, provider: AnswerProvider, *,
                 condense_follow_ups: bool = True, rewriter: Rewriter | None = None,
                 assessor: Assessor | None = None) -> None:
        self.retriever = retriever
        self.provider = provider
        self.condense_follow_ups = condense_follow_ups
        self.rewriter = rewriter
        self.assessor = assessor

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = (ALL,)) -> Answer:
        """Answer ``question`` from documents inside ``scope``; refuses instead of raising."""
        answer: Answer | None = None
        for item in self.ask_stream(question, history=history, scope=scope):
            if isinstance(item, Answer):
                answer = item
        assert answer is not None  # ask_stream always ends with an Answer
        return answer

    def ask_stream(
        self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = (ALL,)
    ) -> Iterator[StreamItem]:
        """Yield :class:`Progress` (search, read, answer), the provider's text deltas, then the final
        :class:`Answer`. A request the bot must decline (:mod:`core.answer.safety`) is answered with
        its category's message, before retrieval."""
        t0 = time.perf_counter()
        log.debug("question: %s (scope %s)", question, list(scope))
        yield Progress("search", self.documents_in_scope(scope))
        standalone = self.standalone(question, history)
        decline = safety_check(question) or (safety_check(standalone) if standalone != question else None)
        if decline is not None:
            log.info("declined: %s (rule %s)", decline.category, decline.rule)
            yield decline.message
            yield declined_answer(decline.message, decline.category, decline.rule, standalone,
                                  total_ms=(time.perf_counter() - t0) * 1e3)
            return
        found = self.retriever.retrieve(standalone, scope)
        yield Progress("read", len(found.chunks))
        request = GenerationRequest(question=standalone, sources=found.chunks, history=tuple(history),
                                    documents=found.documents)
        yield Progress("answer")
        t1 = time.perf_counter()
        generation: Generation | None = None
        markers = MarkerRenumberer(len(found.chunks))
        try:
            for item in self.provider.stream(request):
                if isinstance(item, Generation):
                    generation = item
                elif delta := markers.feed(item):
                    yield delta
        except ProviderError as exc:
            log.warning("provider %s failed: %s", self.provider.name, exc)
            generation = Generation(NOT_FOUND_TEXT, (), self.provider.name, found=False,
                                    attempts=(f"{self.provider.name}: {exc}",))
        if generation is None:
            generation = Generation(NOT_FOUND_TEXT, (), self.provider.name, found=False)
        if tail := markers.flush():
            yield tail
        if generation.answerability is None and self.assessor is not None:
            generation = _assessed(generation, self.assessor.assess(request))
        t2 = time.perf_counter()
        answer = build_answer(generation, found, generation_ms=(t2 - t1) * 1e3, total_ms=(t2 - t0) * 1e3)
        if standalone != question:
            answer.details["standalone_question"] = standalone
        yield answer

    def documents_in_scope(self, scope: Sequence[str]) -> int:
        """How many indexed documents ``scope`` covers (the "Searching N policies" step)."""
        docs = self.retriever.store.documents()
        return len(scope_paths([p for p, d in docs.items() if d.status == "indexed"], scope))

    def standalone(self, question: str, history: Sequence[Turn]) -> str:
        """``question`` condensed with the thread ``history`` (unchanged without history or when
        ``condense_follow_ups`` is off). Never raises: a failing LLM rewrite falls back to the merge."""
        if not history or not self.condense_follow_ups:
            return question
        scoper = self.retriever.scoper
        catalog = scoper.catalog() if scoper is not None else None
        out = condense(question, history, self.rewriter, catalog=catalog)
        if out != question:
            log.info("follow-up condensed (%d → %d chars)", len(question), len(out))
            log.debug("standalone question: %s", out)
        return out


def _assessed(gen: Generation, assessment: Assessment) -> Generation:
    return replace(gen, answerability=assessment.answerability, answer_type=assessment.answer_type,
                   signals=dict(assessment.signals))


def declined_answer(message: str, category: str, rule: str, question: str, *, total_ms: float) -> Answer:
    """The :class:`Answer` of a declined request: its category's message, no citations, ``found``
    False, answerability 0 and ``details`` naming the category and rule."""
    return Answer(answer=message, citations=[], provider="safety", found=False,
                  timings_ms={"total": total_ms}, details={"declined": category, "rule": rule},
                  answerability=0.0, answer_type=classify(question).kind)


def build_answer(gen: Generation, found: RetrievalResult, *, generation_ms: float, total_ms: float) -> Answer:
    """Assemble the :class:`Answer`: citations are the sources ``gen.cited`` names (numbers outside the
    sources are dropped), in order of first mention, and the text's ``[n]`` markers are renumbered
    to point into that citation list. A refusal keeps the citations of the closest passages it quotes."""
    sources = found.chunks
    order = cited_order(gen.text, gen.cited, len(sources))
    cited = [sources[n - 1] for n in order]
    text = renumber(gen.text, order)
    details = {"query": found.query}
    if found.reranker:
        details["reranker"] = found.reranker
    if gen.score is not None:
        details["score"] = f"{gen.score:.4f}"
    if gen.attempts:
        details["attempts"] = " | ".join(gen.attempts)
    timings = {**found.timings_ms, "generate": generation_ms, "total": total_ms}
    return Answer(
        answer=text,
        citations=[quoted(to_citation(sc, gen.pages.get(n), gen.first_pages.get(n)), sc.chunk.text, text)
                   for n, sc in zip(order, cited, strict=True)],
        provider=gen.provider,
        found=gen.found,
        timings_ms=timings,
        details=details,
        retrieved=[to_citation(sc) for sc in sources],
        answerability=gen.answerability,
        answer_type=gen.answer_type,
        signals=dict(gen.signals),
    )


def cited_order(text: str, cited: Sequence[int], n_sources: int) -> list[int]:
    """Source numbers in order of their first ``[n]`` marker in ``text``, then the other cited ones
    (numbers outside 1..``n_sources`` dropped). The same order :class:`MarkerRenumberer` streams."""
    marked = [int(m) for m in _MARKER.findall(text)]
    return [n for n in dict.fromkeys([*marked, *cited]) if 1 <= n <= n_sources]


def renumber(text: str, order: Sequence[int]) -> str:
    """Rewrite ``[n]`` markers (source numbers) as positions in ``order`` (citation numbers)."""
    index = {n: i for i, n in enumerate(order, start=1)}

    def swap(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return f"[{index[n]}]" if n in index else m.group(0)

    return _MARKER.sub(swap, text)


class MarkerRenumberer:
    """Renumbers ``[n]`` source markers in streamed text to citation numbers (order of first mention),
    holding back a marker split across deltas until it is complete."""

    def __init__(self, n_sources: int) -> None:
        self.n_sources = n_sources
        self.order: dict[int, int] = {}
        self._pending = ""

    def feed(self, delta: str) -> str:
        """The renumbered text of ``delta`` that is safe to show now."""
        text = self._pending + delta
        cut = text.rfind("[")
        if cut != -1 and re.fullmatch(r"\[\d{0,3}", text[cut:]):
            text, self._pending = text[:cut], text[cut:]
        else:
            self._pending = ""
        return _MARKER.sub(self._swap, text)

    def flush(self) -> str:
        """Whatever is still held back."""
        text, self._pending = self._pending, ""
        return text

    def _swap(self, m: re.Match[str]) -> str:
        n = int(m.group(1))
        if not 1 <= n <= self.n_sources:
            return m.group(0)
        return f"[{self.order.setdefault(n, len(self.order) + 1)}]"


def to_citation(sc: ScoredChunk, page: int | None = None, first: int | None = None) -> Citation:
    """The :class:`Citation` of a scored chunk (file, page, section, score, ids): ``page`` is the page
    of the quoted text when the answerer knows it (then the citation names that one page, or the
    span ``first``–``page`` when the quote's lead-in starts on the earlier page ``first``), else the
    chunk's page span."""
    c = sc.chunk
    if page is not None:
        start = first if first is not None and first < page else page
        return Citation(file=c.path, page=start, section=c.section, score=sc.score, chunk_id=c.chunk_id,
                        text_hash=c.text_hash, page_end=page)
    return Citation(file=c.path, page=c.page, section=c.section, score=sc.score,
                    chunk_id=c.chunk_id, text_hash=c.text_hash, page_end=c.page_end)
