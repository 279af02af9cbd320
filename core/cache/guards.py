"""Guards of the verified-answer cache: cheap checks that two similar questions ask the same thing.

Sentence embeddings rate a question and its near-miss as very similar ("Plan A" vs "Plan B", "covered"
vs "not covered", "30 days" vs "60 days"). A cached answer is served only when every guard passes:

- ``numbers``: the same quantities with compatible units (:mod:`core.cache.numbers`).
- ``names``: the same plan / product / tier names: "Plan A"-style identifiers, capitalised names and
  tier words ("Imperial" vs "Imperial Plus"), compared case-insensitively by occurrence count.
- ``negation``: the same negation polarity (parity of negation cues: not, no, never, excluded, unpaid,
  ...).
- ``contrast``: no opposing qualifiers (maximum/minimum, up to/at least, over/under an amount,
  before/after, per day/per week, in-/out-patient, cashless/reimbursement, domestic/international, ...).
- ``scope``: the same folder scope (compared by the caller on canonical scope keys).

Abbreviations are expanded with the retrieval glossary first ("NCD" -> "no claim discount"), so an
acronym and its expansion compare equal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.cache.numbers import Quantity, quantities, same_quantities
from core.text import SMALL_NUMBERS

GUARDS = ("scope", "numbers", "names", "negation", "contrast")
"""Guard names, in the order they are checked; each is also a miss reason."""

_IDENT_PREFIX = (r"plan|tier|option|variant|level|grade|band|class|category|section|clause|article|"
                 r"schedule|annexure|annex|table|part|chapter|form|type|package|zone")
_IDENTIFIER = re.compile(rf"\b(?i:({_IDENT_PREFIX}))\s+([A-Z]|(?i:[ivx]+)|\d+[A-Za-z]?)\b")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9&]*")
TIER_WORDS = frozenset({
    "plus", "gold", "silver", "platinum", "bronze", "basic", "standard", "elite", "supreme",
    "classic", "lite", "advantage", "essential", "comprehensive", "super", "imperial", "prime", "pro",
})
_COMMON_WORDS = """
a an the and or but if of to in on at by for from with as is are was were be been being am do does did
has have had can could will would shall should may might must i me my we our you your he she it its
they them their this that these those what which who whom whose when where why how there here any all
some each every no not under over once after before about into than then so up out also just only
please tell say give explain let mine hi hello hey ok thanks thank yes dear
policy policies plan plans insurance insurer cover coverage covered benefit benefits details handbook
scheme act company employee employees hr question questions rs inr usd chf eur gbp
"""
COMMON = frozenset(_COMMON_WORDS.split())
_NEGATION = re.compile(
    r"\b(not|no|never|none|nothing|nobody|neither|nor|cannot|without|non|excluded|exclude|excludes|"
    r"excluding|exclusion|exclusions|except|prohibited|forbidden|disallowed|ineligible|uncovered|unpaid|"
    r"isn't|aren't|wasn't|weren't|don't|doesn't|didn't|won't|can't|couldn't|shouldn't|wouldn't|"
    r"haven't|hasn't)\b")
_NUM_WORD = rf"(?:\d|{'|'.join(sorted(SMALL_NUMBERS, key=len, reverse=True))})"
"""A number after "over"/"under" ("over thirty"): digits or a number word (:mod:`core.text`)."""
_AMOUNT = rf"(?:[$€£₹]\s?|(?:rs|inr|usd|eur|gbp|chf)\.?\s)?{_NUM_WORD}"
"""A number with an optional currency in front ("over $25", "under USD 50")."""
_PERIODS = (("day", "daily|per diem"), ("night", "nightly"), ("week", "weekly"), ("month", "monthly"),
            ("year", "yearly|annual|annually|per annum"))
"""Rate periods ("per day" vs "per week", "daily" vs "monthly"): a lenient contrast group."""
CONTRASTS: tuple[tuple[bool, tuple[str, ...]], ...] = (
    # (strict, poles). strict: both questions must name the same poles (naming none is a pole too);
    # lenient: a conflict only when both name poles and they differ.
    (True, (r"\bin[- ]?patients?\b", r"\b(out[- ]?patients?|opd)\b", r"\bday[- ]?care\b")),
    (True, (r"\bpre[- ]?hospitali[sz]ation\b", r"\bpost[- ]?hospitali[sz]ation\b")),
    (False, (r"\bcashless\b", r"\breimburse(ment|d)?\b")),
    (True, (r"\bdomestic\b", r"\b(international|overseas|abroad|worldwide)\b")),
    (True, (r"\bnormal deliver(y|ies)\b", r"\b(caesarean|cesarean|c-section)\b")),
    (True, (r"\bprimary\b", r"\bsecondary\b", r"\btertiary\b")),
    (True, (r"\bdonors?\b", r"\brecipients?\b")),
    (True, (r"\b(male|men|man|father|husband)\b", r"\b(female|women|woman|mother|wife)\b")),
    (True, (r"\bindividuals?\b", r"\b(family floater|floater)\b")),
    (False, (r"\b(maximum|max|most|highest|upper limit|ceiling|at most|up to|no more than)\b",
             r"\b(minimum|min|least|lowest|at least)\b")),
    (False, (r"\b(before|prior to)\b", r"\b(after)\b")),
    (False, (rf"\b(more than|greater than|longer than|above|exceeds?|exceeding|or more|or above|or older|"
             rf"over {_AMOUNT})",
             rf"\b(less than|fewer than|shorter than|below|lower than|or less|or fewer|or under|or below|"
             rf"or younger|under {_AMOUNT})")),
    (False, tuple(rf"(?<![\w-])(per|a|an|each|every)\s+{unit}\b|\b{adj}\b" for unit, adj in _PERIODS)),
    (False, (r"\b(increase[sd]?|raise[sd]?)\b", r"\b(decrease[sd]?|reduce[sd]?|lower(ed)?)\b")),
    (False, (r"\b(approved?|accepted|admitted|granted)\b", r"\b(rejected?|declined|denied|repudiated)\b")),
    (False, (r"\b(new|newly)\b", r"\b((?<!pre-)(?<!pre )existing|renewal|renewed|renewing)\b")),
    (False, (r"\b(employer|company)\b pays?", r"\b(employee|i|we)\b pays?")),
    (False, (r"\b(buy|purchase)\b", r"\b(sell|cancel)\b")),
)
_CONTRASTS = tuple(tuple(re.compile(p, re.IGNORECASE) for p in poles) for _, poles in CONTRASTS)
_STRICT = tuple(strict for strict, _ in CONTRASTS)


@dataclass(frozen=True)
class Signature:
    """What the guards compare, computed once per question.

    Attributes:
        text: the question after glossary expansion, lowercased (for name occurrence counts).
        quantities: numbers with units.
        names: name tokens (lowercase) found in the question.
        negation: parity (0/1) of negation cues.
        contrasts: per contrast group, the indices of the poles present.
    """

    text: str
    quantities: tuple[Quantity, ...]
    names: frozenset[str]
    negation: int
    contrasts: tuple[frozenset[int], ...]


def expand_glossary(text: str, glossary: Mapping[str, str]) -> str:
    """Append the expansion of every glossary abbreviation found as a whole word (case-sensitive)."""
    extra = [full for abbr, full in glossary.items() if re.search(rf"\b{re.escape(abbr)}\b", text)]
    if not extra:
        return text
    body = text
    for abbr in glossary:
        body = re.sub(rf"\(?\b{re.escape(abbr)}\b\)?", " ", body)
    return body + " " + " ".join(f for f in extra if f.lower() not in body.lower())


def name_tokens(text: str) -> frozenset[str]:
    """Plan-style identifiers ("plan:a"), capitalised name words and tier words, lowercased.

    A capitalised word counts unless it is a common word; a sentence-initial one only when the next
    word is capitalised too (a multi-word name) or it is all-caps / CamelCase.
    """
    names = {f"{m.group(1).lower()}:{m.group(2).lower()}" for m in _IDENTIFIER.finditer(text)}
    rest = _IDENTIFIER.sub(" ", text)
    words = list(_WORD.finditer(rest))
    for i, m in enumerate(words):
        w, low = m.group(0), m.group(0).lower()
        if low in TIER_WORDS:
            names.add(low)
        if not w[0].isupper() or low in COMMON:
            continue
        before = rest[: m.start()].rstrip()
        initial = not before or before[-1] in ".?!:;\"(“"
        nxt = words[i + 1].group(0) if i + 1 < len(words) else ""
        special = w.isupper() and len(w) > 1 or any(c.isupper() for c in w[1:])
        if not initial or special or (nxt[:1].isupper() and nxt.lower() not in COMMON):
            names.add(low)
    return frozenset(names)


def signature(question: str, glossary: Mapping[str, str] | None = None) -> Signature:
    """Compute the guard :class:`Signature` of ``question``."""
    text = expand_glossary(question, glossary or {})
    low = text.lower().replace("’", "'")
    return Signature(
        text=low,
        quantities=tuple(quantities(text)),
        names=name_tokens(text),
        negation=len(_NEGATION.findall(low)) % 2,
        contrasts=tuple(frozenset(i for i, p in enumerate(g) if p.search(low)) for g in _CONTRASTS),
    )


def _name_count(name: str, low_text: str) -> int:
    if ":" in name:
        prefix, ident = name.split(":", 1)
        return len(re.findall(rf"\b{re.escape(prefix)}\s+{re.escape(ident)}\b", low_text))
    return len(re.findall(rf"\b{re.escape(name)}\b", low_text))


def same_names(a: Signature, b: Signature) -> bool:
    """Every name of either question occurs equally often in both (case-insensitive)."""
    return all(_name_count(n, a.text) == _name_count(n, b.text) for n in a.names | b.names)


def same_contrasts(a: Signature, b: Signature) -> bool:
    """Same poles in every strict contrast group; no differing poles named by both in a lenient one."""
    pairs = zip(_STRICT, a.contrasts, b.contrasts, strict=True)
    return all(pa == pb if strict else (not (pa and pb) or pa == pb) for strict, pa, pb in pairs)


def failed_guard(a: Signature, b: Signature) -> str | None:
    """The first guard (of numbers, names, negation, contrast) that ``a`` and ``b`` fail, or None."""
    if not same_quantities(a.quantities, b.quantities):
        return "numbers"
    if not same_names(a, b):
        return "names"
    if a.negation != b.negation:
        return "negation"
    if not same_contrasts(a, b):
        return "contrast"
    return None


def scope_key(scope: Sequence[str]) -> str:
    """Canonical form of a folder scope: sorted unique globs joined by newlines (``**`` when empty)."""
    globs = sorted({g.strip() for g in scope if g.strip()}) or ["**"]
    return "\n".join(globs)
