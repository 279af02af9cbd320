"""PDF extraction: PDFium text per page, pdfplumber tables on pages that look tabular.

PDFium (:mod:`.pdfium_text`) reads a page's text and font sizes at ~20–60 pages/s here including
word-gap repair, pypdf (https://pypdf.readthedocs.io) at 10–18; pypdf still opens the file (its error
messages name password and truncation problems), scans content streams for table rules and images,
and reads rotated pages and pages PDFium cannot. pdfplumber (https://github.com/jsvine/pdfplumber)
finds tables from ruling lines but parses only ~2.5 pages/s. So with ``extraction.pdf_tables: auto``
a cheap scan of each page's content stream counts painted rectangles and stroked lines (the ruling of
a table; clipping rectangles do not count), and only pages with at least :data:`TABULAR_MIN_RULES` of
them go through pdfplumber. On those pages the text outside the tables comes from pdfplumber too, in
top-to-bottom order around the tables, so table cells are not duplicated (nor interleaved, as a
plain text layer does with multi-column tables).

Then, per page: the quality gate and OCR (:mod:`.scan`: scanned or garbage pages, images of text),
two-column reading order (:mod:`.layout` via :mod:`.pdfium_page`; also for the text around tables and
for numbered lists pdfplumber took for a two-column table) and section headings (:mod:`.headings`,
including lines set in a larger font).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pypdf
from pypdf.errors import DependencyError, PdfReadError, PyPdfError

from core.config import ExtractionSettings
from core.errors import ExtractionError
from core.types import Block, ExtractedDocument
from indexer.extract.headings import SectionTracker, emphasised_lines
from indexer.extract.normalize import drop_lines, hyphenated_words, join_hyphenated, nfkc, repeated_lines
from indexer.extract.ocr import OcrEngine
from indexer.extract.pdfium_page import column_text, image_boxes, open_document
from indexer.extract.pdfium_text import pdfium_page_text
from indexer.extract.scan import ScanNotes, image_text, ocr_gate
from indexer.extract.tables import (
    clean_rows,
    column_list_text,
    merge_continuations,
    split_markdown_table,
    to_markdown,
    within_tokens,
)

log = logging.getLogger(__name__)

TABULAR_MIN_RULES = 8
"""Painted rectangles + stroked lines on a page from which it is worth running pdfplumber (tuned on
the corpus: table pages have 23–636, prose pages 0–3)."""

_TEXT_OBJECT = re.compile(rb"\bBT\b.*?\bET\b", re.S)
_PAINTED_RULE = re.compile(rb"\s(?:re|l)\s+(?:h\s+)?(?:f\*?|F|S|s|B\*?|b\*?)(?=\s)")


@dataclass(frozen=True)
class Segment:
    """A piece of one page in reading order: ``kind`` "text" or "table" (markdown); ``span`` is the
    (top, bottom) band of the page, in points from the top, that a pdfplumber text piece comes from."""

    kind: str
    text: str
    span: tuple[float, float] | None = None
    headings: dict[str, int] = field(default_factory=dict)
    """Lines of this piece set in a larger font, with their heading level."""


def extract_pdf(path: Path, rel: str, settings: ExtractionSettings,
                ocr: OcrEngine | None = None) -> ExtractedDocument:
    """Extract ``path`` into text and table blocks, one or more per page (``page`` is 1-based).

    Pages whose text layer is unusable are OCR'd with ``ocr`` (see :mod:`indexer.extract.scan`);
    without an engine they are listed in ``needs_ocr_pages``. Two-column pages are read column by
    column (:mod:`indexer.extract.layout`); heading lines start sections (:mod:`.headings`).

    Raises:
        ExtractionError: password-protected, truncated or otherwise unreadable PDF (one-line reason).
    """
    reader = open_pdf(path)
    notes = ScanNotes()
    table_pages = [i for i in range(len(reader.pages)) if _wants_tables(reader, i, settings)]
    plumbed = _with_tables(path, table_pages, notes.warnings) if table_pages else {}
    pdoc = open_document(path)
    segments = [_page_segments(reader, pdoc, i, plumbed, ocr, settings, notes)
                for i in range(len(reader.pages))]
    if notes.ocr_pages:
        log.info("%s: OCR of %d pages/regions in %.1f s", rel, notes.ocr_pages, notes.ocr_seconds)
    blocks = _to_blocks(rel, segments, settings)
    return ExtractedDocument(path=rel, blocks=blocks, pages=len(reader.pages), warnings=notes.warnings,
                             needs_ocr_pages=notes.needs_ocr)


def _page_segments(reader: pypdf.PdfReader, pdoc: Any, index: int, plumbed: dict[int, list[Segment]],
                   ocr: OcrEngine | None, settings: ExtractionSettings, notes: ScanNotes) -> list[Segment]:
    """One page's segments: pdfplumber's (tables), else PDFium's text (pypdf's without PDFium or on
    rotated pages) after the OCR gate, read by columns when two-column, followed by the OCR of large
    images."""
    if index in plumbed:
        return _plumbed_in_columns(pdoc[index], plumbed[index]) if pdoc is not None else plumbed[index]
    if pdoc is None:
        text, emphasised = _page_text(reader, index, notes.warnings)
        return [Segment("text", text, headings=emphasised)]
    page = pdoc[index]
    text, emphasised = _fast_page_text(reader, page, index, notes.warnings)
    images = image_boxes(page) if has_image_xobject(reader.pages[index]) else []
    replaced = ocr_gate(page, index + 1, text, images, ocr, settings, notes)
    if replaced is not None:
        return [Segment("text", replaced)]
    text = column_text(page) or text
    extra = image_text(page, index + 1, images, ocr, settings, notes)
    return [Segment("text", text, headings=emphasised)] + ([Segment("text", extra)] if extra else [])


def has_image_xobject(page: pypdf.PageObject, depth: int = 2) -> bool:
    """The page's resources hold an image XObject (directly or in a form XObject, ``depth`` levels);
    a dictionary look-up that spares PDFium's slower object walk on the many pages without images."""
    try:
        return _resources_have_image(page.get("/Resources"), depth)
    except Exception:  # odd resources: let PDFium look
        return True


