"""Key-fact matching for evaluation: does an answer contain a fact such as "thirty days" or "5,000"?

Both sides are normalised the same way (the rules of ``qa_dev.yaml``): NFKC, lowercase, thousands
separators dropped (``1,00,000`` → ``100000``, ``40,000`` → ``40000``), number words turned into digits
(``thirty days`` → ``30 days``, ``twenty-four`` → ``24``), ``Rs``/``Rs.``/``INR``/``₹`` unified to ``inr``,
punctuation other than ``% $ . -`` dropped and whitespace collapsed; then the fact must occur as a
substring at word boundaries.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
NUMBER_WORDS = {**{w: i for i, w in enumerate(_UNITS)}, **_TENS}
_NUMBER_WORD = re.compile(
    r"\b(" + "|".join(_TENS) + r")(?:[\s-]+(" + "|".join(_UNITS[1:10]) + r"))?\b|\b(" + "|".join(_UNITS) + r")\b"
)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d)")
_CURRENCY = re.compile(r"(?:\brs\.?|\binr\b|₹)\s*")


def normalise_fact_text(text: str) -> str:
    """Normalise ``text`` for key-fact matching (see the module doc)."""
    t = unicodedata.normalize("NFKC", text).lower()
    t = _THOUSANDS.sub("", t)
    t = _NUMBER_WORD.sub(_number, t)
    t = _CURRENCY.sub("inr ", t)
    t = re.sub(r"[^\w%$.\-\s]", " ", t)
    t = re.sub(r"(?<!\d)\.|\.(?!\d)", " ", t)  # keep decimal points only
    return " ".join(t.split())


def _number(m: re.Match[str]) -> str:
    if m.group(3):
        return str(NUMBER_WORDS[m.group(3)])
    return str(NUMBER_WORDS[m.group(1)] + (NUMBER_WORDS[m.group(2)] if m.group(2) else 0))


def contains_fact(answer: str, fact: str) -> bool:
    """True when normalised ``fact`` occurs in normalised ``answer`` at word boundaries."""
    a, f = normalise_fact_text(answer), normalise_fact_text(fact)
    return bool(f) and re.search(rf"(?<![\w$]){re.escape(f)}(?!\w)", a) is not None


def facts_found(answer: str, facts: Iterable[str]) -> list[bool]:
    """One flag per fact: whether ``answer`` contains it."""
    return [contains_fact(answer, f) for f in facts]
