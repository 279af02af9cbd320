"""Text normalisation shared by every extractor.

- NFKC (Unicode TR #15) folds compatibility characters such as the ligature "ﬁ" into "fi".
- Words hyphenated at a line end ("Versiche-\\nrungsbedingungen") are joined, unless the hyphenated
  form also appears inside a line elsewhere in the document ("pre-existing"): then the hyphen stays.
  A number broken at a line end is joined too (:func:`join_number_breaks`): without the hyphen when
  it cut a digit group ("1,00,-\\n000", "5,0-\\n00"), with it otherwise (a phone number "1-\\n800-555",
  a range "10,000-\\n20,000", a date).
- A clause number glued to the word after it at a line start ("4.1Exclusions", "3Waiting": PDF text
  without the gap) gets its space back (:func:`unglue_clause_numbers`), so the word is a token of its
  own and a numbered heading is recognised.
- Header/footer lines that repeat on at least ``repeated_line_ratio`` of the pages are dropped
  (digits are masked first, so "Page 3 of 25" matches "Page 4 of 25"). Only lines near the top
  (:data:`HEAD_LINES`) or bottom (:data:`FOOT_LINES`) of a page are candidates, so a body sentence that
  recurs mid-page is kept. A candidate line made of several repeated lines run together (a footer
  whose parts share a baseline on some pages: "Premises No. 18-0374, … Page 2 of 25 National …
  Policy UIN: …") is dropped too. And a running header that the page-text reader sets as two lines
  on some pages and as one on others, splitting it differently (PDFium and pdfplumber break a
  letterhead beside a page number differently), so that no one line form reaches the ratio, is
  found through word shingles: runs of :data:`SHINGLE_WORDS` digit-masked words, counted also across
  the line breaks of the edge zone; a candidate line of at least :data:`MIN_SHINGLED_WORDS` words
  each of which lies in a repeated shingle is dropped (w-shingling: Broder, "On the resemblance and
  containment of documents", 1997).
- Lines found in the top or bottom band of the page (by position, :func:`edge_keys`) on at least
  ``repeated_line_ratio`` of the pages, and at least two, are furniture wherever they appear in the
  page's text (a PDF may draw its header after the body, so it comes last in the text): compared
  with their spaces removed and digits masked (PDFium's text in a rectangle lacks the word-gap
  repair of the page text), also when several of them run together on one line. This holds for
  documents of two pages as well.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

log = logging.getLogger(__name__)

_LINE_END_HYPHEN = re.compile(r"(?<!\w)(\w+) ?-\n[ \t]*([a-zà-öø-ÿ]\w*)")
"""A word broken at a line end; matched from word starts only (``(?<!\\w)``), else a 20,000-letter
line without a hyphen costs quadratic time (4.7 s) as every suffix of it is tried."""
_NUMBER_BREAK = re.compile(r"(?<![\w.,])(\d[\d.,]*) ?-\n[ \t]*(\d[\d,.]*)")
"""A number (or the first number of a range, phone number, date) ending in a hyphen at a line end
and a number starting the next line."""
_GLUED_CLAUSE = re.compile(r"(?m)^([ \t]*\d{1,3}(?:\.\d{1,3}){0,3}\.?)(?=[A-Z][a-z])")
"""A line starting with a clause number (at most 3 digits per level: never a year) glued to a
capitalised word."""
_INLINE_HYPHEN = re.compile(r"\b(\w+)-(\w+)\b")
_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"[ \t\u00a0]+")
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f]")
"""C0/C1 control characters other than tab and those ``str.splitlines`` breaks lines at: a PDF may
carry ESC or BEL in its text, which would reach terminals (``policybot ask``) and Slack messages."""
_MIN_PAGES_FOR_REPEATS = 3
HEAD_LINES = 12
"""Non-empty lines at the top of a page that may be a header (a 9-line letterhead plus page number
is seen in the corpus)."""
FOOT_LINES = 6
"""Non-empty lines at the bottom of a page that may be a footer."""
SHINGLE_WORDS = 4
"""Words per shingle: long enough that prose shared by many pages ("of the policy") does not make a
whole line look repeated."""
MIN_SHINGLED_WORDS = 5
"""Shorter candidate lines are dropped only when the whole line repeats."""
MIN_ANYWHERE_LETTERS = 6
"""Letters a positioned furniture line needs to be dropped anywhere in a page's text."""


def nfkc(text: str) -> str:
    """NFKC-normalise, drop control characters (NUL, ESC, ...) and soft hyphens, collapse runs of
    spaces and strip line ends."""
    text = _CONTROLS.sub("", unicodedata.normalize("NFKC", text)).replace("\u00ad", "")
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.splitlines())


