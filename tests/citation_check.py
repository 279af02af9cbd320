"""Checks that an answer's citations are right (issue 11, item 9), for tests/test_citations.py.

For every quote of an extractive answer (the text before each ``[n]`` marker):

* **page**: the cited page's extracted text (the blocks of that page, as extraction produced them)
  contains the quoted sentence (a sentence running on to the next page may end there); a citation
  of a page span (``page``–``page_end``: an item's lead-in on the page before the item) holds each
  quoted piece on one of its pages;
* **section**: the cited section's innermost heading is a real heading of that document (an empty
  section only for text above the document's first heading): a heading
  block of the extraction, not a table cell (of a table on the heading's own page), not a list
  item (lower-case letter, roman numeral or bullet marker), not a running header/footer line (on
  more than half of the pages), not a sentence fragment (ends with "," or ";", starts lower-case).

Texts are compared after NFKC, lower-casing, dropping table pipes and lone list markers (:func:`norm`)
and collapsing whitespace; glossary expansions the answerer inserts ("SI (sum insured)") are removed
first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.types import Answer, Citation, ExtractedDocument

if TYPE_CHECKING:
    from core.config import Settings
    from core.eval import EvalResult

_MARKER = re.compile(r"\[(\d{1,3})\]")
_LIST_MARKER = re.compile(r"^(?:[•·▪◦*\-–]\s|\(?[a-z]{1,2}\)\s|\(?[ivx]{1,5}\)\s)")
"""A list item's marker: a bullet, or a lower-case letter or roman numeral ("a) ", "(iv) "). Capital
letters and roman numerals ("B) GENERAL CONDITIONS", "II. CLAIMS") number an outline's
sections, so they are no list marker here."""
_WS = re.compile(r"\s+")
_MARKER_ALONE = re.compile(r"(?:^|(?<=\s))[.•·▪◦](?=\s|$)")


@dataclass(frozen=True)
class Quote:
    """One quoted passage of an answer and the citation its marker points to."""

    text: str
    citation: Citation


def norm(text: str) -> str:
    """NFKC, lowercase, table pipes and separator rows dropped (the answerer quotes a row without its
    empty cells, and one-cell rows, prose a layout table boxed, as wrapped text), a list marker
    standing alone dropped (the answerer shows a marker extraction lost as "." as "•"), whitespace
    collapsed."""
    t = unicodedata.normalize("NFKC", text).lower()
    t = _MARKER_ALONE.sub(" ", re.sub(r"\|(?:\s*:?-{3,}:?\s*\|)*", " ", t))
    return _WS.sub(" ", t).strip()


def quotes(answer: Answer, glossary: Mapping[str, str] | None = None) -> list[Quote]:
    """The quotes of ``answer``: each piece of text before a ``[n]`` marker, split at the " … " that
    joins a list item or table row to its lead-in, with the answerer's glossary expansions removed."""
    text = answer.answer
    for expansion in (glossary or {}).values():
        text = text.replace(f" ({expansion})", "")
    out: list[Quote] = []
    start = 0
    for m in _MARKER.finditer(text):
        n = int(m.group(1))
        piece = text[start:m.start()].strip()
        start = m.end()
        if not 1 <= n <= len(answer.citations):
            continue
        for part in piece.split(" … "):
            if part.strip():
                out.append(Quote(part.strip(), answer.citations[n - 1]))
    return out


def check_eval(result: EvalResult, settings: Settings) -> tuple[list[str], int]:
    """``(problems, checks)`` over every found answer of an eval run: two checks per quote (page,
    section), one line per wrong citation (``"<item id> <file> p<page>: <problem>"``). Each cited file
    is extracted once, from ``settings.policies.root``, with ``settings``' extraction options."""
    from indexer.extract import extract_file

    root = Path(settings.policies.root)
    docs: dict[str, ExtractedDocument] = {}
    out: list[str] = []
    checks = 0
    for r in result.items:
        if r.answer is None or not r.answer.found:
            continue
        for q in quotes(r.answer, settings.retrieval.glossary):
            doc = docs.get(q.citation.file) or extract_file(root / q.citation.file, root, settings)
            docs[q.citation.file] = doc
            checks += 2
            for problem in (page_problem(doc, q), heading_problem(doc, q.citation.section, q)):
                if problem is not None:
                    span = f"{q.citation.page}" if q.citation.page_end in (None, q.citation.page) \
                        else f"{q.citation.page}-{q.citation.page_end}"
                    out.append(f"{r.item.id} {q.citation.file} p{span}: {problem}")
    return out, checks


