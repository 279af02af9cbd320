"""Token-aware chunking of extracted documents.

Blocks are cut into units (sentences of text blocks, whole headings, whole tables or table parts that
repeat the header row), then packed greedily into chunks of at most ``chunking.max_tokens`` tiktoken
tokens (cl100k) and at most the embedding model's own limit, measured with the model's tokenizer (a
callable, e.g. ``Embedder.count_tokens``). A chunk never spans two sections (except a heading directly
followed by its sub-heading). When a chunk is cut for size, the next one starts with the last whole
sentences of the previous one, up to ``chunking.overlap_tokens`` (the usual sliding-window overlap).
Every finished chunk is re-counted with the model tokenizer and split again if it is still too long,
so the model never silently truncates a chunk.

Contextual chunks (``chunking.contextual``, :mod:`indexer.context`): each chunk carries
``context = "<document title> — <section path>"``, which is embedded and full-text indexed in front of
the chunk text but never quoted. The model limit left for the text is reduced by the context's token
reserve (:data:`indexer.context.CONTEXT_TOKENS`, at most a quarter of the limit), and the context is
cut to that reserve, so context + text still fit the model.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from core.config import ChunkingSettings
from core.tokens import get_encoding
from core.types import Block, Chunk, ExtractedDocument
from indexer.context import CONTEXT_TOKENS, chunk_context, document_title
from indexer.extract.tables import split_markdown_table

log = logging.getLogger(__name__)

TokenCounter = Callable[[str], int]

_LIST_START = re.compile(r"^(?:\d+(?:\.\d+)*[.)]?\s|\(?[a-z]{1,2}\)\s|\(?[ivx]{1,5}[.)]\s|[•·▪◦*\-–]\s)",
                         re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
_LINE_END = (".", ":", ";", "!", "?")


@dataclass(frozen=True)
class Unit:
    """An indivisible piece of a chunk: text, where it came from, how it joins the previous unit
    (``sep``), its kind, and its size in cl100k tokens (``cl``) and model tokens (``mt``)."""

    text: str
    page: int | None
    section: str
    kind: str
    sep: str
    cl: int
    mt: int
    page_end: int | None = None
    """Last page of the unit's block when it runs over a page break."""