def join_hyphenated(text: str, keep: set[str] | None = None) -> str:
    """Join ``word-\\nword`` into ``wordword``; keep the hyphen when ``left-right`` (lowercase) is in
    ``keep`` (hyphenated words seen inside lines; default: those of ``text`` itself)."""
    keep = hyphenated_words(text) if keep is None else keep

    def fix(m: re.Match[str]) -> str:
        left, right = m.group(1), m.group(2)
        if f"{left}-{right}".lower() in keep:
            return f"{left}-{right}"
        return left + right

    return join_number_breaks(_LINE_END_HYPHEN.sub(fix, text))


def join_number_breaks(text: str) -> str:
    """Join a number hyphenated across a line end (``left-\\nright``, digits on both sides): the
    hyphen goes when it cut a digit group (:func:`_cuts_group`: "1,00,-\\n000" → "1,00,000",
    "5,0-\\n00" → "5,000"), else it is a real one and stays ("1-\\n800-555-1212" →
    "1-800-555-1212", "10,000-\\n20,000" → "10,000-20,000"). Text without such a break is returned
    unchanged."""
    def fix(m: re.Match[str]) -> str:
        left, right = m.group(1), m.group(2)
        return left + right if _cuts_group(left, right) else f"{left}-{right}"

    return _NUMBER_BREAK.sub(fix, text)


def _cuts_group(left: str, right: str) -> bool:
    """Whether the break between ``left`` and ``right`` falls inside a thousands group: ``left`` ends
    with its separator, or its last group after a comma is short and the leading digits of ``right``
    complete it to three (the last group, Western and Indian grouping) or two (an inner Indian lakh
    group, followed by a comma)."""
    if left.endswith(","):
        return True
    if "," not in left:
        return False
    group = left.rsplit(",", 1)[1]
    lead = re.match(r"\d*", right)
    digits = lead.group(0) if lead else ""
    after = right[len(digits):len(digits) + 1]
    total = len(group) + len(digits)
    return group.isdigit() and len(group) < 3 and (total == 3 or (total == 2 and after == ","))


def unglue_clause_numbers(text: str) -> str:
    """Put the space back between a clause number and the capitalised word glued to it at a line
    start ("2.22Hospital means" → "2.22 Hospital means", "3Waiting" → "3 Waiting"); other text is
    returned unchanged. A number of more than three digits (a year, "2010Act") is left alone."""
    return _GLUED_CLAUSE.sub(r"\1 ", text)


def hyphenated_words(text: str) -> set[str]:
    """Lowercase ``left-right`` words that occur inside a line (not broken at a line end)."""
    return {m.group(0).lower() for line in text.splitlines() for m in _INLINE_HYPHEN.finditer(line)}


def _line_key(line: str) -> str:
    return _DIGITS.sub("#", line.strip().lower())


def _edges(lines: list[str]) -> set[int]:
    """Indexes of the header/footer candidate lines among ``lines`` (blank lines skipped)."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return set(filled[:HEAD_LINES]) | set(filled[-FOOT_LINES:])


@dataclass(frozen=True)
class Repeats:
    """What repeats at the edges of a document's pages: whole-line keys (digit-masked, lowercase) and
    word shingles (tuples of :data:`SHINGLE_WORDS` such words)."""

    lines: frozenset[str] = frozenset()
    shingles: frozenset[tuple[str, ...]] = frozenset()
    anywhere: frozenset[str] = frozenset()
    """Compact keys (:func:`compact_key`) of lines repeated in the page's edge bands by position,
    with at least :data:`MIN_ANYWHERE_LETTERS` letters: dropped wherever they are in the text."""
    edge_only: frozenset[str] = frozenset()
    """The shorter ones ("#", "page#"): dropped only among a page's first and last lines, since a
    bare number elsewhere is body text (a table cell)."""

    def __bool__(self) -> bool:
        return bool(self.lines or self.shingles or self.anywhere or self.edge_only)

    def positioned(self, line: str, at_edge: bool) -> bool:
        """Whether ``line`` is one or a few positioned furniture lines (``at_edge``: it is among the
        page's header/footer candidate lines)."""
        key = compact_key(line)
        return (bool(self.anywhere) and _joined(key, self.anywhere)) or \
            (at_edge and bool(self.edge_only) and _joined(key, self.edge_only | self.anywhere))

    def covers(self, key: str) -> bool:
        """Whether the line with ``key`` is header/footer text: one repeated line or a few joined,
        or a line of ≥ :data:`MIN_SHINGLED_WORDS` words each inside a repeated shingle (so pieces of
        the header in another order still count)."""
        if _made_of(key, self.lines):
            return True
        words = key.split()
        if len(words) < MIN_SHINGLED_WORDS:
            return False
        covered = [False] * len(words)
        for i in range(len(words) - SHINGLE_WORDS + 1):
            if tuple(words[i:i + SHINGLE_WORDS]) in self.shingles:
                covered[i:i + SHINGLE_WORDS] = [True] * SHINGLE_WORDS
        return all(covered)


def _shingles(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + SHINGLE_WORDS]) for i in range(len(words) - SHINGLE_WORDS + 1)}