def page_text(doc: ExtractedDocument, page: int | None) -> str:
    """The extracted text of ``page`` (all blocks for documents without pages)."""
    return "\n".join(b.text for b in doc.blocks if page is None or b.page is None or b.page == page)


def page_problem(doc: ExtractedDocument, quote: Quote) -> str | None:
    """Why the cited page does not contain the quote (``None`` when it does). A comparison answer's
    ``"<document>: "`` label in front of a quote is not part of it."""
    problem = _page_problem(doc, quote, norm(quote.text))
    if problem is not None and ": " in quote.text:
        labelled = _page_problem(doc, quote, norm(quote.text.split(": ", 1)[1]))
        return None if labelled is None else problem
    return problem


def _page_problem(doc: ExtractedDocument, quote: Quote, q: str) -> str | None:
    first = quote.citation.page
    if first is None:
        return None if q in norm(page_text(doc, None)) else f"quote not in the document: {quote.text[:80]!r}"
    cited = range(first, max(first, quote.citation.page_end or first) + 1)
    for page in cited:
        here = norm(page_text(doc, page))
        if q in here:
            return None
        both = norm(page_text(doc, page) + "\n" + page_text(doc, page + 1))
        if q in both and q[:40] in here:
            return None  # the sentence starts on a cited page and ends on the next
    for other in range(1, doc.pages + 1):
        if other not in cited and q in norm(page_text(doc, other)):
            return f"quote is on page {other}, cited page {_pages(cited)}: {quote.text[:80]!r}"
    return f"quote not on cited page {_pages(cited)}: {quote.text[:80]!r}"


def _pages(cited: range) -> str:
    return f"{cited[0]}" if len(cited) == 1 else f"{cited[0]}-{cited[-1]}"


def heading_problem(doc: ExtractedDocument, section: str, quote: Quote | None = None) -> str | None:
    """Why ``section``'s innermost heading is not a real heading of ``doc`` (``None`` when it is). An
    empty section is right only for a ``quote`` that no heading of the document precedes (text above
    the first heading: there is no nearest heading above it)."""
    if not section.strip():
        return None if quote is not None and _before_any_heading(doc, quote) else "no section"
    last = section.split(" > ")[-1].strip()
    key = norm(last)
    headings = {norm(b.text) for b in doc.blocks if b.kind == "heading"}
    if key not in headings:
        return f"section {last!r} is not a heading block"
    if _table_cell_only(doc, key):
        return f"section {last!r} is a table cell"
    if _LIST_MARKER.match(last):
        return f"section {last!r} is a list item"
    if last.endswith((",", ";")) or last[:1].islower():
        return f"section {last!r} is a sentence fragment"
    pages = {b.page for b in doc.blocks if b.page is not None}
    on = {b.page for b in doc.blocks if b.page is not None and key in {norm(x) for x in b.text.splitlines()}}
    if len(pages) >= 4 and len(on) > len(pages) / 2:
        return f"section {last!r} is a running header on {len(on)} of {len(pages)} pages"
    return None


def _table_cell_only(doc: ExtractedDocument, key: str) -> bool:
    """Every heading block reading ``key`` sits on a page where a table has a cell reading ``key``
    (the heading is a table fragment). A clause title that a summary table on another page repeats
    as a row label (the clause "4.2 Room Rent" on page 9, a benefits table's row "| 4.2 Room Rent | … |"
    on page 30) is still a heading."""
    pages = {b.page for b in doc.blocks if b.kind == "heading" and norm(b.text) == key}
    on = {b.page for b in doc.blocks if b.kind == "table" and key in {norm(c) for c in b.text.split("|")}}
    return bool(pages) and pages <= on


def _before_any_heading(doc: ExtractedDocument, quote: Quote) -> bool:
    """The quote's first words sit in a block that no heading block comes before."""
    start = norm(quote.text)[:40]
    for block in doc.blocks:
        if block.kind == "heading":
            return False
        if start and start in norm(block.text):
            return True
    return False
