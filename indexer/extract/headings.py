"""Section headings of PDF text, from the text alone (PDFs carry no heading styles).

A line is a heading when it is short (≤ :data:`MAX_WORDS` words, ≤ :data:`MAX_CHARS` characters), does
not end like a sentence or a list lead-in (``.`` ``,`` ``;`` ``:``), holds no defining verb ("means",
"shall", "is", "are", German "ist", "wird", …), does not end in a function word ("the", "die"), is not
continued by a line starting in lower case, and is either

- **multi-level numbered** ("4.2 Waiting Period", "3.1.1 In-patient Treatment"): level = number depth;
- **single-level numbered in capitals** ("3 BENEFITS COVERED UNDER THE POLICY", "4. EXCLUSIONS"):
  level 1 (a single number with a mixed-case title is usually a list item: "4. Cataract");
- **all capitals** ("DEFINITIONS", "GENERAL CONDITIONS"): level 1;
- **an article/section label with a title** ("Art. 1 Versicherte Personen", "Section 4 Claims"): level 1;
- **set in a larger font** than the page's body text (:func:`emphasised_lines`, from PDFium's
  font-size runs, :mod:`indexer.extract.pdfium_text`, or pypdf's text runs): level 1 or 2 by size.

:class:`SectionTracker` keeps the heading stack across pages so each block gets its section path,
``"3 BENEFITS COVERED UNDER THE POLICY > 3.1 COVERAGE"``, as DOCX heading styles do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from indexer.extract.quality import FUNCTION_WORDS

MAX_WORDS = 12
MAX_CHARS = 90
MIN_LETTERS = 4
LARGER_FONT = 1.2
LARGEST_FONT = 1.6
"""Font-size ratios to the page's body text: Contoso's handbook sets headings at 16 pt over 11 pt."""
_NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.?\s*([A-Za-z(].*)$")
_SENTENCE_END = (".", ",", ";", ":")
_LIST_ITEM = re.compile(r"^[a-z]{1,4}[.)]\s")
_ARTICLE = re.compile(r"^(?:Art\.|Article|Artikel|Section|Clause|Chapter|Kapitel)\s*\d+[a-z]?\.?\s+[A-ZÄÖÜ]")
_DEFINITION = re.compile(r"\s(?:means|shall|is|are|ist|sind|wird|werden)\s", re.I)
"""A verb inside the line makes it a sentence or a definition ("2.44 Pre existing disease means…")."""


def heading_level(line: str) -> int | None:
    """Heading level (1 = top) of one line of text, or ``None`` when it is not a heading."""
    line = line.strip()
    words = line.lower().split()
    if len(line) > MAX_CHARS or len(words) > MAX_WORDS or line.endswith(_SENTENCE_END) \
            or _DEFINITION.search(line) or (len(words) > 1 and words[-1] in FUNCTION_WORDS):
        return None
    if _ARTICLE.match(line):
        return 1
    m = _NUMBERED.match(line)
    if m is not None:
        depth = m.group(1).count(".") + 1
        if depth > 1 or _capitals(m.group(2)):
            return depth
        return None
    return 1 if _capitals(line) else None


def _capitals(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    digits = sum(c.isdigit() for c in text)
    return len(letters) >= MIN_LETTERS and digits <= 0.2 * len(text) and \
        sum(c.isupper() for c in letters) >= 0.9 * len(letters)


def _continues(after: str) -> bool:
    """The next line carries on a sentence (starts in lower case and is not a list item "a)", "iv.")."""
    return after[:1].islower() and _LIST_ITEM.match(after) is None


def emphasised_lines(fragments: list[tuple[str, float]]) -> dict[str, int]:
    """Short text runs set at least :data:`LARGER_FONT` × the page's body size (the size most of its
    characters use), mapped to level 1 (≥ :data:`LARGEST_FONT` × body) or 2.

    Args:
        fragments: (text, effective font size in points) of a page's text runs (PDFium's runs of
            one size within a line, or pypdf's ``visitor_text`` runs).
    """
    weights: dict[float, int] = {}
    for text, size in fragments:
        weights[size] = weights.get(size, 0) + len(text.strip())
    if not weights:
        return {}
    body = max(weights, key=lambda size: weights[size])
    out: dict[str, int] = {}
    for text, size in fragments:
        line = text.strip()
        if size >= LARGER_FONT * body and line and len(line.split()) <= MAX_WORDS \
                and not line.endswith(_SENTENCE_END) and any(c.isalpha() for c in line):
            out[line] = 1 if size >= LARGEST_FONT * body else 2
    return out


@dataclass
class SectionTracker:
    """The heading stack of a document while its pages are read in order."""

    stack: list[tuple[int, str]] = field(default_factory=list)

    @property
    def section(self) -> str:
        """The current section path (``""`` before the first heading)."""
        return " > ".join(text for _, text in self.stack)

    def split(self, text: str, emphasised: dict[str, int] | None = None) -> list[tuple[str, str, bool]]:
        """``text`` cut at heading lines into ``(section, text, is_heading)`` parts, in order; the
        stack is updated as headings pass. ``emphasised`` maps lines set in a larger font to a
        level (:func:`emphasised_lines`); they are headings too."""
        parts: list[tuple[str, str, bool]] = []
        body: list[str] = []
        lines = text.split("\n")
        for line, after in zip(lines, [*lines[1:], ""], strict=True):
            level = heading_level(line) or (emphasised or {}).get(line.strip())
            if level is None or _continues(after):
                body.append(line)
                continue
            if any(b.strip() for b in body):
                parts.append((self.section, "\n".join(body).strip(), False))
            body = []
            self.stack = [h for h in self.stack if h[0] < level] + [(level, line.strip())]
            parts.append((self.section, line.strip(), True))
        if any(b.strip() for b in body):
            parts.append((self.section, "\n".join(body).strip(), False))
        return parts
