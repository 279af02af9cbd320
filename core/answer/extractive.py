"""The extractive answerer: quotes the sentences of the top chunks that best answer the question.

It is an :class:`~core.llm.base.AnswerProvider` that works offline, always (the last link of the LLM
chain and the default when no LLM is configured). Data flow of :meth:`ExtractiveAnswerer.generate`:

1. decline requests to deceive or defraud (:mod:`core.answer.safety`);
2. split each source chunk into units (:mod:`core.answer.sentences`);
3. score each unit (with its list lead-in) against the question:
   ``score = (w_cov · coverage + w_sem · similarity) · rank discount`` where *coverage* is the
   IDF-weighted share of the question's (lightly stemmed) content words found in the unit (BM25's
   IDF, Robertson & Zaragoza 2009, computed over the candidate units, so it is bounded in [0, 1];
   words of product names in the question keep a quarter of their weight),
   *similarity* is the cosine between question and unit embeddings (when an embedder is given) and
   the *rank discount* mildly prefers units of higher-ranked sources; a unit that defines the term
   of a definition question gets a bonus; the answer's confidence is the best score capped at 1;
4. pick up to ``answer.max_sentences`` units greedily (best first; skip near-duplicates and units
   that add no new question word), quote them with their source numbers; for a comparison
   (``request.documents``: sources spread over documents) the best unit of each document comes
   first, the quotes are grouped by document and each follows its document's name
   (:mod:`core.answer.per_document`);
5. when the best score is below ``answer.min_score``, or the chosen units cover less than
   ``answer.min_coverage`` of the question's content words and none is semantically close to it
   (groundedness gate), say it could not find the answer.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from core.answer.per_document import by_document, document_labels, per_document
from core.answer.safety import DECLINE_TEXT, unsafe_rule
from core.answer.sentences import Unit, is_heading, list_items, split_units
from core.config import AnswerSettings
from core.embedder import Embedder
from core.llm.base import Generation, GenerationRequest
from core.retrieval import expand_glossary, tokenize

log = logging.getLogger(__name__)

NOT_FOUND_TEXT = (
    "I couldn't find this in the policies. Try rephrasing the question, or ask HR / the policy owner."
)
_STOP = """a an and are as at be been being but by can could did do does doing for from had has have how i if
in into is it its me my of on or our over so such than that the their them then there these they this those
to under up was we were what when where which while who whom why will with would you your any there's what's
am also about after many much before all both each few more most other some same own just should now get got
please tell policy policies define defined definition mean means meaning explain describe extent
der die das den dem des ein eine einer eines einem einen und oder ist sind wird werden wie was wer wo wann
welche welcher welches bei mit von vom zu zum zur im in auf für an am aus nach über ich mein meine es sie"""
STOP_WORDS = frozenset(_STOP.split())
"""Question words that carry no content for matching sentences (English, and German function words for
the German policies)."""
NAME_RUN = re.compile(r"(?<!^)(?<![.?!]\s)\b(?:[A-Z][\w'’-]*\s+){1,6}[A-Z][\w'’-]*")
"""A run of two or more capitalised words inside the question: a product or document name."""
NAME_WEIGHT = 0.25
"""Share of its IDF a name word keeps: names pick the document (retrieval's job), not the sentence."""
DEFINITION_QUESTION = re.compile(r"\b(?:define|definition|meaning|mean by|what does .+ mean)\b", re.I)
DEFINITION_BOOST = 0.3
"""Added to a unit that defines a term of a definition question ("2.22 Hospital means …")."""
LIST_LIMIT = 8
"""Items quoted after a chosen lead-in that ends with ":"."""
WEIGHTS_WITH_EMBEDDINGS = (0.6, 0.4)
"""(coverage, similarity) weights when an embedder is given."""
WEIGHTS_LEXICAL_ONLY = (1.0, 0.0)
RANK_DISCOUNT = 0.15
"""A unit from source r keeps (1 - RANK_DISCOUNT + RANK_DISCOUNT / r) of its score."""
UNSEEN_SIMILARITY = 0.4
"""When a content word of the question is in no candidate unit ("dog" and no source mentions dogs),
the quoted units must reach this question/unit cosine (all-MiniLM-L6-v2; answering units measure
~0.45-0.8 on docs/eval) to answer: sentences that share only the question's filler words don't."""
_GLUED_CLAUSE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)+)(?=[^\W\d_])")
PARAPHRASE_SIMILARITY = 0.6
"""Question/unit cosine (all-MiniLM-L6-v2) above which a unit answers even with few shared words."""


