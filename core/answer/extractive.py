"""The extractive answerer: quotes the source sentences and table rows that answer the question.

It is an :class:`~core.llm.base.AnswerProvider` that works offline, always (the last link of the LLM
chain and the default when no LLM is configured). Data flow of :meth:`ExtractiveAnswerer.generate`:

1. evidence (:mod:`core.answer.evidence`): the expected answer type of the question
   (:mod:`core.answer.answer_type`), every sentence / list item / table row of the sources scored
   against it, and the units to quote, the one that answers first;
2. answerability (:mod:`core.answer.answerability`): one calibrated 0–1 score from the evidence's
   signals (0 when the question needs a value and the answering unit holds none); below
   ``answer.min_answerability`` the answer is a refusal that names what the policies do not state
   and quotes the closest passages, with citations (:mod:`core.answer.refusal`);
3. otherwise the chosen units are quoted with their source numbers (:mod:`core.answer.compose`): a
   list item or table row after its lead-in or column headers (shown once), a lead-in ending with ":"
   with its items (continued from the next chunk when the list runs on there), a procedure's step with
   the other steps, a unit pointing at a table with the table's rows (:mod:`core.answer.attached`),
   a unit naming a table of its document with that table's rows about the question, and the rows
   whose label range holds a quantity the question states (:mod:`core.answer.referred`);
   the first use of a glossary abbreviation is expanded. For a comparison (``request.documents``:
   sources spread over documents) the best unit of each document (for a value question: its best unit
   holding a value) is quoted first, each after its document's name (:mod:`core.answer.per_document`).

Declining unsafe requests happens before retrieval, in :class:`core.answering.PolicyAnswerService`
(:mod:`core.answer.safety`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from core.answer.answerability import answerability, gate
from core.answer.compose import quotes_for
from core.answer.crosslingual import Translator
from core.answer.evidence import (
    Evidence,
    EvidenceFinder,
    UnitVectorLookup,
    lead_page,
    unit_page,
)
from core.answer.per_document import by_document, document_labels, per_document
from core.answer.referred import with_ranged_rows
from core.answer.refusal import NOT_FOUND_TEXT, nearest_units, refusal
from core.answer.sentences import split_units
from core.config import AnswerSettings
from core.embedder import Embedder
from core.llm.base import Generation, GenerationRequest
from core.retrieval import expand_glossary

__all__ = ["NOT_FOUND_TEXT", "Assessment", "ExtractiveAnswerer"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Assessment:
    """How answerable a request is: ``answerability`` in [0, 1], the expected ``answer_type`` and the
    ``signals`` it was computed from (for eval and calibration)."""

    answerability: float
    answer_type: str
    signals: Mapping[str, float]


class ExtractiveAnswerer:
    """Answers by quoting source sentences; never calls a network service.

    Args:
        settings: ``answer`` settings (``min_answerability`` threshold, ``max_sentences``).
        embedder: optional; when given, unit/question cosine similarity joins the unit relevance.
        glossary: abbreviation → expansion (``retrieval.glossary``); the first use of each
            abbreviation in the quoted text is expanded ("Up to SI" → "Up to SI (sum insured)").
        unit_vectors: unit vectors computed ahead (:class:`core.answer.unit_vectors.UnitVectors`),
            looked up before embedding; ``None``: every unit is embedded when asked.
        translator: bilingual dictionaries for the answerability signals of an answer in another
            language than the question (:mod:`core.answer.crosslingual`); ``None``: not translated.
    """

    name = "extractive"

    def __init__(self, settings: AnswerSettings, embedder: Embedder | None = None,
                 glossary: Mapping[str, str] | None = None,
                 unit_vectors: UnitVectorLookup | None = None,
                 translator: Translator | None = None) -> None:
        self.settings = settings
        self.glossary = dict(glossary or {})
        self.finder = EvidenceFinder(embedder, settings.max_sentences, unit_vectors, self.glossary,
                                     translator)

    def generate(self, request: GenerationRequest) -> Generation:
        """Quote the chosen units of ``request.sources``, or refuse (see module doc). Never raises."""
        evidence = self.finder.find(request)
        score = answerability(evidence.signals)
        kind = evidence.answer_type.kind
        if not evidence.chosen or not gate(evidence.signals) or score < self.settings.min_answerability:
            log.info("not answerable: %.3f < %.3f (type %s, signals %s)", score,
                     self.settings.min_answerability, kind, dict(evidence.signals))
            text, cited = refusal(evidence, request)
            pages = {u.unit.source: unit_page(request, u.unit) for u in nearest_units(evidence.ranked)}
            return Generation(text, tuple(cited), self.name, found=False, score=score,
                              answerability=score, answer_type=kind, signals=dict(evidence.signals),
                              pages={n: pages.get(n) for n in cited})
        text, cited, spans = self.render(evidence, request)
        log.info("answered: answerability %.3f, type %s, %d units", score, kind, len(evidence.chosen))
        return Generation(text, tuple(cited), self.name, found=True, score=score, answerability=score,
                          answer_type=kind, signals=dict(evidence.signals),
                          pages={n: last for n, (_, last) in spans.items()},
                          first_pages={n: first for n, (first, last) in spans.items() if first != last})

    def assess(self, request: GenerationRequest) -> Assessment:
        """The :class:`Assessment` of ``request`` without writing an answer (for other providers)."""
        evidence = self.finder.find(request)
        return Assessment(answerability(evidence.signals), evidence.answer_type.kind, dict(evidence.signals))

    def evidence(self, request: GenerationRequest) -> Evidence:
        """The :class:`~core.answer.evidence.Evidence` of ``request`` (scored and chosen units)."""
        return self.finder.find(request)

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        """Yield the whole answer text once, then the :class:`Generation`."""
        gen = self.generate(request)
        yield gen.text
        yield gen

    def render(self, evidence: Evidence, request: GenerationRequest
               ) -> tuple[str, list[int], dict[int, tuple[int | None, int | None]]]:
        """The quoted text of the chosen units, the source numbers it cites (in order of use) and the
        pages each cited source is quoted from, ``(first, last)``: the span of every piece its quotes
        show (a unit, its lead-in or column headers, the list items or table rows it brings along),
        so a quote that runs over a page break in either direction is cited with both pages. Each
        chosen unit becomes its quotes (:mod:`core.answer.compose`: with its list, steps or table); a
        unit already quoted is not quoted again, nor a lead-in already shown. A source is cited with
        one page of quotes: a later quote of the same source that starts on another page is left out
        rather than cited with the wrong page."""
        splits = {i: split_units(sc.chunk.text, i) for i, sc in enumerate(request.sources, start=1)}
        typed = (lambda s: s.typed) if evidence.answer_type.needs_value else None
        compare = per_document(list(evidence.ranked), request.sources, request.documents, typed)
        chosen = list(evidence.chosen)
        if len(compare) > 1:  # a comparison: every document's best unit, then the usual picks
            chosen = by_document(compare, chosen, request.sources, request.documents)
        chosen = with_ranged_rows(chosen, evidence.ranked, request, splits)
        intros = {(c.unit.source, c.unit.text) for c in chosen if c.unit.text.endswith(":")}
        relevance = {(s.unit.source, s.unit.position): s.relevance for s in evidence.ranked}
        labels = document_labels([sc.chunk for sc in request.sources])
        label = {i: f"{labels[sc.chunk.path]}: " if len(compare) > 1 else ""
                 for i, sc in enumerate(request.sources, start=1)}
        anchors: dict[int, int | None] = {}
        spans: dict[int, tuple[int | None, int | None]] = {}
        quoted: set[tuple[str, str]] = set()  # (document, text): another document's same words still count
        pieces: list[str] = []
        cited: list[int] = []

        def doc(n: int) -> str:
            return request.sources[n - 1].chunk.path

        for c in chosen:
            if (c.unit.source, c.unit.lead) in intros or (doc(c.unit.source), c.unit.text) in quoted:
                continue
            for i, quote in enumerate(quotes_for(c.unit, request, splits, evidence.answer_type, relevance)):
                n = quote.source
                fresh = tuple(u for u in quote.units if (doc(n), u.text) not in quoted)
                page = unit_page(request, fresh[0]) if fresh else None
                # one page per source for the chosen unit; what it brings along (a table below, its
                # list items) may run onto the next pages: the citation's span widens to cover them
                if not fresh or (i == 0 and anchors.setdefault(n, page) != page):
                    if i == 0:
                        break  # the unit itself cannot be quoted: nor what it brings along
                    continue
                show_lead = bool(quote.lead) and (doc(n), quote.lead) not in quoted
                shown = [lead_page(request, fresh[0]) if show_lead else None,
                         *(unit_page(request, u) for u in fresh)]
                spans[n] = _widen(spans.get(n, (page, page)), [p for p in shown if p is not None])
                quoted.update([*((doc(n), u.text) for u in fresh), (doc(n), quote.lead)])
                pieces.append(label[n] + quote.text(fresh, show_lead))
                cited.append(n)
        cited = list(dict.fromkeys(cited))
        return expand_glossary(" ".join(pieces), self.glossary), cited, {n: spans[n] for n in cited}


def _widen(span: tuple[int | None, int | None], pages: Sequence[int]) -> tuple[int | None, int | None]:
    """``span`` ``(first, last)`` widened to cover ``pages`` (unchanged while its pages are unknown)."""
    first, last = span
    if first is None or last is None:
        return span
    return min([first, *pages]), max([last, *pages])
