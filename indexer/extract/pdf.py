"""PDF extraction: PDFium text per page, pdfplumber tables on pages that look tabular.

PDFium (:mod:`.pdfium_text`) reads a page's text and font sizes at ~20–60 pages/s here including
word-gap repair, pypdf (https://pypdf.readthedocs.io) at 10–18; pypdf still opens the file (its error
messages name password and truncation problems), scans content streams for table rules and images,
and reads rotated pages and pages PDFium cannot. pdfplumber (https://github.com/jsvine/pdfplumber)
finds tables from ruling lines but parses only ~2.5 pages/s. So with ``extraction.pdf_tables: auto``
a cheap scan of each page's content stream counts painted rectangles and stroked lines (the ruling of
a table; clipping rectangles do not count), and only pages with at least :data:`TABULAR_MIN_RULES` of
them go through pdfplumber's table finder, run on the page's paths only; the cells and the text
around the tables are then read from PDFium (:mod:`.pdf_tables`; rotated pages go through pdfplumber
alone), in top-to-bottom order around the tables, so table cells are not duplicated (nor
interleaved, as a plain text layer does with multi-column tables).

Then, per page: the quality gate and OCR (:mod:`.scan`: scanned or garbage pages, images of text),
two-column reading order (:mod:`.layout` via :mod:`.pdfium_page`; also for the text around tables and
for numbered lists pdfplumber took for a two-column table) and section headings (:mod:`.headings`,
including lines set in a larger font).
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path
from typing import Any

import pypdf

from core.config import ExtractionSettings
from core.errors import ExtractionError
from core.types import ExtractedDocument, ExtractionReport
from indexer.extract.headings import emphasised_lines
from indexer.extract.ocr import OcrEngine
from indexer.extract.pdf_blocks import Segment, running_lines, to_blocks
from indexer.extract.pdf_forms import page_fields
from indexer.extract.pdf_objects import (
    has_image_xobject,
    one_line,
    open_pdf,
    pypdf_page_text,
    shows_text,
    wants_tables,
)
from indexer.extract.pdf_tables import Grid, band_text, find_grids, page_chars, table_rows
from indexer.extract.pdfium_page import (
    band_lines,
    column_text,
    image_boxes,
    open_document,
    save_copy,
)
from indexer.extract.pdfium_text import pdfium_page_text
from indexer.extract.scan import ScanNotes, image_text, ocr_gate
from indexer.extract.tables import (
    carry_down,
    clean_rows,
    column_list_text,
    merge_continuations,
    to_markdown,
)

log = logging.getLogger(__name__)


Edges = list[tuple[str, str]]
"""A page's lines in its top and bottom bands, ``("top"|"bottom", text)`` (furniture candidates)."""
Plumbed = tuple[list[Segment], Any, Edges]
"""A table page's segments, its PDFium page (None when PDFium cannot load it), kept loaded from
table detection to the column read of its text bands (a page loads in ~1-12 ms), and its edge lines."""


def extract_pdf(path: Path, rel: str, settings: ExtractionSettings,
                ocr: OcrEngine | None = None) -> ExtractedDocument:
    """Extract ``path`` into text and table blocks, one or more per page (``page`` is 1-based).

    Pages whose text layer is unusable are OCR'd with ``ocr`` (see :mod:`indexer.extract.scan`);
    without an engine they are listed in ``needs_ocr_pages``. Two-column pages are read column by
    column (:mod:`indexer.extract.layout`); heading lines start sections (:mod:`.headings`).

    Raises:
        ExtractionError: password-protected, truncated or otherwise unreadable PDF (one-line reason).
    """
    try:
        reader = open_pdf(path)
    except ExtractionError as exc:
        return _extract_repaired(path, rel, settings, ocr, exc)
    return _extract(reader, path, rel, settings, ocr)


