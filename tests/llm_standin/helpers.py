"""Small deterministic helpers for the LLM tests: sources, a fake extractive answerer, a recording sleep."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator

from core.llm.base import Generation, GenerationRequest
from core.types import Chunk, ScoredChunk

POLICY_TEXTS = (
    "Employees earn 30 days of annual leave per calendar year. Unused leave lapses on 31 March.",
    "Room rent under Plan A is capped at 1% of the sum insured per day, up to Rs 5,000.",
    "Claims must be filed within 30 days of discharge with the original bills.",
)


def make_sources(texts: tuple[str, ...] = POLICY_TEXTS, path: str = "hr/policy.pdf") -> list[ScoredChunk]:
    """One :class:`ScoredChunk` per text, page i+1, scores descending (rerank order)."""
    out = []
    for i, text in enumerate(texts):
        digest = hashlib.sha256(text.encode()).hexdigest()
        chunk = Chunk(digest[:16], path, text, i + 1, i + 1, f"Section {i + 1}", i, digest)
        out.append(ScoredChunk(chunk, score=1.0 - i / 10))
    return out


def make_request(
    question: str = "How many days of annual leave do I get?", **kw: object
) -> GenerationRequest:
    """A :class:`GenerationRequest` over :data:`POLICY_TEXTS`."""
    return GenerationRequest(question=question, sources=make_sources(), **kw)  # type: ignore[arg-type]


class FakeExtractive:
    """A deterministic stand-in for the extractive answerer: quotes source 1, or fails when told to."""

    name = "extractive"

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.calls: list[GenerationRequest] = []

    def generate(self, request: GenerationRequest) -> Generation:
        from core.errors import ProviderError

        self.calls.append(request)
        if self.fail:
            raise ProviderError("extractive: no sentence scored above the threshold")
        return Generation(f"From the policy: {request.sources[0].chunk.text}", (1,), self.name, score=0.5)

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        gen = self.generate(request)
        yield gen.text
        yield gen


class RecordingSleep:
    """A ``sleep`` that really sleeps and records each requested delay (seconds)."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        time.sleep(seconds)


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now