def _resources_have_image(resources: Any, depth: int) -> bool:
    resources = resources.get_object() if resources is not None else None
    xobjects = resources.get("/XObject") if resources is not None else None
    for ref in (xobjects.get_object().values() if xobjects is not None else []):
        obj = ref.get_object()
        if obj.get("/Subtype") == "/Image":
            return True
        if depth > 1 and obj.get("/Subtype") == "/Form" \
                and _resources_have_image(obj.get("/Resources"), depth - 1):
            return True
    return False


def _plumbed_in_columns(page: Any, segments: list[Segment]) -> list[Segment]:
    """pdfplumber's segments of a table page, with the text between tables read column by column
    when that band of the page is two-column (pdfplumber reads across both columns line by line)."""
    out = []
    for seg in segments:
        if seg.kind == "table":
            listed = column_list_text(seg.text)
            out.append(Segment("text", listed) if listed else seg)
            continue
        text = column_text(page, seg.span) if seg.span and seg.text.strip() else None
        out.append(Segment("text", text) if text else seg)
    return out


def open_pdf(path: Path) -> pypdf.PdfReader:
    """Open a PDF, decrypting an empty user password (AES needs ``cryptography``).

    Raises:
        ExtractionError: damaged/truncated file, or a user password is required.
    """
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its repair notes are not user output
    try:
        reader = pypdf.PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ExtractionError("password-protected PDF (a user password is required); "
                                  "remove the password and save the file again")
        _ = len(reader.pages)
    except DependencyError as exc:
        raise ExtractionError(f"encrypted PDF needs the 'cryptography' package ({_one_line(exc)})") from None
    except (PdfReadError, PyPdfError, ValueError, KeyError, OSError) as exc:
        raise ExtractionError(f"damaged or truncated PDF ({type(exc).__name__}: {_one_line(exc)}); "
                              "re-export or copy the file again") from None
    return reader


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def _fast_page_text(reader: pypdf.PdfReader, page: Any, index: int,
                    warnings: list[str]) -> tuple[str, dict[str, int]]:
    """PDFium's text of one page and its lines set in a larger font; pypdf's on rotated pages or
    when PDFium cannot read the page's text."""
    try:
        found = pdfium_page_text(page)
    except Exception as exc:  # PdfiumError on an odd page: pypdf may still read it
        log.debug("page %d: PDFium text failed (%s); using pypdf", index + 1, _one_line(exc))
        found = None
    if found is None:
        return _page_text(reader, index, warnings)
    return found[0], emphasised_lines(found[1])


