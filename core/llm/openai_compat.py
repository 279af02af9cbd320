"""OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, llama.cpp server) via the ``openai`` SDK.

Reference: https://platform.openai.com/docs/api-reference/chat. The SDK's own retries are switched
off (``max_retries=0``) so :mod:`core.llm.retry` applies one policy to every provider. Structured
output asks for ``response_format={"type": "json_schema", ...}``; a server that rejects it (HTTP
400/422) is remembered and asked again in plain text, whose ``[n]`` markers are parsed instead.
``finish_reason`` ``length`` (cut off) or ``content_filter``, a refusal, or an empty answer is a
ProviderError. ``<think>`` blocks of local reasoning models are never shown. The SDK is imported lazily.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from core.errors import ProviderError
from core.llm.base import Generation, GenerationRequest
from core.llm.grounding import ANSWER_SCHEMA, finalize, parse_structured, strip_thinking
from core.llm.prompt import Prompt, build_prompt
from core.llm.retry import (
    RETRY_STATUSES,
    RetryableError,
    RetryPolicy,
    call_with_retries,
    retry_after_from_headers,
)

log = logging.getLogger(__name__)

_SCHEMA_FORMAT = {"type": "json_schema",
                  "json_schema": {"name": "grounded_answer", "strict": True, "schema": ANSWER_SCHEMA}}


class OpenAICompatProvider:
    """An :class:`~core.llm.base.AnswerProvider` for one model behind an OpenAI-compatible endpoint.

    Args:
        model: model name as the server knows it; the provider's name is ``"openai:<model>"``.
        api_key: the key (local servers accept any non-empty string).
        base_url: e.g. ``http://localhost:11434/v1`` (Ollama); None: api.openai.com.
        timeout_s, retry, temperature, max_output_tokens, max_context_tokens, sleep: as for
            :class:`~core.llm.gemini.GeminiProvider`.
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str | None = None,
        timeout_s: float = 30.0,
        retry: RetryPolicy | None = None,
        temperature: float = 0.1,
        max_output_tokens: int = 1024,
        max_context_tokens: int = 3000,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        import openai

        self.name = f"openai:{model}"
        self._model = model
        self._timeout_s = timeout_s
        self._retry = retry or RetryPolicy()
        self._temperature = temperature
        self._max_output_tokens = max_output_tokens
        self._max_context_tokens = max_context_tokens
        self._sleep = sleep
        self._structured = True
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=0)

    def generate(self, request: GenerationRequest) -> Generation:
        """Answer (structured when the server supports it). Raises ProviderError on any failure."""
        prompt = build_prompt(request, max_context_tokens=self._max_context_tokens)
        try:
            completion = self._complete(prompt, structured=self._structured)
        except _SchemaRejected as exc:
            log.warning("%s rejected json_schema output (%s); using plain text from now on", self.name, exc)
            self._structured = False
            completion = self._complete(prompt, structured=False)
        choice = completion.choices[0] if completion.choices else None
        if choice is None:
            raise ProviderError(f"{self.name}: no choices in the response")
        self._check_finish(choice.finish_reason, getattr(choice.message, "refusal", None))
        raw = strip_thinking(choice.message.content or "")
        try:
            text, cited, found = parse_structured(raw)
            return finalize(text, cited, found=found, allowed=prompt.numbers, provider=self.name)
        except ValueError:
            return finalize(raw, (), found=None, allowed=prompt.numbers, provider=self.name)

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        """Yield text deltas (``<think>`` blocks held back), then the final Generation."""
        prompt = build_prompt(request, max_context_tokens=self._max_context_tokens)
        chunks = call_with_retries(
            lambda: self._sdk(lambda: self._client.chat.completions.create(
                **self._params(prompt, structured=False), stream=True)),
            self._retry, label=self.name, sleep=self._sleep,
        )
        text, shown, finish = "", 0, None
        for chunk in _guarded(self, chunks):
            if not chunk.choices:
                continue
            choice = chunk.choices[0]
            if choice.delta is not None and choice.delta.content:
                text += choice.delta.content
            finish = choice.finish_reason or finish
            visible = _visible(text)
            if len(visible) > shown:
                yield visible[shown:]
                shown = len(visible)
        self._check_finish(finish, None)
        yield finalize(_visible(text), (), found=None, allowed=prompt.numbers, provider=self.name)

    # --- SDK plumbing -------------------------------------------------------------------------------

    def _complete(self, prompt: Prompt, *, structured: bool) -> Any:
        return call_with_retries(
            lambda: self._sdk(
                lambda: self._client.chat.completions.create(**self._params(prompt, structured)),
                schema_requested=structured),
            self._retry, label=self.name, sleep=self._sleep,
        )

    def _params(self, prompt: Prompt, structured: bool) -> dict[str, Any]:
        messages = [{"role": "system", "content": prompt.system}]
        messages += [{"role": t.role, "content": t.text} for t in prompt.history]
        messages.append({"role": "user", "content": prompt.user})
        params: dict[str, Any] = {"model": self._model, "messages": messages,
                                  "temperature": self._temperature, "max_tokens": self._max_output_tokens}
        if structured:
            params["response_format"] = _SCHEMA_FORMAT
        return params

    def _sdk(self, call: Callable[[], Any], *, schema_requested: bool = False) -> Any:
        """Run an SDK call, turning its exceptions into ProviderError / RetryableError."""
        import openai

        try:
            return call()
        except openai.APITimeoutError as exc:
            raise ProviderError(f"{self.name}: no response within {self._timeout_s:g} s (timeout)") from exc
        except openai.APIStatusError as exc:
            status = exc.status_code
            message = f"{self.name}: HTTP {status}"
            if status in RETRY_STATUSES:
                delay = retry_after_from_headers(dict(exc.response.headers))
                raise RetryableError(message, status=status, retry_after_s=delay) from exc
            if schema_requested and status in (400, 422):
                raise _SchemaRejected(f"{message}: {exc.message}") from exc
            raise ProviderError(f"{message}: {exc.message}") from exc
        except openai.OpenAIError as exc:
            raise ProviderError(f"{self.name}: {type(exc).__name__}: {exc}") from exc

    def _check_finish(self, finish: str | None, refusal: str | None) -> None:
        if refusal:
            raise ProviderError(f"{self.name}: the model refused ({refusal[:80]})")
        if finish == "length":
            raise ProviderError(f"{self.name}: answer cut off (finish_reason length)")
        if finish == "content_filter":
            raise ProviderError(f"{self.name}: answer blocked (finish_reason content_filter)")


class _SchemaRejected(ProviderError):
    """The server refused ``response_format=json_schema``."""


def _guarded(provider: OpenAICompatProvider, chunks: Any) -> Iterator[Any]:
    """Iterate a stream, turning SDK/transport errors mid-stream into ProviderError."""
    it = iter(chunks)
    while True:
        chunk = provider._sdk(lambda: next(it, None))
        if chunk is None:
            return
        yield chunk


def _visible(text: str) -> str:
    """What may be shown of a partial stream: nothing while a leading ``<think>`` block is open."""
    stripped = text.lstrip()
    if "<think>".startswith(stripped[:7]) and stripped and "</think>" not in stripped:
        return ""
    return strip_thinking(text).lstrip()
