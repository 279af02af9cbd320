"""Explainable pattern rules that spot requests to deceive or defraud (falsify a bill, fake a claim).

A request is declined when it asks *how to* alter, fake or hide something (a falsifying verb near a
document or fact an insurer or employer relies on), or names fraud/deception as the goal. Each rule
has a name, so a decline can say which rule fired (logged, and kept in the answer's details).
"""

from __future__ import annotations

import re

_FALSIFY = (r"(?:change|alter|edit|modify|fake|forge|falsif\w*|fabricat\w*|backdat\w*|doctor|tamper\w*"
            r"|manipulat\w*|inflate|pad|photoshop|make up|cook)")
_DOCUMENT = (r"(?:bill|invoice|receipt|date|dates|record|records|report|certificate|prescription"
             r"|document|documents|discharge summary|timesheet|expense|expenses|claim|diagnosis|signature)")

RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("falsify-document", re.compile(rf"\b{_FALSIFY}\b(?:\W+\w+){{0,6}}?\W+{_DOCUMENT}\b", re.I)),
    ("make-it-look", re.compile(r"\b(?:so (?:that )?(?:it|my \w+|the \w+) (?:looks?|appears?|seems?) like"
                                r"|make (?:it|my \w+|the \w+) (?:look|appear|seem))\b", re.I)),
    ("fraud-goal", re.compile(r"\b(?:commit|get away with|help me with|how (?:do|can|could) i)\b"
                              r"(?:\W+\w+){0,4}?\W+(?:fraud|scam|cheat\w*|decei\w+|deceiv\w*|lie to|mislead)\b",
                              re.I)),
    ("evade-detection", re.compile(r"\bwithout (?:the (?:insurer|insurance company|company|auditor|hr)|"
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
