"""Text normalisation shared by the query stages: numbers, number words and word tokens.

The rules match the key-fact rules of ``qa_dev.yaml`` (:mod:`core.keyfacts`): NFKC, lowercase,
thousands separators dropped (``5,600,000`` and the Indian ``56,00,000`` → ``5600000``), runs of
number words that start with a small number turned into digits (``thirty days`` → ``30 days``,
``one hundred and fifty`` → ``150``, ``five thousand`` → ``5000``) and Indian/English scale words
after digits expanded (``3 lakh`` → ``300000``, ``1.5 crore`` → ``15000000``, ``2 million`` →
``2000000``). Punctuation is kept, so clause
ids such as ``3(b)`` and ``4.1.2`` survive.
"""

from __future__ import annotations

import re
import unicodedata


def word_list(text: str) -> tuple[str, ...]:
    """The whitespace-separated words of ``text`` (keeps long word lists readable)."""
    return tuple(text.split())


_UNITS = word_list("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
               "fifteen sixteen seventeen eighteen nineteen")
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_SMALL = {**{w: i for i, w in enumerate(_UNITS)}, **_TENS}
_SCALES = {"hundred": 100, "thousand": 1_000, "lakh": 100_000, "lakhs": 100_000, "lac": 100_000,
           "lacs": 100_000, "million": 1_000_000, "crore": 10_000_000, "crores": 10_000_000}
_WORD = "|".join(sorted([*_SMALL, *_SCALES], key=len, reverse=True))
_SMALL_WORD = "|".join(sorted(_SMALL, key=len, reverse=True))
_AFTER_SCALE = "|".join(f"(?<={w})" for w in _SCALES)  # "and" only joins after a scale word
_NUMBER_WORDS = re.compile(
    rf"\b(?:{_SMALL_WORD})(?:[\s-]+(?:{_WORD})|(?:{_AFTER_SCALE})\s+and\s+(?:{_SMALL_WORD}))*\b")
_DIGIT_SCALE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(lakhs?|lacs?|crores?|million)\b")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{2,3}(?!\d))")
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = frozenset(word_list(
    "a an the of and or for to in on at by with from under as is are was were be this that these those "
    "it its my our your their i we you me us do does did can could would should will shall may might "
    "what which who whom whose when where why how any there if so s der die das dem den des und oder "
    "bei mit von fur für im am zu"
))
"""Function words ignored when matching names (English plus the German articles of the corpus)."""


def normalise_numbers(text: str) -> str:
    """NFKC + lowercase ``text`` with thousands separators dropped and number words as digits.

    Example: ``"Thirty days, Rs 1,00,000 or 3 lakh"`` → ``"30 days, rs 100000 or 300000"``.
    Single small number words become digits too (``"one eye"`` → ``"1 eye"``); apply the same
    function to both sides of a comparison.
    """
    t = text if unicodedata.is_normalized("NFKC", text) else unicodedata.normalize("NFKC", text)
    t = _THOUSANDS.sub("", t.lower())
    t = _DIGIT_SCALE.sub(_scaled, t)
    return _NUMBER_WORDS.sub(lambda m: str(words_value(m.group(0))), t)


def words_value(phrase: str) -> int:
    """Value of a run of number words: "one hundred and fifty" → 150, "twenty-four" → 24, "three lakh"
    → 300000 (standard left-to-right accumulation of small and scale words; "and" is skipped)."""
    total, current = 0, 0
    for word in re.split(r"[\s-]+", phrase):
        if word == "and":
            continue
        if word in _SMALL:
            current += _SMALL[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        else:
            total += max(current, 1) * _SCALES[word]
            current = 0
    return total + current


def _scaled(m: re.Match[str]) -> str:
    value = float(m.group(1)) * _SCALES[m.group(2)]
    return str(int(value)) if value.is_integer() else str(value)


def word_tokens(text: str) -> list[str]:
    """Lowercased NFKC word tokens (letters and digits; punctuation and ``_`` split)."""
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).lower())


def fold(token: str) -> str:
    """A crude plural fold for name matching: ``"expenses"`` → ``"expense"``, ``"css"`` stays.

    Applied to both sides, so over-folding (``"plus"`` → ``"plu"``) is harmless.
    """
    if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


def name_tokens(text: str) -> tuple[str, ...]:
    """Tokens for name matching: :func:`word_tokens` with "&" read as "and", :data:`STOPWORDS`
    dropped and each token :func:`fold` ed. ``"Benefits & Perks"`` → ``("benefit", "perk")``."""
    return tuple(fold(t) for t in word_tokens(text.replace("&", " and ")) if t not in STOPWORDS)


GENERIC_WORDS = frozenset(fold(w) for w in word_list(
    "policy policies insurance insurer insured assurance plan plans health healthcare care medical "
    "mediclaim cover coverage benefit benefits option options details detail wording wordings document "
    "documents terms conditions condition service services general national global group family "
    "individual employee employees staff people handbook guide manual procedure procedures claim claims "
    "company co ltd limited inc llc plc ag gmbh corporation corp india indian united standard basic plus "
    "premium product scheme add addon rider travel domestic international perks perk office issuing "
    "registered corporate head regd premises preamble contents index definitions introduction overview "
    "schedule table page version edition summary information faq new annual base "
    "january february march april may june july august september october november december "
    "versicherung versicherungen bedingungen allgemeine avb ausgabe grundlagen inhaltsverzeichnis"
))
"""Words that never name a document on their own: "policy", "insurance", "plan", "health", company
suffixes, front-matter headings (folded with :func:`fold`). A name made only of these is ignored."""
