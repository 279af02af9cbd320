"""Binding and coverage signals across languages: an English question answered by a German unit.

The answerability signals ``focus`` (is the answering unit about the asked-for thing?) and
``coverage`` (how much of the question it holds) compare the question's words with the unit's:
across languages they share none, so ``coverage`` is near 0 for every answer from a document in
another language and ``focus`` could not be checked at all (it was set to 1.0). The calibrated model
then saw the right German clause as weakly supported as an unrelated passage, and the
cross-language answers were the weakest answerable samples, capping the refusal threshold.

Here both are computed in the unit's language, with the corpus's bilingual dictionaries
(:class:`core.clir.translate.DictionaryTranslator`, the same translation the cross-language
retrieval leg searches with: dictionary-based CLIR, Ballesteros & Croft 1997; Pirkola 1998): the
question (for ``coverage``) and its focus span (for ``focus``; :mod:`core.answer.focus`) are
translated against the vocabulary of the candidate units (German compounds by corpus lookup:
"eye examination" → "augenuntersuchungen"), and each translated concept — the target words of one
question word or phrase, Pirkola's synonym set — counts as held when any of its words is in the
unit. Concepts weigh by BM25 IDF over the candidate units, as in the monolingual signals.

``None`` (keep the monolingual value) when the languages are the same or unknown, there is no
dictionary for the pair, or nothing translates.

The same translation ranks the units: :func:`translated_relevance` gives each unit in another
language its ``coverage`` (the IDF-weighted share of translated concepts it holds) and ``bm25``
(Okapi BM25 of the translation's words), in place of the English question's terms, which a German
unit never holds; the units' words include their compound parts (:mod:`core.clir.compounds`,
Koehn & Knight 2003: "Fallanmeldung" holds "fall").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from core.bm25 import bm25_scores, idf, scaled
from core.clir.compounds import CompoundSplitter
from core.clir.dictd import DictdDictionary
from core.clir.translate import QueryTranslation, Vocabulary
from core.language import detect_language, question_language
from core.text import tokenize


class Translator(Protocol):
    """What translates a question (:class:`core.clir.translate.DictionaryTranslator`)."""

    def translate(self, question: str, source: str, target: str,
                  vocabulary: Vocabulary | None = None) -> QueryTranslation | None:
        """``question`` (ISO 639-1 ``source``) in ``target``; ``None`` when nothing translates."""
        ...

    def lexicon(self, language: str) -> DictdDictionary | None:
        """A dictionary whose headwords are words of ``language``, or ``None``."""
        ...


def cross_signals(translator: Translator, question: str, focus_span: str, unit_text: str,
                  candidates: Sequence[str]) -> dict[str, float]:
    """``{"coverage": …, "focus": …}`` (each in [0, 1]) of the answering unit ``unit_text`` (with its
    lead-in and section path) for a ``question`` in another language; a key is absent when its text
    does not translate (``focus`` also when ``focus_span`` is empty); ``{}`` when the languages are
    the same or unknown (module doc).

    Args:
        translator: the bilingual dictionaries.
        question: the standalone question.
        focus_span: the question's words naming the asked-for thing (:class:`core.answer.focus.Focus`).
        unit_text: the answering unit, its lead-in and section path.
        candidates: the texts of every candidate unit (the translation's vocabulary and the IDF).
    """
    source, target = question_language(question), detect_language(unit_text)
    if not source or not target or source == target:
        return {}
    bags = [frozenset(tokenize(t)) for t in candidates]
    vocabulary = Vocabulary(Counter(w for bag in bags for w in bag))
    have = frozenset(tokenize(unit_text))
    out: dict[str, float] = {}
    for key, text in (("coverage", question), ("focus", focus_span)):
        found = translator.translate(text, source, target, vocabulary) if text else None
        if found is not None:
            out[key] = round(concept_share(found.concepts(), have, bags), 4)
    return out


def concept_share(concepts: Sequence[Sequence[str]], have: frozenset[str],
                  bags: Sequence[frozenset[str]]) -> float:
    """IDF-weighted share of ``concepts`` (each a set of words counting as one) with a word in
    ``have``; IDF is BM25's ``ln(1 + (N − n + 0.5)/(n + 0.5))`` over ``bags``, ``n`` the bags holding
    any word of the concept. 0.0 without concepts."""
    n = len(bags)
    weights = []
    for words in concepts:
        df = sum(1 for bag in bags if any(w in bag for w in words))
        weights.append((idf(n, df), any(w in have for w in words)))
    total = sum(w for w, _ in weights)
    return sum(w for w, held in weights if held) / total if total > 0 else 0.0


def translated_relevance(translator: Translator, question: str, texts: Sequence[str],
                         languages: Sequence[str]) -> dict[int, tuple[float, float]]:
    """``{i: (coverage, bm25)}`` for each text ``texts[i]`` whose language ``languages[i]`` (ISO
    639-1, ``""`` unknown) is known and not the question's: ``coverage`` is the IDF-weighted share of
    the translated question's concepts the text holds (:func:`concept_share`), ``bm25`` the Okapi
    BM25 of the translation's words scaled to the best text, both over the texts of that language
    with their compound parts (module doc). Texts of a language nothing translates into are absent."""
    source = question_language(question)
    out: dict[int, tuple[float, float]] = {}
    for target in sorted(set(languages) - {"", source}) if source else []:
        idx = [i for i, lang in enumerate(languages) if lang == target]
        words = [tokenize(texts[i]) for i in idx]
        df = Counter(w for ws in words for w in set(ws))
        found = translator.translate(question, source, target, Vocabulary(df))
        if found is None:
            continue
        lexicon = translator.lexicon(target)
        splitter = CompoundSplitter(df, lexicon.contains if lexicon is not None else None)
        bags = [[*ws, *(p for w in ws for p in splitter.parts(w))] for ws in words]
        sets = [frozenset(b) for b in bags]
        lexical = scaled(bm25_scores(found.text.split(), bags))
        for j, i in enumerate(idx):
            out[i] = (concept_share(found.concepts(), sets[j], sets), lexical[j])
    return out
