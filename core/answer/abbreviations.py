"""Abbreviation-aware sentence boundaries: a period that ends an abbreviation is no sentence end.

A period followed by a capital or a digit usually ends a sentence, but not after an abbreviation
that introduces what follows ("up to max. CHF 5000", "see Art. 4", "bis max. 3 Monate", "z.B. Brillen",
"Nr. 7"), nor after a German ordinal day before a month name ("vom 18. März 1994"). The two standard
rule-based disambiguators decide the same way:

- Punkt (Kiss & Strunk, "Unsupervised Multilingual Sentence Boundary Detection", Computational
  Linguistics 32(4), 2006) classifies a period-final token as an abbreviation (a known or learned
  type, or an initial such as "z.B.") and then never ends a sentence at it unless orthographic
  evidence says so; a number followed by a period ("18.") is an ordinal when a month name follows.
- pySBD (Sadvilkar & Neumann, "PySBD: Pragmatic Sentence Boundary Disambiguation", NLP-OSS 2020)
  keeps per-language abbreviation lists (``lang/english.py``, ``lang/deutsch.py``) and treats
  "prepositive" abbreviations (titles, "No.", "Art.") as never sentence-final.

Only *prepositive* (non-terminal) abbreviations are listed here: ones that stand before their
complement (an amount, a number, a name, a noun) and so almost never end a sentence. Abbreviations
that often close a sentence ("etc.", "usw.", "u.a.") are left out: a split after them is the safer
error. The lists are the policy-relevant subsets of pySBD's English and German lists plus the
amount qualifiers ("max.", "min.", "ca.", "approx.") legal and insurance texts use before figures.
"""

from __future__ import annotations

import re

from core.text import word_list

ENGLISH = frozenset(word_list(
    "approx appr abt art arts attn av ave avg ch chap cf cl cll co corp dept dr e.g encl est excl fig "
    "figs gov govt hon i.e inc incl inr jr ltd max min mr mrs ms mt no nos nr para paras pp prof pt ref "
    "refs reg regd resp rs sec sect sects sr st vol vols vs viz"))
"""English prepositive abbreviations (pySBD ``lang/english.py`` subset; titles, references, amounts)."""
GERMAN = frozenset(word_list(
    "abs abschn allf anm bd betr bspw bzgl bzw ca d.h dipl evtl exkl fr gem ggf hrsg i.d.r i.v.m inkl "
    "insb lit max mind min nr rz s sog st str tel u.u vgl z.b z.t ziff zit zzgl"))
"""German prepositive abbreviations (pySBD ``lang/deutsch.py`` subset; "Ziff.", "Abs.", "lit." cite
a provision; "Fr." is Swiss francs before an amount; "s." is "siehe")."""
PREPOSITIVE = ENGLISH | GERMAN
MONTHS = frozenset(word_list(
    "januar jänner februar märz april mai juni juli august september oktober november dezember "
    "january february march may june july october december"))
"""Month names after which a day number's period is an ordinal, not a sentence end (Punkt's
ordinal rule; German writes "18. März")."""
_LAST_TOKEN = re.compile(r"(?:^|[\s(\[\"“/])([^\s(\[\"“/]+)\.$")
_ORDINAL = re.compile(r"(?:^|\s)\d{1,2}\.$")


def ends_with_abbreviation(text: str) -> bool:
    """Whether ``text`` (a sentence candidate, right-stripped or not) ends with a prepositive
    abbreviation and its period (:data:`PREPOSITIVE`, case-insensitive): ``"… von max."`` → True,
    ``"… the limit."`` → False."""
    m = _LAST_TOKEN.search(text.rstrip())
    return m is not None and m.group(1).lower() in PREPOSITIVE


def is_non_boundary(before: str, after: str) -> bool:
    """Whether a period ending ``before`` must not end a sentence given the text ``after`` it: after
    a prepositive abbreviation (:func:`ends_with_abbreviation`), or after a day number (1–2 digits)
    when ``after`` starts with a month name (:data:`MONTHS`)."""
    if ends_with_abbreviation(before):
        return True
    head = after.split(maxsplit=1)[0].strip(",;:").lower() if after.strip() else ""
    return _ORDINAL.search(before.rstrip()) is not None and head in MONTHS
