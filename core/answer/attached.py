"""What a quoted unit brings along: the table it points at, the rest of its list, its sibling steps.

An answer unit is often not a whole answer on its own (issue 11, item 9: "the key number in a table
row is missed while a sentence pointing at 'the table below' is quoted"). Three cases, each the
extractive answerer's version of keeping a lead-in with what it introduces:

* **a table after its lead-in** (:func:`attached_rows`): a unit that points at a table ("as mentioned
  in the table below", "as per the grid below", "as under") and has one within :data:`MAX_GAP` units
  after it (a heading in between ends the search), or — for a question that needs a value — a unit
  directly followed by a table (its caption), brings that table's rows. The rows are those whose
  label cell (first cell) is a range holding a quantity the question states ("a 40k salary" →
  "30,001 to 50,000", "9 nights" → "Above 7": :func:`label_range`), at most two, else the
  whole table when it has at most :data:`TABLE_LIMIT` rows, else its :data:`TABLE_LIMIT` most
  relevant rows. Rows are quoted with their column headers (WCAG H43, header–cell association). A
  pointing unit whose rows hold a value of the asked type counts as holding one
  (:func:`core.answer.evidence.typed_by_table`);
* **a list cut by a chunk boundary** (:func:`continued_items`): a lead-in ending with ":" whose list
  runs to the end of its chunk continues in the document's next chunk (``ordinal + 1``) when that chunk
  is among the sources: its first items whose lead-in is the same (chunk overlap repeats the lead-in),
  or — when the next chunk starts inside the list without repeating its lead-in — the items there
  with no lead-in whose markers number on from the last quoted one ("c." after "b.", "3." after
  "2.": :func:`numbers_on`; not from a table chunk: a table running over a page break can carry the
  wrong page, and the quote would be cited with it), are quoted after the ones of the first chunk,
  each cited with its own page (``page_breaks``);
* **a procedure's steps** (:func:`sibling_items`): for a question asking what to do
  (:mod:`core.answer.answer_type` ``procedure``) answered by a list item, the items of its list, in
  order — the steps, not one of them.

A table or list that runs on past the next chunk is cut there (chunk overlap repeats the units
both chunks share; they are quoted once).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from core.answer.sentences import Unit, is_heading, marker_kind
from core.answer.table_cells import cells
from core.llm.base import GenerationRequest
from core.references import is_table_chunk
from core.text import quantities

POINTER = re.compile(
    r"\b(?:table|grid|chart|schedule|matrix)\s+(?:below|hereunder|hereinbelow|that follows)\b"
    r"|\b(?:below|following)\s+(?:table|grid|chart|matrix)\b|\bas\s+(?:under|follows)\s*[:;.]?$",
    re.IGNORECASE)
"""A unit that points at a table after it."""
MAX_GAP = 8
"""Units at most between a pointing unit and its table (short title lines not counted); a heading
in between ends the search (the table belongs to another section)."""
TABLE_LIMIT = 5
"""Rows at most quoted from an attached table."""
_ABOVE = re.compile(r"^\s*(?:>|above|over|more than|greater than|exceeding)"
                    r"|(?:and|or)\s+(?:above|more|over)\s*$|\+\s*$", re.IGNORECASE)
_BELOW = re.compile(r"^\s*(?:<|below|under|up\s*to|upto|less than|not exceeding)"
                    r"|(?:and|or)\s+(?:below|less|under)\s*$", re.IGNORECASE)
_OPEN = re.compile(r"^\s*(?:[<>]|(?:above|below|more than|less than|greater than|over|under|exceeding)\b)",
                   re.IGNORECASE)

Splits = Mapping[int, Sequence[Unit]]
"""Source number (1-based) → its units (:func:`core.answer.sentences.split_units`), all of them."""


def label_range(cell: str) -> tuple[float, float] | None:
    """The interval a table's label cell states, ``(low, high)``, ``None`` when it states none:
    "30,001 to 50,000" → (30001, 50000); ">2,00,000 to 9,00,000" → (200000, 900000); "Above 7" →
    (7 + ε, ∞); "400 or below" / "Upto 2,00,000" → (−∞, 400) / (−∞, 200000); "< Rs. 3 Lacs" →
    (−∞, 300000 − ε); "Rs. 3 Lacs and Above" → (300000, ∞). A bare number is no range."""
    values = [q.value for q in quantities(cell) if q.unit != "ordinal"]
    if len(values) == 2 and re.search(r"\d\s*(?:to|-|–|and)\s*\D{0,6}\d", cell):
        return min(values), max(values)
    if len(values) != 1:
        return None
    v = values[0]
    strict = _OPEN.match(cell) is not None
    if _ABOVE.search(cell):
        return (math.nextafter(v, math.inf) if strict else v), math.inf
    if _BELOW.search(cell):
        return -math.inf, (math.nextafter(v, -math.inf) if strict else v)
    return None


def in_range_rows(question: str, rows: Sequence[Unit]) -> list[Unit]:
    """The rows of ``rows`` whose label cell's range holds a quantity the question states."""
    asked = [q.value for q in quantities(question) if q.unit != "ordinal"]
    out = []
    for row in rows:
        span = label_range(cells(row.text)[0]) if asked else None
        if span is not None and any(span[0] <= a <= span[1] for a in asked):
            out.append(row)
    return out


