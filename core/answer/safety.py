"""Explainable pattern rules that spot requests to deceive or defraud (falsify a bill, fake a claim).

A request is declined when it pairs a falsifying verb (forge, fake, backdate…) with a document an insurer
or employer relies on, alters such a document (a bill, receipt…) so that it gets paid or reimbursed,
asks to make something *look like* what it is not, names fraud or deception as the goal, or asks how
to avoid being noticed. Plain "change my claim" questions are not declined. Each rule
has a name, so a decline can say which rule fired (logged, and kept in the answer's details).
"""

from __future__ import annotations

import re

_FALSIFY = (r"(?:fake|forge|forging|falsif\w*|fabricat\w*|backdat\w*|doctor|tamper\w*|photoshop"
            r"|inflate|pad)")
_DOCUMENT = (r"(?:bills?|invoices?|receipts?|dates?|records?|reports?|certificates?|prescriptions?"
             r"|documents?|discharge summary|timesheets?|expenses?|claims?|diagnosis|signatures?)")
_ALTER = r"(?:alter\w*|chang\w*|edit\w*|modif\w*|amend\w*|adjust\w*|tweak\w*|rewrit\w*)"
_PAPER = (r"(?:bills?|invoices?|receipts?|prescriptions?|certificates?|records?|documents?|paperwork"
          r"|discharge summary|timesheets?|tickets?|statements?)")
_PAYOFF = r"(?:paid|pays?|reimburs\w*|refund\w*|covered|cover|approved|accepted|pass\w*)"

RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("falsify-document", re.compile(rf"\b{_FALSIFY}\b(?:\W+\w+){{0,6}}?\W+{_DOCUMENT}\b", re.I)),
    ("alter-to-get-paid", re.compile(rf"\b{_ALTER}\b(?:\W+\w+){{0,6}}?\W+{_PAPER}\b(?:\W+\w+){{0,8}}?"
                                     rf"\W+(?:so|to|in order to)\b(?:\W+\w+){{0,5}}?\W+{_PAYOFF}\b", re.I)),
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