class Chunker:
    """Cut an :class:`ExtractedDocument` into :class:`Chunk` s.

    Args:
        settings: ``max_tokens`` and ``overlap_tokens`` (cl100k tokens) and the tiktoken encoding.
        count_model_tokens: tokens of a text in the embedding model's tokenizer (no special tokens).
        model_max_tokens: the model's limit in its own tokens; no chunk exceeds it.
        additive: the model's token counts add up exactly over texts joined by whitespace (BERT's
            WordPiece: its pre-tokenizer splits at whitespace and punctuation before any word piece
            is formed), so a chunk's count is the sum of its units' and is not counted again.

    With ``settings.contextual``, ``context_reserve`` model tokens of the limit are kept for the
    chunk's context (``min(CONTEXT_TOKENS, model_max_tokens // 4)``) and :attr:`model_max` is what
    is left for the text.
    """

    def __init__(self, settings: ChunkingSettings, count_model_tokens: TokenCounter,
                 model_max_tokens: int, additive: bool = False) -> None:
        self.settings = settings
        self._enc = get_encoding(settings.tokenizer)
        self._model_count = count_model_tokens
        self.context_reserve = min(CONTEXT_TOKENS, model_max_tokens // 4) if settings.contextual else 0
        self.model_max = model_max_tokens - self.context_reserve
        self.additive = additive

    def count(self, text: str) -> int:
        """cl100k tokens of ``text``."""
        return len(self._enc.encode(text, disallowed_special=()))

    def fits(self, text: str) -> bool:
        """True when ``text`` is within both the chunk size and the model limit."""
        return self._within(self.count(text), self._model_count(text))

    def _within(self, cl: int, mt: int) -> bool:
        return cl <= self.settings.max_tokens and mt <= self.model_max

    def chunk(self, doc: ExtractedDocument) -> list[Chunk]:
        """Chunks of ``doc`` in reading order with ordinals 0..n-1 (with their context when
        ``chunking.contextual``)."""
        units = [u for block in doc.blocks for u in self.units(block)]
        groups = [g for group in self.pack(units) for g in self._enforce(group)]
        chunks = [make_chunk(doc.path, i, g) for i, g in enumerate(groups)]
        if not self.context_reserve:
            return chunks
        title = document_title(doc)
        contexts: dict[str, str] = {}
        for c in chunks:
            if c.section not in contexts:
                contexts[c.section] = chunk_context(title, c.section, self._model_count,
                                                    self.context_reserve - 1)  # 1: the line break
        return [replace(c, context=contexts[c.section]) for c in chunks]

    # ---- units --------------------------------------------------------------------------
    def units(self, block: Block) -> list[Unit]:
        """Units of one block: the heading, the table (parts), or the sentences of a text block."""
        if block.kind == "heading":
            return self._fitted(block, [block.text], "\n")
        if block.kind == "table":
            return self._fitted(block, split_markdown_table(block.text, self.fits), "\n")
        out: list[Unit] = []
        for para in paragraphs(block.text):
            out.extend(self._fitted(block, _SENTENCE_END.split(para), "\n"))
        return out

    def _fitted(self, block: Block, pieces: list[str], first_sep: str) -> list[Unit]:
        out: list[Unit] = []
        for piece in (p.strip() for p in pieces):
            sizes = [self._sized(piece)]
            if not self._within(*sizes[0][1:]):
                sizes = [self._sized(part) for part in self.split_long(piece)]
            for part, cl, mt in sizes:
                sep = first_sep if not out or block.kind != "text" else " "
                out.append(Unit(part, block.page, block.section, block.kind, sep, cl, mt, block.page_end))
        return out

    def _sized(self, text: str) -> tuple[str, int, int]:
        """``text`` with its cl100k and model token counts (each counted once)."""
        return text, self.count(text), self._model_count(text)

    def split_long(self, text: str) -> list[str]:
        """Split an over-long sentence or table row at word boundaries (characters as a last resort).

        Linear in the text: each word is counted once (cl100k and model tokens are additive over
        whitespace-separated words, up to merges at the joins), words are packed by the running sum,
        and each finished part is counted once exactly; a part that is still too long is re-split
        word by word (:meth:`_split_greedy`).
        """
        parts: list[str] = []
        cur: list[str] = []
        cl = mt = 0
        for word in text.split():
            wcl, wmt = self.count(" " + word), self._model_count(word)
            if cur and (cl + wcl > self.settings.max_tokens or mt + wmt > self.model_max):
                parts.append(" ".join(cur))
                cur, cl, mt = [], 0, 0
            if not cur and not self.fits(word):
                parts.extend(self._split_chars(word))
                continue
            cur.append(word)
            cl, mt = cl + wcl, mt + wmt
        if cur:
            parts.append(" ".join(cur))
        return [q for p in parts for q in ([p] if self.fits(p) else self._split_greedy(p))]

    def _split_greedy(self, text: str) -> list[str]:
        """Word-by-word split re-counting the growing part (exact, but quadratic in the part)."""
        parts: list[str] = []
        current = ""
        for word in text.split():
            candidate = f"{current} {word}" if current else word
            if self.fits(candidate):
                current = candidate
                continue
            if current:
                parts.append(current)
            current = word if self.fits(word) else ""
            if not current:
                parts.extend(self._split_chars(word))
        if current:
            parts.append(current)
        return parts

    def _split_chars(self, word: str) -> list[str]:
        size = max(1, len(word) // 2)
        if len(word) <= 1 or self.fits(word):
            return [word]
        return self._split_chars(word[:size]) + self._split_chars(word[size:])

    # ---- packing ------------------------------------------------------------------------
    def pack(self, units: list[Unit]) -> list[list[Unit]]:
        """Greedy packing within the size limits; a new section starts a new chunk, a page break starts one
        when the current chunk is at least half full; overlap on cuts."""
        groups: list[list[Unit]] = []
        cur: list[Unit] = []
        for unit in units:
            if not cur:
                cur = [unit]
            elif unit.section != cur[-1].section and not all(u.kind == "heading" for u in cur):
                groups.append(cur)
                cur = [unit]
            elif unit.page != cur[-1].page and self._half_full(cur):
                # cut at a page break once half full: an edit then shifts chunk boundaries only
                # until the next page instead of to the end of the document
                groups.append(cur)
                cur = self._overlap(cur, unit) + [unit]
            elif self._fits_sum(cur + [unit]):
                cur.append(unit)
            else:
                groups.append(cur)
                cur = self._overlap(cur, unit) + [unit]
        if cur:
            groups.append(cur)
        return groups

    def _half_full(self, units: list[Unit]) -> bool:
        return sum(u.cl for u in units) + len(units) - 1 >= self.settings.max_tokens // 2

    def _fits_sum(self, units: list[Unit]) -> bool:
        # BERT word pieces are additive over whitespace-separated units; cl100k nearly so (+1 margin
        # per unit). _enforce re-counts the joined text exactly.
        cl = sum(u.cl for u in units) + len(units) - 1
        return cl <= self.settings.max_tokens and sum(u.mt for u in units) <= self.model_max

    def _overlap(self, previous: list[Unit], nxt: Unit) -> list[Unit]:
        """Trailing whole text sentences of ``previous`` worth ≤ overlap_tokens that fit with ``nxt``."""
        tail: list[Unit] = []
        budget = self.settings.overlap_tokens
        for unit in reversed(previous):
            if unit.kind != "text" or unit.cl > budget or not self._fits_sum([unit, *tail, nxt]):
                break
            tail.insert(0, unit)
            budget -= unit.cl
        return tail

    def _enforce(self, group: list[Unit]) -> list[list[Unit]]:
        """Split ``group`` until its joined text is within the model limit (exact count)."""
        if self.additive and sum(u.mt for u in group) <= self.model_max:
            return [group]
        if len(group) == 1 or self._model_count(join_units(group)) <= self.model_max:
            return [group]
        mid = len(group) // 2
        log.debug("re-splitting a chunk of %d units over the model limit", len(group))
        return self._enforce(group[:mid]) + self._enforce(group[mid:])


def paragraphs(text: str) -> list[str]:
    """Rejoin PDF lines into paragraphs: a line starts a new paragraph after a blank line, after a
    line ending in sentence punctuation, or when it starts like a list item."""
    paras: list[list[str]] = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            paras.append([])
            continue
        new = not paras or not paras[-1] or paras[-1][-1].endswith(_LINE_END) or _LIST_START.match(line)
        if new:
            paras.append([line])
        else:
            paras[-1].append(line)
    return [" ".join(p) for p in paras if p]


def join_units(units: list[Unit]) -> str:
    """The chunk text: units joined by their separators."""
    return "".join((u.sep if i else "") + u.text for i, u in enumerate(units))


def chunk_id(path: str, ordinal: int, text: str) -> str:
    """Stable chunk id: ``sha256(path NUL ordinal NUL text)`` hex, first 32 characters."""
    return hashlib.sha256(f"{path}\x00{ordinal}\x00{text}".encode()).hexdigest()[:32]


def make_chunk(path: str, ordinal: int, units: list[Unit]) -> Chunk:
    """A :class:`Chunk` with id ``sha256(path, ordinal, text)[:32]`` (unique when text repeats).

    Its section and first page are those of its first body unit: a heading at the foot of the
    previous page does not move the citation a page early. ``page_end`` covers every unit, a
    sentence continued on the next page included; ``kinds`` lists its units' kinds once each, in
    order (headings left out); ``page_breaks`` the offsets where its text moves on to another page,
    led by ``(0, page)`` when the text starts on another page than the chunk's (:func:`_page_breaks`)."""
    text = join_units(units)
    body = [u for u in units if u.kind != "heading"] or units
    pages = [u.page for u in body if u.page is not None]
    ends = [p for u in units for p in (u.page, u.page_end) if p is not None]
    kinds = tuple(dict.fromkeys(u.kind for u in body if u.kind != "heading"))
    first = min(pages) if pages else None
    return Chunk(chunk_id=chunk_id(path, ordinal, text), path=path, text=text,
                 page=first, page_end=max(ends) if ends else None,
                 section=body[0].section, ordinal=ordinal,
                 text_hash=hashlib.sha256(text.encode()).hexdigest(), kinds=kinds,
                 page_breaks=_page_breaks(units, first))


def _page_breaks(units: list[Unit], page: int | None) -> tuple[tuple[int, int], ...]:
    """``(offset, page)`` wherever the joined text of ``units`` moves on to another page, led by
    ``(0, first)`` when its first page ``first`` is not the chunk's ``page`` (a heading from the foot
    of an earlier page above the chunk's first body unit), so :func:`core.types.page_at` reads every
    position's page from the breaks alone."""
    breaks: list[tuple[int, int]] = []
    offset, current = 0, None
    for i, u in enumerate(units):
        offset += len(u.sep) if i else 0
        if u.page is not None and u.page != current:
            breaks.append((offset, u.page))
        current = u.page if u.page is not None else current
        offset += len(u.text)
    if breaks and breaks[0][1] == page:
        return tuple(breaks[1:])  # the text starts on the chunk's page: no entry needed
    return tuple([(0, breaks[0][1]), *breaks[1:]] if breaks else [])
