"""``PolicyAnswerService``: the :class:`~core.service.AnswerService` used by the CLI, console chat,
Slack bot and eval.

Data flow: question → :class:`~core.retrieval.HybridRetriever` (embed, vector + BM25 legs, fusion,
optional reranker) → :class:`~core.llm.base.AnswerProvider` (the extractive answerer by default, or the
LLM fallback chain) → :class:`~core.types.Answer` with citations of the sources the provider cited,
the provider's name, per-stage timings (``embed``, ``retrieve``, ``rerank``, ``generate``, ``total``
in ms) and ``retrieved`` (all top-k chunks, for eval).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence

from core.answer.extractive import NOT_FOUND_TEXT
from core.errors import ProviderError
from core.llm.base import AnswerProvider, Generation, GenerationRequest
from core.retrieval import ALL, HybridRetriever, RetrievalResult
from core.types import Answer, Citation, ScoredChunk, Turn

log = logging.getLogger(__name__)


class PolicyAnswerService:
    """Retrieval → (rerank) → provider → :class:`Answer`.

    Args:
        retriever: hybrid retriever (with its optional reranker).
        provider: the answer provider (extractive answerer, or the LLM chain ending in it).
    """

    def __init__(self, retriever: HybridRetriever, provider: AnswerProvider) -> None:
        self.retriever = retriever
        self.provider = provider

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
    ) -> Iterator[str | Answer]:
        """Yield the provider's text deltas, then the final :class:`Answer`."""
        t0 = time.perf_counter()
        log.debug("question: %s (scope %s)", question, list(scope))
        found = self.retriever.retrieve(question, scope)
        request = GenerationRequest(question=question, sources=found.chunks, history=tuple(history))
        t1 = time.perf_counter()
        generation: Generation | None = None
        try:
            for item in self.provider.stream(request):
                if isinstance(item, Generation):
                    generation = item
                else:
                    yield item
        except ProviderError as exc:
            log.warning("provider %s failed: %s", self.provider.name, exc)
            generation = Generation(NOT_FOUND_TEXT, (), self.provider.name, found=False,
                                    attempts=(f"{self.provider.name}: {exc}",))
        if generation is None:
            generation = Generation(NOT_FOUND_TEXT, (), self.provider.name, found=False)
        t2 = time.perf_counter()
        yield build_answer(generation, found, generation_ms=(t2 - t1) * 1e3, total_ms=(t2 - t0) * 1e3)


def build_answer(gen: Generation, found: RetrievalResult, *, generation_ms: float, total_ms: float) -> Answer:
    """Assemble the :class:`Answer`: citations are the sources ``gen.cited`` names (1-based, in that
    order; numbers outside the sources are dropped)."""
    sources = found.chunks
    cited = [sources[n - 1] for n in dict.fromkeys(gen.cited) if 1 <= n <= len(sources)]
    details = {"query": found.query}
    if found.reranker:
        details["reranker"] = found.reranker
    if gen.score is not None:
        details["score"] = f"{gen.score:.4f}"
    if gen.attempts:
        details["attempts"] = " | ".join(gen.attempts)
    timings = {**found.timings_ms, "generate": generation_ms, "total": total_ms}
    return Answer(
        answer=gen.text,
        citations=[to_citation(sc) for sc in cited] if gen.found else [],
        provider=gen.provider,
        found=gen.found,
        timings_ms=timings,
        details=details,
        retrieved=[to_citation(sc) for sc in sources],
    )


def to_citation(sc: ScoredChunk) -> Citation:
    """The :class:`Citation` of a scored chunk (file, first page, section, score, ids)."""
    c = sc.chunk
    return Citation(file=c.path, page=c.page, section=c.section, score=sc.score,
                    chunk_id=c.chunk_id, text_hash=c.text_hash, page_end=c.page_end)
