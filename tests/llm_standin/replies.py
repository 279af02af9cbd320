"""Scripted behaviours of the LLM stand-in server, and how each renders in the Gemini and OpenAI APIs.

Wire formats follow the public REST references:
- Gemini: https://ai.google.dev/api/generate-content (GenerateContentResponse, FinishReason,
  PromptFeedback.blockReason) and google.rpc.RetryInfo (https://cloud.google.com/apis/design/errors).
- OpenAI: https://platform.openai.com/docs/api-reference/chat (chat.completion, chat.completion.chunk).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

ReplyKind = Literal[
    "answer", "rate_limit", "unavailable", "hang", "safety", "recitation", "prompt_blocked",
    "empty", "thinking_exhausted", "bad_request",
]


@dataclass(frozen=True)
class Reply:
    """One scripted response. Build with the helper functions below rather than directly."""

    kind: ReplyKind
    chunks: tuple[str, ...] = ()
    thought: str | None = None
    retry_after_s: float | None = None
    retry_delay_s: float | None = None
    hang_s: float = 5.0
    chunk_delay_s: float = 0.0
    message: str = ""

    @property
    def text(self) -> str:
        """The whole answer text (all chunks joined)."""
        return "".join(self.chunks)


def answer(text: str, *, thought: str | None = None) -> Reply:
    """A normal answer; ``thought`` adds a Gemini thought part (which clients must never show)."""
    return Reply("answer", chunks=(text,), thought=thought)


def answer_json(answer_text: str, cited: list[int], found: bool = True) -> Reply:
    """A structured answer: the JSON object ``{answer, cited, found}`` as the model's text."""
    return answer(json.dumps({"answer": answer_text, "cited": cited, "found": found}))


def streamed(*chunks: str, delay_s: float = 0.0) -> Reply:
    """An answer sent as several SSE events (one per chunk) when the client streams."""
    return Reply("answer", chunks=tuple(chunks), chunk_delay_s=delay_s)


def rate_limited(*, retry_after_s: float | None = None, retry_delay_s: float | None = None) -> Reply:
    """HTTP 429; ``retry_after_s`` sets the Retry-After header, ``retry_delay_s`` a google.rpc.RetryInfo."""
    return Reply("rate_limit", retry_after_s=retry_after_s, retry_delay_s=retry_delay_s)


def unavailable() -> Reply:
    """HTTP 503 (model overloaded)."""
    return Reply("unavailable")


def hang(seconds: float = 5.0) -> Reply:
    """Accept the request and send nothing for ``seconds`` (longer than the client's timeout)."""
    return Reply("hang", hang_s=seconds)


def safety_block() -> Reply:
    """Gemini finishReason SAFETY with no text; OpenAI finish_reason ``content_filter``."""
    return Reply("safety")


def recitation(*partial: str) -> Reply:
    """Gemini finishReason RECITATION on the last of the ``partial`` chunks; OpenAI ``content_filter``."""
    return Reply("recitation", chunks=partial or ("Partial text that ",))


def prompt_blocked() -> Reply:
    """Gemini promptFeedback.blockReason SAFETY and no candidates."""
    return Reply("prompt_blocked")


def empty() -> Reply:
    """A STOP answer with no text at all."""
    return Reply("empty")


def thinking_exhausted() -> Reply:
    """MAX_TOKENS with no answer text because thinking used the whole output budget."""
    return Reply("thinking_exhausted", thought="Let me think about this at great length...")


def bad_request(message: str = "response_format json_schema is not supported") -> Reply:
    """HTTP 400 with ``message``."""
    return Reply("bad_request", message=message)


# --- Gemini rendering -------------------------------------------------------------------------------


def gemini_error(reply: Reply) -> tuple[int, dict[str, str], dict[str, Any]]:
    """(status, headers, body) of an error reply in the Gemini API."""
    headers = _retry_after_header(reply)
    if reply.kind == "rate_limit":
        details = []
        if reply.retry_delay_s is not None:
            details.append(
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": f"{reply.retry_delay_s}s"}
            )
        err = {"code": 429, "message": "Resource has been exhausted (e.g. check quota).",
               "status": "RESOURCE_EXHAUSTED", "details": details}
        return 429, headers, {"error": err}
    if reply.kind == "unavailable":
        err = {"code": 503, "message": "The model is overloaded. Please try again later.",
               "status": "UNAVAILABLE"}
        return 503, headers, {"error": err}
    return 400, headers, {"error": {"code": 400, "message": reply.message, "status": "INVALID_ARGUMENT"}}


