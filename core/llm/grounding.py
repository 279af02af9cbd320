"""Turning a model's raw output into a validated :class:`~core.llm.base.Generation`.

Structured output follows :data:`ANSWER_SCHEMA` (``{answer, cited, found}``). Plain text (streaming,
servers without JSON-schema support) carries inline ``[n]`` markers. Either way, citations are checked
against the source numbers actually in the prompt: unknown numbers are dropped (and their markers
removed from the text); a "found" structured answer left citing nothing is rejected as ungrounded.
Reasoning text (``<think>…</think>`` from local reasoning models) is stripped.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from core.errors import ProviderError
from core.llm.base import Generation

log = logging.getLogger(__name__)

ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string", "description": "The answer, citing sources inline as [n]."},
        "cited": {"type": "array", "items": {"type": "integer"},
                  "description": "Numbers of the sources the answer uses."},
        "found": {"type": "boolean", "description": "False when the sources do not answer the "
                                                    "question or the request was declined."},
    },
    "required": ["answer", "cited", "found"],
    "additionalProperties": False,
}



class StructuredAnswer(BaseModel):
    """:data:`ANSWER_SCHEMA` as a pydantic model (the google-genai SDK's ``response_schema`` takes it)."""

    answer: str
    cited: list[int]
    found: bool


_MARKER = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")
_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def parse_structured(raw: str) -> tuple[str, list[int], bool]:
    """Parse ``{"answer", "cited", "found"}`` from ``raw`` (code fences tolerated).

    Raises:
        ValueError: ``raw`` is not such a JSON object.
    """
    text = strip_thinking(raw).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("answer"), str):
        raise ValueError("not an {answer, cited, found} object")
    cited = [int(n) for n in data.get("cited") or [] if isinstance(n, int | str) and str(n).isdigit()]
    return data["answer"], cited, bool(data.get("found", True))


def cited_in_text(text: str) -> list[int]:
    """Numbers of the ``[n]`` / ``[n, m]`` markers in ``text``, in order of first appearance."""
    seen: list[int] = []
    for m in _MARKER.finditer(text):
        for n in re.split(r"\s*[,;]\s*", m.group(1)):
            if int(n) not in seen:
                seen.append(int(n))
    return seen


def strip_thinking(text: str) -> str:
    """``text`` without ``<think>…</think>`` blocks (an unclosed block runs to the end)."""
    return _THINK.sub("", text)


def finalize(
    text: str,
    cited: Iterable[int],
    *,
    found: bool | None,
    allowed: Sequence[int],
    provider: str,
) -> Generation:
    """Validate an answer and build its :class:`Generation`.

    Args:
        text: the answer text (thinking already removed or removed here).
        cited: numbers the model listed (structured output); merged with the text's ``[n]`` markers.
        found: the model's flag; ``None`` (plain text) means "found when it cites a valid source".
        allowed: the source numbers that were in the prompt.
        provider: the provider name recorded in the Generation.

    Raises:
        ProviderError: the text is empty, or a found structured answer cites no valid source.
    """
    clean = strip_thinking(text).strip()
    if not clean:
        raise ProviderError(f"{provider}: empty answer")
    listed = list(dict.fromkeys([*cited, *cited_in_text(clean)]))
    valid = [n for n in listed if n in allowed]
    invalid = [n for n in listed if n not in allowed]
    if invalid:
        log.warning("%s cited unknown sources %s (allowed 1..%d); dropped", provider, invalid, len(allowed))
        clean = _drop_markers(clean, set(allowed))
    if found is None:
        found = bool(valid)
    elif found and not valid:
        raise ProviderError(f"{provider}: answer cites none of the {len(allowed)} sources (ungrounded)")
    return Generation(text=clean, cited=tuple(sorted(valid)), provider=provider, found=found)


def _drop_markers(text: str, allowed: set[int]) -> str:
    def keep(m: re.Match[str]) -> str:
        nums = [n for n in re.split(r"\s*[,;]\s*", m.group(1)) if int(n) in allowed]
        return f"[{', '.join(nums)}]" if nums else ""

    return re.sub(r"\s+([.,;:!?])", r"\1", _MARKER.sub(keep, text)).replace("  ", " ").strip()
