"""Builds the answer-provider chain from settings: LLM providers in config order, extractive last.

API keys come from the environment: a Gemini entry uses the variable named by ``api_key_env`` or else
``GEMINI_API_KEY`` (:class:`core.config.Secrets`); an OpenAI-compatible entry uses ``api_key_env``
when set, else a placeholder (local servers such as Ollama need no key). An entry whose key is
missing is skipped with a warning. Provider modules import their SDKs lazily, on construction.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping

from core.config import LLMProviderSettings, Secrets, Settings
from core.llm.base import AnswerProvider
from core.llm.chain import FallbackChain
from core.llm.retry import RetryPolicy

log = logging.getLogger(__name__)

NO_KEY = "no-key"  # sent to OpenAI-compatible servers that need no key (the SDK insists on one)


def build_provider_chain(
    settings: Settings,
    secrets: Secrets,
    extractive: AnswerProvider,
    *,
    env: Mapping[str, str] | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> FallbackChain:
    """The :class:`FallbackChain` of ``settings.llm.providers`` (keys found) followed by ``extractive``.

    Args:
        settings: uses ``llm.*`` and ``answer.max_context_tokens``.
        secrets: ``gemini_api_key`` is the default Gemini key.
        extractive: the always-last answerer.
        env: where ``api_key_env`` variables are read (default ``os.environ``).
        clock, sleep: injectable time sources for breakers and retry waits (tests).
    """
    environ = os.environ if env is None else env
    providers: list[AnswerProvider] = []
    for index, entry in enumerate(settings.llm.providers):
        key = _api_key(entry, secrets, environ)
        if key is None:
            log.warning("llm.providers[%d] (%s:%s) skipped: no API key; set %s", index, entry.kind,
                        entry.model, entry.api_key_env or "GEMINI_API_KEY")
            continue
        providers.append(_build(entry, key, settings, sleep))
    log.info("answer providers: %s", [p.name for p in providers] + [extractive.name])
    return FallbackChain(
        providers, extractive,
        breaker_failures=settings.llm.breaker_failures,
        breaker_cooldown_s=settings.llm.breaker_cooldown_s,
        keyword_augmentations=settings.llm.keyword_augmentations,
        clock=clock,
    )


def _api_key(entry: LLMProviderSettings, secrets: Secrets, environ: Mapping[str, str]) -> str | None:
    if entry.api_key_env:
        return environ.get(entry.api_key_env) or None
    if entry.kind == "gemini":
        return secrets.gemini_api_key
    return NO_KEY


def _build(
    entry: LLMProviderSettings, key: str, settings: Settings, sleep: Callable[[float], None]
) -> AnswerProvider:
    from core.llm.gemini import GeminiProvider
    from core.llm.openai_compat import OpenAICompatProvider

    cls: type[GeminiProvider] | type[OpenAICompatProvider]
    cls = GeminiProvider if entry.kind == "gemini" else OpenAICompatProvider
    return cls(
        entry.model,
        api_key=key,
        base_url=entry.base_url,
        timeout_s=entry.timeout_s,
        retry=RetryPolicy(entry.max_retries, entry.backoff_s, entry.max_wait_s),
        temperature=settings.llm.temperature,
        max_output_tokens=settings.llm.max_output_tokens,
        max_context_tokens=settings.answer.max_context_tokens,
        sleep=sleep,
    )