def _extract(reader: pypdf.PdfReader, path: Path, rel: str, settings: ExtractionSettings,
             ocr: OcrEngine | None) -> ExtractedDocument:
    notes = ScanNotes()
    table_pages = [i for i in range(len(reader.pages)) if wants_tables(reader, i, settings)]
    pdoc = _pdfium_document(path, len(reader.pages))
    plumbed = _with_tables(path, table_pages, pdoc, notes.warnings) if table_pages else {}
    edges: list[list[tuple[str, str]]] = [[] for _ in reader.pages]
    segments = [_page_segments(reader, pdoc, i, plumbed, ocr, settings, notes, edges)
                + _form_segments(reader, pdoc, i) for i in range(len(reader.pages))]
    if notes.ocr_pages:
        log.info("%s: OCR of %d pages/regions in %.1f s", rel, notes.ocr_pages, notes.ocr_seconds)
    blocks, removed = to_blocks(rel, segments, settings, edges)
    report = ExtractionReport(ocr_pages=sorted(set(notes.ocr_page_numbers)),
                              needs_ocr_pages=list(notes.needs_ocr), furniture_lines=len(removed))
    return ExtractedDocument(path=rel, blocks=blocks, pages=len(reader.pages), warnings=notes.warnings,
                             needs_ocr_pages=notes.needs_ocr, report=report,
                             metadata_title=metadata_title(reader), header_lines=running_lines(removed))


def metadata_title(reader: pypdf.PdfReader) -> str:
    """The document information dictionary's ``/Title`` (PDF 1.7 §14.3.3), ``""`` when absent or
    unreadable; cleaned and checked against the text later (:func:`indexer.context.document_title`)."""
    try:
        title = reader.metadata.title if reader.metadata is not None else None
    except Exception:  # a damaged info dictionary never stops extraction
        return ""
    return " ".join(str(title).split()) if title else ""


def _form_segments(reader: pypdf.PdfReader, pdoc: Any, index: int) -> list[Segment]:
    """The filled form fields of page ``index`` (:mod:`.pdf_forms`), one segment each."""
    page = reader.pages[index]
    if "/Annots" not in page:
        return []
    loader = (lambda: _pdfium_page(pdoc, index)) if pdoc is not None else (lambda: None)
    return [Segment("form_field", line) for line in page_fields(page, loader)]


def _extract_repaired(path: Path, rel: str, settings: ExtractionSettings, ocr: OcrEngine | None,
                      exc: ExtractionError) -> ExtractedDocument:
    """Extract a PDF pypdf refused (``exc``: no cross-reference table, nesting too deep, ...) from the
    copy PDFium writes of it (:func:`save_copy`: a fresh cross-reference table).

    Raises:
        ExtractionError: ``exc`` when the file needs a password or PDFium cannot repair it either.
    """
    if str(exc).startswith(("password-protected", "encrypted")):
        raise exc
    with tempfile.TemporaryDirectory(prefix="policybot-pdf-") as tmp:
        fixed = Path(tmp) / "repaired.pdf"
        if not save_copy(path, fixed):
            raise exc
        try:
            reader = open_pdf(fixed)
        except ExtractionError:
            raise exc from None
        doc = _extract(reader, fixed, rel, settings, ocr)
    log.info("%s: pypdf could not open it (%s); read PDFium's repaired copy", rel, exc)
    doc.warnings.append(f"read from a copy repaired by PDFium (pypdf: {exc})")
    return doc


def _pdfium_document(path: Path, pages: int) -> Any | None:
    """PDFium's document when it sees the same ``pages`` pages as pypdf (page *i* is then the same
    page in both); ``None`` otherwise (a page tree with null or non-page kids: pypdf skips them,
    PDFium counts them and fails to load them), and for a PDF without pages."""
    pdoc = open_document(path) if pages else None
    if pdoc is not None and len(pdoc) != pages:
        log.info("%s: PDFium sees %d pages, pypdf %d; reading the text with pypdf", path.name,
                 len(pdoc), pages)
        return None
    return pdoc


def _pdfium_page(pdoc: Any, index: int) -> Any | None:
    """Page ``index`` of the PDFium document, or ``None`` when PDFium cannot load it."""
    try:
        return pdoc[index]
    except Exception as exc:  # PdfiumError "Failed to load page": pypdf may still read it
        log.debug("page %d: PDFium cannot load it (%s); using pypdf", index + 1, one_line(exc))
        return None


