"""The fallback chain: itself an :class:`~core.llm.base.AnswerProvider` that tries providers in order.

LLM providers are tried in config order, each behind its own :class:`~core.llm.breaker.CircuitBreaker`;
the extractive answerer is always last and always tried. The first success is returned with
``attempts`` listing every earlier failure or skip (``"<provider>: <reason>"``); each transition is
logged. Before anything runs, the ``llm.keyword_augmentations`` whose keyword occurs in the question
are added to the request.

Streaming: a provider that fails before its first delta is skipped like in :meth:`generate`. One that
fails *after* streaming some text cannot take it back, so the chain answers from the remaining
providers without streaming and yields their final :class:`Generation` — consumers must treat the
final Generation's ``text`` as authoritative and replace whatever they showed from the deltas.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from core.errors import ProviderError
from core.llm.base import AnswerProvider, Generation, GenerationRequest
from core.llm.breaker import CircuitBreaker
from core.llm.prompt import match_augmentations

if TYPE_CHECKING:
    from core.config import Secrets, Settings

log = logging.getLogger(__name__)


class ProviderObserver(Protocol):
    """Told about every LLM provider call and failure (:class:`core.metrics.Metrics` is one)."""

    def provider_call(self, provider: str) -> None:
        """``provider`` is about to be called."""
        ...

    def provider_failure(self, provider: str, error: BaseException | str) -> None:
        """``provider`` failed with ``error``."""
        ...


class FallbackChain:
    """Tries ``providers`` in order, then ``extractive``; see the module doc.

    Args:
        providers: LLM providers in config order.
        extractive: the last resort; expected never to fail.
        breaker_failures: consecutive failures that open a provider's breaker (``llm.breaker_failures``).
        breaker_cooldown_s: seconds an open breaker skips its provider (``llm.breaker_cooldown_s``).
        keyword_augmentations: ``llm.keyword_augmentations`` (keyword → snippet).
        clock: monotonic seconds, for the breakers (injectable for tests).
    """

    name = "chain"

    def __init__(
        self,
        providers: Sequence[AnswerProvider],
        extractive: AnswerProvider,
        *,
        breaker_failures: int = 3,
        breaker_cooldown_s: float = 60.0,
        keyword_augmentations: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._llms = [(p, CircuitBreaker(breaker_failures, breaker_cooldown_s, clock)) for p in providers]
        self._extractive = extractive
        self.observer: ProviderObserver | None = None
        """Told about calls and failures (set by the composition root)."""
        self._augmentations = dict(keyword_augmentations or {})

    @property
    def provider_names(self) -> list[str]:
        """Names of every provider in the order they are tried (extractive last)."""
        return [p.name for p, _ in self._llms] + [self._extractive.name]

    def breaker_states(self) -> dict[str, str]:
        """``{provider name: "closed" | "open"}`` of the LLM providers (open: skipped now)."""
        return {p.name: "open" if b.remaining_s() > 0 else "closed" for p, b in self._llms}

    def generate(self, request: GenerationRequest) -> Generation:
        """The first successful provider's Generation, with ``attempts`` naming earlier failures.

        Raises:
            ProviderError: even the extractive answerer failed (its message and all attempts are named).
        """
        return self._generate_from(0, self._augment(request), [])

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        """Yield the first streaming provider's deltas, then the final Generation (see module doc)."""
        request = self._augment(request)
        attempts: list[str] = []
        for index, (provider, breaker) in enumerate(self._llms):
            if not self._admit(provider, breaker, attempts):
                continue
            streamed = False
            try:
                for item in provider.stream(request):
                    if isinstance(item, Generation):
                        breaker.record_success()
                        yield self._success(item, attempts)
                        return
                    streamed = True
                    yield item
                raise ProviderError(f"{provider.name}: stream ended without a final answer")
            except Exception as exc:  # noqa: BLE001 - any provider failure falls through
                self._failed(provider, breaker, exc, attempts)
                if streamed:
                    log.warning("%s failed mid-stream; answering without streaming", provider.name)
                    yield self._generate_from(index + 1, request, attempts)
                    return
        yield from self._stream_extractive(request, attempts)

    # --- steps ------------------------------------------------------------------------------------------

    def _augment(self, request: GenerationRequest) -> GenerationRequest:
        extra = [s for s in match_augmentations(request.question, self._augmentations)
                 if s not in request.augmentations]
        if not extra:
            return request
        log.info("added %d keyword augmentation(s) to the prompt", len(extra))
        return replace(request, augmentations=(*request.augmentations, *extra))

    def _generate_from(self, start: int, request: GenerationRequest, attempts: list[str]) -> Generation:
        for provider, breaker in self._llms[start:]:
            if not self._admit(provider, breaker, attempts):
                continue
            try:
                generation = provider.generate(request)
            except Exception as exc:  # noqa: BLE001 - any provider failure falls through
                self._failed(provider, breaker, exc, attempts)
                continue
            breaker.record_success()
            return self._success(generation, attempts)
        try:
            return self._success(self._extractive.generate(request), attempts)
        except ProviderError as exc:
            raise ProviderError(f"every answer provider failed: {'; '.join([*attempts, str(exc)])}") from exc

    def _stream_extractive(
        self, request: GenerationRequest, attempts: list[str]
    ) -> Iterator[str | Generation]:
        for item in self._extractive.stream(request):
            yield self._success(item, attempts) if isinstance(item, Generation) else item

    def _admit(self, provider: AnswerProvider, breaker: CircuitBreaker, attempts: list[str]) -> bool:
        if breaker.allow():
            if self.observer is not None:
                self.observer.provider_call(provider.name)
            return True
        reason = f"{provider.name}: skipped, circuit open for {breaker.remaining_s():.0f} s more"
        log.info("provider %s", reason)
        attempts.append(reason)
        return False

    def _failed(
        self, provider: AnswerProvider, breaker: CircuitBreaker, exc: Exception, attempts: list[str]
    ) -> None:
        reason = str(exc) if isinstance(exc, ProviderError) else f"{type(exc).__name__}: {exc}"
        if not reason.startswith(provider.name):
            reason = f"{provider.name}: {reason}"
        attempts.append(reason)
        if self.observer is not None:
            self.observer.provider_failure(provider.name, exc)
        if not isinstance(exc, ProviderError):
            log.exception("provider %s raised an unexpected error; falling through", provider.name)
        else:
            log.warning("provider failed, falling through: %s", reason)
        if breaker.record_failure():
            log.warning("circuit breaker opened for %s", provider.name)

    def _success(self, generation: Generation, attempts: list[str]) -> Generation:
        log.info("answer from %s after %d earlier attempt(s)", generation.provider, len(attempts))
        return replace(generation, attempts=tuple(attempts))


def make_chain(settings: Settings, secrets: Secrets, *, fallback: AnswerProvider) -> AnswerProvider:
    """Same as :func:`core.llm.factory.build_provider_chain` (the name the composition root imports)."""
    from core.llm.factory import build_provider_chain

    return build_provider_chain(settings, secrets, fallback)
