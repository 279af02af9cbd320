"""Ages stated in text: a quantity kind of its own (issue 11).

A number is an age when the text around it says so — "age 26", "aged 18", "the age of 65", "26 years
of age", "26 years old", "a 26-year-old" — or, in a question, when a bare number (no unit word after
it) follows a word that bounds an age: "until 27", "under 26", "turns 65", "over 60?". The second
pattern is read in questions only (:func:`stated_ages`): in a policy, "up to 20" is as often a count.
Values outside 0–120 are no ages. Ages are ``Quantity(value, "age")`` (:class:`core.text.Quantity`),
so they compare with other quantities by value.
"""

from __future__ import annotations

import re

from core.text import Quantity, normalise

MAX_AGE = 120
_AGE_BEFORE = re.compile(r"\bage(?:d|s)?\s*[:-]?\s+(?:of\s+|limit\s+(?:of\s+)?|between\s+)?"
                         r"(?:up\s+to\s+|upto\s+|under\s+)?(\d{1,3})\b(?!\s*(?:days?|weeks?|months?)\b)")
_AGE_AFTER = re.compile(r"\b(\d{1,3})\s*(?:-\s*)?(?:years?|yrs?)(?:\s*-\s*|\s+)(?:of\s+age|old)\b")
_BOUND = re.compile(r"\b(?:until|till|til|under|over|above|below|past|beyond|turns?|turning|reach(?:es|ing)?"
                    r"|hits?|up\s+to|upto)\s+(\d{1,3})(?![\d.,]*\s*(?:%|[a-z$€£₹]))")
"""A bare number after an age-bounding word; no unit, currency or percent sign after it ("until 27?",
not "until 27 March", "under 26 weeks", "over 60%")."""


def ages(text: str) -> list[Quantity]:
    """The ages ``text`` states with an age word ("age 26", "26 years of age", "26-year-old"), in
    order, as ``Quantity(value, "age")`` with spans in the :func:`core.text.normalise` d text."""
    low = normalise(text)
    found = [m for rx in (_AGE_BEFORE, _AGE_AFTER) for m in rx.finditer(low)]
    return _quantities(found)


def stated_ages(question: str) -> list[Quantity]:
    """The ages a question states: :func:`ages` plus bare numbers after an age-bounding word
    ("can my son stay on the plan until 27" → ``[Quantity(27, "age")]``)."""
    low = normalise(question)
    found = [m for rx in (_AGE_BEFORE, _AGE_AFTER, _BOUND) for m in rx.finditer(low)]
    return _quantities(found)


def _quantities(found: list[re.Match[str]]) -> list[Quantity]:
    out = {m.start(1): Quantity(float(m.group(1)), "age", None, m.start(1), m.end(1))
           for m in found if 0 < int(m.group(1)) <= MAX_AGE}
    return [out[k] for k in sorted(out)]
