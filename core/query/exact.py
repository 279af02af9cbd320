"""Exact-match terms of a question and the exact-match boost of retrieved chunks.

Policy questions hinge on tokens that embeddings blur and BM25 splits: amounts and periods
("30 days", "Rs 40,000", "1%"), clause ids ("4.1.2", "Section 3(b)", "Art. 4") and plan, tier or
product names ("Plan A", "Imperial Plus", "Golden Shield", quoted names). :func:`extract_terms` finds
them; :func:`exact_match_boost` raises the chunks that contain them. Both sides are normalised with
:func:`core.query.text.normalise_numbers` (so "thirty days" ≈ "30 days", "5,600,000" ≈ "56,00,000").

Term kinds and how a chunk matches them:

- ``number``: a number with a unit of time, distance or percent (matched with that unit, e.g.
  ``30\\s*days?``), or an amount (currency or ≥ 1000, matched as the bare number at digit boundaries).
  Small bare numbers ("3 eyes") are not terms.
- ``clause``: dotted or lettered ids ("4.1.2", "3(b)") match alone; plain ids ("Art. 4", "Section 3",
  "Clause II") need their keyword family in the chunk too ("art 4" or "article 4").
- ``name``: tier names ("Plan A": keyword case-insensitive, id case-sensitive), quoted phrases, runs of
  capitalised words, CamelCase words and acronyms; matched case-insensitively at word boundaries with
  flexible spaces/hyphens between words.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from core.query.definition import defined_term, definition_pattern
from core.query.text import GENERIC_WORDS, STOPWORDS, fold, normalise_numbers, word_list
from core.text import SCALES, SMALL_NUMBERS
from core.types import ScoredChunk

log = logging.getLogger(__name__)

TermKind = Literal["number", "clause", "name", "definition"]

_UNIT_ALIASES = {
    "%": r"(?:%|percent\b|per\s+cent\b)", "day": r"days?\b", "month": r"months?\b",
    "year": r"(?:years?|yrs?)\b", "week": r"weeks?\b", "hour": r"(?:hours?|hrs?)\b",
    "minute": r"(?:minutes?|mins?)\b",
    "km": r"(?:kms?|kilomet(?:re|er)s?)\b",
}
_UNIT_OF = {"%": "%", "percent": "%", "per cent": "%", "day": "day", "days": "day", "month": "month",
            "months": "month", "year": "year", "years": "year", "yr": "year", "yrs": "year", "week": "week",
            "weeks": "week", "hour": "hour", "hours": "hour", "hr": "hour", "hrs": "hour", "minute": "minute",
            "minutes": "minute", "km": "km", "kms": "km", "kilometre": "km", "kilometres": "km",
            "kilometer": "km", "kilometers": "km"}
_NUM = r"(?<![\d.])(\d+(?:\.\d+)?)"
_UNIT_RE = re.compile(_NUM + r"[\s\-)]*(" + "|".join(sorted(map(re.escape, _UNIT_OF), key=len, reverse=True))
                      + r")(?![a-z])")
_MONEY_RE = re.compile(r"(?:(rs\.?|inr|₹|\$|usd|chf|eur|€|£|gbp)\s*)?" + _NUM + r"(?![\d.]*\d)")
_CLAUSE_WORDS = {
    "section": "section|sec", "sec": "section|sec", "§": "§|section", "clause": "clause|cl",
    "cl": "clause|cl",
    "article": "article|art", "art": "article|art", "paragraph": "paragraph|para", "para": "paragraph|para",
    "rule": "rule", "schedule": "schedule", "annexure": "annexure|annex", "annex": "annexure|annex",
    "appendix": "appendix", "part": "part", "chapter": "chapter|chap", "item": "item",
    "ziffer": "ziffer|ziff", "ziff": "ziffer|ziff",
}
"""Clause keywords → the keyword family a plain id ("Art. 4") must appear with in a chunk."""
_ID = r"(\d+(?:\.\d+)*[a-z]?(?:\s*\([a-z0-9]{1,4}\))*|[ivxlc]{1,6}\b|[a-z]\b)"
_CLAUSE_RE = re.compile(r"(?<!\w)(" + "|".join(sorted(map(re.escape, _CLAUSE_WORDS), key=len, reverse=True))
                        + r")\.?\s*" + _ID, re.IGNORECASE)
_DOTTED_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+){2,4}|\d+(?:\.\d+)*\s*\([a-z0-9]{1,4}\))(?![\w]|\.\d)", re.I)
_TIER_RE = re.compile(r"\b(plan|tier|option|variant|level|class|category|grade|zone)[\s-]+"
                      r"(?:([A-Z]|[IVX]{1,4}|\d{1,2})\b|([a-e])(?=\s*(?:[?,.;:!)]|$|\s+(?:and|or|vs)\b)))",
                      re.IGNORECASE)
_QUOTED_RE = re.compile(r"\"([^\"]{2,60})\"|“([^”]{2,60})”|‘([^’]{2,60})’|(?<!\w)'([^']{2,60})'(?!\w)")
_WORD_RE = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
_NOT_NAMES = frozenset(word_list("i inr rs usd chf eur gbp ok"))


@dataclass(frozen=True)
class ExactTerm:
    """One exact-match term of a question.

    Attributes:
        kind: ``"number"``, ``"clause"``, ``"name"`` or ``"definition"`` (only in
            :func:`boost_terms`: the clause defining the term a definition question asks about).
        text: the term as written in the question (e.g. ``"Rs 40,000"``, ``"Plan A"``).
        pattern: regex searched in :func:`normalise_numbers` text of a chunk.
        start: character offset of the term in the question (for slot replacement).
        slot: what the term fills, for follow-up slot replacement: the unit of a number
            (``"day"``, ``"%"``, ``"money"``), the keyword of a tier (``"plan"``) or ``"name"``.
        case_sensitive: match on the chunk's NFKC text instead of the lowercased normalised text
            (tier ids: "Plan A" must not match "plan a trip").

    Offsets refer to the NFKC form of the question (the same string for ordinary text).
    """

    kind: TermKind
    text: str
    pattern: re.Pattern[str]
    start: int = 0
    slot: str = ""
    case_sensitive: bool = False

    def matches(self, text: str) -> bool:
        """True when the term occurs in ``text``: a chunk's :func:`normalise_numbers` text, or for a
        ``case_sensitive`` term its NFKC text."""
        return self.pattern.search(text) is not None

    def found_in(self, normalised: str, raw: str) -> bool:
        """:meth:`matches` on the right view of a chunk (``normalise_numbers(text)``, NFKC ``text``)."""
        return self.matches(raw if self.case_sensitive else normalised)


def extract_terms(question: str) -> list[ExactTerm]:
    """The exact-match terms of ``question`` in order of appearance, without overlaps or duplicates.

    Deterministic; returns ``[]`` for a question with none (e.g. "What is a hospital?").
    """
    q = unicodedata.normalize("NFKC", question)
    found = [*_clause_terms(q), *_tier_terms(q), *_number_terms(q), *_quoted_terms(q), *_name_terms(q)]
    out: list[ExactTerm] = []
    taken: list[tuple[int, int]] = []
    for term in found:  # earlier extractors win overlaps (a clause id is not also a number)
        span = (term.start, term.start + len(term.text))
        if any(span[0] < e and s < span[1] for s, e in taken) or term.pattern.pattern in {
                t.pattern.pattern for t in out}:
            continue
        taken.append(span)
        out.append(term)
    return sorted(out, key=lambda t: t.start)


def _number_terms(q: str) -> list[ExactTerm]:
    terms: list[ExactTerm] = []
    for m in _NUMERIC_PHRASE.finditer(q):
        text, start = m.group(0).strip(), m.start()
        norm = normalise_numbers(text)
        unit = _UNIT_RE.search(norm)
        if unit:
            key = _UNIT_OF[unit.group(2)]
            pattern = re.compile(rf"(?<![\d.]){re.escape(unit.group(1))}[\s\-)]*{_UNIT_ALIASES[key]}")
            terms.append(ExactTerm("number", text, pattern, start, key))
            continue
        money = _MONEY_RE.search(norm)
        if money and (money.group(1) or float(money.group(2)) >= 1000):
            pattern = re.compile(rf"(?<![\d.]){re.escape(money.group(2))}(?![\d]|\.\d)")
            terms.append(ExactTerm("number", text, pattern, start, "money"))
    return terms


_NUMBER_WORD_ALT = "|".join(sorted((w for w in [*SMALL_NUMBERS, *SCALES] if len(w) > 2), key=len,
                                   reverse=True))
"""Number and scale words (:mod:`core.text`), for spotting a spelled-out amount in a question."""
_NUMERIC_PHRASE = re.compile(
    r"(?:(?:rs\.?|inr|₹|\$|usd|chf|eur|€|£|gbp)\s*)?"
    rf"(?:(?<![\w.])\d[\d,]*(?:\.\d+)?|\b(?:{_NUMBER_WORD_ALT})(?:[\s-]+(?:and[\s-]+)?(?:{_NUMBER_WORD_ALT}))*\b)"
    r"(?:\s*(?:lakhs?|lacs?|crores?|million)\b)?"
    r"(?:[\s\-)]*(?:" + "|".join(sorted(map(re.escape, _UNIT_OF), key=len, reverse=True)) + r")(?![a-z]))?",
    re.IGNORECASE,
)


def _clause_terms(q: str) -> list[ExactTerm]:
    terms: list[ExactTerm] = []
    for m in _CLAUSE_RE.finditer(q):
        word, ident = m.group(1).lower(), m.group(2).lower()
        if re.fullmatch(r"[a-z]", ident) and not m.group(2).isupper():
            continue  # "part a" of a sentence, not "Part A"
        terms.append(ExactTerm("clause", m.group(0), _clause_pattern(_CLAUSE_WORDS[word], ident), m.start(),
                               "clause"))
    for m in _DOTTED_RE.finditer(q):
        terms.append(ExactTerm("clause", m.group(0), _clause_pattern(None, m.group(1).lower()), m.start(),
                               "clause"))
    return terms


def _clause_pattern(family: str | None, ident: str) -> re.Pattern[str]:
    """Dotted/lettered ids match alone; plain ids need the keyword family (``art 4|article 4``)."""
    body = r"\s*".join(re.escape(ch) for ch in ident.replace(" ", ""))
    tail = r"(?![\w]|\.\d)"
    if family is None or re.search(r"[.(]", ident):
        return re.compile(rf"(?<![\w.]){body}{tail}")
    return re.compile(rf"(?<!\w)(?:{family})\.?\s*{body}{tail}")


def _tier_terms(q: str) -> list[ExactTerm]:
    terms = []
    for m in _TIER_RE.finditer(q):
        ident = (m.group(2) or m.group(3) or "").upper()
        pattern = re.compile(rf"(?<!\w)(?i:{m.group(1)})[\s-]+{re.escape(ident)}(?!\w)")
        terms.append(ExactTerm("name", m.group(0), pattern, m.start(), m.group(1).lower(),
                               case_sensitive=True))
    return terms


def _quoted_terms(q: str) -> list[ExactTerm]:
    terms = []
    for m in _QUOTED_RE.finditer(q):
        inner = next(g for g in m.groups() if g)
        if 1 <= len(inner.split()) <= 8:
            terms.append(ExactTerm("name", inner, _name_pattern(inner), m.start() + 1, "name"))
    return terms


def _name_terms(q: str) -> list[ExactTerm]:
    """Runs of capitalised words, CamelCase words and acronyms (not a sentence's first word)."""
    runs: list[list[re.Match[str]]] = []
    previous: re.Match[str] | None = None
    for m in _WORD_RE.finditer(q):
        if not _is_name_word(q, m):
            previous = None
            continue
        if previous is not None and re.fullmatch(r"[\s&-]{1,3}", q[previous.end():m.start()]):
            runs[-1].append(m)
        else:
            runs.append([m])
        previous = m
    terms: list[ExactTerm] = []
    for run in runs:
        if len(run) > 1 or _distinctive(run[0].group(0)):
            text = q[run[0].start():run[-1].end()]
            terms.append(ExactTerm("name", text, _name_pattern(text), run[0].start(), "name"))
    return terms


def _is_name_word(q: str, m: re.Match[str]) -> bool:
    word = m.group(0)
    if not word[0].isupper() or word.lower() in _NOT_NAMES:
        return False
    sentence_start = re.search(r"(?:^|[.?!]\s+|[\"“‘(]\s*)$", q[: m.start()]) is not None
    return not (sentence_start and word.lower() in STOPWORDS | _QUESTION_STARTS)


_QUESTION_STARTS = frozenset(word_list(
    "once please tell explain list compare according also then just hi hello ist wie was wann wo wer welche "
    "kann muss"))


def _distinctive(word: str) -> bool:
    """A lone capitalised word counts when it is an acronym, CamelCase or not a sentence opener."""
    return word.isupper() and len(word) >= 2 or re.search(r"[a-z][A-Z]", word) is not None or len(word) >= 4


def _name_pattern(text: str) -> re.Pattern[str]:
    """The name, or (for 3+ words) any run of 2+ of its words with a non-generic word: "Globex Mutual
    Golden Shield" also matches "Golden Shield", never "Health Care" alone."""
    words = re.findall(r"[^\W_]+", normalise_numbers(text))
    runs = [words[i:j] for i in range(len(words)) for j in range(len(words), i + 1, -1)
            if len(words) >= 3 and any(fold(w) not in GENERIC_WORDS for w in words[i:j])]
    alternatives = [r"[\s\-'’]*".join(map(re.escape, run)) for run in [words, *runs]]
    return re.compile(r"(?<!\w)(?:" + "|".join(dict.fromkeys(alternatives)) + r")(?!\w)")


def boost_terms(question: str) -> list[ExactTerm]:
    """:func:`extract_terms` plus, for a definition question (:func:`core.query.definition.defined_term`),
    a ``definition`` term ("Hospital" → "hospital means …") that replaces the name terms inside the
    defined term: every clause mentioning a hospital matches the name, only its definition the term."""
    terms = extract_terms(question)
    term = defined_term(unicodedata.normalize("NFKC", question))
    if term is None:
        return terms
    inside = [t for t in terms if t.kind == "name" and t.text.lower() in term.lower()]
    return [*(t for t in terms if t not in inside),
            ExactTerm("definition", term, definition_pattern(term), 0, "definition")]


def exact_match_boost(question: str, candidates: Sequence[ScoredChunk], weight: float) -> list[ScoredChunk]:
    """Boost the candidates that contain the question's exact-match terms, then re-sort.

    Each candidate gets ``boost = weight * matched_terms / all_terms`` added to its score (``weight`` is
    in the units of ``ScoredChunk.score``: e.g. ~0.02 on reciprocal-rank-fusion scores, ~0.1 on 0–1
    reranker scores), recorded as ``scores["exact"]``. Sorting is stable: ties keep their order.
    Chunk text gets the full number normalisation only when a term needs it (numbers, names with
    digits); ~20 ms for 60 chunks of ~1,200 characters with number terms on this machine, ~4 ms without.

    Returns:
        A new list, best first; ``list(candidates)`` unchanged when the question has no terms or
        ``weight`` is 0.
    """
    terms = boost_terms(question)
    if not terms or weight == 0 or not candidates:
        return list(candidates)
    # number words in chunks matter only to terms with numbers (clause ids are never spelled out)
    numeric = any(t.kind != "clause" and re.search(r"\d", normalise_numbers(t.text)) for t in terms)
    boosted = []
    for sc in candidates:
        raw = unicodedata.normalize("NFKC", sc.chunk.text)
        norm = normalise_numbers(raw) if numeric else raw.lower()
        boost = weight * sum(t.found_in(norm, raw) for t in terms) / len(terms)
        boosted.append(replace(sc, score=sc.score + boost, scores={**sc.scores, "exact": boost}))
    log.debug("exact terms %s", [t.text for t in terms])
    log.info("exact-match boost: %d terms, %d of %d candidates matched", len(terms),
             sum(1 for b in boosted if b.scores["exact"] > 0), len(boosted))
    return sorted(boosted, key=lambda sc: -sc.score)
