"""Page geometry and rendering through PDFium (pypdfium2, https://pypdfium2.readthedocs.io).

PDFium is used where pypdf has no answer: where the text sits (for column detection), which images a
page paints (for the OCR gate) and rendering pages or regions to pixels (for OCR). Opening a document
and reading a page's text rectangles costs a few milliseconds.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from indexer.extract.layout import Box, reading_regions

log = logging.getLogger(__name__)

MIN_IMAGE_AREA = 0.05
"""Share of the page an image must cover to be a candidate for OCR (logos and icons are smaller)."""
_LINE_END = re.compile("\r\n|[\r\n\x02\ufffe]")
EDGE_BAND = 0.12
"""Share of the page height at the top and at the bottom searched for running headers and footers
(the corpus's sit within 0.06 of the edge; body text starts below 0.08 on most pages, and only text
repeated across pages there counts)."""
MAX_RENDER_PIXELS = 64_000_000
"""Pixels a page rendered for OCR may have: an A0 sheet at 200 dpi (62 M); a 200-inch page (PDF's
largest, 14,400 pt) is rendered at a lower resolution instead of 1.6 G pixels that exceed the
worker's memory limit. OCR needs ~20 px letters, which a page that large still gets."""


def open_document(path: Path) -> Any | None:
    """The PDFium document, or ``None`` when PDFium cannot open it (then pypdf's text is kept)."""
    try:
        return pdfium.PdfDocument(str(path), password="")
    except Exception as exc:  # PdfiumError and friends: geometry is an improvement, never required
        log.warning("%s: PDFium cannot open the file (%s); no OCR or column detection", path.name, exc)
        return None


def save_copy(path: Path, dest: Path) -> bool:
    """Write PDFium's copy of the PDF ``path`` to ``dest`` (objects PDFium could read, a new
    cross-reference table); False when PDFium cannot open or save it."""
    try:
        pdoc = pdfium.PdfDocument(str(path), password="")
        try:
            pdoc.save(str(dest))
        finally:
            pdoc.close()
    except Exception as exc:  # PdfiumError and friends: the caller keeps pypdf's error
        log.debug("%s: PDFium cannot repair it (%s)", path.name, exc)
        return False
    return True


def text_boxes(page: Any, textpage: Any) -> list[Box]:
    """The text rectangles of ``page`` (its PDFium text page ``textpage``), top-down, in points."""
    height = page.get_height()
    boxes = []
    for i in range(textpage.count_rects()):
        left, bottom, right, top = textpage.get_rect(i)
        boxes.append(Box(left, height - top, right, height - bottom))
    return boxes


def column_text(page: Any, span: tuple[float, float] | None = None,
                textpage: Any | None = None) -> str | None:
    """The page's text (or that of the band ``span`` = (top, bottom), points from the top) with
    two-column bands read left column first, or ``None`` when there is no two-column band or the
    page is rotated (/Rotate 90/270: pypdf already follows the text direction there, while PDFium's
    order runs against it). ``textpage``: the page's PDFium text page, when the caller has it."""
    if page.get_rotation() % 180:
        return None
    width, height = page.get_size()
    top, bottom = span if span is not None else (0.0, height)
    textpage = page.get_textpage() if textpage is None else textpage
    boxes = [b for b in text_boxes(page, textpage) if top <= (b.top + b.bottom) / 2 <= bottom]
    regions = reading_regions(boxes, width, height)
    if regions is None:
        return None
    parts = [textpage.get_text_bounded(r.x0, height - min(r.bottom, bottom), r.x1, height - max(r.top, top))
             for r in regions]
    return "\n".join(clean_pdfium_text(p) for p in parts if p.strip())


def band_lines(text: str, boxes: Sequence[tuple[float, float, float, float] | None], height: float,
               top_down: bool) -> list[tuple[str, str]]:
    """The lines of a page's ``text`` that sit in its top or bottom :data:`EDGE_BAND` (where running
    headers, footers and page numbers are), as ``("top"|"bottom", line)``, from the characters'
    ``boxes`` (one per character of ``text``, None for spaces and line breaks): (x0, top, x1, bottom)
    from the top-left when ``top_down``, else PDFium's (left, bottom, right, top) from the
    bottom-left. A line's place is its first boxed character's; lines end at line breaks and PDFium's
    hyphen markers. Costs one pass over the line starts, no PDFium call."""
    out: list[tuple[str, str]] = []
    start = 0
    for m in _LINE_END.finditer(text + "\n"):
        line, first = text[start:m.start()], next((b for b in boxes[start:m.start()] if b is not None), None)
        start = m.end()
        if first is None or not line.strip():
            continue
        top, bottom = (first[1], first[3]) if top_down else (height - first[3], height - first[1])
        if bottom <= EDGE_BAND * height:
            out.append(("top", line.strip()))
        elif top >= (1 - EDGE_BAND) * height:
            out.append(("bottom", line.strip()))
    return out


def clean_pdfium_text(text: str) -> str:
    """PDFium line breaks (CRLF) to ``\\n``; its line-end hyphen marker (U+0002, U+FFFE), which
    replaces the hyphen *and* the line break, back to ``-\\n`` so de-hyphenation treats it as pypdf's."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\x02", "-\n").replace("\ufffe", "-\n")


def image_boxes(page: Any) -> list[Box]:
    """Images (also inside form XObjects) covering ≥ :data:`MIN_IMAGE_AREA` of the page, top-down."""
    width, height = page.get_size()
    boxes = []
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=3):
        left, bottom, right, top = obj.get_bounds()
        if (right - left) * (top - bottom) >= MIN_IMAGE_AREA * width * height:
            boxes.append(Box(left, height - top, right, height - bottom))
    return boxes


def render(page: Any, dpi: int, region: Box | None = None) -> Image.Image:
    """The page (or ``region`` of it, top-down points) as a grayscale PIL image at ``dpi``, or at
    the lower resolution that keeps it within :data:`MAX_RENDER_PIXELS`."""
    width, height = page.get_size()
    crop = (0.0, 0.0, 0.0, 0.0)
    if region is not None:
        crop = (max(region.x0, 0.0), max(height - region.bottom, 0.0),
                max(width - region.x1, 0.0), max(region.top, 0.0))
    area = max(width - crop[0] - crop[2], 1.0) * max(height - crop[1] - crop[3], 1.0)  # points²
    scale = min(dpi / 72, math.sqrt(MAX_RENDER_PIXELS / area))
    image: Image.Image = page.render(scale=scale, grayscale=True, crop=crop).to_pil()
    return image
