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
- **set in a larger font** than the page's body text (level 1 or 2 by size), or **numbered and wholly
  in bold** at least the body's size ("3. Specific Exclusions": level by the number's depth)
  (:func:`emphasised_lines`, from PDFium's font runs, :mod:`indexer.extract.pdfium_text`, or pypdf's
  text runs), when the line reads like a title (:func:`title_like`). Bold lines without a number
  stay body text: bold marks defined terms and emphasis far more often than headings (whole bold
  lines would have multiplied the corpus's sections by four).

Never a heading, whatever its font: a list item (a line opening with a lower-case letter or roman
numeral and ``.`` or ``)``, or a bullet), a numbered line whose title starts in lower case ("7.5
dioptres": a measurement broken onto its own line), and — unless set in a larger or bold font — a
line that continues the sentence of the line above (which ends in ``,``, ``-``, ``/``, ``&``, ``(`` or
a word such as "and", "than", "such as": "IVF, ZIFT, GIFT,\nICSI"). Table cells never reach here
(tables are blocks of their own), nor do running headers (removed first, :mod:`.pdf_blocks`).

:class:`SectionTracker` keeps the heading stack across pages so each block gets its section path,
``"3 BENEFITS COVERED UNDER THE POLICY > 3.1 COVERAGE"``, as DOCX heading styles do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from indexer.extract.quality import FUNCTION_WORDS

MAX_WORDS = 12
MAX_CHARS = 90
MIN_LETTERS = 4
LARGER_FONT = 1.2
LARGEST_FONT = 1.6
"""Font-size ratios to the page's body text: a typical handbook sets headings at 16 pt over 11 pt."""
_NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.?\s*([A-Za-z(].*)$")
_LOWER_LIST = re.compile(r"^(?:\(?[a-z]{1,4}[.)]|\([ivx]{1,5}\)|[•·▪◦●■\-–*])\s")
"""A list item's marker: "a)", "(b)", "iv.", "(ii)", or a bullet."""
_RUNS_ON_WORDS = frozenset((
    "and", "or", "of", "to", "in", "for", "with", "by", "as", "at", "the", "a", "an", "than",
    "such", "including", "e.g.", "i.e.", "per", "from", "under", "any", "all", "is", "are", "be",
    "not", "no", "und", "oder", "der", "die", "das", "mit", "von", "zu", "für", "bei",
))
_RUNS_ON_END = (",", "-", "/", "&", "(", "–")
_LETTERED = re.compile(r"^(?:[A-H]|[IVX]{1,4})[.)]\s+[A-Z]")
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
    if _LOWER_LIST.match(line):
        return None
    m = _NUMBERED.match(line)
    if m is not None:
        depth = m.group(1).count(".") + 1
        if m.group(2)[:1].islower():
            return None
        if depth > 1 or _capitals(m.group(2)):
            return depth
        return None
    return 1 if _capitals(line) else None


def title_like(line: str) -> bool:
    """A line set in a larger or bold font reads like a title: at most :data:`MAX_WORDS` words and
    :data:`MAX_CHARS` characters, a letter in it, not a sentence (end punctuation, a defining verb
    unless it is a question title: "What is covered?"),
    not a list item, not ending in a function word or a dash, and opening with a capital, a digit or
    ``(``."""
    line = line.strip()
    words = line.lower().split()
    return bool(words) and len(words) <= MAX_WORDS and len(line) <= MAX_CHARS \
        and not line.endswith(_SENTENCE_END + _RUNS_ON_END + ("—",)) and any(c.isalpha() for c in line) \
        and (_DEFINITION.search(line) is None or line.endswith("?")) and _LOWER_LIST.match(line) is None \
        and not (len(words) > 1 and words[-1] in FUNCTION_WORDS) \
        and (line[0].isupper() or line[0].isdigit() or line[0] == "(") \
        and not ((m := _NUMBERED.match(line)) is not None and m.group(2)[:1].islower())


def numbered_title(line: str) -> int | None:
    """The level of a numbered title ("3. Specific Exclusions" → 1, "4.2 Waiting Period" → 2, "A.
    General Conditions" → 1), or None. Only lines set wholly in bold are read this way: in body text
    a single number before a mixed-case title is usually a list item."""
    m = _NUMBERED.match(line.strip())
    if m is not None:
        return m.group(1).count(".") + 1
    return 1 if _LETTERED.match(line.strip()) else None


def runs_on(line: str) -> bool:
    """The sentence of ``line`` goes on in the next line: it ends in a comma, hyphen, slash, ``&``,
    an open bracket or a word that cannot end a sentence ("and", "than", "such as")."""
    line = line.rstrip()
    if not line:
        return False
    return line.endswith(_RUNS_ON_END) or line.rsplit(None, 1)[-1].lower() in _RUNS_ON_WORDS


def _capitals(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    digits = sum(c.isdigit() for c in text)
    return len(letters) >= MIN_LETTERS and digits <= 0.2 * len(text) and \
        sum(c.isupper() for c in letters) >= 0.9 * len(letters)


def _continues(after: str) -> bool:
    """The next line carries on a sentence (starts in lower case and is not a list item "a)", "iv.")."""
    return after[:1].islower() and _LIST_ITEM.match(after) is None


def emphasised_lines(fragments: Sequence[tuple[Any, ...]]) -> dict[str, int]:
    """Title-like text runs (:func:`title_like`) set at least :data:`LARGER_FONT` × the page's body
    size (the size most of its characters use), mapped to level 1 (≥ :data:`LARGEST_FONT` × body) or
    2; and whole lines set in bold at the body size or larger (level 2).

    Args:
        fragments: ``(text, effective font size in points)`` of a page's text runs (pypdf's
            ``visitor_text`` runs), or ``(text, size, bold, line number)`` (PDFium's runs of one
            size and weight within a line, :data:`indexer.extract.pdfium_text.Fragment`).
    """
    weights: dict[float, int] = {}
    per_line: dict[int, int] = {}
    for frag in fragments:
        weights[frag[1]] = weights.get(frag[1], 0) + len(frag[0].strip())
        if len(frag) > 3:
            per_line[frag[3]] = per_line.get(frag[3], 0) + 1
    if not weights:
        return {}
    body = max(weights, key=lambda size: weights[size])
    out: dict[str, int] = {}
    for frag in fragments:
        line, size = frag[0].strip(), frag[1]
        if not title_like(line):
            continue
        if size >= LARGER_FONT * body:
            out[line] = 1 if size >= LARGEST_FONT * body else 2
        elif len(frag) > 3 and frag[2] and per_line[frag[3]] == 1 and size >= 0.95 * body:
            level = numbered_title(line)
            if level is not None:
                out.setdefault(line, level)
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
        before = ""
        for line, after in zip(lines, [*lines[1:], ""], strict=True):
            marked = (emphasised or {}).get(line.strip())
            level = heading_level(line) or marked
            if level is None or _continues(after) or (marked is None and runs_on(before)):
                body.append(line)
                before = line if line.strip() else before
                continue
            before = line
            if any(b.strip() for b in body):
                parts.append((self.section, "\n".join(body).strip(), False))
            body = []
            self.stack = [h for h in self.stack if h[0] < level] + [(level, line.strip())]
            parts.append((self.section, line.strip(), True))
        if any(b.strip() for b in body):
            parts.append((self.section, "\n".join(body).strip(), False))
        return parts
