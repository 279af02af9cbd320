"""Question focus and whether the answering unit is *about* it (not just of the asked type).

A value of the asked type is not yet an answer: asked for a per-mile rate, a passage with a daily
hotel amount holds a money value, but about another thing. Classic QA systems check that the answer
attaches to the question's **focus** — the words naming what is asked for (Moldovan et al., "LASSO: A
Tool for Surfing the Answer Net", TREC-8, 1999/2000; Harabagiu et al., "FALCON", TREC-9, 2000; the head
word of Li & Roth, "Learning Question Classifiers", COLING 2002). Here:

**Focus** (:func:`question_focus`), by rules over the question's main clause:

1. a leading or trailing condition ("If I use my own car …", "… if I work from home") and a trailing
   place adjunct ("… parking at the office?": where, not what) are framing, not focus, and are
   dropped (unless nothing would remain);
2. a rate's denominator phrase ("per year of service", "a year") is a modifier and is dropped;
3. "how many weeks **of severance pay**": when the counted word is a unit, its ``of`` complement is
   the focus;
4. the remaining content words (:func:`core.text.content_terms`) minus :data:`GENERIC` words (answer
   type and unit words — "rate", "amount", "days" —, auxiliary and policy-generic verbs — "pay",
   "cover", "allow" —, people and document words — "employee", "policy"), numbers and the words of
   names (runs of capitalised words; words of the sources' document titles: a name picks the
   document, which is retrieval's and the ``named_doc`` gate's job).

Examples: "What's the per-kilometre rate if I drive my own car?" → ``kilometre``; "How many weeks of
notice does Acme give per year of service?" → ``notice``; "does Acme pay for a bike lease?" →
``bike lease``; "Can I bring my cat to work?" → ``bring cat work``.

**Binding**, two signals in [0, 1] for the answering unit (its text, lead-in, section path):

* ``focus`` (:func:`lexical_binding`) — the IDF-weighted share of the focus words it holds (stems;
  one word a prefix of the other counts, "mile"/"mileage"; a glossary abbreviation matches its
  expansion); IDF is BM25's over the candidate units, so a focus word no passage has weighs most;
* ``focus_sim`` — the cosine of the focus phrase's and the unit's embeddings (MiniLM by default):
  carries paraphrases that share no word ("hand in my bills" / "submit expense reports").

Both are 1.0 (not checkable) when the question has no focus words, or the answering unit is in
another language than the question (an English question over a German policy: neither stems nor an
English-only embedding can compare them). How much they weigh, and whether low binding gates the
answer, is decided by ``policybot eval --calibrate`` (:mod:`core.eval.calibrate`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from core.bm25 import idf
from core.language import detect_language, question_language
from core.text import content_terms, nfkc, stem, word_list

GENERIC = frozenset(stem(w) for w in word_list(
    # answer-type and unit words: what kind of value, not what it is about
    "how much many long soon often far old amount amounts number figure total value limit limits maximum "
    "max minimum min cap ceiling percentage percent share proportion portion fraction time period deadline "
    "date day week month year hour minute night price cost fee rate sum exactly roughly approximately per "
    "daily weekly monthly yearly annual annually nightly big small full fully until every little latest "
    "point extra additional first last single another other same new good best not no what whats afterward "
    "afterwards later soon ago cheaper dearer expensive more less "
    # auxiliary, permission and policy-generic verbs
    "allow allowed permit permitted able ok okay possible supposed pay paid cover covered coverage get give "
    "given receive provide provided offer entitle entitled eligible apply need have make use take go come "
    "want know tell find happen happens still also really actually back anything something there off out "
    "lot thing stuff kind sort way call ring dial write talk speak put buy keep require spend spent send "
    "took add added help chip hang knock kick worry through versus beyond her his him myself yourself "
    # people, organisations and documents
    "employee staff company employer someone somebody person people everyone anyone one policy plan "
    "insurance insurer document rule handbook guideline guidelines section clause"))
"""Stemmed words that never make up a focus (see the module doc, rule 4)."""
_CONDITION = r"(?:if|when|whenever|because|since|while|once|so\s+that|in\s+case)"
_LEADING = re.compile(rf"^\W*{_CONDITION}\b[^,?]*,\s*", re.I)
_TRAILING = re.compile(rf"\s+{_CONDITION}\b[^?]*", re.I)
_LOCATIVE = re.compile(r"\s+(?:at|in|near|around|inside)\s+(?:the|my|our|your|a|an)\s+[\w'’-]+(?=\W*$)", re.I)
"""A trailing place adjunct ("… at the office?"): where, not what."""
_UNITS = r"(?:days?|weeks?|months?|years?|hours?|nights?|minutes?|paycheck|pay\s+period|trip|visit|booking)"
_PER = re.compile(rf"\b(?:per|a|an|each|every)\s+{_UNITS}(?:\s+of\s+[\w-]+)?", re.I)
_UNIT_OF = re.compile(rf"\bhow\s+(?:many|much)\s+{_UNITS}\s+of\s+(.+)", re.I)
_NAME_RUN = re.compile(r"(?<!^)(?<![.?!]\s)\b(?:[A-Z][\w'’-]*\s+){1,6}[A-Z][\w'’-]*")
_SENTENCES = re.compile(r"(?<=[.?!])\s+")
_WORD = re.compile(r"[\w'’-]+")
_NAMED = re.compile(r"(?<!^)\b(?:[A-Z][\w'’-]*|\w*\d\w*[^\W\d_]\w*)")
"""A word written as a name: capitalised (not the first word) or mixing digits and letters."""


@dataclass(frozen=True)
class Focus:
    """What a question asks about.

    Attributes:
        phrase: the main clause without names and condition ("What's the per-mile rate"), embedded
            for ``focus_sim``; ``""`` when there are no focus words.
        terms: the stemmed focus words (see the module doc); empty when none.
        span: the question's words from the first focus word to the last ("cat to work"), for
            a refusal to name what is missing; ``""`` when none.
    """

    phrase: str
    terms: frozenset[str]
    span: str = ""


def question_focus(question: str, titles: Iterable[str] = ()) -> Focus:
    """The :class:`Focus` of ``question``; a word of ``titles`` (the sources' document titles) that
    the question writes as a name (capitalised after its first word, or with a digit: "Acme",
    "42widgets") is a name, not a focus word."""
    clause = _main_clause(nfkc(question))
    unit_of = _UNIT_OF.search(clause)
    core_text = _PER.sub(" ", unit_of.group(1) if unit_of else clause)
    name_words = {t for n in _NAME_RUN.findall(clause) for t in content_terms(n)}
    title_words = {t for title in titles for t in content_terms(title)}
    name_words |= {t for w in _NAMED.findall(clause) for t in content_terms(w) if t in title_words}
    found = frozenset(t for t in content_terms(core_text, question=True)
                      if t not in GENERIC and t not in name_words and t[:1].isalpha() and len(t) > 1)
    if not found:
        return Focus("", frozenset())
    phrase = " ".join(_NAME_RUN.sub(" ", clause).split())
    return Focus(phrase, found, _span(core_text, found))


def _span(text: str, found: frozenset[str]) -> str:
    """The part of ``text`` from its first word holding a focus term to its last."""
    hits = [m for m in _WORD.finditer(text) if set(content_terms(m.group(0))) & found]
    return " ".join(text[hits[0].start():hits[-1].end()].split()) if hits else ""


def _main_clause(question: str) -> str:
    """The last sentence that asks (ends with "?"), without a leading or trailing condition when
    content words remain without it."""
    parts = [p for p in _SENTENCES.split(question.strip()) if p.strip()] or [question]
    clause = next((p for p in reversed(parts) if p.rstrip().endswith("?")), parts[-1])
    for rx in (_LEADING, _TRAILING, _LOCATIVE):
        shorter = rx.sub(" ", clause).strip()
        if any(t not in GENERIC for t in content_terms(shorter, question=True)):
            clause = shorter
    return clause


def without_place(question: str) -> str:
    """``question`` without a trailing place adjunct when content words remain."""
    shorter = _LOCATIVE.sub("", question).strip()
    return shorter if any(t not in GENERIC for t in content_terms(shorter, question=True)) else question


def lexical_binding(focus: Focus, text: str, unit_bags: Sequence[frozenset[str]],
                    glossary: Mapping[str, str] | None = None) -> float:
    """IDF-weighted share of ``focus.terms`` found in ``text`` (1.0 without focus terms).

    Args:
        focus: the question's focus.
        text: the answering unit with its lead-in and section path.
        unit_bags: the content terms of every candidate unit (for IDF: BM25's
            ``ln(1 + (N − n + 0.5)/(n + 0.5))``).
        glossary: abbreviation → expansion; a text holding either holds both.
    """
    if not focus.terms:
        return 1.0
    have = _with_glossary(set(content_terms(text)), glossary or {})
    n = len(unit_bags)
    weights = {t: idf(n, sum(_holds(b, t) for b in unit_bags)) for t in focus.terms}
    total = sum(weights.values()) or 1.0
    return sum(w for t, w in weights.items() if _holds(have, t)) / total


def same_language(question: str, text: str) -> bool:
    """False when ``question`` and ``text`` are both long enough to tell and in different languages
    (py3langid via :func:`core.language.detect_language`)."""
    asked, written = question_language(question), detect_language(text)
    return not asked or not written or asked == written


def _holds(bag: Iterable[str], term: str) -> bool:
    """``term`` is in ``bag``, or one is a prefix of the other with at least 4 letters in common
    ("mile"/"mileage", "vest"/"vesting")."""
    return any(t == term or (min(len(t), len(term)) >= 4 and (t.startswith(term) or term.startswith(t)))
               for t in bag)


def _with_glossary(bag: set[str], glossary: Mapping[str, str]) -> set[str]:
    """``bag`` plus each glossary entry's expansion words when it holds the abbreviation, and the
    abbreviation when it holds every expansion word."""
    out = set(bag)
    for abbr, expansion in glossary.items():
        short, long_ = set(content_terms(abbr)), set(content_terms(expansion))
        if short and short <= bag:
            out |= long_
        if long_ and long_ <= bag:
            out |= short
    return out