@dataclass(frozen=True)
class ScoredUnit:
    """A unit with its score and the question words it covers."""

    unit: Unit
    score: float
    covered: frozenset[str]
    similarity: float = 0.0


class ExtractiveAnswerer:
    """Answers by quoting source sentences; never calls a network service.

    Args:
        settings: ``answer`` settings (``min_score`` threshold, ``max_sentences``).
        embedder: optional; when given, unit/question cosine similarity joins the score.
        glossary: abbreviation → expansion (``retrieval.glossary``); the first use of each
            abbreviation in the quoted text is expanded ("Up to SI" → "Up to SI (sum insured)").
    """

    name = "extractive"

    def __init__(self, settings: AnswerSettings, embedder: Embedder | None = None,
                 glossary: Mapping[str, str] | None = None) -> None:
        self.settings = settings
        self.embedder = embedder
        self.glossary = dict(glossary or {})

    def generate(self, request: GenerationRequest) -> Generation:
        """Quote the best units of ``request.sources`` (see module doc). Never raises."""
        rule = unsafe_rule(request.question)
        if rule is not None:
            log.info("declined: unsafe rule %s", rule)
            return Generation(DECLINE_TEXT, (), self.name, found=False, score=0.0)
        ranked, idf, unseen = self._score(request)
        best = ranked[0].score if ranked else 0.0
        if best < self.settings.min_score:
            log.info("not found: best unit score %.3f < min_score %.3f", best, self.settings.min_score)
            return Generation(NOT_FOUND_TEXT, (), self.name, found=False, score=best)
        compare = per_document(ranked, request.sources, request.documents)
        chosen = self._select(ranked)
        if len(compare) > 1:  # a comparison: every document's best unit, then the usual picks
            chosen = by_document(compare, chosen, request.sources, request.documents)
        if not self._grounded(request.question, chosen, idf, unseen):
            return Generation(NOT_FOUND_TEXT, (), self.name, found=False, score=best)
        units = _units_by_source(request)
        intros = {(c.unit.source, c.unit.text) for c in chosen if c.unit.text.endswith(":")}
        shown = [c for c in chosen if (c.unit.source, c.unit.lead) not in intros]  # quoted with intro
        labels = document_labels([sc.chunk for sc in request.sources])
        names = {i: f"{labels[sc.chunk.path]}: " if len(compare) > 1 else ""
                 for i, sc in enumerate(request.sources, start=1)}
        text = expand_glossary(" ".join(names[c.unit.source] + _render(c.unit, units[c.unit.source])
                                        for c in shown), self.glossary)
        cited = sorted({c.unit.source for c in shown})
        return Generation(text, cited, self.name, found=True, score=round(min(1.0, best), 4))

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        """Yield the whole answer text once, then the :class:`Generation`."""
        gen = self.generate(request)
        yield gen.text
        yield gen

    def score_units(self, request: GenerationRequest) -> list[ScoredUnit]:
        """Every candidate unit of the sources (headings excluded), scored against the question, best
        first."""
        return self._score(request)[0]

    def _grounded(self, question: str, chosen: Sequence[ScoredUnit], terms: Iterable[str],
                  unseen: frozenset[str] = frozenset()) -> bool:
        """Groundedness gate: the chosen units must cover at least ``answer.min_coverage`` of the
        question's content words (each counts 1; words of product names :data:`NAME_WEIGHT`: retrieval
        already picked the document) and, with an embedder, reach :data:`UNSEEN_SIMILARITY` when a
        content word is in no candidate unit (``unseen``), unless one unit is semantically close to
        the question (cosine ≥ :data:`PARAPHRASE_SIMILARITY`: a paraphrase shares few words with its
        answer)."""
        names = _name_terms(question)
        weights = {t: NAME_WEIGHT if t in names else 1.0 for t in terms}
        total = sum(weights.values())
        covered = set().union(*(c.covered for c in chosen))
        coverage = sum(w for t, w in weights.items() if t in covered) / total if total else 0.0
        similarity = max((c.similarity for c in chosen), default=0.0)
        off_topic = self.embedder is not None and bool(unseen - names) and similarity < UNSEEN_SIMILARITY
        ok = (coverage >= self.settings.min_coverage and not off_topic) or similarity >= PARAPHRASE_SIMILARITY
        log.info("grounding: coverage %.2f (min %.2f), similarity %.2f, %d unseen words → %s", coverage,
                 self.settings.min_coverage, similarity, len(unseen), "answer" if ok else "not found")
        return ok

    def _score(self, request: GenerationRequest
               ) -> tuple[list[ScoredUnit], dict[str, float], frozenset[str]]:
        """Scored units (best first), the question terms' IDF, and the terms no unit contains."""
        units = [u for i, sc in enumerate(request.sources, start=1) for u in split_units(sc.chunk.text, i)]
        terms = {stem(t) for t in content_terms(request.question)}
        units = [u for u in units if not is_heading(u) or (u.kind in ("item", "row") and u.lead)]
        if not units or not terms:
            return [], {}, frozenset()
        unit_terms = [{stem(t) for t in tokenize(_unglue(f"{u.lead} {u.text}"))} for u in units]
        idf = _idf(terms, unit_terms)
        for t in _name_terms(request.question) & terms:
            idf[t] *= NAME_WEIGHT
        total = sum(idf.values())
        sims = self._similarities(request.question, units)
        w_cov, w_sem = WEIGHTS_WITH_EMBEDDINGS if sims is not None else WEIGHTS_LEXICAL_ONLY
        defines = _defined_terms(request.question, terms)
        scored = []
        for i, (u, ut) in enumerate(zip(units, unit_terms, strict=True)):
            covered = frozenset(terms & ut)
            coverage = sum(idf[t] for t in covered) / total
            sim = max(0.0, float(sims[i])) if sims is not None else 0.0
            rank = 1 - RANK_DISCOUNT + RANK_DISCOUNT / u.source
            boost = DEFINITION_BOOST if defines and _defines(u.text, defines) else 0.0
            scored.append(ScoredUnit(u, (w_cov * coverage + w_sem * sim) * rank + boost, covered, sim))
        scored.sort(key=lambda s: -s.score)
        return scored, idf, frozenset(terms - set().union(*unit_terms))

    def _similarities(self, question: str, units: Sequence[Unit]) -> np.ndarray | None:
        if self.embedder is None:
            return None
        vecs = self.embedder.embed([question] + [f"{u.lead} {u.text}".strip() for u in units])
        return np.asarray(vecs[1:] @ vecs[0], dtype=np.float32)

    def _select(self, ranked: list[ScoredUnit]) -> list[ScoredUnit]:
        """Greedy pick: best first (an item of a list whose lead-in ends with ":" stands for the
        lead-in, which is quoted with its items: one slot per list); a later unit must score ≥ 3/4 of
        the best, or ≥ half of it and either add a question word not yet covered or cover the best
        unit's question words with new figures (amounts, periods); it must not repeat a chosen unit
        (token Jaccard ≥ 0.6)."""
        intros = {(s.unit.source, s.unit.text): s for s in ranked if s.unit.text.endswith(":")}
        chosen = [_as_intro(ranked[0], intros)]
        covered = set(ranked[0].covered)
        seen = _figures(ranked[0].unit)
        best = ranked[0].score
        for cand in ranked[1:]:
            if len(chosen) >= self.settings.max_sentences or cand.score < 0.5 * best:
                break
            cand = _as_intro(cand, intros)
            if any(c.unit == cand.unit for c in chosen):
                continue  # an item of a list already quoted with its lead-in
            strong = cand.score >= 0.75 * best
            figures = cand.covered >= ranked[0].covered and bool(_figures(cand.unit) - seen)
            if not (strong or figures or cand.covered - covered) or any(
                    _jaccard(cand.unit, c.unit) >= 0.6 for c in chosen):
                continue
            chosen.append(cand)
            covered |= cand.covered
            seen |= _figures(cand.unit)
        return chosen