def _edge_shingles(lines: list[str], edges: set[int]) -> set[tuple[str, ...]]:
    """Shingles of the edge zone, read as runs of consecutive edge lines joined by spaces."""
    found: set[tuple[str, ...]] = set()
    run: list[str] = []
    for i in range(len(lines) + 1):
        if i < len(lines) and i in edges:
            run.extend(_line_key(lines[i]).split())
        elif i == len(lines) or lines[i].strip():  # blank lines do not break a run
            found |= _shingles(run)
            run = []
    return found


def repeated_lines(pages: list[str], ratio: float) -> Repeats:
    """The header/footer lines and shingles found at the edges of at least ``ratio`` of ``pages``.

    Only documents of 3 pages or more have headers to drop; blank lines never count.
    """
    if len(pages) < _MIN_PAGES_FOR_REPEATS:
        return Repeats()
    counts: Counter[str] = Counter()
    grams: Counter[tuple[str, ...]] = Counter()
    for page in pages:
        lines = page.splitlines()
        edges = _edges(lines)
        counts.update({_line_key(lines[i]) for i in edges})
        grams.update(_edge_shingles(lines, edges))
    threshold = max(2.0, ratio * len(pages))
    return Repeats(frozenset(k for k, n in counts.items() if n >= threshold),
                   frozenset(g for g, n in grams.items() if n >= threshold))


def drop_lines(page: str, repeats: Repeats) -> str:
    """``page`` without its header/footer candidate lines that ``repeats`` covers and without the
    positioned furniture lines anywhere."""
    if not repeats:
        return page
    lines = page.splitlines()
    edges = _edges(lines)
    return "\n".join(line for i, line in enumerate(lines)
                     if not (i in edges and repeats.covers(_line_key(line)))
                     and not repeats.positioned(line, i in edges))


def compact_key(line: str) -> str:
    """``line`` lowercased with whitespace removed and digit runs masked: the same for PDFium's
    text of a rectangle ("C umulativ e Bonus") and the word-gap-repaired page text."""
    return _DIGITS.sub("#", "".join(line.lower().split()))


def edge_keys(pages: list[list[tuple[str, str]]], ratio: float) -> Repeats:
    """The positioned furniture of a document: compact keys of the edge-band lines (``(band, text)``
    per page, :func:`~indexer.extract.pdfium_page.band_lines`) found in the same band on at least
    ``ratio`` of the pages and at least two, split by :data:`MIN_ANYWHERE_LETTERS`."""
    counts: Counter[tuple[str, str]] = Counter()
    for lines in pages:
        counts.update({(band, compact_key(text)) for band, text in lines})
    threshold = max(2.0, ratio * len(pages))
    found = {key for (_, key), n in counts.items() if n >= threshold and key}
    long = frozenset(k for k in found if sum(c.isalpha() for c in k) >= MIN_ANYWHERE_LETTERS)
    return Repeats(anywhere=long, edge_only=frozenset(found - long))


def _joined(key: str, keys: frozenset[str], parts: int = 4) -> bool:
    """Whether ``key`` is one of ``keys`` or up to ``parts`` of them run together."""
    if key in keys:
        return True
    return parts > 1 and any(key.startswith(k) and _joined(key[len(k):], keys, parts - 1)
                             for k in keys if k)


def _made_of(key: str, keys: frozenset[str], parts: int = 4) -> bool:
    """Whether ``key`` is one of ``keys`` or up to ``parts`` of them joined by spaces."""
    if key in keys:
        return True
    return parts > 1 and any(key.startswith(k + " ") and _made_of(key[len(k) + 1:], keys, parts - 1)
                             for k in keys)


def normalize_pages(pages: list[str], repeated_line_ratio: float) -> list[str]:
    """NFKC every page, drop repeated header/footer lines, join line-end hyphenation.

    Args:
        pages: raw text per page (index 0 = page 1).
        repeated_line_ratio: share of pages (0–1] a line must appear on to count as header/footer.

    Returns:
        Normalised text per page, same length as ``pages``.
    """
    clean = [nfkc(p) for p in pages]
    keys = repeated_lines(clean, repeated_line_ratio)
    if keys:
        log.debug("dropping %d repeated header/footer lines, %d shingles", len(keys.lines),
                  len(keys.shingles))
    clean = [drop_lines(p, keys) for p in clean]
    keep = hyphenated_words("\n".join(clean))
    return [unglue_clause_numbers(join_hyphenated(p, keep)) for p in clean]
