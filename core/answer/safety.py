"""Explainable pattern rules that spot requests to deceive or defraud (falsify a bill, fake a claim).

A request is declined when it pairs a falsifying verb (forge, fake, backdate…) with a document an insurer
or employer relies on, asks to make something *look like* what it is not, names fraud or deception as
the goal, or asks how to avoid being noticed. Plain "change my claim" questions are not declined. Each rule
has a name, so a decline can say which rule fired (logged, and kept in the answer's details).
"""

from __future__ import annotations

import re

_FALSIFY = (r"(?:fake|forge|forging|falsif\w*|fabricat\w*|backdat\w*|doctor|tamper\w*|photoshop"
            r"|inflate|pad)")
_DOCUMENT = (r"(?:bills?|invoices?|receipts?|dates?|records?|reports?|certificates?|prescriptions?"
             r"|documents?|discharge summary|timesheets?|expenses?|claims?|diagnosis|signatures?)")

RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("falsify-document", re.compile(rf"\b{_FALSIFY}\b(?:\W+\w+){{0,6}}?\W+{_DOCUMENT}\b", re.I)),
    ("make-it-look", re.compile(r"\b(?:so(?: that)?|to make)\W+(?:\w+\W+){1,12}?"
                                r"(?:looks?|appears?|seems?) (?:like|as if|as though)\b", re.I)),
    ("fraud-goal", re.compile(r"\b(?:(?:commit|get away with)\W+(?:\w+\W+){0,3}?(?:fraud|a scam)"
                              r"|(?:help me|how (?:do|can|could|should) i)\W+(?:\w+\W+){0,4}?"
                              r"(?:cheat|deceive|trick|mislead|lie to|scam|defraud))\b", re.I)),
    ("evade-detection", re.compile(r"\bwithout (?:the (?:insurer|insurance company|company|auditors?|hr)|"
                                   r"anyone|them) (?:noticing|finding out|knowing)\b", re.I)),
)

DECLINE_TEXT = (
    "I can't help with that: changing documents or misrepresenting facts to get a claim or expense paid "
    "is fraud, and the policies treat it as such (fraudulent claims forfeit benefits). If something in "
    "your claim is wrong or unclear, contact the claims team or HR and ask how to correct it properly."
)


def unsafe_rule(question: str) -> str | None:
    """Name of the first rule that marks ``question`` as a request to deceive or defraud, else None."""
    for name, pattern in RULES:
        if pattern.search(question):
            return name
    return None