def _as_intro(cand: ScoredUnit, intros: Mapping[tuple[int, str], ScoredUnit]) -> ScoredUnit:
    """``cand``, or for an item of a list introduced by a lead-in ending with ":" the lead-in (with
    ``cand``'s score and covered words), so that the whole list is quoted once."""
    intro = intros.get((cand.unit.source, cand.unit.lead)) if cand.unit.kind == "item" else None
    if intro is None:
        return cand
    return ScoredUnit(intro.unit, cand.score, cand.covered | intro.covered,
                      max(cand.similarity, intro.similarity))


def content_terms(question: str) -> list[str]:
    """The question's words minus stop words (tokenised like the keyword leg)."""
    return [t for t in tokenize(question) if t not in STOP_WORDS]


def stem(token: str) -> str:
    """A light English suffix stripper for matching (``deliveries``→``delivery``, ``limited``→``limit``,
    ``covers``→``cover``); digits and short words are left alone."""
    if token.isdigit() or len(token) < 3:
        return token
    if len(token) == 3:  # "ups" -> "up"
        return token[:2] if token.endswith("s") and not token.endswith(("ss", "us", "is", "as")) else token
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        stem_len = len(token) - len(suffix)
        if token.endswith(suffix) and not token.endswith(("ss", "us", "is")) and stem_len >= 3:
            return token[:stem_len] + repl
    return token


