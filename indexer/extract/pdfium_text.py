"""A PDF page's text and its font-size runs through PDFium (pypdfium2, https://pypdfium2.readthedocs.io).

PDFium's raw text runs at 80–390 pages/s here, pypdf at 10–18, and extraction runs beside the
embedder on the same two cores, so ordinary pages are read here (with the repairs below, 5–30 ms a
page; bench/extraction.py). Two repairs make it match pypdf's output on the corpus:

- word gaps: PDFium adds a space only for gaps from ~0.15 em, while tightly set text separates words
  by ``TJ`` offsets of ~0.12 em ("Renewalmeans"); a space goes where two loose character boxes of a
  line are more than :data:`WORD_GAP` em apart;
- font sizes: ``FPDFText_GetFontSize`` is the ``Tf`` size, 1 pt in PDFs that scale with the text
  matrix, so it is multiplied by the scale of the character's matrix (``FPDFText_GetMatrix``).

The sizes give the runs :func:`indexer.extract.headings.emphasised_lines` needs to find lines set in a
larger font. Rotated pages (/Rotate 90/270) are left to pypdf: PDFium's order runs against the text
direction there (see :func:`indexer.extract.pdfium_page.column_text`).
"""

from __future__ import annotations

import ctypes
import logging
import math
import re
from typing import Any

import pypdfium2.raw as pdfium_c

from indexer.extract.headings import MAX_CHARS, numbered_title
from indexer.extract.normalize import nfkc
from indexer.extract.pdfium_page import band_lines, clean_pdfium_text

log = logging.getLogger(__name__)

CharBox = tuple[float, float, float, float]
"""(left, bottom, right, top) of a character's loose box, in points, PDFium page space (y up)."""
WORD_GAP = 0.08
"""Horizontal gap between two characters, in em of their font size, read as a word space (tightly
set corpus text: 0.12 em between words, ≤ 0.04 em between letters of a word)."""
Fragment = tuple[str, float, bool, int]
"""(text of a run of one line in one font size and weight, size in points rounded to 0.1, bold, the
run's line number on the page)."""
_LINE_END = re.compile("\r\n|[\n\x02\ufffe]")
"""Line ends as :func:`size_runs` counts them (a bare CR does not end a line there)."""
BOLD_WEIGHT = 600
"""``FPDFText_GetFontWeight`` from which a font counts as bold (CSS/OpenType: 600 semibold, 700 bold)."""
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demi")
_FORCE_BOLD = 1 << 18
"""PDF font descriptor flag ForceBold (PDF 32000-1:2008 Table 123)."""


def pdfium_page_text(page: Any, textpage: Any) -> tuple[str, list[Fragment], list[tuple[str, str]]] | None:
    """The page's text (line breaks ``\\n``, hyphen markers as ``-\\n``) read from its PDFium text
    page ``textpage`` (the caller loads and closes it), its font-size runs and the lines in its top
    and bottom bands (:func:`~indexer.extract.pdfium_page.band_lines`); ``None`` for a rotated page
    (the caller keeps pypdf's text there).

    Raises:
        pypdfium2.PdfiumError: PDFium cannot read the page's text (the caller falls back to pypdf).
    """
    if page.get_rotation() % 180:
        return None
    plain = textpage.get_text_range()
    boxes = char_boxes(textpage.raw, plain)
    raw, sizes = spaced_text(textpage.raw, plain, boxes)
    edges = band_lines(plain, boxes, page.get_height(), top_down=False)
    bold = bold_lines(textpage.raw, plain)
    runs = [(text, size, line in bold, line) for text, size, _, line in size_runs(raw, sizes)]
    return clean_pdfium_text(raw), runs, edges


def spaced_text(textpage: Any, raw: str,
                boxes: list[CharBox | None] | None = None) -> tuple[str, list[float]]:
    """``raw`` (PDFium's text of ``textpage``) with a space put wherever two characters of a line
    sit more than :data:`WORD_GAP` em further apart than the line's letters do (:func:`_line_floors`)
    with none between them (PDFium misses gaps made by ``TJ`` offsets in tightly set text:
    "Renewalmeans the terms"), and the effective font size (points) of each character of the result.

    The size is read at the first character of each word and carried through it (PDFium calls per
    word, not per character): ``FPDFText_GetFontSize`` × the scale of the character's matrix
    (``FPDFText_GetMatrix``; PDFs that set ``Tf 1`` and scale with the text matrix would otherwise
    all read as 1 pt). Gaps are between loose character boxes (``FPDFText_GetLooseCharBox``:
    advance widths, so letters of one word touch); ``boxes``: those of :func:`char_boxes`, when the
    caller already has them."""
    matrix = pdfium_c.FS_MATRIX()
    boxes = char_boxes(textpage, raw) if boxes is None else boxes
    floors = _line_floors(raw, boxes)
    out: list[str] = []
    sizes: list[float] = []
    size, prev_right = 0.0, None
    for i, ch in enumerate(raw):
        if ch.isspace() or ch in "\x02\ufffe":
            out.append(ch)
            sizes.append(size)
            prev_right = None
            continue
        if prev_right is None:
            size = _size(textpage, i, matrix)
        box = boxes[i]
        if box is not None:
            if prev_right is not None and box[0] - prev_right - floors[i] > WORD_GAP * size:
                out.append(" ")
                sizes.append(size)
            prev_right = box[2]
        out.append(ch)
        sizes.append(size)
    return "".join(out), sizes


