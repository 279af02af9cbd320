"""Reading order of two-column pages: find a vertical gutter, read the left column, then the right.

pypdf returns text in content-stream order; a page whose stream draws both columns line by line comes
out interleaved ("4. Cataract 13. Calculus diseases 5. …", ``family_medicare.pdf`` p13). This module
works on the page's text rectangles from PDFium (``FPDFText_CountRects``, one per run of text on a
line; ~3 ms a page) in top-down coordinates:

1. rectangles are grouped into lines (vertical overlap);
2. consecutive lines form a *band* while they share a free vertical strip of at least
   :data:`MIN_GUTTER` points in the middle half of the page (a line that spans it, such as a
   full-width paragraph or a table title, ends the band); a line on one side only that sits more than
   :data:`END_GAP_LINES` line heights below the other side's last line also ends it (the text after
   the columns);
3. a band is *two-column* when both sides hold at least :data:`MIN_COLUMN_LINES` lines, comparable
   line counts (:data:`MIN_SIDE_RATIO`), a line wider than :data:`MARKER_WIDTH` line heights (not
   a hanging indent of list markers) and it does not look like a two-column table (rows aligned on
   one baseline and short, ragged cells).

The result is a list of page regions in reading order; the caller reads each region's text (PDFium
``FPDFText_GetBoundedText``). The idea is a simplified recursive XY-cut (G. Nagy and S. Seth,
"Hierarchical representation of optically scanned documents", ICPR 1984) with one vertical cut.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

MIN_GUTTER = 10.0
"""Points (1/72 in) of free width between columns; word gaps are ~3 pt."""
MIN_COLUMN_LINES = 3
END_GAP_LINES = 2.0
MIN_SIDE_RATIO = 0.4
"""The sparser side must hold this share of the denser side's lines: short labels beside long text
(a definition layout: terms on the left, long definitions on the right) are read row by row,
not as columns."""
MARKER_WIDTH = 3.0
"""Widest line of a side, in line heights (~em), below which the side holds only list markers or
clause numbers hung left of their text ("i." "ii." "iii." beside wrapped items): a hanging indent, read
row by row, never a column (a column of text has lines of many words)."""
ALIGNED_TABLE_SHARE = 0.8
"""Share of the shorter column's lines sharing a baseline with the other column above which a
ragged band is read as a table (row by row, as extracted) rather than as columns."""


@dataclass(frozen=True)
class Box:
    """A text rectangle in top-down page coordinates (points; ``top`` < ``bottom``)."""

    x0: float
    top: float
    x1: float
    bottom: float


@dataclass
class Line:
    """Boxes on one text line."""

    boxes: list[Box]
    top: float
    bottom: float

    def covers(self, x0: float, x1: float) -> bool:
        """Some box overlaps the strip [x0, x1]."""
        return any(b.x0 < x1 and b.x1 > x0 for b in self.boxes)


@dataclass
class Band:
    """Consecutive lines; ``gutter`` is the free strip (x0, x1) they share, if any."""

    lines: list[Line] = field(default_factory=list)
    gutter: tuple[float, float] | None = None
    two_column: bool = False


def group_lines(boxes: list[Box]) -> list[Line]:
    """Boxes grouped into lines, top to bottom: a box joins a line it overlaps by ≥ half its height."""
    lines: list[Line] = []
    for box in sorted(boxes, key=lambda b: (b.top, b.x0)):
        height = max(box.bottom - box.top, 0.1)
        for line in reversed(lines[-3:]):
            if min(line.bottom, box.bottom) - max(line.top, box.top) >= 0.5 * height:
                line.boxes.append(box)
                line.top, line.bottom = min(line.top, box.top), max(line.bottom, box.bottom)
                break
        else:
            lines.append(Line([box], box.top, box.bottom))
    return lines


def reading_regions(boxes: list[Box], width: float, height: float) -> list[Box] | None:
    """Regions of the page in reading order, or ``None`` when no band is two-column.

    Args:
        boxes: the page's text rectangles (top-down coordinates, points).
        width, height: page size in points.
    """
    lines = group_lines(boxes)
    if not lines:
        return None
    bands = split_bands(lines, width)
    if not any(b.two_column for b in bands):
        return None
    bands = [part for band in bands for part in _split_lines(band)]
    regions: list[Box] = []
    edges = [0.0] + [(a.lines[-1].bottom + b.lines[0].top) / 2 for a, b in zip(bands, bands[1:],
                                                                                strict=False)] + [height]
    for band, top, bottom in zip(bands, edges, edges[1:], strict=False):
        if band.two_column and band.gutter is not None:
            mid = sum(band.gutter) / 2
            regions += [Box(0.0, top, mid, bottom), Box(mid, top, width, bottom)]
        else:
            regions.append(Box(0.0, top, width, bottom))
    return regions


def _split_lines(band: Band) -> list[Band]:
    """A one-column band as one band per line: read top to bottom even when the content stream draws
    a footer first (PDFium's bounded text follows the stream within a region)."""
    return [band] if band.two_column else [Band([line]) for line in band.lines]


def split_bands(lines: list[Line], width: float) -> list[Band]:
    """Greedy split of ``lines`` into bands sharing a middle gutter; marks two-column bands."""
    zone = (0.25 * width, 0.75 * width)
    line_height = statistics.median(ln.bottom - ln.top for ln in lines)
    bands: list[Band] = []
    current = Band()
    for line in lines:
        free = _narrow(current.gutter if current.lines else zone, line)
        if current.lines and current.gutter is not None and free is not None \
                and not _after_columns(current, line, free, line_height):
            current.lines.append(line)
            current.gutter = free
        elif current.lines and current.gutter is None and _narrow(zone, line) is None:
            current.lines.append(line)
        else:
            if current.lines:
                bands.append(current)
            current = Band([line], _narrow(zone, line))
    bands.append(current)
    for band in bands:
        band.two_column = _is_two_column(band)
    return bands


def _narrow(strip: tuple[float, float] | None, line: Line) -> tuple[float, float] | None:
    """The widest part of ``strip`` no box of ``line`` covers, if at least :data:`MIN_GUTTER` wide."""
    if strip is None:
        return None
    lo, hi = strip
    cuts = sorted((max(b.x0, lo), min(b.x1, hi)) for b in line.boxes if b.x0 < hi and b.x1 > lo)
    best: tuple[float, float] | None = None
    start = lo
    for x0, x1 in [*cuts, (hi, hi)]:
        if x0 - start >= MIN_GUTTER and (best is None or x0 - start > best[1] - best[0]):
            best = (start, x0)
        start = max(start, x1)
    return best


def _sides(line: Line, mid: float) -> tuple[bool, bool]:
    return any(b.x1 <= mid for b in line.boxes), any(b.x0 >= mid for b in line.boxes)


def _after_columns(band: Band, line: Line, free: tuple[float, float], line_height: float) -> bool:
    """``line`` is on one side only and far below the other side's last line (text after the
    columns, e.g. the next table title)."""
    mid = sum(free) / 2
    left, right = _sides(line, mid)
    if left == right:
        return False
    other = [ln.bottom for ln in band.lines if _sides(ln, mid)[1 if left else 0]]
    return bool(other) and line.top - max(other) > END_GAP_LINES * line_height


def _is_two_column(band: Band) -> bool:
    if band.gutter is None:
        return False
    mid = sum(band.gutter) / 2
    sides = [_sides(ln, mid) for ln in band.lines]
    n_left, n_right = sum(s[0] for s in sides), sum(s[1] for s in sides)
    fewer, more = sorted((n_left, n_right))
    if fewer < MIN_COLUMN_LINES or fewer < MIN_SIDE_RATIO * more or _markers_only(band, mid):
        return False
    aligned = sum(1 for s in sides if s[0] and s[1]) / min(n_left, n_right)
    return aligned < ALIGNED_TABLE_SHARE or (_filled(band, mid, True) and _filled(band, mid, False))


def _filled(band: Band, mid: float, left: bool) -> bool:
    """The side's lines mostly run the column's full width (prose), unlike ragged table cells."""
    widths = []
    for ln in band.lines:
        xs = [b for b in ln.boxes if (b.x1 <= mid if left else b.x0 >= mid)]
        if xs:
            widths.append(max(b.x1 for b in xs) - min(b.x0 for b in xs))
    return bool(widths) and statistics.median(widths) >= 0.6 * max(widths)


def _markers_only(band: Band, mid: float) -> bool:
    """One side of ``mid`` holds nothing wider than :data:`MARKER_WIDTH` line heights: list markers
    hung left of their items, not a column."""
    height = statistics.median(ln.bottom - ln.top for ln in band.lines)
    for left in (True, False):
        widths = [max(b.x1 for b in xs) - min(b.x0 for b in xs) for ln in band.lines
                  if (xs := [b for b in ln.boxes if (b.x1 <= mid if left else b.x0 >= mid)])]
        if widths and max(widths) < MARKER_WIDTH * height:
            return True
    return False
