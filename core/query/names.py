"""Name variants of a document, from its file name and its title text (input of :mod:`doc_scope`).

A *name variant* is a tuple of :func:`~core.query.text.name_tokens` (lowercase, stopwords dropped,
plurals folded) that names one document: ``("arogya", "sanjeevani")``, ``("bajaj", "allianz")``,
``("golden", "shield")``, ``("css",)``. Sources:

1. The file stem, split at ``_ - . space``, without UIN-like codes (``BAJHLIP23020V012223``), years,
   language codes and noise words (``scanned``, ``restricted``, ``final`` …).
2. Title-like lines of the title text (the first chunk(s) of the document): lines of 1–8 words that
   start with a capital or digit, read from the top until the first prose line (front matter only),
   at most :data:`MAX_TITLE_LINES`; contact/address lines are skipped and ``UIN: …``/"Page n of m"
   are cut off.

Each phrase is trimmed of generic words at both ends (:data:`~core.query.text.GENERIC_WORDS`:
"policy", "insurance", "plan", "health", company suffixes …). The trimmed phrase is a variant when it
keeps 2+ words. A single remaining word is a variant only when it is distinctive — an acronym or
CamelCase word or alphanumeric brand in the file name (``HRX``, ``FlexPerks``, ``42widgets``), or the
brand of a company line (``Globex`` of "Globex General Insurance Company Limited"); otherwise
it is kept with a generic neighbour: for title lines the word and each adjacent word ("Family
Careplan", "Expense Policy", "Initech Health" of "Initech Health Plus Plan"), for file names the
whole phrase ("Acme Employee Handbook"). Phrases made only
of generic words count when they have 3+ words ("Global Health Care", "Group Domestic Travel
Insurance"): a title of three generic words is a product name, two are a heading.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from core.query.text import GENERIC_WORDS, name_tokens, word_list

MAX_TITLE_LINES = 10
"""Title-like lines read from the top of the title text (front matter; headings further down are topics)."""

_NOISE = frozenset(word_list("scanned scan restricted final draft copy signed redacted ocr new old latest "
                   "de en fr it es v1 v2 v3"))
_UIN = re.compile(r"(?=(?:.*\d){4})(?=(?:.*[a-z]){3})[a-z0-9]{8,}", re.IGNORECASE)
COMPANY_LINE = re.compile(r"\b(?:company|co\.?|ltd\.?|limited|inc\.?|llc|plc|ag|gmbh|corporation)\W*$",
                           re.IGNORECASE)
_SKIP_LINE = re.compile(r"@|www\.|https?:|\.com\b|\S:\s*\S|\b\d{5,}\b|\d{3,}\s\d{3,}", re.IGNORECASE)
"""Contact and address lines (e-mail, URL, "Office: …", postcodes, phone numbers)."""
_CUT_TAIL = re.compile(r"(?<![a-z])(?:uin|cin|irdai?|regn?\.?\s*no|corporate identity|gstin)\b.*$"
                       r"|\bpage\s+\d+(?:\s+of(?:\s+\d+)?)?", re.IGNORECASE)

Variant = tuple[str, ...]


def path_variants(path: str) -> set[Variant]:
    """Name variants of the file name of ``path`` (see the module doc, source 1)."""
    words = [w for w in re.split(r"[_\-.\s]+", PurePosixPath(path).stem)
             if w and not _UIN.fullmatch(w) and not w.isdigit() and w.lower() not in _NOISE]
    variants = _phrase_variants(" ".join(words), brand=False)
    for word in words:
        if _distinctive_word(word) and name_tokens(word):
            variants.add(name_tokens(word))
        camel = re.findall(r"[A-Z][a-z]+|[A-Z]+(?![a-z])|\d+", word)
        if len(camel) > 1:
            variants |= _phrase_variants(" ".join(camel), brand=False)
    return variants


def title_variants(title_text: str) -> set[Variant]:
    """Name variants of the title-like lines at the top of ``title_text`` (module doc, source 2)."""
    variants: set[Variant] = set()
    for line in title_lines(title_text):
        variants |= _phrase_variants(line, brand=COMPANY_LINE.search(line) is not None, pairs=True)
    return variants


def title_lines(title_text: str) -> list[str]:
    """The title-like lines at the top of ``title_text`` (module doc, source 2).

    Reading stops at the first prose line (starts lowercase; or 5+ words, 60 % of them lowercase; or
    9+ words, half of them lowercase):
    the front matter is over and headings below it name topics, not the document.
    """
    out: list[str] = []
    for raw in title_text.splitlines()[:80]:
        line = _CUT_TAIL.sub("", raw.strip().lstrip("#>*-•[ ").strip()).strip(" ,;:-–|/")
        words = line.split()
        if not line or _SKIP_LINE.search(line):
            continue
        if _is_prose(words):
            break
        if len(words) <= 8 and (line[0].isupper() or line[0].isdigit()):
            out.append(line)
        if len(out) == MAX_TITLE_LINES:
            break
    return out


def _is_prose(words: list[str]) -> bool:
    if words[0][0].islower():
        return True
    lower = sum(1 for w in words if w[0].islower()) / len(words)
    return (len(words) >= 5 and lower >= 0.6) or (len(words) > 8 and lower >= 0.5)


def _phrase_variants(phrase: str, *, brand: bool, pairs: bool = False) -> set[Variant]:
    tokens = tuple(t for t in name_tokens(phrase) if not t.isdigit())
    core, start = _trim(tokens)
    if len(core) >= 2 or (len(core) == 1 and brand and len(core[0]) >= 3):
        return {core}
    if len(core) == 1 and len(tokens) >= 2:
        if not pairs:
            return {tokens}
        return {tokens[i:i + 2] for i in (start - 1, start) if i >= 0 and i + 2 <= len(tokens)}
    if not core and len(tokens) >= 3 and not brand:
        return {tokens}
    return set()


def _trim(tokens: Variant) -> tuple[Variant, int]:
    """``tokens`` without generic words at either end, and the index where the rest starts."""
    start, end = 0, len(tokens)
    while start < end and tokens[start] in GENERIC_WORDS:
        start += 1
    while end > start and tokens[end - 1] in GENERIC_WORDS:
        end -= 1
    return tokens[start:end], start


def _distinctive_word(word: str) -> bool:
    """Acronym (``HRX``), CamelCase (``FlexPerks``) or letters+digits (``42widgets``), not generic."""
    acronym = word.isupper() and word.isalpha() and 2 <= len(word) <= 6
    camel = re.search(r"[a-z][A-Z]", word) is not None
    alnum = re.search(r"\d", word) is not None and re.search(r"[a-z]", word, re.I) is not None
    shaped = acronym or camel or alnum
    return shaped and all(t not in GENERIC_WORDS for t in name_tokens(word))
