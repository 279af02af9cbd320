"""From a PDF's page segments to blocks: page furniture out, sections by heading, sentences whole
across page breaks.

1. Running headers, footers and page numbers are removed from the text (:mod:`.normalize`): lines
   repeated at the edges of the pages' text (documents of 3 pages or more) and lines repeated in the
   pages' top or bottom band by position (:func:`~indexer.extract.normalize.edge_keys`, also for two
   pages), before anything is cut into blocks, so no block is furniture only.
2. Text is cut at heading lines into sections (:class:`~indexer.extract.headings.SectionTracker`),
   large tables into parts that repeat their header; a table that opens a page and continues the
   table ending the previous page without repeating its header gets that header
   (:func:`~indexer.extract.tables.continued_table`).
3. A text block that ends a page in mid-sentence (no ``.``, ``!``, ``?``, ``:`` or ``;`` at its end)
   takes the lines of the next page's first block up to the end of that sentence (at most
   :data:`MAX_CARRIED_LINES`), when that block continues the same section: the sentence is then one
   piece, cited from the page it starts on, with ``page_end`` the next page.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from core.config import ExtractionSettings
from core.types import Block, BlockKind
from indexer.extract.headings import SectionTracker
from indexer.extract.normalize import (
    Repeats,
    drop_lines,
    edge_keys,
    hyphenated_words,
    join_hyphenated,
    nfkc,
    repeated_lines,
    unglue_clause_numbers,
)
from indexer.extract.tables import continued_table, split_markdown_table, within_tokens

MAX_CARRIED_LINES = 6
"""Lines of the next page carried back to finish a sentence; a longer run is not one sentence."""
_ENDS_SENTENCE = (".", "!", "?", ":", ";")
_LIST_START = re.compile(r"^(?:\(?[a-z0-9]{1,4}[.)]\s|[•·▪◦*\-–]\s)", re.I)


@dataclass(frozen=True)
class Segment:
    """A piece of one page in reading order: ``kind`` "text", "table" (markdown), "ocr" (text read
    by OCR) or "form_field" (one filled field, "label: value"); ``span`` is the (top, bottom) band
    of the page, in points from the top, that a pdfplumber text piece comes from."""

    kind: str
    text: str
    span: tuple[float, float] | None = None
    headings: dict[str, int] = field(default_factory=dict)
    """Lines of this piece set in a larger or bold font, with their heading level."""


def furniture(texts: list[str], edges: list[list[tuple[str, str]]], ratio: float) -> Repeats:
    """The running headers/footers of pages ``texts``: text repeats (:func:`repeated_lines`) and
    positioned repeats of the pages' edge lines ``edges``; none when they are all the text there is
    (a PDF of identical pages, or pages of "Form 3 of 9" lines only: dropping them would leave the
    file without text)."""
    keys = repeated_lines(texts, ratio)
    placed = edge_keys(edges, ratio) if len(edges) >= 2 else Repeats()
    keys = replace(keys, anywhere=placed.anywhere, edge_only=placed.edge_only)
    if keys and not any(drop_lines(page, keys).strip() for page in texts):
        return Repeats()
    return keys


def to_blocks(rel: str, pages: list[list[Segment]], settings: ExtractionSettings,
              edges: list[list[tuple[str, str]]]) -> tuple[list[Block], list[str]]:
    """Blocks of a PDF from its page ``segments`` and the edge lines of its pages; returns them and
    the furniture lines removed (running headers/footers, page numbers; one entry per removal, in
    page order). See the module doc."""
    texts = [[nfkc(s.text) if s.kind != "table" else s.text for s in page] for page in pages]
    keys = furniture(["\n".join(t for t, s in zip(page_texts, segs, strict=True) if s.kind != "form_field")
                      for page_texts, segs in zip(texts, pages, strict=True)], edges,
                     settings.repeated_line_ratio)
    keep = hyphenated_words("\n".join("\n".join(t) for t in texts))
    sections = SectionTracker()
    blocks: list[Block] = []
    removed: list[str] = []
    fits = within_tokens(settings.table_max_tokens)
    for page_no, (segs, page_texts) in enumerate(zip(pages, texts, strict=True), start=1):
        for seg, text in zip(segs, page_texts, strict=True):
            if seg.kind == "table":
                text = _continuing(blocks, page_no, text)
                blocks.extend(Block(path=rel, text=part, page=page_no, section=sections.section,
                                    kind="table") for part in split_markdown_table(text, fits))
                continue
            if seg.kind == "form_field":
                blocks.append(Block(path=rel, text=text, page=page_no, section=sections.section,
                                    kind="form_field"))
                continue
            kept = drop_lines(text, keys)
            removed += removed_lines(text, kept)
            kind: BlockKind = "ocr" if seg.kind == "ocr" else "text"
            marked = {unglue_clause_numbers(line): level for line, level in seg.headings.items()}
            for section, part, is_heading in sections.split(
                    unglue_clause_numbers(join_hyphenated(kept, keep)).strip(), marked):
                blocks.append(Block(path=rel, text=part, page=page_no, section=section,
                                    kind="heading" if is_heading else kind))
    return join_page_breaks(blocks, keep), removed


def _continuing(blocks: Sequence[Block], page_no: int, table: str) -> str:
    """``table`` with the header of the table that ends the previous page when it continues that
    one (:func:`indexer.extract.tables.continued_table`): the last block so far is a table of page
    ``page_no - 1`` and nothing of page ``page_no`` came before ``table``."""
    last = blocks[-1] if blocks else None
    if last is None or last.kind != "table" or last.page != page_no - 1:
        return table
    return continued_table(last.text, table) or table


RUNNING_LINES = 12
"""Distinct running header/footer lines kept as title hints."""


def running_lines(removed: list[str], limit: int = RUNNING_LINES) -> list[str]:
    """The distinct lines among the ``removed`` furniture that repeat (on two pages or more; digits
    masked, so "Page 3 of 25 X" and "Page 4 of 25 X" are one), most frequent first: a document's
    running header often carries the only statement of its product name (title hints,
    :attr:`core.types.ExtractedDocument.header_lines`)."""
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for line in removed:
        key = " ".join(re.sub(r"\d+", "#", line.lower()).split())
        counts[key] += 1
        first.setdefault(key, line)
    ranked = sorted((k for k, n in counts.items() if n >= 2), key=lambda k: -counts[k])
    return [first[k] for k in ranked[:limit]]


def removed_lines(text: str, kept: str) -> list[str]:
    """The non-empty lines of ``text`` that ``kept`` (``text`` with some lines dropped) lacks."""
    left = Counter(line for line in kept.splitlines() if line.strip())
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if left[line]:
            left[line] -= 1
        else:
            out.append(line.strip())
    return out


def join_page_breaks(blocks: list[Block], keep: set[str]) -> list[Block]:
    """Blocks with each sentence that runs over a page break made whole in the block where it
    starts (see module doc); ``keep``: hyphenated words that keep their hyphen when joined."""
    out = list(blocks)
    for i in range(len(out) - 1):
        head, tail = out[i], out[i + 1]
        if not _continues(head, tail):
            continue
        lines = tail.text.split("\n")
        taken = _sentence_end(lines)
        if taken is None:
            continue
        joined = join_hyphenated(head.text + "\n" + "\n".join(lines[:taken]), keep)
        out[i] = replace(head, text=joined, page_end=tail.page)
        out[i + 1] = replace(tail, text="\n".join(lines[taken:]).strip())
    return [b for b in out if b.text.strip()]


def _continues(head: Block, tail: Block) -> bool:
    """``tail`` opens the next page in the same section and kind of text while ``head`` stops in
    mid-sentence."""
    if head.kind not in ("text", "ocr") or tail.kind != head.kind or head.section != tail.section:
        return False
    if head.page is None or tail.page != head.page + 1 or head.page_end is not None:
        return False
    last = head.text.rstrip().rsplit("\n", 1)[-1].strip()
    first = tail.text.lstrip().split("\n", 1)[0].strip()
    return bool(last) and bool(first) and not last.endswith(_ENDS_SENTENCE) \
        and _LIST_START.match(first) is None


def _sentence_end(lines: list[str]) -> int | None:
    """How many leading ``lines`` finish the sentence (through the first line that ends one), or
    None when no line within :data:`MAX_CARRIED_LINES` does."""
    for n, line in enumerate(lines[:MAX_CARRIED_LINES], start=1):
        if line.rstrip().endswith(_ENDS_SENTENCE):
            return n
        if not line.strip():
            return n - 1 or None
    return None
