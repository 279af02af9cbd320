"""Checks that a citation's section is the nearest heading above the quoted text (issue 11, item 9).

:mod:`tests.citation_check` checks that a cited section names *a* real heading of the document; this
module checks that it names the *nearest* one: in the extracted blocks of the cited file (reading
order), the last heading block at or before the block holding the quote (:func:`quote_block`) must be
the cited section's innermost heading. A quote above the document's first heading must have an empty
section.

The quote is looked for on the cited page(s) first, then anywhere in the document (a wrong page is
:func:`tests.citation_check.page_problem`'s to report). Texts are compared with
:func:`tests.citation_check.norm`.
"""

from __future__ import annotations

import re

from core.types import Block, ExtractedDocument
from tests.citation_check import Quote, norm

_CLAUSE_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[a-z]\.|[ivx]+\.)\s+")
PREFIX_CHARS = (160, 80, 40)
"""Characters of the normalised quote's opening looked for when no block holds the whole quote
(it runs on into the next block), longest first."""


def quote_block(doc: ExtractedDocument, quote: Quote) -> int | None:
    """Index into ``doc.blocks`` of the block holding the quote, or ``None`` when none does: the
    heading on the cited page(s) that the quote is, else the block there holding the whole quote,
    here = [i for i, b in enumerate(doc.blocks)
            if cited is None or b.page is None or b.page in cited]
    longest opening of the quote (:data:`PREFIX_CHARS`), on the cited pages first. A comparison
    answer's ``"<document>: "`` label in front of the quote is tried without the label too."""
    texts = [norm(quote.text)] + ([norm(quote.text.split(": ", 1)[1])] if ": " in quote.text else [])
    cited = _cited_pages(quote)
    blocks = [norm(b.text) for b in doc.blocks]
    here = [i for i, b in enumerate(doc.blocks) if cited is None or b.page is None or b.page in cited]
    headings = [i for i in here if doc.blocks[i].kind == "heading"]
    for found in ([i for i in headings if any(_opens_with(t, blocks[i], exact=True) for t in texts)],
                  [i for i in here if any(t in blocks[i] for t in texts)],
                  [i for i in headings if any(_opens_with(t, blocks[i]) for t in texts)]):
        if found:
            return found[0]
    for size in PREFIX_CHARS:
        for pool in (here, range(len(blocks))):
            hits = [i for i in pool if any(t[:size] and t[:size] in blocks[i] for t in texts)]
            if hits:
                return hits[0]
    return None


def _opens_with(quote: str, heading: str, exact: bool = False) -> bool:
    """``quote`` opens with ``heading``, or with its title without the clause number ("Gym
    membership" for "7.2.1. Gym membership"); with ``exact``, it is nothing else."""
    title = _CLAUSE_NUMBER.sub("", heading)
    return any(t and (quote == t or (not exact and quote.startswith(t + " "))) for t in (heading, title))


def _cited_pages(quote: Quote) -> range | None:
    first = quote.citation.page
    if first is None:
        return None
    return range(first, max(first, quote.citation.page_end or first) + 1)


def nearest_heading(blocks: list[Block], index: int) -> str:
    """The text of the last heading block up to ``blocks[index]`` (itself when it is a heading: a
    quote that opens with its clause's title), ``""`` when none is."""
    for block in reversed(blocks[:index + 1]):
        if block.kind == "heading":
            return block.text.strip()
    return ""


def section_problem(doc: ExtractedDocument, quote: Quote) -> str | None:
    """Why the quote's cited section is not the nearest heading above the quote (``None`` when it
    is, or when the quote is not found in the document)."""
    index = quote_block(doc, quote)
    if index is None:
        return None
    expected = nearest_heading(doc.blocks, index)
    cited = quote.citation.section.split(" > ")[-1].strip() if quote.citation.section.strip() else ""
    if norm(cited) == norm(expected):
        return None
    return f"section {cited!r}, nearest heading above the quote {expected!r}: {quote.text[:60]!r}"
