"""Evidence for an answer: every sentence, list item and table row of the sources scored against the
question, the ones to quote (the one that answers first), and the signals answerability is computed
from.

Unit relevance, each part in [0, 1] (absolute, so it means the same across questions):

* ``similarity`` — cosine of the question and the unit (with its list lead-in or table header)
  embeddings (all-MiniLM-L6-v2 by default); carries paraphrases that share no words with the policy;
* ``coverage`` — the IDF-weighted share of the question's content terms (:func:`core.text.content_terms`)
  in the unit; IDF is BM25's ``ln(1 + (N − n + 0.5)/(n + 0.5))`` over the candidate units, and words
  of product names in the question keep :data:`NAME_WEIGHT` of it (names choose the document,
  retrieval's job, not the sentence);
* ``bm25`` — Okapi BM25 of the question over the units (:mod:`core.bm25`, rank_bm25), scaled to the
  best unit;
* ``source`` — the reranker's score of the unit's source passage.

``relevance = Σ UNIT_WEIGHTS[f] · f`` (renormalised without ``similarity`` when there is no embedder),
plus :data:`DEFINITION_BOOST` for the clause that defines the term of a definition question.

A table row is checked for a typed value cell by cell, each number with its column header's unit
(:func:`core.answer.table_cells.typed_row`: "Daily allowance (EUR)" over "45" is an amount).

Selection (:func:`choose`): the answer leads with the best unit; for a question that needs a value
(:mod:`core.answer.answer_type`) with the best unit that holds a value of that type (how far it
trails the best unit is the ``lead_share`` signal, for the calibrated model to weigh), and with the
best unit right after it when that one is better. Further units must score :data:`ADD_SHARE` of the lead and
add a question word or a new figure, or score :data:`STRONG_SHARE` of it; near-duplicates (token
Jaccard ≥ 0.6) are skipped. Headings and page furniture are never quoted.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from core.answer.answer_type import AnswerType, classify, satisfies, strip_placeholders
from core.answer.attached import POINTER, attached_rows
from core.answer.binding import binding_signals, bound_in_meaning, title_of
from core.answer.crosslingual import Translator, cross_signals
from core.answer.focus import Focus, lexical_binding, question_focus, same_language
from core.answer.sentences import Unit, embedded_text, quotable, split_units, unit_offset
from core.answer.table_cells import identifier_in_table, typed_row
from core.bm25 import bm25_scores, idf, scaled
from core.embedder import Embedder
from core.llm.base import GenerationRequest
from core.lru import LockedLRU
from core.query.definition import defined_term
from core.query.exact import extract_terms
from core.text import content_terms, normalise_numbers, quantities, terms
from core.types import Chunk, page_at

log = logging.getLogger(__name__)

UNIT_WEIGHTS = {"similarity": 0.45, "coverage": 0.30, "bm25": 0.10, "source": 0.15}
"""Weights of the unit relevance parts (sum 1); see the module doc."""
NAME_WEIGHT = 0.25
DEFINITION_BOOST = 0.3
ADD_SHARE = 0.7
STRONG_SHARE = 0.85
NAME_RUN = re.compile(r"(?<!^)(?<![.?!]\s)\b(?:[A-Z][\w'’-]*\s+){1,6}[A-Z][\w'’-]*")
"""A run of two or more capitalised words inside the question: a product or document name."""
VECTOR_CACHE = 20_000
QUALIFIER = re.compile(r"^\W*(?:however|provided|but|except|unless|subject to|notwithstanding|this (?:limit|"
                       r"sub-?limit|benefit|cover|exclusion) (?:shall|does|will|is)\b)", re.IGNORECASE)
"""A sentence that qualifies the one before it (an exception or a condition)."""


class UnitVectorLookup(Protocol):
    """Where unit vectors computed ahead of the question are kept
    (:class:`core.answer.unit_vectors.UnitVectors`)."""

    def lookup(self, chunks: Sequence[Chunk]) -> Mapping[str, np.ndarray]:
        """Unit text (:func:`~core.answer.sentences.embedded_text`) → L2-normalised float32 vector
        (shape (dimension,)) for the stored units of ``chunks``; texts without one are absent."""
        ...


@dataclass(frozen=True)
class ScoredUnit:
    """A unit with its relevance (see the module doc), parts, and whether it holds a typed value."""

    unit: Unit
    relevance: float
    coverage: float
    similarity: float
    typed: bool
    covered: frozenset[str]


@dataclass(frozen=True)
class Evidence:
    """What the answer can stand on.

    Attributes:
        answer_type: what the question asks for.
        ranked: every quotable unit, best first.
        chosen: the units to quote, the answering one first (empty without sources).
        signals: answerability signals in [0, 1] (:data:`core.answer.answerability.SIGNALS`).
        missing_ids: plan/tier/clause identifiers of the question found in no source ("Plan D").
        focus: the question's words naming what it asks about ("gym membership";
            :class:`core.answer.focus.Focus` ``span``), ``""`` when none.
    """

    answer_type: AnswerType
    ranked: tuple[ScoredUnit, ...]
    chosen: tuple[ScoredUnit, ...]
    signals: Mapping[str, float]
    missing_ids: tuple[str, ...] = ()
    focus: str = ""


class EvidenceFinder:
    """Scores the units of a request's sources and picks the ones to quote.

    Args:
        embedder: for question/unit similarity (``None``: lexical parts only). Unit vectors are
            cached by text (LRU of :data:`VECTOR_CACHE` entries), so popular passages embed once.
        max_units: most units quoted (``answer.max_sentences``).
        stored: unit vectors computed ahead (the indexer role's ``unit-vectors`` job,
            :mod:`core.answer.unit_vectors`): looked up before anything is embedded; units they lack
            are embedded with the question. A failing lookup is logged and counts as all misses.
        glossary: abbreviation → expansion (``retrieval.glossary``): either form binds the focus.
        translator: bilingual dictionaries (:mod:`core.clir`): an answering unit in another language
            than the question gets ``focus`` and ``coverage`` in its language
            (:mod:`core.answer.crosslingual`); ``None``: ``focus`` is not checked there (1.0).
    """

    def __init__(self, embedder: Embedder | None, max_units: int = 6,
                 stored: UnitVectorLookup | None = None,
                 glossary: Mapping[str, str] | None = None,
                 translator: Translator | None = None) -> None:
        self.embedder = embedder
        self.max_units = max_units
        self.stored = stored
        self.glossary = dict(glossary or {})
        self.translator = translator
        self._vectors: LockedLRU[str, np.ndarray] = LockedLRU(VECTOR_CACHE)

    def find(self, request: GenerationRequest) -> Evidence:
        """The :class:`Evidence` for ``request`` (never raises on odd text; empty without sources)."""
        atype = classify(request.question)
        units = quotable_units(request)
        ranked = self.score(request, units, atype)
        if atype.needs_value:
            ranked = typed_by_table(request, ranked, atype)
        chosen = choose(ranked, atype, self.max_units)
        missing = missing_ids(request)
        focus = question_focus(request.question, [title_of(sc.chunk.context, sc.chunk.path)
                                                  for sc in request.sources])
        found = {**signals(request, chosen, atype, missing), **self.binding(request, focus, chosen, ranked),
                 **binding_signals(request, atype, answer_text(request, chosen, ranked), chosen, ranked,
                                   self.glossary)}
        return Evidence(atype, tuple(ranked), tuple(chosen), bound_in_meaning(found), missing, focus.span)

    def binding(self, request: GenerationRequest, focus: Focus, chosen: Sequence[ScoredUnit],
                ranked: Sequence[ScoredUnit]) -> dict[str, float]:
        """The ``focus`` and ``focus_sim`` signals: is the answering unit about what the question asks
        for (:mod:`core.answer.focus`)? Both 0.0 without an answering unit, 1.0 when not checkable.
        For a unit in another language, with a translator: ``focus`` (and ``focus_sim``, an
        English-only embedding cannot compare) and ``coverage`` of the translated question
        (:mod:`core.answer.crosslingual`)."""
        if not chosen:
            return {"focus": 0.0, "focus_sim": 0.0}
        texts = [embedded_text(u) for u in _with_items(chosen[0].unit, ranked)]
        if not same_language(request.question, texts[0]):
            return self._across(request, focus, answer_text(request, chosen, ranked), ranked)
        if not focus.terms:
            return {"focus": 1.0, "focus_sim": 1.0}
        bags = [frozenset(content_terms(embedded_text(s.unit))) for s in ranked]
        lexical = round(lexical_binding(focus, answer_text(request, chosen, ranked), bags, self.glossary), 4)
        if self.embedder is None:
            return {"focus": lexical, "focus_sim": lexical}
        cached = {t: self._vectors.get(t) for t in texts}  # one read each: another thread may evict
        todo = [t for t in texts if cached[t] is None]
        vecs = _unit_rows(self.embedder.embed([focus.phrase, *todo]))
        unit_vecs = [*(v for v in cached.values() if v is not None), *vecs[1:]]
        best = max(float(vecs[0] @ v) for v in unit_vecs)
        return {"focus": lexical, "focus_sim": round(max(0.0, best), 4)}

    def _across(self, request: GenerationRequest, focus: Focus, text: str,
                ranked: Sequence[ScoredUnit]) -> dict[str, float]:
        """Binding of a unit in another language than the question (see :meth:`binding`)."""
        found = {} if self.translator is None else cross_signals(
            self.translator, request.question, focus.span if focus.terms else "", text,
            [embedded_text(s.unit) for s in ranked])
        bound = found.pop("focus", 1.0)
        return {"focus": bound, "focus_sim": bound, **found}

    def score(self, request: GenerationRequest, units: Sequence[Unit],
              atype: AnswerType) -> list[ScoredUnit]:
        """``units`` scored against the question, best first."""
        q_terms = set(content_terms(request.question, question=True))
        if not units or not q_terms:
            return []
        texts = [embedded_text(u) for u in units]
        bags = [content_terms(t) for t in texts]
        weight = _idf(q_terms, [set(b) for b in bags], _name_terms(request.question))
        total = sum(weight.values()) or 1.0
        lexical = scaled(bm25_scores(sorted(q_terms), bags))
        sims = self._similarities(request, units, texts)
        defines = _defined(request.question)
        out = []
        for i, (u, bag) in enumerate(zip(units, bags, strict=True)):
            covered = frozenset(q_terms & set(bag))
            parts = {"coverage": sum(weight[t] for t in covered) / total, "bm25": lexical[i],
                     "similarity": max(0.0, float(sims[i])) if sims is not None else 0.0,
                     "source": _source_score(request, u.source)}
            boost = DEFINITION_BOOST if defines and _defines(u.text, defines) else 0.0
            typed = satisfies(typed_row(u.lead, u.text) if u.kind == "row" else texts[i], atype)
            out.append(ScoredUnit(u, _weighted(parts, sims is not None) + boost, parts["coverage"],
                                  parts["similarity"], typed, covered))
        return sorted(out, key=lambda s: -s.relevance)

    def _similarities(self, request: GenerationRequest, units: Sequence[Unit],
                      texts: Sequence[str]) -> np.ndarray | None:
        """Cosine of the question with each text: vectors from the LRU, then the stored ones, then
        the rest embedded in one call with the question."""
        if self.embedder is None:
            return None
        known = {t: v for t in dict.fromkeys(texts) if (v := self._vectors.get(t)) is not None}
        todo = [t for t in dict.fromkeys(texts) if t not in known]
        if todo and self.stored is not None:
            todo = self._from_store(request, units, texts, todo, known)
        vecs = _unit_rows(self.embedder.embed([request.question, *todo]))
        for text, vec in zip(todo, vecs[1:], strict=True):
            self._vectors.put(text, vec)
            known[text] = vec
        return np.asarray([float(known[t] @ vecs[0]) for t in texts], dtype=np.float32)

    def _from_store(self, request: GenerationRequest, units: Sequence[Unit], texts: Sequence[str],
                    todo: list[str], known: dict[str, np.ndarray]) -> list[str]:
        """Put the stored vectors of ``todo``'s texts into the LRU and ``known``; returns the texts
        still missing."""
        assert self.stored is not None
        wanted = set(todo)
        chunks = {request.sources[u.source - 1].chunk.chunk_id: request.sources[u.source - 1].chunk
                  for u, t in zip(units, texts, strict=True) if t in wanted}
        try:
            found = self.stored.lookup(list(chunks.values()))
        except Exception as exc:  # a store problem must not cost the answer: embed them instead
            log.warning("stored unit vectors unreadable (%s: %s); embedding the units instead",
                        type(exc).__name__, exc)
            return todo
        assert self.embedder is not None
        dim = (self.embedder.dimension,)  # a vector of another shape is never used (a damaged row)
        for t in todo:
            if t in found and np.shape(found[t]) == dim:
                known[t] = np.asarray(found[t], dtype=np.float32)
                self._vectors.put(t, known[t])
        return [t for t in todo if t not in known]


def quotable_units(request: GenerationRequest) -> list[Unit]:
    """The sentences, list items and table rows of the sources that may be quoted: headings (unless
    an item or row with a lead) and page furniture are left out."""
    return [u for i, sc in enumerate(request.sources, start=1)
            for u in quotable(split_units(sc.chunk.text, i))]


def typed_by_table(request: GenerationRequest, ranked: Sequence[ScoredUnit],
                   atype: AnswerType) -> list[ScoredUnit]:
    """``ranked`` with a unit that points at a table ("as mentioned in the table below") counted as
    holding a value of the asked type when the rows it brings along hold one
    (:func:`core.answer.attached.attached_rows`, each row read with its column headers): the answer
    quotes them after it."""
    splits = {i: split_units(sc.chunk.text, i) for i, sc in enumerate(request.sources, start=1)}
    out = []
    for s in ranked:
        if not s.typed and s.unit.kind != "row" and POINTER.search(s.unit.text):
            rows = attached_rows(request, splits, s.unit, True)
            if any(satisfies(typed_row(r.lead, r.text), atype) for r in rows):
                s = replace(s, typed=True)
        out.append(s)
    return out


def choose(ranked: Sequence[ScoredUnit], atype: AnswerType, max_units: int) -> list[ScoredUnit]:
    """The units to quote, the answering one first (see the module doc)."""
    if not ranked:
        return []
    intros = {(s.unit.source, s.unit.text): s for s in ranked if s.unit.text.endswith(":")}
    lead = ranked[0]
    if atype.needs_value:
        lead = next((s for s in ranked if s.typed), lead)
    lead = _as_intro(lead, intros)
    chosen, covered, seen = [lead], set(lead.covered), figures(lead.unit)
    best = _as_intro(ranked[0], intros)
    if best.unit != lead.unit and len(chosen) < max_units:
        chosen.append(best)
        covered |= best.covered
    for cand in ranked:
        if len(chosen) >= max_units or cand.relevance < ADD_SHARE * max(lead.relevance, best.relevance):
            break
        cand = _as_intro(cand, intros)
        if any(cand.unit == c.unit or _jaccard(cand.unit, c.unit) >= 0.6 for c in chosen):
            continue
        new_info = bool(cand.covered - covered) or bool(figures(cand.unit) - seen) and cand.typed
        if new_info or cand.relevance >= STRONG_SHARE * lead.relevance:
            chosen.append(cand)
            covered |= cand.covered
            seen |= figures(cand.unit)
    return _with_qualifiers(chosen, ranked, max_units)


def _with_qualifiers(chosen: list[ScoredUnit], ranked: Sequence[ScoredUnit],
                     max_units: int) -> list[ScoredUnit]:
    """``chosen`` with, right after a quoted sentence, the next sentence of its source when that one
    qualifies it ("However, the limit shall not apply …", "Provided that …"): a limit quoted without
    its exception misleads."""
    by_position = {(s.unit.source, s.unit.position): s for s in ranked}
    out: list[ScoredUnit] = []
    for c in chosen:
        out.append(c)
        nxt = by_position.get((c.unit.source, c.unit.position + 1))
        if (nxt is not None and QUALIFIER.match(nxt.unit.text) and len(out) < max_units
                and all(nxt.unit != o.unit for o in [*out, *chosen])):
            out.append(nxt)
    return out


def _as_intro(cand: ScoredUnit, intros: Mapping[tuple[int, str], ScoredUnit]) -> ScoredUnit:
    """``cand``, or for an item of a list introduced by a lead-in ending with ":" the lead-in (with
    ``cand``'s relevance and covered words), so that the whole list is quoted once, under its lead-in."""
    intro = intros.get((cand.unit.source, cand.unit.lead)) if cand.unit.kind == "item" else None
    if intro is None:
        return cand
    return ScoredUnit(intro.unit, cand.relevance, max(cand.coverage, intro.coverage),
                      max(cand.similarity, intro.similarity), cand.typed or intro.typed,
                      cand.covered | intro.covered)


def signals(request: GenerationRequest, chosen: Sequence[ScoredUnit], atype: AnswerType,
            missing: Sequence[str]) -> dict[str, float]:
    """Answerability signals, each in [0, 1] (names: :data:`core.answer.answerability.SIGNALS`); the
    unit-level ones describe the lead unit, the one that answers."""
    if not chosen:
        return {"rerank": 0.0, "support": 0.0, "lead_share": 0.0, "similarity": 0.0, "coverage": 0.0,
                "type_ok": 0.0,
                "ids_found": 0.0 if missing else 1.0, "named_doc": 0.0, "legs": 0.0,
                "needs_value": float(atype.needs_value)}
    ids = [t for t in extract_terms(request.question) if _is_identifier(t.text, t.kind)]
    lead = chosen[0]
    top = max(c.relevance for c in chosen)
    reranked = request.sources[0].scores.get("rerank") if request.sources else None
    return {
        "rerank": min(1.0, max(0.0, float(reranked if reranked is not None else lead.relevance))),
        "support": min(1.0, lead.relevance),
        "lead_share": lead.relevance / top if top > 0 else 0.0,
        "similarity": lead.similarity,
        "coverage": lead.coverage,
        "type_ok": 1.0 if not atype.needs_value or lead.typed else 0.0,
        "ids_found": 1.0 - len(missing) / len(ids) if ids else 1.0,
        "named_doc": named_share(request, chosen),
        "legs": leg_agreement(request),
        "needs_value": float(atype.needs_value),
    }


def named_share(request: GenerationRequest, chosen: Sequence[ScoredUnit]) -> float:
    """Share of the quoted units that come from a document the question names (retrieval marks each
    source ``scores["named_doc"]`` when the question names documents); 1.0 when it names none, 0.0
    when the answering (first) unit comes from another document — an answer about another document."""
    marks = [request.sources[c.unit.source - 1].scores.get("named_doc") for c in chosen]
    known = [m for m in marks if m is not None]
    if not known:
        return 1.0
    return 0.0 if marks[0] == 0.0 else sum(known) / len(known)


def leg_agreement(request: GenerationRequest, top: int = 3) -> float:
    """Share of the best ``top`` sources that both retrieval legs found (the keyword leg scored it
    and its vector score came from the vector leg, not filled in afterwards)."""
    best = list(request.sources[:top])
    if not best:
        return 0.0
    both = [sc for sc in best if "keyword" in sc.scores and "vector" in sc.scores
            and "vector_filled" not in sc.scores]
    return len(both) / len(best)


def missing_ids(request: GenerationRequest) -> tuple[str, ...]:
    """Plan/tier/option and clause identifiers of the question ("Plan D", "Section 4.2") that no
    source contains, as written or as a table cell under its keyword's column ("Grade | …" / "A | …")."""
    texts = [(normalise_numbers(sc.chunk.text), sc.chunk.text) for sc in request.sources]
    return tuple(t.text for t in extract_terms(request.question) if _is_identifier(t.text, t.kind)
                 and not any(t.found_in(norm, raw) or identifier_in_table(t.text, raw)
                             for norm, raw in texts))


def unit_page(request: GenerationRequest, unit: Unit) -> int | None:
    """The page of ``unit``: the page its first words are on in its source chunk (``page_breaks``),
    else the chunk's first page."""
    chunk = request.sources[unit.source - 1].chunk
    offset = unit_offset(chunk.text, unit)
    return page_at(chunk, offset) if offset is not None else chunk.page


def lead_page(request: GenerationRequest, unit: Unit) -> int | None:
    """The page of the lead-in a quoted list item or table row is shown after (its list's intro,
    its table's column headers) in its source chunk (``page_breaks``); ``None`` for other units or
    when the lead is not found in the chunk."""
    if not unit.lead or unit.kind not in ("item", "row"):
        return None
    chunk = request.sources[unit.source - 1].chunk
    offset = unit_offset(chunk.text, Unit(unit.lead, unit.source, unit.position))
    return page_at(chunk, offset) if offset is not None else None


def figures(unit: Unit) -> set[float]:
    """The numbers a unit states (template placeholders removed)."""
    return {q.value for q in quantities(strip_placeholders(unit.text)) if q.unit != "ordinal"}


def answer_text(request: GenerationRequest, chosen: Sequence[ScoredUnit],
                ranked: Sequence[ScoredUnit]) -> str:
    """The answering (first chosen) unit's text with its lead-in, the list items quoted under it and its
    section path: what binding signals read ("" without a chosen unit)."""
    if not chosen:
        return ""
    lead = chosen[0].unit
    section = request.sources[lead.source - 1].chunk.section
    return " ".join([*(embedded_text(u) for u in _with_items(lead, ranked)), section])


def _with_items(lead: Unit, ranked: Sequence[ScoredUnit], limit: int = 8) -> list[Unit]:
    """``lead``, and when it is a list's lead-in (ends with ":") the items quoted under it: what the
    answer says is in them."""
    if not lead.text.endswith(":"):
        return [lead]
    items = [s.unit for s in ranked if s.unit.source == lead.source and s.unit.kind == "item"
             and s.unit.lead == lead.text]
    return [lead, *sorted(items, key=lambda u: u.position)[:limit]]


def _is_identifier(text: str, kind: str) -> bool:
    return kind == "clause" or (kind == "name" and re.match(r"(?i)(?:plan|tier|option|variant|level|class|"
                                                          r"category|grade|zone)\b", text) is not None)


def _weighted(parts: Mapping[str, float], with_similarity: bool) -> float:
    weights = {k: w for k, w in UNIT_WEIGHTS.items() if with_similarity or k != "similarity"}
    return sum(w * parts[k] for k, w in weights.items()) / sum(weights.values())


def _source_score(request: GenerationRequest, number: int) -> float:
    if not 1 <= number <= len(request.sources):
        return 0.0
    return min(1.0, max(0.0, float(request.sources[number - 1].score)))


def _idf(q_terms: set[str], bags: Sequence[set[str]], names: set[str]) -> dict[str, float]:
    """BM25 IDF of each question term over the units; name words keep :data:`NAME_WEIGHT` of it."""
    n = len(bags)
    return {t: idf(n, sum(t in b for b in bags)) * (NAME_WEIGHT if t in names else 1.0) for t in q_terms}


def _name_terms(question: str) -> set[str]:
    """Stemmed words of the capitalised name runs of ``question`` (not its first word)."""
    return {t for m in NAME_RUN.finditer(question) for t in content_terms(m.group(0))}


def _defined(question: str) -> set[str]:
    """The stemmed words of the term a definition question asks about (empty for other questions)."""
    term = defined_term(question)
    return set(content_terms(term)) if term else set()


def _defines(text: str, defined: set[str]) -> bool:
    """Whether ``text`` reads "<number> <Term> means/refers to …" for the asked term (the number may
    be glued to the term by extraction: "2.22Hospital means")."""
    m = re.match(r"^\W*(?:\d+(?:\.\d+)*\.?\s*)?([^\W\d][\w'’\- ]{0,39}?)\s+(?:means|refers to|shall mean|"
                 r"is defined as)\b", re.sub(r"^(\W*\d+(?:\.\d+)*)(?=[^\W\d])", r"\1 ", text))
    return m is not None and bool(set(content_terms(m.group(1))) & defined)


def _jaccard(a: Unit, b: Unit) -> float:
    ta, tb = set(terms(a.text)), set(terms(b.text))
    return len(ta & tb) / max(1, len(ta | tb))


def _unit_rows(vecs: np.ndarray) -> np.ndarray:
    arr = np.asarray(vecs, dtype=np.float32)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    return np.divide(arr, norms, out=np.zeros_like(arr), where=norms > 0)
