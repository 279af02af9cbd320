"""GitHub-flavoured markdown tables (https://github.github.com/gfm/#tables-extension-).

Tables from PDFs (pdfplumber) and DOCX (python-docx) become markdown text so one chunk carries a
whole table, or, when too large, parts that each repeat the header row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from core.tokens import count_tokens
from indexer.extract.normalize import join_number_breaks, nfkc

Row = Sequence[str | None]


def clean_rows(rows: Sequence[Row]) -> list[list[str]]:
    """Normalise cells (NFKC, a number hyphenated at a line end joined, one line, ``|`` escaped), pad
    rows to equal width and drop empty rows and columns. Returns [] when fewer than 2 rows or 2
    columns carry text."""
    cells = [[join_number_breaks(nfkc(c or "")).replace("\n", " ").replace("|", "\\|").strip()
              for c in r] for r in rows]
    width = max((len(r) for r in cells), default=0)
    cells = [r + [""] * (width - len(r)) for r in cells if any(r)]
    keep = [j for j in range(width) if any(r[j] for r in cells)]
    cells = [[r[j] for j in keep] for r in cells]
    if len(cells) < 2 or len(keep) < 2:
        return []
    return cells


Box = tuple[float, float, float, float]
"""(x0, top, x1, bottom) of a table cell, points from the page's top-left corner."""
SPAN_TOLERANCE = 1.0
"""Points by which a merged cell's bottom may fall short of the row it spans (rounding)."""


def carry_down(texts: Sequence[Sequence[str | None]],
               boxes: Sequence[Sequence[Box | None]]) -> list[list[str | None]]:
    """Cell texts with each vertically merged cell's text repeated in every row it spans.

    A table finder that works from ruling lines (pdfplumber's ``lines`` strategy) reports a cell
    once, in its first row, with its full box, and ``None`` in the rows below it that it covers: the
    ruling lines, not the text, say it spans them. ``boxes`` holds those cell boxes (same shape as
    ``texts``); a ``None`` whose column is covered by a cell above reaching down to this row's
    bottom gets that cell's text.
    """
    out = [list(row) for row in texts]
    for r, row in enumerate(boxes):
        bottom = max((b[3] for b in row if b is not None), default=None)
        for j, box in enumerate(row):
            if box is not None or bottom is None:
                continue
            for above in range(r - 1, -1, -1):
                cell = boxes[above][j] if j < len(boxes[above]) else None
                if cell is not None:
                    if cell[3] >= bottom - SPAN_TOLERANCE and j < len(out[above]):
                        out[r][j] = out[above][j]
                    break
    return out


def merge_continuations(rows: list[list[str]]) -> list[list[str]]:
    """Fold PDF continuation rows into the row above: pdfplumber splits a cell's wrapped lines into
    rows of their own when no ruling separates them. A body row whose first cell is empty continues
    the previous body row when that row's last filled cell does not end a sentence."""
    out = [list(r) for r in rows[:2]]
    for row in rows[2:]:
        prev = out[-1]
        tail = next((c for c in reversed(prev) if c), "")
        if not row[0] and len(out) > 1 and tail and not tail.endswith((".", ":", ";")):
            out[-1] = [f"{a} {b}".strip() for a, b in zip(prev, row, strict=True)]
        else:
            out.append(list(row))
    return out


def _line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def header_lines(rows: list[list[str]]) -> list[str]:
    """The header row and the ``| --- |`` delimiter row of ``rows`` (first row is the header)."""
    return [_line(rows[0]), _line(["---"] * len(rows[0]))]


def to_markdown(rows: list[list[str]]) -> str:
    """All of ``rows`` (as returned by :func:`clean_rows`) as one markdown table, its sub-header rows
    folded into the header row (:func:`flatten_header`)."""
    rows = flatten_header(rows)
    return "\n".join(header_lines(rows) + [_line(r) for r in rows[1:]])


LABEL_WORDS = 4
"""Most words of a column label in a sub-header row; a longer cell is content, not a label."""
SUBHEADER_ROWS = 2
"""Most sub-header rows folded into a header."""
_LABEL = re.compile(r"^(?=.*[^\W\d_]{2})(?!\(?(?:[a-z]|[ivx]{1,4}|\d{1,3})[.)]\s)(?![•\-–*])", re.IGNORECASE)
"""A column label: holds a word of two letters or more and does not start with a list marker
("a. …", "(ii) …", "1) …") or a bullet: "Plan A", "Description"; not "a.", "1", "•", "25%"."""


def is_label(cell: str) -> bool:
    """Whether ``cell`` reads as a column label (:data:`_LABEL`, at most :data:`LABEL_WORDS` words)."""
    return 0 < len(cell.split()) <= LABEL_WORDS and _LABEL.match(cell) is not None


