"""Quantities in a question: numbers (digits or words) with their units, normalised for comparison.

Used by the number guard of the verified-answer cache: "thirty days" and "30 days" give the same
quantity ``(30, "day")``; "Rs 40,000", "INR 40000" and "40000" all give ``40000`` (money, or no unit);
"Rs 3 lakh" gives ``300000``; "5%" and "5 percent" give ``(5, "percent")``; "2nd" and "second" give
``(2, "ordinal")``. Indian digit grouping ("1,00,000") and Western grouping ("100,000") both parse.
Lakh = 10^5 and crore = 10^7 (Indian numbering system).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "both": 2, "twice": 2, "half": 0.5,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}
SCALES = {"hundred": 100, "thousand": 1_000, "k": 1_000, "lakh": 100_000, "lakhs": 100_000,
          "lac": 100_000, "lacs": 100_000, "million": 1_000_000, "crore": 10_000_000,
          "crores": 10_000_000, "billion": 1_000_000_000}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "twelfth": 12, "twentieth": 20, "thirtieth": 30}
UNITS = {
    "day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month",
    "year": "year", "years": "year", "yr": "year", "yrs": "year", "hour": "hour", "hours": "hour",
    "hr": "hour", "hrs": "hour", "minute": "minute", "minutes": "minute", "km": "km", "kms": "km",
    "kilometre": "km", "kilometres": "km", "kilometer": "km", "kilometers": "km", "mile": "mile",
    "miles": "mile", "%": "percent", "percent": "percent", "pc": "percent", "times": "times",
    "beds": "bed", "bed": "bed", "deliveries": "delivery", "delivery": "delivery", "eye": "eye",
    "eyes": "eye", "people": "person", "persons": "person", "person": "person", "employees": "person",
    "dependants": "dependant", "dependant": "dependant", "dependents": "dependant", "dependent": "dependant",
    "rupees": "money", "rupee": "money", "dollars": "money", "dollar": "money", "francs": "money",
}
CURRENCY_BEFORE = {"rs", "inr", "₹", "$", "usd", "chf", "eur", "€", "£", "gbp", "`"}

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th|k)?|[a-z]+|[%₹$€£`]")
_ORDINAL_DIGITS = re.compile(r"^(\d+)(st|nd|rd|th)$")


@dataclass(frozen=True)
class Quantity:
    """A number found in text: ``value`` (float) and normalised ``unit`` (``None`` when bare)."""

    value: float
    unit: str | None


def tokenize(text: str) -> list[str]:
    """Lowercase word, number and currency-symbol tokens ("per cent" becomes "percent")."""
    low = text.lower().replace("per cent", "percent").replace("’", "'")
    return _TOKEN.findall(low)


def _digits_value(tok: str) -> float | None:
    """Value of a digit token: grouping commas dropped; "5k" = 5000; a single "." is a decimal point."""
    mult = 1_000.0 if tok.endswith("k") else 1.0
    tok = tok.rstrip("k").replace(",", "")
    if tok.count(".") > 1:
        tok = tok.replace(".", "")
    try:
        return float(tok) * mult
    except ValueError:
        return None


def _word_number(tokens: list[str], i: int) -> tuple[float, int] | None:
    """Parse a run of number words starting at ``i`` ("two hundred and fifty"); (value, next index)."""
    total, current, j, seen = 0.0, 0.0, i, False
    while j < len(tokens):
        t = tokens[j]
        if t in ONES:
            current += ONES[t]
        elif t in TENS:
            current += TENS[t]
        elif t in SCALES and seen and t != "k":
            scale = SCALES[t]
            current = max(current, 1.0) * scale
            if scale >= 1_000:
                total, current = total + current, 0.0
        elif t == "and" and seen and j + 1 < len(tokens) and (tokens[j + 1] in ONES or tokens[j + 1] in TENS):
            j += 1
            continue
        else:
            break
        seen, j = True, j + 1
    return (total + current, j) if seen else None


def _number_at(tokens: list[str], i: int) -> tuple[float, int, str | None] | None:
    """The number starting at token ``i``: (value, next index, unit implied by the token itself)."""
    tok = tokens[i]
    m = _ORDINAL_DIGITS.match(tok)
    if m:
        return float(m.group(1)), i + 1, "ordinal"
    if tok[0].isdigit():
        value = _digits_value(tok)
        if value is None:
            return None
        j = i + 1
        if j < len(tokens) and tokens[j] in SCALES and tokens[j] not in ("k",):
            value, j = value * SCALES[tokens[j]], j + 1
        return value, j, None
    if tok in ORDINALS:
        return float(ORDINALS[tok]), i + 1, "ordinal"
    parsed = _word_number(tokens, i)
    return (parsed[0], parsed[1], None) if parsed else None


def quantities(text: str) -> list[Quantity]:
    """Every quantity in ``text``, in order, with the unit that follows it (or a currency before it)."""
    tokens = tokenize(text)
    out: list[Quantity] = []
    i = 0
    while i < len(tokens):
        found = _number_at(tokens, i)
        if found is None:
            i += 1
            continue
        value, j, unit = found
        if unit is None and j < len(tokens) and tokens[j] in UNITS:
            unit = UNITS[tokens[j]]
        if unit is None and i > 0 and tokens[i - 1] in CURRENCY_BEFORE:
            unit = "money"
        out.append(Quantity(value, unit))
        i = max(j, i + 1)
    return out


def _by_value(qs: Iterable[Quantity]) -> dict[float, set[str]]:
    grouped: dict[float, set[str]] = {}
    for q in qs:
        units = grouped.setdefault(round(q.value, 6), set())
        if q.unit is not None:
            units.add(q.unit)
    return grouped


def same_quantities(a: Iterable[Quantity], b: Iterable[Quantity]) -> bool:
    """True when ``a`` and ``b`` hold the same set of values and, for each value, compatible units.

    Units are compatible when equal or when one side gives none ("Rs 40,000" vs "40000").
    """
    ga, gb = _by_value(a), _by_value(b)
    if ga.keys() != gb.keys():
        return False
    return all(not (ga[v] and gb[v]) or ga[v] == gb[v] for v in ga)
