"""Tables of PDF pages: pdfplumber finds the ruling, PDFium reads the cells.

A cell the ruling merges over several rows is read once and carried down to each row it spans
(:func:`~indexer.extract.tables.carry_down`), so every row reads whole ("| A | Munich | 45 |").

pdfplumber (https://github.com/jsvine/pdfplumber) finds tables from ruling lines, but it parses every
character of the page through pdfminer first (~0.2 s a page here), although its default ``lines``
strategy builds the table grid from painted lines and rectangles only
(https://github.com/jsvine/pdfplumber#table-extraction-settings). So the page's content stream is
handed to pdfminer with its text objects (``BT`` … ``ET``) removed: the grid is found from the
paths alone (same table boxes as from the full page on all 182 ruled corpus pages, at ~0.05 s a page)
and each cell's text (and the text between tables) is read from PDFium's text of the page, with its
word gaps repaired as for every other page (:mod:`.pdfium_text`): the characters whose loose box's
centre lies in the cell, as pdfplumber takes a cell's characters. Rotated pages keep the full
pdfplumber path (:mod:`indexer.extract.pdf`): PDFium's text order runs against the text direction there.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from indexer.extract.pdf_objects import TEXT_OBJECT
from indexer.extract.pdfium_page import clean_pdfium_text
from indexer.extract.pdfium_text import char_boxes, spaced_text
from indexer.extract.tables import carry_down, clean_rows, merge_continuations

log = logging.getLogger(__name__)

RECT_CLIP = re.compile(rb"\bq\s+(?:(?:[-+]?[\d.]+\s+){4}re\s+)+W\*?\s+n\b")
"""A rectangle clip right after ``q`` (``q x y w h re W n``): paints nothing (§8.5.4), and pdfminer does
not clip, so dropping it (keeping the ``q``) leaves the same paths; 40 % of the tokens left on the
corpus's ruled pages once text objects are gone."""

BBox = tuple[float, float, float, float]
"""(x0, top, x1, bottom) in points from the page's top-left corner (pdfplumber's convention)."""


@dataclass(frozen=True)
class Grid:
    """One table found on a page: its box and, per row, the box of each cell (None: no cell there)."""

    bbox: BBox
    rows: list[list[BBox | None]]


def find_grids(path: Path, pages: list[int]) -> dict[int, list[Grid]]:
    """Table grids of the pages (0-based) in ``pages``, found by pdfplumber from their paths only;
    pages without a table are absent.

    Raises:
        Exception: whatever pdfminer raises on a damaged file (the caller records a warning).
    """
    import pdfplumber

    found: dict[int, list[Grid]] = {}
    with pdfplumber.open(path, password="") as pdf:
        for i in pages:
            page = pdf.pages[i]
            _strip_text(page)
            grids = [Grid(_box(t.bbox), [[_box(c) if c else None for c in row.cells] for row in t.rows])
                     for t in page.find_tables()]
            if grids:
                found[i] = grids
    return found


def _strip_text(page: Any) -> None:
    """Replace the pdfminer page's content streams by one stream without text objects (under the
    first stream's object id: pdfminer only runs streams it can track for circular references)."""
    from pdfminer.pdftypes import PDFStream, stream_value

    streams = [stream_value(s) for s in page.page_obj.contents]
    if not streams:
        return
    data = RECT_CLIP.sub(b"q ", TEXT_OBJECT.sub(b" ", b"\n".join(s.get_data() for s in streams)))
    stripped = PDFStream({}, data)
    stripped.objid, stripped.genno = streams[0].objid, 0
    page.page_obj.contents = [stripped]


def _box(b: Any) -> BBox:
    return float(b[0]), float(b[1]), float(b[2]), float(b[3])