def _page_segments(reader: pypdf.PdfReader, pdoc: Any, index: int, plumbed: dict[int, Plumbed],
                   ocr: OcrEngine | None, settings: ExtractionSettings, notes: ScanNotes,
                   edges: list[list[tuple[str, str]]]) -> list[Segment]:
    """One page's segments: pdfplumber's (tables), else PDFium's text (pypdf's without PDFium or on
    rotated pages) after the OCR gate, read by columns when two-column, followed by the OCR of large
    images. The lines in the page's top and bottom bands go to ``edges[index]``."""
    if index in plumbed:
        segments, page, edges[index] = plumbed[index]
        return _plumbed_in_columns(page, segments) if page is not None else segments
    page = _pdfium_page(pdoc, index) if pdoc is not None else None
    if page is None:
        text, emphasised = pypdf_page_text(reader, index, notes.warnings)
        return [Segment("text", text, headings=emphasised)]
    textpage = _textpage(page, index)  # loaded once for the text and the column layout
    try:
        text, emphasised, edges[index] = _fast_page_text(reader, page, index, notes.warnings, textpage)
        images = image_boxes(page) if has_image_xobject(reader.pages[index]) else []
        replaced = ocr_gate(page, index + 1, text, images, ocr, settings, notes)
        if replaced is not None:
            headings = notes.ocr_headings.get(index + 1, {})
            return [Segment("ocr", replaced, headings=headings)] if replaced else []
        text = (column_text(page, textpage=textpage) if textpage is not None else None) or text
    finally:
        if textpage is not None:
            textpage.close()
    extra = image_text(page, index + 1, images, ocr, settings, notes)
    return [Segment("text", text, headings=emphasised)] + ([Segment("ocr", extra)] if extra else [])


def _textpage(page: Any, index: int) -> Any | None:
    """The PDFium text page of ``page``, or None when PDFium cannot load it (pypdf's text is used)."""
    try:
        return page.get_textpage()
    except Exception as exc:  # PdfiumError on an odd page
        log.debug("page %d: PDFium cannot load its text (%s); using pypdf", index + 1, one_line(exc))
        return None


def _plumbed_in_columns(page: Any, segments: list[Segment]) -> list[Segment]:
    """pdfplumber's segments of a table page, with the text between tables read column by column
    when that band of the page is two-column (pdfplumber reads across both columns line by line)."""
    out = []
    textpage = None
    try:
        for seg in segments:
            if seg.kind == "table":
                listed = column_list_text(seg.text)
                out.append(Segment("text", listed) if listed else seg)
                continue
            if seg.span and seg.text.strip() and textpage is None:
                textpage = page.get_textpage()  # one for all the bands of the page
            text = column_text(page, seg.span, textpage) if seg.span and seg.text.strip() else None
            out.append(Segment("text", text) if text else seg)
    finally:
        if textpage is not None:
            textpage.close()
    return out


def _fast_page_text(reader: pypdf.PdfReader, page: Any, index: int, warnings: list[str],
                    textpage: Any | None) -> tuple[str, dict[str, int], Edges]:
    """PDFium's text of one page (from its ``textpage``), its heading lines (larger font, numbered
    bold) and its edge lines; pypdf's text (without edge lines) on rotated pages or when PDFium
    cannot read the page's text (``textpage`` None)."""
    try:
        found = pdfium_page_text(page, textpage) if textpage is not None else None
    except Exception as exc:  # PdfiumError on an odd page: pypdf may still read it
        log.debug("page %d: PDFium text failed (%s); using pypdf", index + 1, one_line(exc))
        found = None
    if found is None or (not found[0].strip() and shows_text(reader.pages[index])):
        text, emphasised = pypdf_page_text(reader, index, warnings)  # text PDFium drops: no Tf, size 0
        return text, emphasised, []
    return found[0], emphasised_lines(found[1]), found[2]


