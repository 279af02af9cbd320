"""Table rows read cell by cell: a row's values with the units its column headers state, and plan /
grade identifiers found as a cell under their column.

Extracted tables are GitHub-markdown rows (``| Grade | City | Daily allowance (EUR) |`` then
``| A | Munich | 45 |``). A cell often holds a bare number whose unit is in its column header, and
the identifier a question names ("grade A") is split between the header ("Grade") and the cell
("A"). Reading a row with its header (the header-cell association of HTML tables, WCAG H43) lets the
answer-type check see "EUR 45" and the identifier check see "Grade: A".
"""

from __future__ import annotations

import re

from core.text import CURRENCIES, DURATION_UNITS, UNITS

_PAREN = re.compile(r"\(\s*(?:in\s+)?([^()]{1,15}?)\s*\)|\bin\s+([^\s()]{1,10})\s*$", re.IGNORECASE)
"""A header's unit: "(EUR)", "(in days)", "… in ₹"."""
_NUMBER_CELL = re.compile(r"^[\d.,]+$")
_IDENT = re.compile(r"^(\w+)[\s-]+(\S+)$")


def cells(line: str) -> list[str]:
    """The cells of a markdown table row, stripped (outer pipes dropped):
    ``"| A | 45 |"`` → ``["A", "45"]``."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    return [c.strip() for c in body.split("|")]


def header_unit(cell: str) -> tuple[str, str] | None:
    """``("before", marker)`` for a currency header ("Daily allowance (EUR)", "Amount in ₹"),
    ``("after", unit)`` for a unit one ("Waiting period (months)", "Co-pay (%)"), else ``None``."""
    words = [w.lower() for w in re.findall(r"[^\s()/]+", cell)]
    currency = next((w for w in words if w in CURRENCIES and w != "`"), None)
    if currency is not None:
        return "before", currency
    m = _PAREN.search(cell)
    unit = (m.group(1) or m.group(2) or "").lower() if m else ""
    if unit in ("%", "percent", "per cent") or unit in UNITS and UNITS[unit] in DURATION_UNITS:
        return "after", unit
    return None


def typed_row(header: str, row: str) -> str:
    """``row`` read with its ``header``: "Grade: A; City: Munich; Daily allowance (EUR): EUR 45" — a
    number-only cell carries its column's currency before it or unit after it. When the header and the
    row do not have the same number of cells, ``"{header} {row}"``."""
    heads, values = cells(header), cells(row)
    if len(heads) != len(values) or len(heads) < 2:
        return f"{header} {row}".strip()
    out = []
    for head, value in zip(heads, values, strict=True):
        unit = header_unit(head) if _NUMBER_CELL.match(value) else None
        if unit is not None:
            value = f"{unit[1]} {value}" if unit[0] == "before" else f"{value} {unit[1]}"
        out.append(f"{head}: {value}" if head else value)
    return "; ".join(out)


def identifier_in_table(identifier: str, text: str) -> bool:
    """Whether ``identifier`` ("grade A", "Plan B") is a table cell of ``text`` under a column whose
    header names its keyword ("Grade", "Plan type") — merged cells are carried down by extraction, so
    every row of the group holds it."""
    m = _IDENT.match(identifier.strip())
    if m is None:
        return False
    keyword = re.compile(rf"\b{re.escape(m.group(1))}s?\b", re.IGNORECASE)
    ident = m.group(2).casefold()
    columns: list[int] = []
    header_seen = False
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            header_seen, columns = False, []
            continue
        row = cells(line)
        if not header_seen:
            header_seen, columns = True, [i for i, c in enumerate(row) if keyword.search(c)]
        elif any(i < len(row) and row[i].casefold() == ident for i in columns):
            return True
    return False
