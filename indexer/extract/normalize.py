"""Text normalisation shared by every extractor.

- NFKC (Unicode TR #15) folds compatibility characters such as the ligature "ﬁ" into "fi".
- Words hyphenated at a line end ("Versiche-\\nrungsbedingungen") are joined, unless the hyphenated
  form also appears inside a line elsewhere in the document ("pre-existing"): then the hyphen stays.
- Header/footer lines that repeat on at least ``repeated_line_ratio`` of the pages are dropped
  (digits are masked first, so "Page 3 of 25" matches "Page 4 of 25"). Only lines near the top
  (:data:`HEAD_LINES`) or bottom (:data:`FOOT_LINES`) of a page are candidates, so a body sentence that
  recurs mid-page is kept. A candidate line made of several repeated lines run together (a footer
  whose parts share a baseline on some pages: "Premises No. 18-0374, … Page 2 of 25 National …
  Policy UIN: …") is dropped too.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter

log = logging.getLogger(__name__)

_LINE_END_HYPHEN = re.compile(r"(\w+) ?-\n[ \t]*([a-zà-öø-ÿ]\w*)")
_INLINE_HYPHEN = re.compile(r"\b(\w+)-(\w+)\b")
_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"[ \t\u00a0]+")
_MIN_PAGES_FOR_REPEATS = 3
HEAD_LINES = 12
"""Non-empty lines at the top of a page that may be a header (a 9-line letterhead plus page number
is seen in the corpus)."""
FOOT_LINES = 6
"""Non-empty lines at the bottom of a page that may be a footer."""


def nfkc(text: str) -> str:
    """NFKC-normalise, drop NUL/soft hyphens, collapse runs of spaces and strip line ends."""
    text = unicodedata.normalize("NFKC", text).replace("\x00", "").replace("\u00ad", "")
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

    return _LINE_END_HYPHEN.sub(fix, text)


def hyphenated_words(text: str) -> set[str]:
    """Lowercase ``left-right`` words that occur inside a line (not broken at a line end)."""
    return {m.group(0).lower() for line in text.splitlines() for m in _INLINE_HYPHEN.finditer(line)}


def _line_key(line: str) -> str:
    return _DIGITS.sub("#", line.strip().lower())


def _edges(lines: list[str]) -> set[int]:
    """Indexes of the header/footer candidate lines among ``lines`` (blank lines skipped)."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return set(filled[:HEAD_LINES]) | set(filled[-FOOT_LINES:])


def repeated_lines(pages: list[str], ratio: float) -> set[str]:
    """Keys (digit-masked, lowercase) of header/footer lines found on at least ``ratio`` of ``pages``.

    Only documents of 3 pages or more have headers to drop; blank lines never count.
    """
    if len(pages) < _MIN_PAGES_FOR_REPEATS:
        return set()
    counts: Counter[str] = Counter()
    for page in pages:
        lines = page.splitlines()
        counts.update({_line_key(lines[i]) for i in _edges(lines)})
    threshold = max(2.0, ratio * len(pages))
    return {key for key, n in counts.items() if n >= threshold}


def drop_lines(page: str, keys: set[str]) -> str:
    """``page`` without its header/footer candidate lines whose key is in ``keys``."""
    if not keys:
        return page
    lines = page.splitlines()
    edges = _edges(lines)
    return "\n".join(line for i, line in enumerate(lines)
                     if i not in edges or not _made_of(_line_key(line), keys))


def _made_of(key: str, keys: set[str], parts: int = 4) -> bool:
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
        log.debug("dropping %d repeated header/footer lines", len(keys))
    clean = [drop_lines(p, keys) for p in clean]
    keep = hyphenated_words("\n".join(clean))
    return [join_hyphenated(p, keep) for p in clean]
