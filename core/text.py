"""The one text module: normalisation, tokens, stop words, stemming, numbers, units and currencies.

Every stage that compares words or numbers uses these functions — retrieval's keyword query, the
offline reranker, the exact-match boost, the extractive answerer, the answer-type check, the cache
guards and eval's key-fact matching — so "thirty days", "30 days" and "30 Days" agree everywhere.

Two tokenisers, for two purposes:

* :func:`tokenize` — the keyword leg's tokens: NFKC, lowercase, split at every non-letter/digit
  (``"Rs. 40,000"`` → ``["rs", "40", "000"]``), exactly what LanceDB's full-text tokenizer does
  to the indexed text, so query and index agree.
* :func:`terms` — tokens for in-memory matching: the text goes through :func:`normalise_numbers`
  first, so numbers keep their value (``"Rs. 40,000"`` → ``["rs", "40000"]``; ``"thirty"`` →
  ``"30"``; ``"2.22Hospital"`` → ``["2.22", "hospital"]``). :func:`content_terms` drops
  :data:`STOP_WORDS` and applies :func:`stem`.

Numbers (:func:`quantities`, :func:`normalise_numbers`): digits with Western or Indian grouping
(``5,600,000``, ``56,00,000``), decimals, a ``k``/``bn`` suffix (``1.5k``, ``12k+``), scale words after
digits or number words (``3 lakh``, ``1.5 crore``, ``2 billion``, ``five thousand``; lakh = 10^5, crore =
10^7), number-word runs (``one hundred and fifty``, ``twenty-four``; standard left-to-right
accumulation), ``half`` / ``… and a half``; a currency before (``Rs.``, ``₹``, ``INR``, ``$``, ``CHF`` …;
the backtick that some PDFs emit for ``₹``) or after (``rupees``, ``dollars``) makes a ``money``
quantity, and a unit after (``%``, ``per cent``, ``days``, ``km``, ``visits`` …) its canonical unit.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache


def word_list(text: str) -> tuple[str, ...]:
    """The whitespace-separated words of ``text`` (keeps long word lists readable)."""
    return tuple(text.split())


def nfkc(text: str) -> str:
    """``text`` in Unicode NFKC (ligatures "ﬁ" → "fi", full-width digits, non-breaking spaces)."""
    return text if unicodedata.is_normalized("NFKC", text) else unicodedata.normalize("NFKC", text)


def normalise(text: str) -> str:
    """NFKC and lowercase."""
    return nfkc(text).lower()


# --- tokens ----------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_TERM = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+", re.UNICODE)

STOP_WORDS = frozenset(word_list(
    "a an and are as at be been being but by can could did do does doing for from had has have how i if "
    "in into is it its me my of on or our ours over so such than that the their them then there these "
    "they this those to under up was we were what when where which while who whom whose why will with "
    "would you your yours any am also about after before all both each few more most other some same own "
    "just should now get got us s t d ll re ve m may might shall must let "
    "der die das den dem des ein eine einer eines einem einen und oder ist sind wird werden wie was wer "
    "wo wann welche welcher welches bei mit von vom zu zum zur im auf für fur an am aus nach über ich "
    "mein meine es sie"))
"""Function words (English, and German for the German policies): they carry no content for
matching. Negations ("no", "not") and quantity words are deliberately kept."""

QUESTION_FILLER = frozenset(word_list(
    "please tell explain describe define defined definition mean means meaning extent know want need "
    "like wondering wonder hi hello hey thanks thank"))
"""Words of how a question is asked, not what it asks about (dropped from questions only)."""


def tokenize(text: str) -> list[str]:
    """Keyword-leg tokens: NFKC, lowercase, split at punctuation, whitespace and ``_``.

    ``"Pre-existing (PED)?"`` → ``["pre", "existing", "ped"]``; matches LanceDB's full-text tokenizer.
    """
    return _TOKEN.findall(normalise(text))


def terms(text: str) -> list[str]:
    """Matching tokens of ``text`` after :func:`normalise_numbers`: words and whole numbers
    (``"Rs. 40,000 within thirty days"`` → ``["rs", "40000", "within", "30", "days"]``)."""
    return _TERM.findall(normalise_numbers(text))


@lru_cache(maxsize=65536)
def stem(token: str) -> str:
    """A light English suffix stripper (``deliveries``→``delivery``, ``limited``→``limit``,
    ``covers``→``cover``, ``claims``→``claim``); numbers and words under 3 letters are left alone.
    Memoised (a pure function of the word; the offline reranker stems ~5,000 words per question).

    Not Porter: it only removes inflections, so a stem is still recognisable in a log line."""
    if not token[:1].isalpha() or len(token) < 3:
        return token
    if len(token) == 3:  # "ups" -> "up"
        return token[:2] if token.endswith("s") and not token.endswith(("ss", "us", "is", "as")) else token
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        stem_len = len(token) - len(suffix)
        if token.endswith(suffix) and not token.endswith(("ss", "us", "is")) and stem_len >= 3:
            return token[:stem_len] + repl
    return token


def content_terms(text: str, *, question: bool = False) -> list[str]:
    """Stemmed :func:`terms` minus :data:`STOP_WORDS` (and :data:`QUESTION_FILLER` when ``question``),
    in order, duplicates kept."""
    drop = STOP_WORDS | QUESTION_FILLER if question else STOP_WORDS
    return [stem(t) for t in terms(text) if t not in drop]


def fold(token: str) -> str:
    """A crude plural fold for name matching: ``"expenses"`` → ``"expense"``, ``"css"`` stays.

    Applied to both sides, so over-folding (``"plus"`` → ``"plu"``) is harmless."""
    if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


_ENGLISH_FUNCTION = frozenset(word_list(
    "a an the of and or for to in on at by with from under as is are was were be been being this that "
    "these those it its my our your their his her i we you me us he she they them do does did doing can "
    "could would should will shall may might must what which who whom whose when where why how any some "
    "there if so s not no yes than then also just only very too much many more most own same other "
    "about into onto over out up down off again once here all both each few such get got getting go "
    "going want need like really actually please tell know anything something someone somebody while "
    "during since until after before because whether though although unless within without between "
    "through via per amount much many long"))
"""English function words, question scaffolding and vague quantity words (broader than
:data:`STOP_WORDS`: what never carries a question's topic)."""
_GERMAN_FUNCTION = frozenset(word_list(
    "der die das des dem den ein eine einer eines einem einen im ins in am an auf aus bei mit von vom "
    "zu zum zur und oder sich nicht kein keine ab aber als also auch bis da damit dann dass denn doch "
    "durch für gegen hat haben hatte ich ihr ist ja jede jeder jedes man mich mir nach nein noch nur ob "
    "ohne schon sehr sein seine seinen seiner seinem sind so sondern um unter über vor war waren was "
    "weil wenn werden wie wird wo wurde wurden worden zwar zwischen"))
"""German function words (after the Snowball German stop list)."""
FUNCTION_WORDS = {"en": _ENGLISH_FUNCTION, "de": _GERMAN_FUNCTION,
                  "fr": frozenset(word_list("le la les un une du de des et ou")),
                  "es": frozenset(word_list("el la los las un una y o de del"))}
"""Function words by ISO 639-1 language, for word-by-word translation (:mod:`core.clir.translate`):
never translated, never the last word of a phrase, dropped from translations."""


def base_forms(word: str) -> list[str]:
    """``word`` and its likely English base forms, most likely first (plural and verb endings
    stripped): ``"lawyers"`` → ``["lawyers", "lawyer"]``, ``"injuries"`` → ``[…, "injury"]``."""
    forms = [word]
    rules = (("ies", "y"), ("ves", "f"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", "e"), ("ed", ""),
             ("ing", "e"), ("ing", ""))
    for suffix, repl in rules:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            stem = word[: -len(suffix)] + repl
            forms.append(stem)
            if repl == "" and len(stem) > 3 and stem[-1] == stem[-2]:
                forms.append(stem[:-1])  # "stopped" → "stop"
    return list(dict.fromkeys(forms))


def without_words(text: str, folded: set[str]) -> str:
    """``text`` without the words whose :func:`fold` (after :func:`normalise`) is in ``folded``; the
    rest, spacing and punctuation included, is kept as it was. A search confined to the documents a
    question names drops their names this way (``"Does Zephyr Care pay?"`` with ``{"zephyr", "care"}``
    → ``"Does   pay?"``)."""
    if not folded:
        return text
    return _TOKEN.sub(lambda m: "" if fold(normalise(m.group(0))) in folded else m.group(0), text)


# --- numbers ---------------------------------------------------------------------------------------

SMALL_NUMBERS = {**{w: i for i, w in enumerate(word_list(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"))},
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90}
SCALES = {"hundred": 100, "thousand": 1_000, "lakh": 100_000, "lakhs": 100_000, "lac": 100_000,
          "lacs": 100_000, "million": 1_000_000, "crore": 10_000_000, "crores": 10_000_000,
          "billion": 1_000_000_000, "k": 1_000, "bn": 1_000_000_000}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "twelfth": 12, "twentieth": 20, "thirtieth": 30}
UNITS = {
    **dict.fromkeys(("%", "percent", "per cent", "pc"), "percent"),
    **dict.fromkeys(("day", "days", "calendar days", "working days", "business days"), "day"),
    **dict.fromkeys(("week", "weeks"), "week"), **dict.fromkeys(("month", "months"), "month"),
    **dict.fromkeys(("year", "years", "yr", "yrs"), "year"),
    **dict.fromkeys(("hour", "hours", "hr", "hrs"), "hour"),
    **dict.fromkeys(("minute", "minutes", "min", "mins"), "minute"),
    **dict.fromkeys(("night", "nights"), "night"),
    **dict.fromkeys(("km", "kms", "kilometre", "kilometres", "kilometer", "kilometers"), "km"),
    **dict.fromkeys(("mile", "miles"), "mile"), **dict.fromkeys(("visit", "visits"), "visit"),
    **dict.fromkeys(("session", "sessions"), "session"), "times": "times",
    **dict.fromkeys(("bed", "beds"), "bed"), **dict.fromkeys(("delivery", "deliveries"), "delivery"),
    **dict.fromkeys(("eye", "eyes"), "eye"),
    **dict.fromkeys(("person", "persons", "people", "employees"), "person"),
    **dict.fromkeys(("dependant", "dependants", "dependent", "dependents"), "dependant"),
    **dict.fromkeys(("rupee", "rupees", "dollar", "dollars", "franc", "francs", "euro", "euros"), "money"),
}
"""Unit words after a number → canonical unit."""
DURATION_UNITS = frozenset({"day", "week", "month", "year", "hour", "minute", "night"})
CURRENCIES = {"rs": "INR", "rs.": "INR", "inr": "INR", "₹": "INR", "`": "INR", "$": "USD", "usd": "USD",
              "us$": "USD", "chf": "CHF", "sfr": "CHF", "eur": "EUR", "€": "EUR", "£": "GBP", "gbp": "GBP"}
"""Currency markers before an amount → ISO 4217 code (the backtick is a mis-encoded ₹ in some PDFs)."""
_CURRENCY_AFTER = {"rupee": "INR", "rupees": "INR", "dollar": "USD", "dollars": "USD", "franc": "CHF",
                   "francs": "CHF", "euro": "EUR", "euros": "EUR"}


def _alt(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first (so "seventeen" wins over "seven")."""
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


_WORD_SCALES = [w for w in SCALES if len(w) > 2]
_NUM_WORD = _alt([*SMALL_NUMBERS, *_WORD_SCALES])
_AFTER_SCALE = "|".join(f"(?<={w})" for w in _WORD_SCALES)  # "and" only joins after a scale word
_NUMBER = re.compile(
    r"(?P<digits>(?<!\w)(?<!\d[.,])(?:\d{1,3}(?:,\d{2,3})+(?:\.\d+)?(?![\d,]*\d)|\d+(?:\.\d+)?(?!\.?\d|(?:st|nd|rd|th)\b)))"
    rf"(?:\s?(?P<suffix>k|bn)(?![a-z])|\s*(?P<scale>{_alt(_WORD_SCALES)})\b)?"
    rf"|(?P<words>\b(?:(?:{_alt(SMALL_NUMBERS)})|a(?=\s+(?:{_alt(_WORD_SCALES)})\b))"
    rf"(?:[\s-]+(?:{_NUM_WORD})\b|(?:{_AFTER_SCALE})\s+and\s+(?:{_alt(SMALL_NUMBERS)})\b)*"
    r"(?P<half>\s+and\s+a\s+half)?\b)"
    r"|(?P<halfonly>\bhalf\b)"
)
_UNIT_AFTER = re.compile(rf"[\s-]*(?P<unit>{_alt([*UNITS, *_CURRENCY_AFTER])})(?![a-z])")
_CURRENCY_BEFORE = re.compile(rf"(?:^|(?<=[\s(/:]))(?P<cur>{_alt(CURRENCIES)})\s*$")
MULTIPLES = {"both": 2.0, "twice": 2.0}
"""Words that state a count without a number word ("both eyes", "twice a year"): quantities of 2, so
"capped for both eyes" and "capped" never compare equal (cache guards)."""
_MULTIPLE = re.compile(rf"\b(?P<m>{'|'.join(MULTIPLES)})\b")
_ORDINAL = re.compile(rf"\b(?:(?P<d>\d+)(?:st|nd|rd|th)|(?P<w>{_alt(ORDINALS)}))\b")


@dataclass(frozen=True)
class Quantity:
    """A number found in text.

    Attributes:
        value: the number (``"Rs 3 lakh"`` → 300000.0).
        unit: canonical unit (:data:`UNITS` values, ``"money"`` after a currency, ``"ordinal"``) or
            ``None`` for a bare number.
        currency: ISO code when a currency marker is attached (``"INR"``, ``"USD"``…), else ``None``.
        start, end: character span in the :func:`normalise` d text (not compared).
    """

    value: float
    unit: str | None
    currency: str | None = field(default=None, compare=False)
    start: int = field(default=0, compare=False)
    end: int = field(default=0, compare=False)


def words_value(phrase: str) -> float:
    """Value of a run of number words: "one hundred and fifty" → 150, "twenty-four" → 24, "three lakh"
    → 300000, "two and a half" → 2.5, "a thousand" → 1000 (left-to-right accumulation; "and" skipped)."""
    total, current = 0.0, 0.0
    for word in re.split(r"[\s-]+", phrase.lower().strip()):
        if word in ("and", "") or (word == "a" and not current):
            continue
        if word == "half":
            current += 0.5
        elif word in SMALL_NUMBERS:
            current += SMALL_NUMBERS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in SCALES:
            total += max(current, 1) * SCALES[word]
            current = 0.0
    return total + current


def _value(m: re.Match[str]) -> float:
    if m.group("halfonly"):
        return 0.5
    if m.group("words"):
        return words_value(m.group("words"))
    value = float(m.group("digits").replace(",", ""))
    scale = m.group("suffix") or m.group("scale")
    return value * SCALES[scale] if scale else value


def _canonical(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.6g}"


_RESTATED = re.compile(r"\s*\(\s*(?:\d[\d,.]*|[a-z][a-z\s-]{1,40}?)\s*\)")
"""A number restated in brackets after it: "24 (twenty four)", "sixty (60)"."""


def _unit_position(low: str, m: re.Match[str]) -> int:
    """Where the unit of number ``m`` starts: after a bracketed restatement of it ("24 (twenty four)
    months", legal drafting's number-then-words style) or, for the restatement itself, after its
    closing bracket ("sixty (60) days")."""
    if low[max(0, m.start() - 1):m.start()] == "(" and low.startswith(")", m.end()):
        return m.end() + 1
    restated = _RESTATED.match(low, m.end())
    inner = restated.group(0).strip(" ()") if restated else ""
    if restated and (m2 := _NUMBER.fullmatch(inner)) and _value(m2) == _value(m):
        return restated.end()
    return m.end()


def quantities(text: str) -> list[Quantity]:
    """Every number in ``text``, in order, with its unit and currency (see the module doc).

    ``"Rs 3 lakh and 30 days"`` → ``[Quantity(300000, "money", "INR"), Quantity(30, "day")]``;
    ordinals ("2nd", "second") are ``Quantity(2, "ordinal")``."""
    low = normalise(text).replace("’", "'")
    out: list[Quantity] = []
    for m in _NUMBER.finditer(low):
        unit: str | None = None
        currency: str | None = None
        after = _UNIT_AFTER.match(low, _unit_position(low, m))
        if after:
            word = after.group("unit")
            unit, currency = UNITS.get(word, "money"), _CURRENCY_AFTER.get(word)
        before = _CURRENCY_BEFORE.search(low, 0, m.start())
        if before:
            unit, currency = "money", CURRENCIES[before.group("cur")]
        out.append(Quantity(_value(m), unit, currency, m.start(), m.end()))
    for m in _MULTIPLE.finditer(low):
        out.append(Quantity(MULTIPLES[m.group("m")], None, None, m.start(), m.end()))
    for m in _ORDINAL.finditer(low):
        value = int(m.group("d")) if m.group("d") else ORDINALS[m.group("w")]
        out.append(Quantity(float(value), "ordinal", None, m.start(), m.end()))
    return sorted(out, key=lambda q: q.start)


def normalise_numbers(text: str) -> str:
    """NFKC + lowercase ``text`` with number words as digits, grouping separators dropped and scale
    words applied; other characters (units, punctuation, clause ids such as ``4.1.2`` or ``3(b)``)
    are kept.

    Example: ``"Thirty days, Rs 1,00,000 or 3 lakh"`` → ``"30 days, rs 100000 or 300000"``. Plain digits
    are left as written (``"71.00"`` stays); apply the same function to both sides of a comparison.
    """
    def swap(m: re.Match[str]) -> str:
        plain = m.group("digits") and not (m.group("suffix") or m.group("scale") or "," in m.group(0))
        return m.group(0) if plain else _canonical(_value(m))

    return _NUMBER.sub(swap, normalise(text))
