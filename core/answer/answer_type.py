"""Expected answer type of a question, and the typed values a passage holds.

Question classification after Li & Roth, "Learning Question Classifiers" (COLING 2002): the coarse
classes NUM, DESC, ENTY, HUM, with the fine classes a policy question asks for. Rules, not a trained
classifier: each clause of the question is matched against cue patterns in the order of
:data:`RULES`; the first value-bearing type of any clause wins ("Does it cover dental care, and up to
what amount?" → money), else the first clause's type.

===========  =========  =====================================================  =====================
kind         Li & Roth  example question                                       satisfied by a value
===========  =========  =====================================================  =====================
phone        NUM:code   "What number do I ring to report fraud?"               phone
email        ENTY:other "What's the e-mail address for privacy requests?"      email
url          ENTY:other "Which website do I use to file a claim?"              url
percentage   NUM:perc   "What share of the sum insured is paid?"               percentage, money
duration     NUM:period "How long is the waiting period for dentures?"         duration, date
date         NUM:date   "When does cover start?"                               date, duration
money        NUM:money  "How much can I claim for a hotel night?"              money, percentage
count        NUM:count  "How many visits a year are covered?"                  any number
yes_no       (none)     "Is acupuncture covered?"                              — (no value needed)
definition   DESC:def   "What does 'day care' mean?"                           —
procedure    DESC:manner "How do I submit my expenses?"                        —
list         ENTY       "Which documents are needed for a claim?"              —
person       HUM        "Who do I talk to about my data?"                      —
description  DESC:desc  anything else ("Tell me about maternity cover")        —
===========  =========  =====================================================  =====================

Money is satisfied by an amount with a currency, an unmarked amount of at least 100 that is not a
year (table cells often carry the currency in the header), or a limit stated relative to the cover
("up to the sum insured", "no sub-limit"); a limit question is often answered by a percentage.
Template placeholders — ``[Claims Contact Number]``, ``<insert amount>``, ``XXX``, ``____``, ``TBD`` —
are removed before values are looked for: they are not values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from core.ages import ages, stated_ages
from core.query.definition import defined_term
from core.text import DURATION_UNITS, STOP_WORDS, nfkc, quantities

VALUE_KINDS = ("phone", "email", "url", "percentage", "duration", "date", "money", "count", "age")


@dataclass(frozen=True)
class AnswerType:
    """What a question asks for.

    Attributes:
        kind: one of the kinds in the module table.
        coarse: its Li & Roth coarse class (``"NUM"``, ``"DESC"``, ``"ENTY"``, ``"HUM"``; ``""`` for
            yes/no questions, which Li & Roth do not classify).
        accepts: value kinds (:data:`VALUE_KINDS`) that answer it; empty when no value is required.
        focus: the question's words naming the asked-for thing (``"per-mile rate"``), ``""`` if none.
        stated: value kinds the question states without asking for a value ("can my son stay on
            the plan until 27" states an age, :func:`core.ages.stated_ages`): an answering passage
            should state one too (it is preferred, never required).
    """

    kind: str
    coarse: str
    accepts: frozenset[str] = frozenset()
    focus: str = ""
    stated: frozenset[str] = frozenset()

    @property
    def needs_value(self) -> bool:
        """True when an answer must contain a value of an accepted kind."""
        return bool(self.accepts)


_A = r"(?:a|an|the|my|our|your|this|that)"
_NOUN_TAIL = (r"((?:[\w'’-]+\s+){0,4}?[\w'’-]+?)(?=\s+(?:if|for|when|under|on|in|with|to|of|at|do|does|"
              r"is|are|i|we|can|should|would|after|before|while|per|and|or)\b|[?,.!;:]|$)")

RULES: tuple[tuple[str, str, frozenset[str], re.Pattern[str]], ...] = tuple(
    (kind, coarse, frozenset(accepts.split()), re.compile(pattern, re.I))
    for kind, coarse, accepts, pattern in (
        ("phone", "NUM", "phone",
         r"\b(?:phone|telephone|mobile|contact|helpline|hotline|toll[- ]free|fax)\s+(?:number|no\b|#)"
         r"|\bwhat\s+(?:number|no\.?)\b|\bnumber\b.{0,30}\b(?:call|ring|dial|phone|text)\b"
         r"|\b(?:call|ring|dial)\b.{0,30}\bwhat\s+number\b"),
        ("email", "ENTY", "email",
         r"\be-?mail(?:\s+address)?\b.{0,40}\?|\b(?:what|which)\b.{0,30}\be-?mail\b"),
        ("url", "ENTY", "url", r"\b(?:website|web\s*site|url|web\s+address|web\s*page|link)\b"),
        ("percentage", "NUM", "percentage money",
         r"\b(?:what|which)\s+(?:percentage|percent|%|share|proportion|fraction|portion)\b"
         r"|\bhow\s+much\s+of\s+(?!the\s+(?:cost|bill|amount)\b)|\b(?:percentage|per\s*cent)\s+of\b"),
        ("duration", "NUM", "duration date",
         r"\bhow\s+long\b|\bhow\s+(?:many|much)\s+(?:more\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?|nights?"
         r"|time)\b|\bhow\s+soon\b|\bwithin\s+how\b|\bdeadline\b|\btime\s*(?:limit|frame)\b"
         r"|\b(?:waiting|grace|notice|cooling[- ]off|free[- ]look|probation(?:ary)?|survival|moratorium|"
         r"reporting|vesting|qualifying)\s+period\b|\bfully\s+vested\b"),
        ("date", "NUM", "date duration",
         r"^\W*(?:so\s+|and\s+)?(?:when|by\s+when|until\s+when|by\s+what\s+date|on\s+what\s+date|what\s+date)\b"
         r"|\b(?:due|expiry|expiration|effective|start|renewal|end|cut-?off)\s+date\b"),
        ("count", "NUM", "count",
         r"\bhow\s+many\b|\bnumber\s+of\b|\bhow\s+far\b|\bdistance\b|\bhow\s+old\b|\bage\b"),
        ("money", "NUM", "money percentage",
         r"\bhow\s+much\b|\b(?:the|at)\s+most\s+(?:i|we|you|it|they|one)\b|\bup\s+to\s+what\b|\b(?:cost|costs|price|fee|fees|rate|amount|limit|cap|capped|sub-?limit|maximum|max|"
         r"ceiling|allowance|deductible|excess|premium|stipend|budget|payout|compensation|salary|co-?pay\w*|"
         r"reimburse\w*|spend|charge[sd]?|paid|payable|pay\s+(?:back|out)|worth|deducted|discount)\b"),
        ("definition", "DESC", "",
         r"\bwhat\s+(?:does|do)\b.+\bmean\b|\bdefin(?:e|ed|ition)\b|\bmeaning\s+of\b|\bwhat\s+counts\s+as\b"
         r"|^\W*what\s+(?:is|are)\s+(?:a|an)\s+[\w'’ -]{1,40}\?\s*$"),
        ("procedure", "DESC", "",
         r"^\W*(?:so\s+|and\s+)?how\s+(?:do|can|should|would|could|does|to)\b|\bhow\s+to\b|\bwhat\s+(?:are\s+)?"
         r"(?:the\s+)?(?:steps|process|procedure)\b|\bwhat\s+(?:should|do|must)\s+(?:i|we)\s+do\b"
         r"|\bwhat\s+am\s+i\s+supposed\s+to\s+do\b|\bwhat\s+happens\s+(?:if|when)\b"),
        ("yes_no", "", "",
         r"^\W*(?:so\s+|and\s+|but\s+)?(?:is|are|am|was|were|do|does|did|can|could|will|would|shall|should|"
         r"may|might|has|have|had|isn'?t|aren'?t|don'?t|doesn'?t|can'?t|won'?t)\b"),
        ("list", "ENTY", "",
         r"^\W*(?:list|name)\b|^\W*what\s+are\b|\b(?:what|which)\s+(?:documents|items|expenses|conditions|"
         r"things|types|kinds|diseases|illnesses|treatments|benefits|exclusions)\b"),
        ("person", "HUM", "", r"^\W*(?:so\s+)?(?:who|whom)\b|\bwho\s+(?:do|should|can)\s+i\b"),
    ))
"""(kind, Li & Roth coarse class, accepted value kinds, cue pattern), tried in order per clause."""

_AUX_START = re.compile(
    r"^\W*(?:so\s+|and\s+|but\s+)?(?:is|are|am|was|were|do|does|did|can|could|will|would|shall|should|may|"
    r"might|has|have|had|isn'?t|aren'?t|don'?t|doesn'?t|can'?t|won'?t)\b", re.I)
_WH_VALUE = re.compile(r"\bhow\s+(?:much|many|long|soon|far|old)\b|\bup\s+to\s+what\b|\bwhat\s+(?:amount|"
                       r"percentage|share|number|rate|limit|sum|date|age)\b", re.I)
_WH_START = re.compile(r"^\W*(?:so\s+|and\s+|but\s+)?(?:what|which|how|when|where|who|whom|whose|why)\b",
                       re.I)
_CUE_ONLY = frozenset({"percentage", "duration", "date", "money", "count", "definition", "procedure", "list"})
"""Kinds whose cue words do not turn a yes/no question ("Is there a limit on …?") into a value question
unless it also asks "how much / how many / up to what …"."""
_CLAUSES = re.compile(r"[?!.;]\s+|,\s+(?:and|or|but)\s+"
                      r"|\s+(?:and|but)\s+(?=(?:what|how|which|when|is|are|do|does|can|will|up\s+to)\b)",
                      re.I)
_FOCUS = re.compile(rf"\b(?:what|which)(?:'s|\s+is|\s+are|\s+was)?\s+(?:{_A}\s+)?{_NOUN_TAIL}", re.I)
_HOW_MUCH = re.compile(rf"\bhow\s+(?:many|much|long)\s+{_NOUN_TAIL}", re.I)


_CARRIED_CONTEXT = re.compile(r"(?<=[?!.])\s*\([^()]*\)\s*$")
"""A parenthesised group after the question's end: the topic words :mod:`core.query.condense` carries
from the previous question into a follow-up ("…, are those costs covered? (home cover plumber fees)").
They help retrieval find the topic; they are not what this question asks for."""


def classify(question: str) -> AnswerType:
    """The expected :class:`AnswerType` of ``question`` (see the module doc for the rules); a trailing
    carried-context group (:data:`_CARRIED_CONTEXT`) is not classified."""
    text = _CARRIED_CONTEXT.sub("", nfkc(question)).strip() or nfkc(question).strip()
    clauses = [c for c in _CLAUSES.split(text) if c.strip()] or [text]
    found: list[AnswerType] = []
    for clause in clauses:
        focus = _focus(clause)
        yes_no = _AUX_START.match(_asking_part(clause)) is not None and not _WH_VALUE.search(clause)
        head = _match(focus, yes_no) if focus else None  # the asked-for phrase decides first
        rule = head or _match(clause, yes_no) or (("yes_no", "", frozenset()) if yes_no else None)
        if rule is not None:
            found.append(AnswerType(rule[0], rule[1], rule[2], focus))
    if defined_term(text) is not None and not any(t.needs_value for t in found):
        return AnswerType("definition", "DESC", frozenset(), defined_term(text) or "")
    typed = [t for t in found if t.needs_value]
    if typed:
        return typed[0]
    out = found[0] if found else AnswerType("description", "DESC", frozenset(), _focus(text))
    return replace(out, stated=frozenset({"age"})) if stated_ages(text) else out


def value_clause(question: str) -> str:
    """The clause of ``question`` that asks for a value (the first whose type needs one, by the rules of
    :func:`classify`): "Do I need a form, and how much of the fare is refunded?" → "how much of
    the fare is refunded?"; the whole question when no clause, or every clause, asks for one."""
    text = _CARRIED_CONTEXT.sub("", nfkc(question)).strip() or nfkc(question).strip()
    clauses = [c for c in _CLAUSES.split(text) if c.strip()]
    typed = [c for c in clauses if classify(c).needs_value]
    return typed[0] if typed and len(typed) < len(clauses) else text


def _asking_part(clause: str) -> str:
    """The part of ``clause`` that asks: after a leading framing phrase ending with a comma
    ("Under the home policy, if a pipe bursts while I'm away, **is the water damage covered?**"),
    when the rest starts with an auxiliary verb and the clause does not open with a question word;
    else the whole clause ("What's the waiting period, is it two years?" asks for a duration). Li &
    Roth classify the question's main clause, not its framing (a condition or a prepositional scope)."""
    tail = clause.rsplit(",", 1)[-1]
    framed = "," in clause and not _WH_START.match(clause)
    return tail if framed and _AUX_START.match(tail) else clause


def _match(text: str, yes_no: bool) -> tuple[str, str, frozenset[str]] | None:
    """(kind, coarse, accepts) of the first rule whose cue is in ``text``; cue-only kinds are skipped
    for a yes/no clause (:data:`_CUE_ONLY`)."""
    for kind, coarse, accepts, pattern in RULES:
        if not (yes_no and kind in _CUE_ONLY) and pattern.search(text):
            return kind, coarse, accepts
    return None


def _focus(clause: str) -> str:
    """The phrase naming the asked-for thing (its head word is Li & Roth's "head word" feature):
    "how many hours" for "How many hours is …", "the per-mile rate" for "What's the per-mile rate …";
    ``""`` when there is none."""
    m = _HOW_MUCH.search(clause)
    if m and m.group(1).split()[0].lower() not in STOP_WORDS:
        return " ".join(m.group(0).split()).lower()
    m = _FOCUS.search(clause)
    if m and m.group(1).split()[0].lower() not in STOP_WORDS:
        return "the " + " ".join(m.group(1).split())
    return ""


# --- values in passages ----------------------------------------------------------------------------

PLACEHOLDER = re.compile(
    r"\[(?![^\]]*\d)[^\]\n]{2,60}\](?!\()|<\s*(?:insert|enter|add|your|company|name|number|date|amount)"
    r"[^>\n]{0,40}>|\{\{[^}\n]{1,40}\}\}|\b[Xx]{3,}\b|(?:\b[Xx]{2,}[-./ ]){1,4}[Xx]{2,}\b|_{3,}"
    r"|\bTBD\b|\bTBC\b",
)
"""Template placeholders: ``[Claims Contact Number]`` (not a markdown link ``[text](url)`` and without
digits), ``<insert …>``, ``{{field}}``, ``XXX``/``xx-xxxx``, ``____``, ``TBD``/``TBC``."""
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_URL = re.compile(r"\bhttps?://\S+|\bwww\.[\w-]+(?:\.[\w-]+)+\S*|\b[\w-]+\.(?:com|org|net|gov|in|co\.in|ch|io)"
                  r"(?:/\S*)?\b", re.I)
_PHONE = re.compile(r"(?<![\w.,/-])(?:\+\d{1,3}[\s.-]?)?(?:\(?\d{1,5}\)?[\s.-]){1,4}\d{3,5}(?![\w,/-]|\.\d)"
                    r"|\b1[-\s]?8\d\d[-\s]?[A-Z0-9]{3}[-\s]?[A-Z0-9]{3,4}\b")
_MONTHS = ("jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|"
           "sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_DATE = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b|\b(?:{_MONTHS})\.?\s+\d{{1,2}}"
                   rf"(?:st|nd|rd|th)?\b|\b\d{{1,2}}[/.-]\d{{1,2}}[/.-](?:19|20)?\d\d\b|\b(?:19|20)\d\d-\d\d-\d\d\b"
                   rf"|\b(?:end|beginning|start)\s+of\s+(?:the\s+)?(?:(?:fiscal|financial|calendar|policy)\s+)?"
                   rf"(?:year|quarter|month)\b", re.I)
_LIMIT = re.compile(r"\b(?:up\s*to|upto|subject\s+to|limited\s+to|maximum\s+of|payable\s+up\s+to)\s+"
                    r"(?:the\s+)?"
                    r"(?:sum\s+insured|si|actuals?|policy\s+limit)\b|\bno\s+(?:sub-?)?limits?\b|\bin\s+full\b",
                    re.I)


def strip_placeholders(text: str) -> str:
    """``text`` with template placeholders (:data:`PLACEHOLDER`) replaced by a space."""
    return PLACEHOLDER.sub(" ", text)


def value_kinds(text: str) -> set[str]:
    """The value kinds (:data:`VALUE_KINDS`) ``text`` holds once placeholders are removed (an e-mail
    address is not also a URL, nor a phone number also an amount)."""
    clean = strip_placeholders(text)
    kinds: set[str] = set()
    if _EMAIL.search(clean):
        kinds.add("email")
        clean = _EMAIL.sub(" ", clean)
    if any(_is_phone(m) for m in _PHONE.finditer(clean)):
        kinds.add("phone")
        clean = _PHONE.sub(lambda m: " " if _is_phone(m) else m.group(0), clean)
    kinds |= {k for k, rx in (("url", _URL), ("date", _DATE), ("money", _LIMIT)) if rx.search(clean)}
    if ages(clean):
        kinds.add("age")
    for q in quantities(clean):
        if q.unit == "ordinal":
            continue
        kinds.add("count")
        if q.unit == "percent":
            kinds.add("percentage")
        elif q.unit in DURATION_UNITS:
            kinds.add("duration")
        elif q.unit == "money" or (q.unit is None and q.value >= 100 and not _year(q.value)):
            kinds.add("money")
    return kinds


def satisfies(text: str, answer_type: AnswerType) -> bool:
    """True when ``text`` holds a value ``answer_type`` accepts; for a type that needs no value, when
    ``text`` holds a value of a kind the question states (``stated``), or always when it states none."""
    if answer_type.needs_value:
        return bool(value_kinds(text) & answer_type.accepts)
    return not answer_type.stated or bool(value_kinds(text) & answer_type.stated)


def _is_phone(m: re.Match[str]) -> bool:
    """A phone-shaped match with at least 7 digits (shorter ones are amounts or clause numbers)."""
    return sum(c.isdigit() for c in m.group(0)) >= 7


def _year(value: float) -> bool:
    return value.is_integer() and 1900 <= value <= 2100
