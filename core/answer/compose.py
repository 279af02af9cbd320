"""Answer composition: the quotes one chosen answer unit becomes.

A chosen unit (:func:`core.answer.evidence.choose`) is quoted as:

* a list item or table row after its lead-in or column headers ("lead … item");
* a lead-in ending with ":" with its items (up to :data:`LIST_LIMIT`), and, when the list runs on
  into the document's next chunk, the items there (:func:`core.answer.attached.continued_items`);
* for a procedure question, a list item with the other steps of its list
  (:func:`core.answer.attached.sibling_items`);
* then the table it points at or captions, its rows under their column headers
  (:func:`core.answer.attached.attached_rows`), rows joined by " … "; or, when it names a table of
  its document ("the limit stated in the Table of Benefits"), that table's rows about the question
  among the sources (:func:`core.answer.referred.referred_rows`).

Each :class:`Quote` is cited with one source; :class:`core.answer.extractive.ExtractiveAnswerer`
renders them and checks their pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from core.answer.answer_type import AnswerType
from core.answer.attached import Splits, attached_rows, continued_items, sibling_items
from core.answer.referred import referred_rows
from core.answer.sentences import Unit, list_items
from core.llm.base import GenerationRequest

LIST_LIMIT = 8
"""Items quoted after a chosen lead-in that ends with ":" (and steps of a procedure)."""


@dataclass(frozen=True)
class Quote:
    """One quoted passage: ``units`` of source ``source`` (1-based), shown after ``lead`` (a list
    lead-in or a table's column headers, ``""`` for none) and joined by ``joiner``."""

    source: int
    units: tuple[Unit, ...]
    lead: str = ""
    joiner: str = " "

    def text(self, units: tuple[Unit, ...] | None = None, lead: bool = True) -> str:
        """The quote as shown, with its source marker: ``"lead … body [n]"`` (``lead`` False: an
        answer that showed this lead-in already goes on with the body)."""
        body = self.joiner.join(u.text for u in (self.units if units is None else units))
        return f"{self.lead} … {body} [{self.source}]" if self.lead and lead else f"{body} [{self.source}]"


def quotes_for(unit: Unit, request: GenerationRequest, splits: Splits, atype: AnswerType,
               relevance: Mapping[tuple[int, int], float]) -> list[Quote]:
    """The quotes ``unit`` becomes (see the module doc), the unit's own first; ``atype``: what the
    question asks for (:func:`core.answer.answer_type.classify`)."""
    units = list(splits[unit.source])
    lead = unit.lead if unit.kind in ("item", "row") else ""
    if unit.kind == "item" and lead and atype.kind == "procedure" and not unit.text.endswith(":"):
        out = [Quote(unit.source, tuple(sibling_items(splits, unit, LIST_LIMIT)), lead)]
    elif unit.text.endswith(":"):
        items = list_items(units, unit, LIST_LIMIT)
        out = [Quote(unit.source, (unit, *items), lead)]
        more = continued_items(request, splits, unit, items, LIST_LIMIT)
        if more:
            out.append(Quote(more[0].source, tuple(more)))
    else:
        out = [Quote(unit.source, (unit,), lead)]
    rows = (attached_rows(request, splits, unit, atype.needs_value, relevance)
            or referred_rows(request, splits, unit, atype, relevance))
    if rows:
        out.append(Quote(rows[0].source, tuple(rows), rows[0].lead, " … "))
    return out