def following(request: GenerationRequest, splits: Splits, unit: Unit) -> list[Unit]:
    """The units after ``unit`` in its chunk, then the units of the document's next chunk
    (``ordinal + 1``, when it is one of ``request.sources``) that the first does not repeat."""
    own = list(splits[unit.source])[unit.position + 1:]
    chunk = request.sources[unit.source - 1].chunk
    nxt = next((i for i, sc in enumerate(request.sources, start=1)
                if sc.chunk.path == chunk.path and sc.chunk.ordinal == chunk.ordinal + 1), None)
    if nxt is None:
        return own
    seen = {u.text for u in splits[unit.source]}
    return own + [u for u in splits[nxt] if u.text not in seen]


def attached_rows(request: GenerationRequest, splits: Splits, unit: Unit, needs_value: bool,
                  relevance: Mapping[tuple[int, int], float] | None = None) -> list[Unit]:
    """The table rows ``unit`` brings along (see the module doc), in table order; ``[]`` when it
    points at no table. Rows carry their own source (a table in the next chunk is cited there)."""
    pointing = POINTER.search(unit.text) is not None
    if unit.kind == "row" or not (pointing or needs_value):
        return []
    rows: list[Unit] = []
    gap = 0
    for u in following(request, splits, unit):
        if u.kind == "row":
            if rows and u.source != rows[-1].source:
                break
            rows.append(u)
            continue
        if rows or not pointing or u.kind in ("heading", "item"):  # a caption's table follows it
            break  # directly; a list in between means the unit introduced that list, not a table
        gap += 0 if is_heading(u) else 1
        if gap > MAX_GAP:
            break
    body = [r for r in rows if r.lead]  # the header row is each row's lead
    if not body:
        return []
    matched = in_range_rows(request.question, body)
    if matched:
        return matched[:2]
    if len(body) <= TABLE_LIMIT:
        return body
    rel = relevance or {}
    best = sorted(body, key=lambda r: -rel.get((r.source, r.position), 0.0))[:TABLE_LIMIT]
    return sorted(best, key=lambda r: (r.source, r.position))


def continued_items(request: GenerationRequest, splits: Splits, intro: Unit, own: Sequence[Unit],
                    limit: int) -> list[Unit]:
    """Items of ``intro``'s list in the document's next chunk (see the module doc), when its list
    (``own``: its items in its chunk) runs to the end of its chunk; at most ``limit`` in all."""
    units = splits[intro.source]
    last = own[-1].position if own else intro.position
    if last != len(units) - 1 or len(own) >= limit:
        return []
    shown = {u.text for u in own}
    out: list[Unit] = []
    marked = [u.text for u in own if marker_kind(u.text)]
    for u in following(request, splits, units[last]):
        if u.text in shown or u.text == intro.text:
            continue
        if is_heading(u) and not marker_kind(u.text):  # a title: skipped before the items, ends them after
            if out:
                break
            continue
        numbered_on = u.source != intro.source and not u.lead and bool(marked) and \
            numbers_on(marked[-1], u.text) and not is_table_chunk(request.sources[u.source - 1].chunk.text)
        if u.kind == "item" and (u.lead == intro.text or numbered_on):
            marked += [u.text] if marker_kind(u.text) else []
            out.append(u)
            if len(own) + len(out) >= limit:
                break
            continue
        break
    return out


_MARKER = re.compile(r"^\s*\(?(?:(?P<alpha>[a-z])|(?P<num>\d{1,2}))[.)]\s", re.IGNORECASE)


def numbers_on(previous: str, text: str) -> bool:
    """Whether the list marker of ``text`` is the one after ``previous``'s: "c." after "b.",
    "3." after "2.", "(d)" after "(c)"; single letters and one-level numbers only (roman numerals
    are ambiguous with letters: "i." after "h.")."""
    a, b = _MARKER.match(previous), _MARKER.match(text)
    if a is None or b is None:
        return False
    if a.group("num") and b.group("num"):
        return int(b.group("num")) == int(a.group("num")) + 1
    if a.group("alpha") and b.group("alpha"):
        return ord(b.group("alpha").lower()) == ord(a.group("alpha").lower()) + 1
    return False


def sibling_items(splits: Splits, item: Unit, limit: int) -> list[Unit]:
    """The items of ``item``'s list (the same lead-in, in its chunk), in order, at most ``limit``
    around it; ``[item]`` when it has no lead-in."""
    if item.kind != "item" or not item.lead:
        return [item]
    same = [u for u in splits[item.source] if u.kind == "item" and u.lead == item.lead]
    if len(same) <= limit:
        return same
    at = next(i for i, u in enumerate(same) if u.position == item.position)
    start = max(0, min(at - limit // 2, len(same) - limit))
    return same[start:start + limit]