def bold_lines(textpage: Any, raw: str) -> set[int]:
    """Numbers (0-based, as :func:`size_runs` counts them) of the lines of ``raw`` (PDFium's text of
    ``textpage``) that read like a numbered title (:func:`~indexer.extract.headings.numbered_title`)
    and are set in bold at their first and last character (:func:`is_bold`). Only such lines can
    become headings by weight, so only they are asked about (a few PDFium calls a page)."""
    out: set[int] = set()
    start = 0
    for number, m in enumerate(_LINE_END.finditer(raw + "\n")):
        line = raw[start:m.start()]
        body = line.strip()
        if body and len(body) <= MAX_CHARS and numbered_title(body) is not None:
            first = start + len(line) - len(line.lstrip())
            last = start + len(line.rstrip()) - 1
            if is_bold(textpage, first) and is_bold(textpage, last):
                out.add(number)
        start = m.end()
    return out


def is_bold(textpage: Any, index: int) -> bool:
    """Whether character ``index`` is set in a bold font: ``FPDFText_GetFontWeight`` ≥
    :data:`BOLD_WEIGHT`, or, when the PDF does not say (weight ≤ 0, common in subset fonts), a font
    name with "Bold", "Black", "Heavy", "Semibold" or "Demi" in it or the ForceBold flag."""
    weight = pdfium_c.FPDFText_GetFontWeight(textpage, index)
    if weight > 0:
        return bool(weight >= BOLD_WEIGHT)
    flags = ctypes.c_int(0)
    buffer = ctypes.create_string_buffer(128)
    pdfium_c.FPDFText_GetFontInfo(textpage, index, buffer, len(buffer), ctypes.byref(flags))
    name = buffer.value.decode("latin-1").lower()
    return bool(flags.value & _FORCE_BOLD) or any(part in name for part in _BOLD_NAMES)


def char_boxes(textpage: Any, raw: str) -> list[CharBox | None]:
    """Each character's loose box (:data:`CharBox`); None for spaces and boxless ones."""
    box = pdfium_c.FS_RECTF()
    out: list[CharBox | None] = []
    for i, ch in enumerate(raw):
        ok = not ch.isspace() and pdfium_c.FPDFText_GetLooseCharBox(textpage, i, ctypes.byref(box))
        out.append((box.left, box.bottom, box.right, box.top) if ok else None)
    return out


def _line_floors(raw: str, boxes: list[CharBox | None]) -> list[float]:
    """Per character, the smallest gap (points, ≥ 0) between adjacent characters of its line that
    PDFium joins: 0 in ordinary text, the letter spacing (``Tc``) in a letter-spaced line, whose
    letters would otherwise each read as a word ("E m p l o y e e")."""
    floors = [0.0] * len(raw)
    start, low, prev = 0, math.inf, None
    for i, ch in enumerate(raw + "\n"):
        if ch in "\r\n":
            floors[start:i] = [max(0.0, low if low < math.inf else 0.0)] * (i - start)
            start, low, prev = i + 1, math.inf, None
            continue
        box = boxes[i] if not ch.isspace() and ch not in "\x02\ufffe" else None
        if box is not None and prev is not None:
            low = min(low, box[0] - prev)
        prev = box[2] if box is not None else None
    return floors


def _size(textpage: Any, index: int, matrix: Any) -> float:
    size = float(pdfium_c.FPDFText_GetFontSize(textpage, index))
    if pdfium_c.FPDFText_GetMatrix(textpage, index, ctypes.byref(matrix)):
        size *= math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
    return size


def size_runs(raw: str, sizes: list[float]) -> list[Fragment]:
    """Cut ``raw`` (PDFium's text, one font size per character in ``sizes``) into runs of one size
    within one line, each with its line number (bold False: :func:`bold_lines` tells which lines
    are bold); spaces join the run they sit in, line breaks and hyphen markers end it."""
    runs: list[Fragment] = []
    chars: list[str] = []
    size, line = -1.0, 0
    last, rounded = math.nan, 0.0
    for ch, s in zip(raw, sizes, strict=False):
        if ch in "\r\n\x02\ufffe":
            _close(runs, chars + (["-"] if ch in "\x02\ufffe" else []), size, line)
            chars, size = [], -1.0
            line += ch != "\r"
            continue
        if s != last:  # sizes come in runs (one per word): round once per run
            last, rounded = s, round(s, 1)
        if not ch.isspace() and rounded != size:
            if size >= 0:
                _close(runs, chars, size, line)
                chars = []
            size = rounded
        chars.append(ch)
    _close(runs, chars, size, line)
    return runs


def _close(runs: list[Fragment], chars: list[str], size: float, line: int) -> None:
    text = "".join(chars)
    if text.strip() and size > 0:
        runs.append((nfkc(text), size, False, line))