def flatten_header(rows: list[list[str]]) -> list[list[str]]:
    """``rows`` with the sub-header rows under a spanning header cell folded into the header row.

    A header cell that spans columns comes out of PDF/DOCX extraction as the cell followed by empty
    ones (``Features | Plans | | ``) and the column labels under it as the next row with an empty
    first cell (`` | Plan A | Plan B | Plan C``). Markdown has one header row, so those labels were
    a body row that a part of a split table lost. As HTML associates a data cell with every header
    cell above it (WCAG H43, ``colspan``/multi-row ``thead``; pandas flattens such a MultiIndex
    the same way), each column's header becomes its spanning label and its own label:
    ``Features | Plans Plan A | Plans Plan B | Plans Plan C``. Only rows of labels
    (:func:`is_label`: words, not list markers, numbers or sentences), at most
    :data:`SUBHEADER_ROWS`, and at least one body row is kept; other tables are returned as they are.
    """
    head = rows[0] if rows else []
    if len(rows) < 3 or not any(c == "" for c in head[1:]) or not head[0]:
        return rows
    count = 0
    for row in rows[1:1 + SUBHEADER_ROWS]:
        if row[0] or not all(is_label(c) for c in row[1:]):
            break
        count += 1
    if count == 0 or count >= len(rows) - 1:
        return rows
    spanned, labels = _spanned(head), rows[1:1 + count]
    merged = [" ".join(dict.fromkeys(p for p in (spanned[j], *(r[j] for r in labels)) if p))
              for j in range(len(head))]
    return [merged, *rows[1 + count:]]


def _spanned(head: Sequence[str]) -> list[str]:
    """Each header cell's text carried right over the empty cells after it (a spanning cell)."""
    out: list[str] = []
    for cell in head:
        out.append(cell or (out[-1] if out else ""))
    return out


def split_markdown_table(table: str, fits: Callable[[str], bool]) -> list[str]:
    """Split a markdown table into parts for which ``fits(part)`` holds; every part starts with the
    header and delimiter rows. A single body row that is still too large is returned alone (the
    chunker splits it as text).

    Args:
        table: markdown table text (header line, delimiter line, body lines).
        fits: predicate on a candidate part, e.g. "at most N tokens".
    """
    if fits(table):
        return [table]
    lines = table.split("\n")
    head, body = lines[:2], lines[2:]
    parts: list[str] = []
    current: list[str] = []
    for row in body:
        candidate = "\n".join(head + current + [row])
        if current and not fits(candidate):
            parts.append("\n".join(head + current))
            current = []
        current.append(row)
    if current:
        parts.append("\n".join(head + current))
    return parts


def within_tokens(max_tokens: int) -> Callable[[str], bool]:
    """Predicate "at most ``max_tokens`` cl100k tokens" for :func:`split_markdown_table`."""
    return lambda text: count_tokens(text) <= max_tokens


_LEADING_NUMBER = re.compile(r"^(\d+)[.)]\s")


def column_list_text(table: str) -> str | None:
    """A markdown "table" that is really a numbered list laid out in two columns (items 1–9 on the
    left, 10–17 on the right: ``family_medicare.pdf`` p13), as the list in reading order — left
    column then right column, one item per line; ``None`` for any other table."""
    rows = [line[2:-2].split(" | ") for line in table.split("\n")]
    rows = [rows[0], *rows[2:]]
    if any(len(r) != 2 for r in rows):
        return None
    columns = [[r[j] for r in rows if r[j]] for j in range(2)]
    numbers = [[_LEADING_NUMBER.match(c) for c in col] for col in columns]
    if not all(numbers[0]) or not all(numbers[1]) or not columns[1]:
        return None
    left = [int(m.group(1)) for m in numbers[0] if m]
    right = [int(m.group(1)) for m in numbers[1] if m]
    if left != sorted(left) or right != sorted(right) or right[0] <= left[-1]:
        return None
    return "\n".join(columns[0] + columns[1])


_VALUE = re.compile(r"\d")


def continued_table(previous: str, table: str) -> str | None:
    """``table`` with ``previous``'s header, when ``table`` continues ``previous`` over a page break;
    ``None`` otherwise. Both are markdown tables (header, delimiter, body rows).

    A table that runs onto the next page comes out of page-by-page extraction as two tables, and
    when the document does not repeat the header on the new page the new part's first *data* row
    is taken for its header (``Loss of a finger | 5%``): its rows lose their column names and that
    row is read as column labels. ``table`` continues ``previous`` when it has the same number of
    columns, ``previous``'s header names every column (no empty cell: a header with blank cells may
    itself be a part or a sub-header, and repeating it says nothing), ``table``'s first row differs
    from it and holds a figure in a cell after the first (a header names columns; a data row carries
    values), the continued-table rule of PDF table
    extraction (a header repeats or is absent on a continuation page; Camelot / Tabula join such
    parts by column count). The caller checks that ``previous`` ends one page and ``table`` starts
    the next."""
    old, new = previous.split("\n"), table.split("\n")
    if len(old) < 2 or len(new) < 2:
        return None
    head, first = _cells(old[0]), _cells(new[0])
    if len(head) != len(first) or first == head or not all(head) \
            or not any(_VALUE.search(c) for c in first[1:]):
        return None
    return "\n".join([*old[:2], new[0], *new[2:]])


def _cells(line: str) -> list[str]:
    body = line.strip().removeprefix("|").removesuffix("|")
    return [c.strip() for c in re.split(r"(?<!\\)\|", body)]
