"""The context of a chunk: its document's title and its section path, put in front of the chunk text
for embedding and the full-text index (contextual chunks), never quoted.

``"Sunrise Health · Globex General Insurance Company Limited — Section C › Exclusions › Waiting periods"``

Why: a chunk cut from the middle of a policy ("Expenses related to the treatment … are excluded
until 24 months") does not say which policy or which part of it it belongs to, so a question naming
the product or the topic ("is cataract excluded under Sunrise Health?") misses it in both legs.
Prepending the title and the heading path is the "contextual retrieval" of Anthropic ("Introducing
Contextual Retrieval", 2024) with the document structure as the context instead of an LLM summary,
and the title field of BM25F (Robertson, Zaragoza & Taylor, "Simple BM25 extension to multiple
weighted fields", CIKM 2004) folded into one field.

Title (:func:`document_title`): at most :data:`TITLE_LINES` title-like lines that name something
(:func:`core.query.names.title_lines` / ``title_variants``), joined by " · ", from the file's
metadata title when the text confirms it, the front matter (skipping lines that open a part of the
document: "SECTION A) PREAMBLE", "1. DEFINITIONS") and the running header that extraction removed as
page furniture; else the first heading that is not such a line. Never the file name. The title is
also stored per document (``documents.title``) for the document-name catalog (:mod:`core.scoping`).
Section path: :attr:`core.types.Block.section` with " > " shown as " › " (its first level dropped
when it repeats the title).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from core.query.names import COMPANY_LINE, title_lines, title_variants
from core.query.text import GENERIC_WORDS, name_tokens
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
    """The title of ``doc`` for chunk contexts and the document-name catalog (module doc); ``""``
    when nothing names it.

    Candidates, in this order: the metadata title (:attr:`~core.types.ExtractedDocument.metadata_title`,
    cleaned by :func:`clean_metadata_title`) when the document's own words confirm it
    (:func:`confirmed`: metadata is often stale, a template's or a file name); the title-like lines of
    the front matter; the title-like lines of the running header
    (:attr:`~core.types.ExtractedDocument.header_lines` without digits: codes, addresses and page
    numbers have them; some policies print their product name there and nowhere else). Lines that
    name a company come after the others; a candidate whose words an earlier one holds, or that holds
    an earlier one's, is skipped; at most :data:`TITLE_LINES` are joined. Without any,
    the first heading. Only the document's content decides it, never its file name: a copy or a
    renamed file keeps its chunks' contexts, so their vectors are reused and a moved file's stored
    contexts stay true.
    """
    front = "\n".join(b.text for b in doc.blocks[:FRONT_BLOCKS])
    meta = clean_metadata_title(doc.metadata_title)
    candidates = [meta] if meta and confirmed(meta, doc) else []
    candidates += [line for line in title_lines(front) if not SECTION_LINE.match(line)]
    candidates += title_lines("\n".join(h for h in doc.header_lines if not any(c.isdigit() for c in h)))
    named = [c for c in candidates if title_variants(c) or c == meta]
    named.sort(key=lambda c: COMPANY_LINE.search(c) is not None)  # stable: product names first
    lines: list[str] = []
    for line in named:
        words = set(name_tokens(line))
        if not any(words <= (held := set(name_tokens(kept))) or held <= words for kept in lines):
            lines.append(line)
        if len(lines) == TITLE_LINES:
            break
    if not lines:
        heads = [b.text.strip() for b in doc.blocks[:FRONT_BLOCKS] if b.kind == "heading"]
        lines = [h for h in heads if not SECTION_LINE.match(h)][:1]
    return SEP_TITLE.join(lines)


_FILE_SUFFIX = re.compile(r"\.(?:docx?|pdf|cdr|indd|rtf|odt|pptx?|xlsx?|ai|qxd|pub|txt|md)$", re.IGNORECASE)
_APP_PREFIX = re.compile(r"^(?:microsoft\s+(?:word|powerpoint|excel)|adobe\s+\w+)\s*-\s*", re.IGNORECASE)


def clean_metadata_title(raw: str) -> str:
    """A metadata title as a title line: without an application prefix ("Microsoft Word - "), a file
    extension, parenthesised parts, underscores and digit codes glued to it by hyphens
    (``"20210101001-Zephyr Care-POLICY WORDING.cdr"`` → ``"Zephyr Care-POLICY WORDING"``);
    ``""`` when fewer than three letters remain."""
    t = _FILE_SUFFIX.sub("", _APP_PREFIX.sub("", " ".join(raw.split())))
    t = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", t).replace("_", " ")
    t = re.sub(r"(?<![\w-])\d{4,}-|-\d{4,}(?![\w-])", " ", t)
    t = " ".join(w for w in t.split() if not (w.isdigit() and len(w) >= 4)).strip(" -–,;:/")
    return t if sum(c.isalpha() for c in t) >= 3 else ""


def confirmed(title: str, doc: ExtractedDocument) -> bool:
    """Whether every distinctive word of ``title`` (not generic, not a number) occurs in the
    document's text or its running header lines, and it has at least one such word."""
    words = {w for w in name_tokens(title) if w not in GENERIC_WORDS and not w.isdigit()}
    if not words:
        return False
    seen: set[str] = set()
    for text in [*(b.text for b in doc.blocks), *doc.header_lines]:
        seen.update(name_tokens(text))
        if words <= seen:
            return True
    return False


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