def gemini_events(reply: Reply) -> list[dict[str, Any]]:
    """The GenerateContentResponse objects of a reply: one per chunk (the last carries finishReason)."""
    if reply.kind == "prompt_blocked":
        return [{"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": [
            {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": True}]}}]
    if reply.kind == "safety":
        return [_candidate([], "SAFETY")]
    if reply.kind == "empty":
        return [_candidate([], "STOP")]
    if reply.kind == "thinking_exhausted":
        return [_candidate([{"text": reply.thought, "thought": True}], "MAX_TOKENS")]
    finish = "RECITATION" if reply.kind == "recitation" else "STOP"
    events = []
    for i, chunk in enumerate(reply.chunks):
        parts: list[dict[str, Any]] = []
        if i == 0 and reply.thought:
            parts.append({"text": reply.thought, "thought": True})
        parts.append({"text": chunk})
        events.append(_candidate(parts, finish if i == len(reply.chunks) - 1 else None))
    return events


def gemini_merge(events: list[dict[str, Any]]) -> dict[str, Any]:
    """One non-streamed response from the streamed events (texts of the answer parts joined)."""
    last = dict(events[-1])
    if "candidates" not in last:
        return last
    all_parts = [p for e in events for p in e["candidates"][0]["content"].get("parts", [])]
    thoughts = [p for p in all_parts if p.get("thought")]
    text = "".join(p["text"] for p in all_parts if not p.get("thought"))
    parts = thoughts + ([{"text": text}] if text else [])
    cand = dict(last["candidates"][0], content={"role": "model", "parts": parts})
    return {**last, "candidates": [cand]}


def _candidate(parts: list[dict[str, Any]], finish: str | None) -> dict[str, Any]:
    cand: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish is not None:
        cand["finishReason"] = finish
        if finish == "SAFETY":
            cand["safetyRatings"] = [
                {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": True}]
    return {"candidates": [cand], "usageMetadata": {"promptTokenCount": 10, "thoughtsTokenCount": 5},
            "modelVersion": "stand-in"}


# --- OpenAI rendering -------------------------------------------------------------------------------


def openai_error(reply: Reply) -> tuple[int, dict[str, str], dict[str, Any]]:
    """(status, headers, body) of an error reply in the OpenAI API."""
    headers = _retry_after_header(reply)
    status = {"rate_limit": 429, "unavailable": 503}.get(reply.kind, 400)
    kinds = {429: "rate_limit_error", 503: "server_error", 400: "invalid_request_error"}
    err = {"message": reply.message or f"stand-in {reply.kind}", "type": kinds[status], "code": None}
    return status, headers, {"error": err}


def openai_deltas(reply: Reply) -> tuple[list[str], str]:
    """(content deltas, finish_reason) of a reply in the OpenAI API."""
    if reply.kind in ("safety", "recitation", "prompt_blocked"):
        return [], "content_filter"
    if reply.kind == "empty":
        return [], "stop"
    if reply.kind == "thinking_exhausted":
        return [], "length"
    return list(reply.chunks), "stop"


def openai_completion(model: str, reply: Reply) -> dict[str, Any]:
    """A ``chat.completion`` object for a non-streamed request."""
    deltas, finish = openai_deltas(reply)
    message = {"role": "assistant", "content": "".join(deltas)}
    return {"id": "chatcmpl-standin", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


def openai_chunk(model: str, content: str | None, finish: str | None) -> dict[str, Any]:
    """One ``chat.completion.chunk`` event."""
    delta = {"role": "assistant", "content": content} if content is not None else {}
    return {"id": "chatcmpl-standin", "object": "chat.completion.chunk", "created": 0, "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}


def _retry_after_header(reply: Reply) -> dict[str, str]:
    if reply.retry_after_s is None:
        return {}
    value = reply.retry_after_s
    return {"Retry-After": str(int(value)) if value == int(value) else str(value)}