def _with_tables(path: Path, pages: list[int], pdoc: Any, warnings: list[str]) -> dict[int, Plumbed]:
    """Segments of the pages (0-based) in ``pages`` that hold a table, with the page's PDFium page
    (None for rotated ones): grids found by pdfplumber on the pages' paths, text from PDFium
    (:mod:`.pdf_tables`); pages PDFium cannot load or reads against the text direction (/Rotate
    90/270) through pdfplumber alone."""
    import pdfplumber

    logging.getLogger("pdfminer").setLevel(logging.ERROR)  # its notes on odd content are not user output
    found: dict[int, Plumbed] = {}
    upright = _upright_pages(pdoc, pages)
    rest = [i for i in pages if i not in upright]
    try:
        for i, grids in find_grids(path, list(upright)).items():
            segments = _pdfium_segments(upright[i], grids)
            if segments is not None:
                found[i] = (segments[0], upright[i], segments[1])
        if rest:
            with pdfplumber.open(path, password="") as pdf:
                for i in rest:
                    plumbed = _plumber_segments(pdf.pages[i])
                    if plumbed is not None:
                        found[i] = (plumbed, _pdfium_page(pdoc, i) if pdoc is not None else None, [])
    except Exception as exc:  # pdfminer failures: keep pypdf's text for these pages
        warnings.append(f"table detection failed ({one_line(exc)})")
        log.warning("%s: table detection failed: %s", path.name, one_line(exc))
    return found


def _upright_pages(pdoc: Any, pages: list[int]) -> dict[int, Any]:
    """The PDFium pages of ``pages`` that load and are not turned by /Rotate 90 or 270."""
    out = {}
    for i in pages if pdoc is not None else []:
        page = _pdfium_page(pdoc, i)
        if page is not None and not page.get_rotation() % 180:
            out[i] = page
    return out


def _pdfium_segments(page: Any, grids: list[Grid]) -> tuple[list[Segment], Edges] | None:
    """Text and markdown tables of one PDFium page with the table ``grids`` found on it, top to
    bottom (the text of each band between tables read across the page), and its edge lines; None
    when no grid holds a table."""
    height = page.get_height()
    chars = page_chars(page)
    tables = [(g.bbox, rows) for g in grids if (rows := table_rows(chars, g))]
    if not tables:
        return None
    tables.sort(key=lambda item: item[0][1])
    boxes = [bbox for bbox, _ in tables]
    out: list[Segment] = []
    top = 0.0
    for bbox, rows in tables:
        out.append(Segment("text", band_text(chars, top, bbox[1], boxes), (top, bbox[1])))
        out.append(Segment("table", to_markdown(rows)))
        top = max(top, bbox[3])
    out.append(Segment("text", band_text(chars, top, height, boxes), (top, height)))
    return out, band_lines(chars.text, chars.boxes, height, top_down=True)


def _plumber_segments(page: Any) -> list[Segment] | None:
    """Text and markdown tables of one pdfplumber page, top to bottom; None when it has no table."""
    tables = []
    for t in page.find_tables():
        rows = merge_continuations(clean_rows(carry_down(t.extract(), [list(r.cells) for r in t.rows])))
        if rows:
            tables.append((t.bbox, rows))
    if not tables:
        return None
    tables.sort(key=lambda item: item[0][1])
    boxes = [bbox for bbox, _ in tables]
    outside = page.filter(lambda obj: not _inside(obj, boxes))
    out: list[Segment] = []
    top = float(page.bbox[1])
    for bbox, rows in tables:
        out.append(Segment("text", _crop_text(outside, top, float(bbox[1])), (top, float(bbox[1]))))
        out.append(Segment("table", to_markdown(rows)))
        top = max(top, float(bbox[3]))
    out.append(Segment("text", _crop_text(outside, top, float(page.bbox[3])), (top, float(page.bbox[3]))))
    return out


def _inside(obj: dict[str, Any], boxes: list[tuple[float, float, float, float]]) -> bool:
    if obj.get("object_type") != "char":
        return False
    x, y = (obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)


def _crop_text(page: Any, top: float, bottom: float) -> str:
    if bottom - top < 1:
        return ""
    x0, y0, x1, y1 = page.bbox
    region = page.crop((x0, max(top, y0), x1, min(bottom, y1)), relative=False, strict=False)
    return str(region.extract_text() or "")
