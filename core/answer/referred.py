"""Table rows an answer brings along from elsewhere in its sources.

:mod:`core.answer.attached` quotes the table right after a unit ("the table below"). Two more cases
where the answer's value sits in a table row that is among the sources but not next to the unit the
answer quotes:

* **a table named elsewhere in the document** (:func:`referred_rows`): a unit that defers to a table
  by name ("subject to the limit stated in the Table of Benefits", "as shown in the benefit
  schedule": :func:`core.references.table_reference`) brings the rows of that table among the
  sources (the chunks reference following added for it, :mod:`core.references`, or that carry its
  caption or repeat that chunk's column headers) which are about what the question asks: rows whose
  label cell shares a content word with the question, at most :data:`REFERRED_LIMIT`, best first by
  the answerer's unit relevance; for a question that needs a value, only rows holding a value of the
  asked type. Quoted under their column headers (WCAG H43), as for a table below;
* **a stated quantity inside a row's range** (:func:`ranged_rows`): a question that states a quantity
  ("12k steps a day", "a 5 lakh sum insured") gets the rows of its answering document's tables whose
  label cell is a range holding it (:func:`core.answer.attached.label_range`: "Above 10000",
  ">3,00,000 to 15,00,000"), wherever in the sources they are — also when the answer's first unit is
  a sentence near the table rather than one pointing at it. At most :data:`RANGED_LIMIT`, in
  source order.

Both return :class:`~core.answer.sentences.Unit` rows (each with its own source), which the
answerer quotes like the rows of a table below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.answer.answer_type import AnswerType, satisfies
from core.answer.attached import Splits, in_range_rows, label_range
from core.answer.evidence import ScoredUnit
from core.answer.sentences import Unit
from core.answer.table_cells import cells, typed_row
from core.llm.base import GenerationRequest
from core.references import captioned, header_row, is_table_chunk, table_reference
from core.text import content_terms, quantities

REFERRED_LIMIT = 2
"""Rows at most quoted from a table a unit names."""
RANGED_LIMIT = 2
"""Rows at most quoted because their label range holds a quantity the question states."""


def referred_sources(request: GenerationRequest, unit: Unit, name: str) -> list[int]:
    """Source numbers (1-based) holding the table named ``name`` of ``unit``'s document: table chunks
    other than the unit's own that reference following added, that carry the caption ``name``, or
    that repeat the column headers of such a captioned chunk."""
    own = request.sources[unit.source - 1].chunk
    same = [(i, sc) for i, sc in enumerate(request.sources, start=1)
            if sc.chunk.path == own.path and i != unit.source and is_table_chunk(sc.chunk.text)]
    headers = {header_row(sc.chunk.text) for _, sc in same if captioned(sc.chunk.text, name)}
    return [i for i, sc in same
            if "reference" in sc.scores or header_row(sc.chunk.text) in headers]


def referred_rows(request: GenerationRequest, splits: Splits, unit: Unit, atype: AnswerType,
                  relevance: Mapping[tuple[int, int], float]) -> list[Unit]:
    """The rows of the table ``unit`` names that are about the question (module doc), in table
    order; ``[]`` when ``unit`` is a row, names no table, or none of its rows qualifies. Words of the
    document's title (the chunk context's first part) do not make a row about the question: "the
    National … Policy" would match every row labelled "National …"."""
    ref = table_reference(unit.text) if unit.kind != "row" else None
    if ref is None or not ref.name:
        return []
    own = request.sources[unit.source - 1].chunk
    title = set(content_terms(own.context.split(" — ")[0])) if own.context else set()
    asked = set(content_terms(request.question, question=True)) - title
    rows = [u for n in referred_sources(request, unit, ref.name) for u in splits[n]
            if u.kind == "row" and u.lead and asked & set(content_terms(cells(u.text)[0]))
            and satisfies(typed_row(u.lead, u.text), atype)]
    best = sorted(rows, key=lambda r: -relevance.get((r.source, r.position), 0.0))[:REFERRED_LIMIT]
    return sorted(best, key=lambda r: (r.source, r.position))


def ranged_rows(request: GenerationRequest, splits: Splits, path: str,
                shown: Sequence[Unit]) -> list[Unit]:
    """The table rows of document ``path`` among the sources whose label range holds a quantity the
    question states (module doc), not already in ``shown``; in source order. A row whose column
    headers did not come with it (a table continued in this chunk) counts too."""
    have = {(u.source, u.position) for u in shown}
    rows = [u for n, sc in enumerate(request.sources, start=1) if sc.chunk.path == path
            for u in splits[n] if u.kind == "row" and (u.source, u.position) not in have]
    out: list[Unit] = []
    for row in in_range_rows(request.question, rows):
        if row.text not in {r.text for r in out} and _units_agree(request.question, cells(row.text)[0]):
            out.append(row)
    return out[:RANGED_LIMIT]


def _units_agree(question: str, label: str) -> bool:
    """Whether a quantity of ``question`` inside ``label``'s range has the label's unit when the label
    states one ("one of my kidneys" is no quantity for "Upto one month"; "12k" fits "Above 10000")."""
    span = label_range(label)
    units = {q.unit for q in quantities(label) if q.unit and q.unit != "ordinal"}
    return span is not None and any(
        span[0] <= q.value <= span[1] and (not units or q.unit in units)
        for q in quantities(question) if q.unit != "ordinal")


def with_ranged_rows(chosen: Sequence[ScoredUnit], ranked: Sequence[ScoredUnit],
                     request: GenerationRequest, splits: Splits) -> list[ScoredUnit]:
    """``chosen`` with the :func:`ranged_rows` of the answering unit's document (as scored in
    ``ranked``) right after the answering unit; ``list(chosen)`` when there are none."""
    if not chosen:
        return []
    path = request.sources[chosen[0].unit.source - 1].chunk.path
    rows = {(u.source, u.position) for u in ranged_rows(request, splits, path, [c.unit for c in chosen])}
    extra = [s for s in ranked if (s.unit.source, s.unit.position) in rows]
    return [chosen[0], *extra, *chosen[1:]]
