"""Gemini through the ``google-genai`` SDK (https://googleapis.github.io/python-genai/).

The SDK has no default timeout and its own retries ignore ``Retry-After``/RetryInfo, so the client is
built with ``HttpOptions(timeout=ms)`` and *no* SDK retries, and :mod:`core.llm.retry` retries 429/503.
Answers use structured output (``response_mime_type="application/json"`` + ``response_schema``);
streaming uses plain text with inline ``[n]`` citations. A response is a failure (ProviderError, so
the chain falls through) when the prompt is blocked, a candidate finishes with anything but ``STOP``
(SAFETY, RECITATION, MAX_TOKENS — e.g. thinking used the whole budget — ...), or it has no text.
Thought parts (``part.thought``) are never used as answer text. The SDK is imported lazily.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from core.errors import ProviderError
from core.llm.base import Generation, GenerationRequest
from core.llm.grounding import StructuredAnswer, finalize, parse_structured
from core.llm.prompt import Prompt, build_prompt
from core.llm.retry import (
    RETRY_STATUSES,
    RetryableError,
    RetryPolicy,
    call_with_retries,
    combine_delays,
    retry_after_from_headers,
    retry_delay_from_details,
)

log = logging.getLogger(__name__)

API_VERSION = "v1beta"  # the Gemini API version with structured output and thinking (ai.google.dev/api)
_OK_FINISH = {None, "STOP", "FINISH_REASON_UNSPECIFIED"}


class GeminiProvider:
    """An :class:`~core.llm.base.AnswerProvider` backed by one Gemini model.

    Args:
        model: e.g. ``"gemini-2.5-flash"``; the provider's name is ``"gemini:<model>"``.
        api_key: the Gemini API key.
        base_url: API endpoint (None: Google's); tests point it at a local stand-in.
        timeout_s: per HTTP request (connect and each read).
        retry: retry policy for HTTP 429/503.
        temperature, max_output_tokens: generation settings (``llm.*``).
        max_context_tokens: token budget of the packed sources (``answer.max_context_tokens``).
        sleep: waits between retries (injectable for tests).
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
        from google import genai
        from google.genai import types

        self.name = f"gemini:{model}"
        self._model = model
        self._types = types
        self._timeout_s = timeout_s
        self._retry = retry or RetryPolicy()
        self._temperature = temperature
        self._max_output_tokens = max_output_tokens
        self._max_context_tokens = max_context_tokens
        self._sleep = sleep
        http = types.HttpOptions(base_url=base_url, api_version=API_VERSION, timeout=int(timeout_s * 1000))
        self._client = genai.Client(api_key=api_key, http_options=http)

    def generate(self, request: GenerationRequest) -> Generation:
        """Answer with structured output. Raises ProviderError on any failure (see module doc)."""
        prompt = build_prompt(request, max_context_tokens=self._max_context_tokens)
        started = time.monotonic()
        response = call_with_retries(
            lambda: self._sdk(lambda: self._client.models.generate_content(
                model=self._model, contents=self._contents(prompt), config=self._config(prompt, True))),
            self._retry, label=self.name, sleep=self._sleep,
        )
        raw = self._checked_text(response)
        try:
            text, cited, found = parse_structured(raw)
        except ValueError:
            raise ProviderError(f"{self.name}: the answer is not the requested JSON object") from None
        gen = finalize(text, cited, found=found, allowed=prompt.numbers, provider=self.name)
        log.info("%s answered in %.0f ms (cited %s, found=%s)", self.name,
                 (time.monotonic() - started) * 1000, list(gen.cited), gen.found)
        return gen

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        """Yield text deltas, then the final Generation. Errors before the first delta are retried."""
        prompt = build_prompt(request, max_context_tokens=self._max_context_tokens)

        def open_stream() -> tuple[Any, Iterator[Any]]:
            it = iter(self._client.models.generate_content_stream(
                model=self._model, contents=self._contents(prompt), config=self._config(prompt, False)))
            return next(it), it

        first, rest = call_with_retries(
            lambda: self._sdk(open_stream), self._retry, label=self.name, sleep=self._sleep)
        pieces: list[str] = []
        chunk: Any = first
        while chunk is not None:
            delta = self._checked_text(chunk, final=False)
            if delta:
                pieces.append(delta)
                yield delta
            chunk = self._sdk(lambda: next(rest, None))
        yield finalize("".join(pieces), (), found=None, allowed=prompt.numbers, provider=self.name)

    # --- SDK plumbing -------------------------------------------------------------------------------

    def _contents(self, prompt: Prompt) -> list[Any]:
        t = self._types
        turns = [t.Content(role="model" if h.role == "assistant" else "user", parts=[t.Part(text=h.text)])
                 for h in prompt.history]
        return [*turns, t.Content(role="user", parts=[t.Part(text=prompt.user)])]

    def _config(self, prompt: Prompt, structured: bool) -> Any:
        extra: dict[str, Any] = {}
        if structured:
            extra = {"response_mime_type": "application/json", "response_schema": StructuredAnswer}
        return self._types.GenerateContentConfig(
            system_instruction=prompt.system, temperature=self._temperature,
            max_output_tokens=self._max_output_tokens, **extra,
        )

    def _sdk(self, call: Callable[[], Any]) -> Any:
        """Run an SDK call, turning its exceptions into ProviderError / RetryableError."""
        from google.genai import errors

        try:
            return call()
        except errors.APIError as exc:
            raise self._api_error(exc) from exc
        except ProviderError:
            raise
        except Exception as exc:  # httpx/httpx2 transport errors, SDK parsing errors
            if "timeout" in type(exc).__name__.lower():
                raise ProviderError(
                    f"{self.name}: no response within {self._timeout_s:g} s (timeout)") from exc
            raise ProviderError(f"{self.name}: {type(exc).__name__}: {exc}") from exc

    def _api_error(self, exc: Any) -> ProviderError:
        body = exc.details if isinstance(exc.details, dict) else {}
        err = body.get("error", body) if isinstance(body.get("error", body), dict) else {}
        message = f"{self.name}: HTTP {exc.code} {exc.status or ''}".rstrip()
        if exc.code not in RETRY_STATUSES:
            return ProviderError(f"{message}: {exc.message or ''}".rstrip(": "))
        headers = dict(exc.response.headers) if getattr(exc, "response", None) is not None else None
        delay = combine_delays(
            retry_after_from_headers(headers), retry_delay_from_details(err.get("details", [])))
        return RetryableError(message, status=int(exc.code), retry_after_s=delay)

    def _checked_text(self, response: Any, *, final: bool = True) -> str:
        """The answer text of ``response`` (thought parts excluded); raises when blocked or cut off."""
        feedback = response.prompt_feedback
        if feedback is not None and feedback.block_reason is not None:
            raise ProviderError(f"{self.name}: prompt blocked ({_value(feedback.block_reason)})")
        if not response.candidates:
            if final:
                raise ProviderError(f"{self.name}: no answer candidates")
            return ""
        cand = response.candidates[0]
        parts = cand.content.parts if cand.content is not None and cand.content.parts else []
        text = "".join(p.text for p in parts if p.text and not p.thought)
        reason = _value(cand.finish_reason)
        if reason == "MAX_TOKENS":
            usage = response.usage_metadata
            thoughts = usage.thoughts_token_count if usage is not None else None
            why = f"; thinking used {thoughts} tokens" if thoughts else ""
            raise ProviderError(f"{self.name}: answer cut off (MAX_TOKENS{why})")
        if reason not in _OK_FINISH:
            raise ProviderError(f"{self.name}: answer blocked (finish reason {reason})")
        if final and not text.strip():
            raise ProviderError(f"{self.name}: empty answer")
        return text


def _value(enum_or_str: Any) -> str | None:
    return None if enum_or_str is None else str(getattr(enum_or_str, "value", enum_or_str))
