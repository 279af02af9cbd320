"""Short quoted spans for citations: the sentence of a cited passage that best supports an answer.

A reader who sees "p. 12" wants to know *what* on page 12; the sources block therefore shows one short
span of each cited chunk. The span is the passage sentence sharing the most content words (letters or
digits, ≥ 3 characters, case-folded) with the answer text, cut at a word boundary to
:data:`MAX_QUOTE_CHARS`. No sentence shares a word → no quote (never a random excerpt).
"""

from __future__ import annotations

import dataclasses
import re

from core.types import Citation

MAX_QUOTE_CHARS = 160
"""Longest quote shown under a source (about two lines in a Slack message)."""
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")
_WORD = re.compile(r"[^\W_]{3,}", re.UNICODE)


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def quote_span(passage: str, answer: str, max_chars: int = MAX_QUOTE_CHARS) -> str:
    """The sentence of ``passage`` with the most content words in common with ``answer``, whitespace
    collapsed and shortened to ``max_chars`` at a word boundary (ending in "…"); ``""`` when no
    sentence shares a word with the answer or either text is empty."""
    wanted = _words(answer)
    best, best_overlap = "", 0
    for sentence in _SENTENCE.split(passage):
        overlap = len(_words(sentence) & wanted)
        if overlap > best_overlap:
            best, best_overlap = sentence, overlap
    return shorten(" ".join(best.split()), max_chars)


def shorten(text: str, max_chars: int) -> str:
    """``text`` if it fits, else its longest word-boundary prefix of ``max_chars - 1`` characters + "…"."""
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > max_chars // 2 else cut).rstrip(" ,;:") + "…"


def quoted(citation: Citation, passage: str, answer: str) -> Citation:
    """``citation`` with :attr:`~core.types.Citation.quote` set from ``passage`` (see :func:`quote_span`)."""
    return dataclasses.replace(citation, quote=quote_span(passage, answer))
