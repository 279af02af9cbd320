"""The context of a chunk: its document's title and its section path, put in front of the chunk text
for embedding and the full-text index (contextual chunks), never quoted.

``"Easy Health · HDFC ERGO General Insurance Company Limited — Section C › Exclusions › Waiting periods"``

Why: a chunk cut from the middle of a policy ("Expenses related to the treatment … are excluded
until 24 months") does not say which policy or which part of it it belongs to, so a question naming
the product or the topic ("is cataract excluded under Easy Health?") misses it in both legs.
Prepending the title and the heading path is the "contextual retrieval" of Anthropic ("Introducing
Contextual Retrieval", 2024) with the document structure as the context instead of an LLM summary,
and the title field of BM25F (Robertson, Zaragoza & Taylor, "Simple BM25 extension to multiple
weighted fields", CIKM 2004) folded into one field.

Title: the first title-like lines of the front matter that name something
(:func:`core.query.names.title_lines` / ``title_variants``), at most :data:`TITLE_LINES`, joined by
" · ", skipping lines that open a part of the document ("SECTION A) PREAMBLE", "1. DEFINITIONS");
else the first heading that is not such a line. Never the file name (see :func:`document_title`).
Section path: :attr:`core.types.Block.section` with " > " shown as " › " (its first level dropped
when it repeats the title).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from core.query.names import title_lines, title_variants
from core.types import ExtractedDocument

CONTEXT_TOKENS = 48
"""Model tokens kept for a chunk's context (title and section path); the chunk text gets the rest of
the embedding model's limit. A longer context is shortened (:func:`chunk_context`)."""
TITLE_LINES = 2
"""Title-like lines of the front matter used in a title (besides the file name)."""
FRONT_BLOCKS = 12
"""Blocks read from the top of a document for its title lines."""
SECTION_LINE = re.compile(
    r"^(?:(?:section|part|chapter|article|art\.|clause|schedule|annex(?:ure)?|appendix|table of contents|"
    r"contents|preamble|definitions?)\b|\(?(?:\d+|[ivxlc]+|[a-z])[.)]\s|\d+(?:\.\d+)+\s?)", re.IGNORECASE)
"""A line that opens a part of the document ("SECTION A) PREAMBLE", "1. DEFINITIONS", "Art. 18"), not
its title."""
SEP_TITLE = " · "
SEP_SECTION = " › "
SEP_CONTEXT = " — "


def document_title(doc: ExtractedDocument) -> str:
    """The title of ``doc`` for chunk contexts (module doc); ``""`` when nothing names it.

    Only the document's content decides it, never its file name: a copy or a renamed file keeps its
    chunks' contexts, so their vectors are reused and a moved file's stored contexts stay true.
    """
    front = "\n".join(b.text for b in doc.blocks[:FRONT_BLOCKS])
    lines: list[str] = []
    for line in title_lines(front):
        if SECTION_LINE.match(line):
            continue
        if title_variants(line) and line.lower() not in {x.lower() for x in lines}:
            lines.append(line)
        if len(lines) == TITLE_LINES:
            break
    if not lines:
        heads = [b.text.strip() for b in doc.blocks[:FRONT_BLOCKS] if b.kind == "heading"]
        lines = [h for h in heads if not SECTION_LINE.match(h)][:1]
    return SEP_TITLE.join(lines)


def chunk_context(title: str, section: str, count: Callable[[str], int], budget: int) -> str:
    """``"<title> — <section path>"`` within ``budget`` tokens of ``count`` (the model tokenizer).

    Shortened step by step until it fits: the outer section levels go first (the innermost heading
    says most about the chunk), then the title keeps only its first part, then words are cut from
    the end. ``""`` when both are empty or ``budget`` ≤ 0.
    """
    titles = [t for t in title.split(SEP_TITLE) if t]
    levels = [s.strip() for s in section.split(">") if s.strip()]
    if levels and levels[0].lower() in {t.lower() for t in titles}:
        levels = levels[1:]  # the document's top heading repeats its title
    candidates = [_join(titles, levels[i:]) for i in range(max(1, len(levels)))]
    candidates += [_join(titles[:1], levels[-1:]), _join(titles[:1], [])]
    for text in candidates:
        if text and count(text) <= budget:
            return text
    words = candidates[0].split()
    while words and count(" ".join(words)) > budget:
        words.pop()
    return " ".join(words)


def _join(titles: list[str], levels: list[str]) -> str:
    head, path = SEP_TITLE.join(titles), SEP_SECTION.join(levels)
    return SEP_CONTEXT.join(p for p in (head, path) if p)
