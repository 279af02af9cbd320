"""Is the evidence about the asked *entity*, on the asked *basis*, with the value in the asked *slot*?

The ``focus`` signals (:mod:`core.answer.focus`) ask whether the answering unit names the asked-for
thing. Three narrower mismatches make an answer about something else even where the sources hold a
value of the asked type; each is a signal in [0, 1] (1 = no mismatch found, also when not checkable)
and :mod:`core.answer.answerability` refuses when one is 0 (a fixed gate, like ``type_ok``):

``name_bound``
    **Name binding.** The question names an entity the index knows — a word it writes as a name
    (capitalised after the first word, or mixing digits and letters) that is a word of a source's
    document title ("Fabrikam", "Globex Gold") — and the evidence does not hold it: neither the
    answering unit's passage nor its document title or section path (for a comparison, neither of
    any quoted unit: each names one of the compared things). The share of such name words held; a
    name no title holds (a city, a person) is not checked.
    An answer from another organisation's or product's document is not about the named one
    (the named-entity constraint of answer extraction: Moldovan et al., "LASSO", TREC-8, 1999).
``basis_ok``
    **Rate-basis agreement.** The question asks for a rate on a basis ("per mile", "a night",
    "daily", "per person") and the answering unit states its values on bases, none of them of the
    asked dimension ("$150 per night" for a per-mile rate). A rate is a value *and* its
    denominator; miles and kilometres (distance), days and nights (a calendar day), year/annual/
    annum are one dimension each. 0 on a mismatch, else 1 (no asked basis, or a unit stating none).
``value_bound``
    **Value displacement.** The answering unit shares no word with the question (beyond names and
    generic words), some candidate units name the slot the value-asking clause asks for (they hold
    at least :data:`MIN_NAMING` of its focus words) — the asked-for slot exists in the sources —, and
    none of those holds a value of the asked type: the slot is there without a value, and the value
    quoted belongs to another slot (asked the deductible; the number found is the premium's). This
    is the answer-window check of LASSO / FALCON (Harabagiu et al., TREC-9, 2000) made relative to the
    sources: focus words no unit holds (an employee's paraphrase) say nothing, and are not checked.
    0 on displacement, else 1 — also when the answering unit is about the asked thing in meaning
    (``focus_sim`` ≥ :data:`MEANING_BOUND`: "fitness-related programs" for a gym membership shares no
    word with the question, yet it is the slot's value; :func:`bound_in_meaning`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from core.answer.answer_type import AnswerType, value_clause
from core.answer.focus import GENERIC, Focus, lexical_binding, question_focus, without_place
from core.answer.sentences import embedded_text
from core.llm.base import GenerationRequest
from core.text import STOP_WORDS, content_terms, nfkc
from core.types import Chunk

if TYPE_CHECKING:
    from core.answer.evidence import ScoredUnit

_NAMED = re.compile(r"(?<!^)\b(?:[A-Z][\w'’-]*|\w*\d\w*[^\W\d_]\w*)")
"""A word written as a name: capitalised (not the question's first word) or mixing digits and letters."""
_SENTENCES = re.compile(r"(?<=[.?!])\s+")
MIN_NAMING = 0.5
"""A candidate unit names the asked-for slot when it holds at least this share of the focus words of
the value-asking clause (a majority: one incidental word of a long focus is no naming)."""

MEANING_BOUND = 0.6
"""A ``focus_sim`` (MiniLM cosine of the focus phrase and the answering unit) at which the unit is about
the asked thing in meaning, whatever its words. Chosen from the measured values (docs/eval.md,
2026-12-02): the not-found items value displacement refuses score 0.44–0.47, an answering unit naming
the slot by a broader word ("fitness-related programs" for a gym membership) 0.77."""

DIMENSIONS: Mapping[str, str] = {
    **dict.fromkeys(("mile", "miles", "km", "kms", "kilometre", "kilometres", "kilometer", "kilometers"),
                    "distance"),
    **dict.fromkeys(("day", "days", "daily", "diem", "night", "nights", "nightly"), "day"),
    **dict.fromkeys(("week", "weeks", "weekly"), "week"),
    **dict.fromkeys(("month", "months", "monthly"), "month"),
    **dict.fromkeys(("year", "years", "yearly", "annual", "annually", "annum"), "year"),
    **dict.fromkeys(("hour", "hours", "hourly"), "hour"),
    **dict.fromkeys(("person", "persons", "head", "member", "individual", "employee"), "person"),
    **dict.fromkeys(("trip", "trips", "journey", "journeys"), "trip"),
    **dict.fromkeys(("claim", "claims"), "claim"),
    **dict.fromkeys(("paycheck", "paychecks", "payslip"), "paycheck"),
}
"""Basis word → its dimension (see ``basis_ok`` in the module doc)."""
_UNIT = "|".join(sorted((re.escape(w) for w in DIMENSIONS), key=len, reverse=True))
_TIME = r"day|night|week|month|year|hour"
_BASIS = re.compile(rf"(?:\bper\s*[- ]?|/\s*|\b(?:each|every)\s+)"
                    rf"(?:(?:insured|calendar|policy|pay|working)\s+)?({_UNIT})\b"
                    rf"|\b(?:a|an)\s+({_TIME})\b"
                    r"|\b(daily|nightly|weekly|monthly|yearly|annual|annually|hourly)\b"
                    r"|\bper\s+(annum|diem)\b", re.I)
"""A rate basis: "per mile", "/km", "each paycheck", "a night" (an article only before a time word:
"on a trip" is no basis), "daily", "per annum"."""


def asked_names(question: str, titles: Iterable[str]) -> frozenset[str]:
    """The stemmed name words of ``question``'s asking sentence (the last one ending with "?") that
    are words of ``titles`` (the sources' document titles): ``"Does Fabrikam pay for gyms?"`` with a
    title "Fabrikam Benefits" → ``{"fabrikam"}``. Generic and stop words are never names."""
    title_words = {t for title in titles for t in content_terms(title)}
    named = {t for w in _NAMED.findall(_asking(question)) for t in content_terms(w)}
    return frozenset(t for t in named & title_words if t not in GENERIC and t not in STOP_WORDS)


def written_names(question: str, titles: Iterable[str]) -> str:
    """The words of :func:`asked_names` as ``question`` writes them, in order ("Fabrikam"), for a
    refusal to name what no passage is about; ``""`` when none."""
    names = asked_names(question, titles)
    words = [w for w in _NAMED.findall(_asking(question)) if set(content_terms(w)) & names]
    return " ".join(dict.fromkeys(words))


def _asking(question: str) -> str:
    """The question's asking sentence: the last one ending with "?", else the last one."""
    sentences = [s for s in _SENTENCES.split(nfkc(question).strip()) if s.strip()] or [question]
    return next((s for s in reversed(sentences) if s.rstrip().endswith("?")), sentences[-1])


def name_binding(names: frozenset[str], evidence: Sequence[str]) -> float:
    """Share of ``names`` held by any text of ``evidence`` (quoted units with their lead-ins, section
    paths and document titles); 1.0 without names."""
    if not names:
        return 1.0
    held = {t for text in evidence for t in content_terms(text)}
    return sum(n in held for n in names) / len(names)


def bases(text: str) -> set[str]:
    """The dimensions of the rate bases ``text`` states: ``"$150 per night"`` → ``{"day"}``,
    ``"INR 10/km"`` → ``{"distance"}``, ``"Rs 500 a day"`` → ``{"day"}``."""
    out = set()
    for m in _BASIS.finditer(nfkc(text)):
        out.add(DIMENSIONS[next(g for g in m.groups() if g).lower()])
    return out


def basis_agreement(question: str, answer_text: str) -> float:
    """0.0 when ``question`` asks for a rate on a basis and ``answer_text`` states bases of other
    dimensions only, else 1.0 (see ``basis_ok`` in the module doc)."""
    asked = bases(question)
    stated = bases(answer_text)
    return 0.0 if asked and stated and not asked & stated else 1.0


def question_terms(question: str) -> Focus:
    """Every content word of ``question`` that is not generic (:data:`core.answer.focus.GENERIC`) nor
    written as a name, as a :class:`~core.answer.focus.Focus`: what an answering unit about the
    question shares with it (framing sentences included: "a colleague lost two toes" is what a
    row "Loss of toes | 5%" answers)."""
    text = without_place(nfkc(question))
    named = {t for w in _NAMED.findall(text) for t in content_terms(w)}
    found = frozenset(t for t in content_terms(text, question=True)
                      if t not in GENERIC and t not in named and t[:1].isalpha() and len(t) > 1)
    return Focus(" ".join(sorted(found)), found)


def value_displacement(focus: Focus, asked: Focus, answer_text: str, candidates: Sequence[tuple[str, bool]],
                       glossary: Mapping[str, str] | None = None) -> float:
    """0.0 when the value is displaced (see ``value_bound`` in the module doc), else 1.0.

    Args:
        focus: the focus of the question's value-asking clause
            (:func:`core.answer.focus.question_focus` of :func:`core.answer.answer_type.value_clause`).
        asked: the question's non-generic content words (:func:`question_terms`).
        answer_text: the answering unit with its lead-in and section path.
        candidates: every candidate unit's text (with lead-in and section path) and whether it holds a
            value of the asked type.
        glossary: abbreviation → expansion.
    """
    if not focus.terms or _share(asked, answer_text, glossary) > 0.0:
        return 1.0
    naming = [typed for text, typed in candidates if _share(focus, text, glossary) >= MIN_NAMING]
    return 0.0 if naming and not any(naming) else 1.0


def bound_in_meaning(found: Mapping[str, float]) -> dict[str, float]:
    """``found`` (answerability signals) with ``value_bound`` reopened (1.0) when ``focus_sim`` reaches
    :data:`MEANING_BOUND`: the lexical displacement check saw no shared word, but the answering unit is
    about the asked thing in meaning (see ``value_bound`` in the module doc). Other signals unchanged."""
    if found.get("value_bound", 1.0) > 0.0 or found.get("focus_sim", 0.0) < MEANING_BOUND:
        return dict(found)
    return {**found, "value_bound": 1.0}


def _share(focus: Focus, text: str, glossary: Mapping[str, str] | None) -> float:
    """The share of ``focus.terms`` that ``text`` holds, each word weighing the same (no bags: equal
    IDF in :func:`core.answer.focus.lexical_binding`)."""
    return lexical_binding(focus, text, (), glossary)


def binding_signals(request: GenerationRequest, atype: AnswerType, answer_text: str,
                    chosen: Sequence[ScoredUnit], ranked: Sequence[ScoredUnit],
                    glossary: Mapping[str, str] | None = None) -> dict[str, float]:
    """``name_bound``, ``basis_ok`` and ``value_bound`` of an answer (module doc; all 1.0 without a
    chosen unit: the answer is refused anyway). ``answer_text`` is the answering unit with its lead-in,
    list items and section path. Names bind to the answering unit's passage (for a comparison, to any
    quoted passage: each names one of the compared things)."""
    if not chosen:
        return {"name_bound": 1.0, "basis_ok": 1.0, "value_bound": 1.0}
    titles = [title_of(sc.chunk.context, sc.chunk.path) for sc in request.sources]
    binding = chosen if len(request.documents) > 1 else chosen[:1]
    passages = [f"{_chunk(request, c).text} {_chunk(request, c).section} {titles[c.unit.source - 1]}"
                for c in binding]
    out = {"name_bound": round(name_binding(asked_names(request.question, titles), passages), 4),
           "basis_ok": 1.0, "value_bound": 1.0}
    if atype.needs_value:
        focus = question_focus(value_clause(request.question), titles)
        candidates = [(f"{embedded_text(s.unit)} {_chunk(request, s).section}", s.typed) for s in ranked]
        out["basis_ok"] = basis_agreement(request.question, answer_text)
        out["value_bound"] = value_displacement(focus, question_terms(request.question), answer_text,
                                                candidates, glossary)
    return out


def title_of(context: str, path: str) -> str:
    """The document title of a chunk (its context before " — ") and its file name's words."""
    return f"{context.split(' — ', 1)[0]} {re.sub(r'[_.-]+', ' ', path.rsplit('/', 1)[-1])}"


def _chunk(request: GenerationRequest, unit: ScoredUnit) -> Chunk:
    return request.sources[unit.unit.source - 1].chunk