@dataclass(frozen=True)
class PageChars:
    """A PDFium page's text with word gaps repaired (:func:`~indexer.extract.pdfium_text.spaced_text`)
    and, per character of it, its loose character box (x0, top, x1, bottom; points from the top-left),
    or None for characters without a box (spaces, line breaks, hyphen markers)."""

    text: str
    boxes: list[BBox | None]

    @cached_property
    def edges(self) -> np.ndarray:
        """The boxes as an (n, 4) float64 array (the boxes' own Python floats); NaN rows for
        characters without a box, so every comparison with them is False. Built once per page."""
        rows = [b if b is not None else (np.nan,) * 4 for b in self.boxes]
        return np.array(rows, dtype=np.float64).reshape(len(rows), 4)

    @cached_property
    def centres(self) -> tuple[np.ndarray, np.ndarray]:
        """x and y of each character's box centre (NaN for characters without a box)."""
        return (self.edges[:, 0] + self.edges[:, 2]) / 2, (self.edges[:, 1] + self.edges[:, 3]) / 2


def page_chars(page: Any) -> PageChars:
    """The :class:`PageChars` of a PDFium page (upright: /Rotate 0 or 180).

    Raises:
        pypdfium2.PdfiumError: PDFium cannot load the page's text.
    """
    height = page.get_height()
    textpage = page.get_textpage()
    try:
        raw = textpage.get_text_range()
        loose = char_boxes(textpage.raw, raw)
        spaced, _ = spaced_text(textpage.raw, raw, loose)
    finally:
        textpage.close()
    raw_boxes: list[BBox | None] = [(b[0], height - b[3], b[2], height - b[1])
                                    if b is not None and ch not in "\x02\ufffe" else None
                                    for ch, b in zip(raw, loose, strict=True)]
    boxes: list[BBox | None] = []
    i = 0
    for ch in spaced:  # spaced_text only inserts spaces, each before a non-space character
        if i < len(raw) and ch == raw[i]:
            boxes.append(raw_boxes[i])
            i += 1
        else:
            boxes.append(None)
    return PageChars(spaced, boxes)


def table_rows(chars: PageChars, grid: Grid) -> list[list[str]]:
    """The cleaned rows of ``grid`` (:func:`~indexer.extract.tables.clean_rows`, continuation rows
    folded) with each cell's text read from ``chars``; [] when fewer than 2 rows or columns hold text."""
    x, y = chars.centres
    rows = [[region_text(chars, _centre_in(x, y, cell)) if cell else None for cell in row]
            for row in grid.rows]
    return merge_continuations(clean_rows(carry_down(rows, grid.rows)))


def band_text(chars: PageChars, top: float, bottom: float, tables: list[BBox]) -> str:
    """The text of the band from ``top`` to ``bottom`` (points from the top) outside ``tables``: the
    characters whose box reaches into the band and whose centre lies in no table (as pdfplumber's
    non-strict crop of the page without the tables' characters)."""
    if bottom - top < 1:
        return ""
    x, y = chars.centres
    inside = (chars.edges[:, 1] < bottom) & (chars.edges[:, 3] > top)
    for table in tables:
        inside &= ~_centre_in(x, y, table)
    return region_text(chars, inside)


def _centre_in(x: np.ndarray, y: np.ndarray, box: BBox) -> np.ndarray:
    """Per character, whether its centre lies in ``box`` (edges included; False without a box)."""
    return (box[0] <= x) & (x <= box[2]) & (box[1] <= y) & (y <= box[3])


def region_text(chars: PageChars, inside: np.ndarray) -> str:
    """The text of the characters marked ``inside`` (one bool per character of ``chars``; never set
    for a character without a box), in PDFium's order, line breaks as ``\\n``; where characters
    outside were skipped, a line break (if one was skipped) or a space joins the pieces. Only the span
    from the first to the last character inside is walked (a table cell is a small part of its page)."""
    hits = np.flatnonzero(inside)
    if not hits.size:
        return ""
    lo, hi = int(hits[0]), int(hits[-1]) + 1
    out: list[str] = []
    sep, skipped, broke = "", False, False
    for ch, b, here in zip(chars.text[lo:hi], chars.boxes[lo:hi], inside[lo:hi].tolist(), strict=True):
        if b is None:
            sep += ch
        elif not here:
            broke = broke or "\n" in sep or "\r" in sep
            sep, skipped = "", True
        else:
            if out:
                broke = broke or "\n" in sep or "\r" in sep
                out.append(("\n" if broke else " ") if skipped else sep)
            out.append(ch)
            sep, skipped, broke = "", False, False
    return clean_pdfium_text("".join(out))