def _page_text(reader: pypdf.PdfReader, index: int, warnings: list[str]) -> tuple[str, dict[str, int]]:
    """pypdf's text of one page and its lines set in a larger font (heading candidates)."""
    fragments: list[tuple[str, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        scale = abs(tm[0] * cm[0] + tm[1] * cm[2]) or 1.0
        if text.strip():
            fragments.append((nfkc(text), round(size * scale, 1)))

    try:
        text = reader.pages[index].extract_text(visitor_text=visit) or ""
    except Exception as exc:  # pypdf raises many types on odd pages; one page never stops a file
        warnings.append(f"page {index + 1}: text extraction failed ({_one_line(exc)})")
        return "", {}
    return text, emphasised_lines(fragments)


def _wants_tables(reader: pypdf.PdfReader, index: int, settings: ExtractionSettings) -> bool:
    if settings.pdf_tables != "auto":
        return settings.pdf_tables == "always"
    return count_rules(reader.pages[index]) >= TABULAR_MIN_RULES


def count_rules(page: pypdf.PageObject) -> int:
    """Painted rectangles and stroked line segments in the page's content stream (text objects
    stripped first); ~5 ms a page. Form XObjects are not followed."""
    try:
        contents = page.get("/Contents")
        obj = contents.get_object() if contents is not None else None
        streams = list(obj) if isinstance(obj, pypdf.generic.ArrayObject) else [obj] if obj else []
        data = b"\n".join(s.get_object().get_data() for s in streams)
    except Exception:  # unreadable stream: let pdfplumber decide
        return TABULAR_MIN_RULES
    return len(_PAINTED_RULE.findall(_TEXT_OBJECT.sub(b" ", data)))


def _with_tables(path: Path, pages: list[int], warnings: list[str]) -> dict[int, list[Segment]]:
    """pdfplumber segments of the pages (0-based) in ``pages`` that hold a table."""
    import pdfplumber

    found: dict[int, list[Segment]] = {}
    try:
        with pdfplumber.open(path, password="") as pdf:
            for i in pages:
                segments = _plumber_segments(pdf.pages[i])
                if segments is not None:
                    found[i] = segments
    except Exception as exc:  # pdfminer failures: keep pypdf's text for these pages
        warnings.append(f"table detection failed ({_one_line(exc)})")
        log.warning("%s: table detection failed: %s", path.name, _one_line(exc))
    return found


def _plumber_segments(page: Any) -> list[Segment] | None:
    """Text and markdown tables of one pdfplumber page, top to bottom; None when it has no table."""
    tables = []
    for t in page.find_tables():
        rows = merge_continuations(clean_rows(t.extract()))
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


def _to_blocks(rel: str, pages: list[list[Segment]], settings: ExtractionSettings) -> list[Block]:
    """Normalise text segments (NFKC, repeated header/footer lines, hyphenation), cut them at heading
    lines into sections (:class:`SectionTracker`) and split large tables into parts of at most
    ``table_max_tokens`` cl100k tokens that repeat the header."""
    texts = [[nfkc(s.text) if s.kind == "text" else s.text for s in page] for page in pages]
    keys = repeated_lines(["\n".join(t) for t in texts], settings.repeated_line_ratio)
    keep = hyphenated_words("\n".join("\n".join(t) for t in texts))
    sections = SectionTracker()
    blocks: list[Block] = []
    for page_no, (segs, page_texts) in enumerate(zip(pages, texts, strict=True), start=1):
        for seg, text in zip(segs, page_texts, strict=True):
            if seg.kind == "table":
                for part in split_markdown_table(text, within_tokens(settings.table_max_tokens)):
                    blocks.append(Block(path=rel, text=part, page=page_no, section=sections.section,
                                        kind="table"))
                continue
            text = join_hyphenated(drop_lines(text, keys), keep).strip()
            for section, part, is_heading in sections.split(text, seg.headings):
                blocks.append(Block(path=rel, text=part, page=page_no, section=section,
                                    kind="heading" if is_heading else "text"))
    return blocks