def _unglue(text: str) -> str:
    """Separate a dotted clause number that extraction glued to its first word ("2.22Hospital" →
    "2.22 Hospital"), so the word counts for coverage."""
    return _GLUED_CLAUSE.sub(r"\1 ", text)


def _idf(terms: set[str], unit_terms: Sequence[set[str]]) -> dict[str, float]:
    """BM25 IDF ``ln(1 + (N - n + 0.5) / (n + 0.5))`` (always > 0) of each term over the units."""
    n_units = len(unit_terms)
    return {t: math.log(1 + (n_units - (n := sum(t in ut for ut in unit_terms)) + 0.5) / (n + 0.5))
            for t in terms}


def _figures(unit: Unit) -> set[str]:
    """Numbers in a unit, thousands separators dropped (``INR 5,000`` → ``{"5000"}``)."""
    return set(re.findall(r"\d+(?:\.\d+)?", re.sub(r"(?<=\d),(?=\d)", "", unit.text)))


def _jaccard(a: Unit, b: Unit) -> float:
    ta, tb = set(tokenize(a.text)), set(tokenize(b.text))
    return len(ta & tb) / max(1, len(ta | tb))


def _units_by_source(request: GenerationRequest) -> dict[int, list[Unit]]:
    return {i: split_units(sc.chunk.text, i) for i, sc in enumerate(request.sources, start=1)}


def _name_terms(question: str) -> set[str]:
    """Stemmed words of the capitalised name runs of ``question`` ("National Parivar Mediclaim Plus
    Policy"), not counting the question's first word."""
    return {stem(t) for m in NAME_RUN.finditer(question) for t in tokenize(m.group(0))}


def _defined_terms(question: str, terms: set[str]) -> set[str]:
    """The (stemmed) terms a definition question asks about, or an empty set."""
    return terms if DEFINITION_QUESTION.search(question) else set()


def _defines(text: str, terms: set[str]) -> bool:
    """Whether ``text`` reads "<number> <Term> means/refers to …" for one of ``terms`` (the number may
    be glued to the term by extraction: "2.22Hospital means")."""
    m = re.match(r"^\W*(?:\d+(?:\.\d+)*\.?\s*)?([^\W\d][\w'’\- ]{0,39}?)\s+(?:means|refers to|shall mean)\b",
                 text)
    return m is not None and any(stem(t) in terms for t in tokenize(m.group(1)))


def _render(unit: Unit, source_units: list[Unit]) -> str:
    """The quoted unit with its source number; a list item or table row shows its lead-in first, and
    a lead-in ending with ":" brings its list items along."""
    lead = f"{unit.lead} … " if unit.lead and unit.kind in ("item", "row") else ""
    items = list_items(source_units, unit, LIST_LIMIT) if unit.text.endswith(":") else []
    body = " ".join([unit.text, *(i.text for i in items)])
    return f"{lead}{body} [{unit.source}]"
