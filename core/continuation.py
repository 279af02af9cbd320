"""List continuation: a kept passage whose list runs to its end brings the document's next chunk.

A chunk boundary often falls inside a list ("Receipts are refunded subject to the following: a. …
b. …" | "c. … a copy of the hotel bill …"). When the next chunk repeats the lead-in (chunk overlap),
retrieval may find it on its own words; when it starts inside the list, its items share few words
with the question (the question's words are in the lead-in, one chunk back) and it is rarely kept.
A reader turns the page; this module does the same, narrowly: only a kept passage whose *last* unit
is an item of a list introduced by a lead-in ending with ":" (or is such a lead-in) brings its
document's next chunk (``ordinal + 1``), at most :data:`MAX_ADDED` per result. The answerer then
quotes the items that number on there (:func:`core.answer.attached.continued_items`).

An added chunk takes the *lowest* score of the kept passages (it is evidence only through the
passage it continues, and must not outrank a passage retrieval chose) and ``scores["continuation"]
= 1.0``; it never displaces or reorders a kept passage. Like :mod:`core.references`, this is
neighbour expansion restricted to a structural signal (small-to-big / "sentence window" retrieval
adds every neighbour; LlamaIndex ``SentenceWindowNodeParser`` / ``PrevNextNodePostprocessor``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.answer.sentences import split_units
from core.types import Chunk, ScoredChunk

MAX_ADDED = 1
"""Next chunks added to one retrieval result."""


def ends_in_list(text: str) -> bool:
    """Whether the last answer unit of chunk ``text`` is a list lead-in ending with ":" or an item of
    a list whose lead-in ends with ":" (:func:`core.answer.sentences.split_units`)."""
    units = split_units(text, 1)
    if not units:
        return False
    last = units[-1]
    return last.text.endswith(":") and last.kind != "row" or (
        last.kind == "item" and last.lead.endswith(":"))


class ListContinuation:
    """Adds the next chunk of a kept passage whose list runs to its end (module doc).

    Args:
        chunks: path → the chunks of that document in ordinal order
            (:class:`core.references.DocumentChunks`, shared with reference following).
    """

    def __init__(self, chunks: Callable[[str], list[Chunk]]) -> None:
        self._chunks = chunks

    def follow(self, kept: Sequence[ScoredChunk]) -> list[ScoredChunk]:
        """``kept`` plus at most :data:`MAX_ADDED` next chunks (best kept passage first); ``list(kept)``
        when none applies. Never raises on odd text."""
        out = list(kept)
        have = {(sc.chunk.path, sc.chunk.ordinal) for sc in kept}
        floor = min((sc.score for sc in kept), default=0.0)
        for sc in kept:
            if len(out) - len(kept) >= MAX_ADDED:
                break
            key = (sc.chunk.path, sc.chunk.ordinal + 1)
            if key in have or not ends_in_list(sc.chunk.text):
                continue
            nxt = next((c for c in self._chunks(sc.chunk.path) if c.ordinal == sc.chunk.ordinal + 1), None)
            if nxt is not None:
                have.add(key)
                out.append(ScoredChunk(nxt, floor, {"continuation": 1.0}))
        return out
