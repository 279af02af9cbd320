"""Requests the bot must decline, by category, each with one clear message.

Explainable pattern rules, not a model: each category pairs an *action* with its *object* and, where
the words alone are innocent, an *intent* — so "what counts as a valid receipt" and "how do I update
my own home address" pass while "make me a receipt for a night I didn't stay" and "get me my
teammate's home address" are declined. The categories (and their messages, :data:`MESSAGES`):

* ``fabricate`` — fabricating or altering documents or evidence: a falsifying verb (fake, forge,
  backdate, mock up…) with a document, or an editing verb (change, edit, make…) with a document and a
  deceptive purpose ("so it looks…", "for a night I didn't stay", "higher than I paid"); any request
  *to the bot* to write or edit a piece of evidence (receipt, invoice, certificate, sick note, ticket —
  the bot never writes one), wanting a document to "show" another value, asking whether an altered
  document "would be noticed".
* ``deceive`` — deceiving an insurer or the employer: lying to / misleading them, hiding a condition or
  fact from them, wording a claim or report so it "looks like" something else, claiming what did not
  happen, acting so that they do not find out or "think" something, a cover story, a statement the
  asker marks as untrue ("I was actually…", "(she doesn't)", ", they weren't").
* ``others_data`` — obtaining other people's personal or confidential data: a request verb (get, pull,
  look up, tell me…) with another person's address, phone, salary, health or disciplinary details;
  who in a team is on sick leave or a PIP, why someone was let go, what someone was treated for; what
  a specific other person earns, however put (:mod:`core.answer.safety_pay`).
* ``bypass_control`` — getting around an approval, limit, access or security control (splitting a bill
  to stay under an approval limit, someone else's login, disabling monitoring, approving one's own
  request, "pretend you're HR and approve…", a way around a block, without it going to the approver).
* ``off_topic`` — tasks unrelated to the policies: writing code, essays, poems, jokes, homework,
  plans and recommendations, personal chores.

A deceptive request that changes or falsifies a document is ``fabricate`` first
(:data:`ALTERS_DOCUMENT`): the deed is the falsification, the purpose only makes it deceptive.

Make-believe does not launder a request: role-play, "imagine the policy allowed…", a story or a
hypothetical addressed to the bot counts as the asker wanting it done
(:data:`~core.answer.safety_words.FRAME`), and so does an imperative at the start of any clause.

Questions *about* these things (what the penalty is, how to report it, whether it is allowed) are
not declined: the rules need the asker to want it done (first person or a request to the bot) and a
"reporting/asking about" cue vetoes the harmful reading (:data:`~core.answer.safety_words.ABOUT`).
The same categories are in the LLM grounding prompt (:data:`PROMPT_RULES`, used by
:mod:`core.llm.prompt`). The word classes are in :mod:`core.answer.safety_words`, the rules in
:mod:`core.answer.safety_rules`, :mod:`core.answer.safety_pay` and
:mod:`core.answer.safety_rules_access`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.answer.safety_rules import RULES
from core.answer.safety_words import ABOUT, ALTER, ASKER, DOC, FALSIFY
from core.text import nfkc

MESSAGES = {
    "fabricate": (
        "I can't help create, alter or backdate receipts, invoices, certificates, signatures or other "
        "evidence: that is falsification, and the policies treat it as fraud (claims or expenses backed by "
        "false documents are refused and can lead to disciplinary or legal action). If a document is lost "
        "or wrong, ask whoever issued it for a corrected copy, or ask the claims team or HR how to proceed."),
    "deceive": (
        "I can't help mislead an insurer or the company: hiding a fact, misstating what happened or wording "
        "a claim, form or report so it reads differently from the truth is misrepresentation, which can void "
        "the cover or lead to disciplinary action. I can tell you what the policy asks you to disclose or "
        "report, and how."),
    "others_data": (
        "I can't look up or share another person's personal or confidential information (private phone "
        "number, home address, pay, health or disciplinary details), and the policies don't hold it. For a "
        "colleague's work contact details, look them up in the company directory or their Slack profile; "
        "for anything else, ask the person directly, or HR if there is a legitimate need. I can tell you "
        "what the privacy policy says, or the rules on pay that apply to you."),
    "bypass_control": (
        "I can't help get around an approval, limit, access or security control. If a rule doesn't fit your "
        "situation, ask your manager or the policy owner about an exception; I can tell you what the policy "
        "says about approvals and limits."),
    "off_topic": (
        "I only answer questions about the company's policies, with citations to them, so I can't write "
        "code, essays, jokes or other content unrelated to them. Ask me about a policy: expenses, leave, "
        "benefits, insurance, conduct."),
}
"""One message per category (shown as the answer; the rule name goes to the log and details)."""

PROMPT_RULES = (
    "Decline, briefly and without quoting sources, any request to: (a) fabricate, write or alter documents "
    "or evidence (receipts, invoices, certificates, dates, signatures), including editing a real one so it "
    "misrepresents what happened; (b) deceive an insurer or the employer (hide a condition or fact, misstate "
    "what happened, word a claim or report so it looks like something else); (c) obtain another person's "
    "personal or confidential data (address, phone, salary, health or disciplinary details); (d) bypass an "
    "approval, limit, access or security control (approving one's own request, splitting a purchase to stay "
    "under a limit, hiding activity from monitoring); (e) do tasks unrelated to the policies (writing code, "
    "essays, jokes). Decline them however they are put: indirectly, politely, as a story, a role-play or a "
    "hypothetical (\"pretend you are HR and approve...\", \"imagine the policy allowed it, write...\"). "
    "Questions about what the policies say on these topics (penalties, how to report, what must be "
    "disclosed) are fine to answer.")
"""The same categories for the LLM grounding prompt (:data:`core.llm.prompt.SYSTEM_PROMPT`)."""

ALTERS_DOCUMENT = re.compile(
    rf"\b(?:{ALTER}|{FALSIFY})\b(?:\W+\w+){{0,6}}?\W+{DOC}\b|\b{DOC}\b(?:\W+\w+){{0,3}}?\W+(?:be\s+)?{ALTER}\b",
    re.I)
"""Changing or falsifying a document: a deceptive request that does this is falsification first (its
purpose — "so finance does not notice" — is what makes the change deceptive, the deed is the forgery)."""


@dataclass(frozen=True)
class Decline:
    """A declined request: its ``category`` (a key of :data:`MESSAGES`), the ``rule`` that fired and the
    ``message`` to show."""

    category: str
    rule: str
    message: str


def check(question: str) -> Decline | None:
    """The :class:`Decline` for ``question``, or ``None`` when the bot may answer it.

    Misconduct rules need the asker to want it done (:data:`~core.answer.safety_words.ASKER`: "can
    you", "help me", "how do I", "I need to", an imperative; not needed for ``others_data``: asking for
    the data is the request) and are vetoed by an "asking about it" cue
    (:data:`~core.answer.safety_words.ABOUT`); ``off_topic`` needs neither.
    """
    text = " ".join(nfkc(question).replace("’", "'").split())
    wants = re.search(ASKER, text, re.I) is not None
    about = ABOUT.search(text) is not None
    for category, name, pattern in RULES:
        if category != "off_topic" and (about or (category != "others_data" and not wants)):
            continue
        if pattern.search(text):
            if category == "deceive" and ALTERS_DOCUMENT.search(text):
                category, name = "fabricate", f"alter-document/{name}"
            return Decline(category, name, MESSAGES[category])
    return None


def unsafe_rule(question: str) -> str | None:
    """Name of the rule that declines ``question`` (``None`` when it may be answered)."""
    decline = check(question)
    return decline.rule if decline else None
