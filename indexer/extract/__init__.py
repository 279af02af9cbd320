"""Extraction: one function per format, and :func:`extract_file` that picks one by the file's
extension after checking its first bytes.

Every failure a user can fix becomes :class:`core.errors.ExtractionError` with a one-line reason
(empty file, password-protected or truncated PDF, an encrypted or rights-protected Office package, a
legacy .doc without a converter, unsupported type). A .doc or .docx that is an OLE compound file goes
to :mod:`indexer.extract.office`, whatever its name says.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from core.config import ExtractionSettings, Settings
from core.errors import ExtractionError
from core.types import ExtractedDocument, ExtractionReport
from indexer.extract.ocr import OcrEngine, make_ocr_engine

log = logging.getLogger(__name__)

OLE2_MAGIC = b"\xd0\xcf\x11\xe0"
"""Compound File Binary (legacy .doc/.xls) signature, [MS-CFB] §2.2."""
ZIP_MAGIC = b"PK\x03\x04"
PDF_MAGIC = b"%PDF-"
RTF_MAGIC = b"{\\rtf"

Extractor = Callable[[Path, str, ExtractionSettings], ExtractedDocument]


def _extractors(ocr: OcrEngine | None) -> dict[str, Extractor]:
    from indexer.extract.docx import extract_docx
    from indexer.extract.markdown import extract_markdown
    from indexer.extract.pdf import extract_pdf

    return {".pdf": partial(extract_pdf, ocr=ocr), ".docx": extract_docx, ".doc": extract_docx,
            ".md": extract_markdown, ".markdown": extract_markdown, ".txt": extract_markdown}


def relative_posix(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` with POSIX separators, in Unicode NFC
    (:func:`indexer.names.nfc`; ``path`` itself when outside ``root``)."""
    from indexer.names import nfc

    # absolute, not resolved: a symlinked file keeps its name inside the root
    try:
        return nfc(Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix())
    except ValueError:
        return nfc(path.as_posix())


def extract_file(path: Path, root: Path, settings: Settings,
                 ocr: OcrEngine | None = None) -> ExtractedDocument:
    """Extract one policy file.

    Args:
        path: the file (absolute, or relative to the working directory).
        root: the policy root; blocks carry the path relative to it (POSIX).
        settings: uses ``settings.extraction``.
        ocr: the OCR engine for scanned PDF pages; default: :func:`make_ocr_engine` from settings
            (``None`` there when OCR is off or tesseract is missing: pages land in
            ``needs_ocr_pages``).

    Returns:
        The document's blocks in reading order, its page count (PDF) and warnings.

    Raises:
        ExtractionError: one-line reason; the file is empty, mislabelled, of an unsupported type, or
            unreadable by its format's extractor.
    """
    rel = relative_posix(path, root)
    suffix = path.suffix.lower()
    if settings.extraction.ocr == "never":
        ocr = None
    elif suffix == ".pdf" and ocr is None:
        ocr = make_ocr_engine(settings.extraction)
    extractor = _extractors(ocr).get(suffix)
    if extractor is None:
        raise ExtractionError(f"unsupported file type {suffix or '(none)'!r}; use PDF, DOCX, MD or TXT")
    if check_magic(path, suffix) == "ole":
        from indexer.extract.office import extract_ole

        extractor = extract_ole
    t0 = time.perf_counter()
    doc = extractor(path, rel, settings.extraction)
    complete_report(doc)
    log.debug("extracted %s blocks=%d pages=%d in %.0f ms", rel, len(doc.blocks), doc.pages,
              (time.perf_counter() - t0) * 1e3)
    return doc


def complete_report(doc: ExtractedDocument) -> ExtractionReport:
    """Fill the counts of ``doc.report`` that its blocks tell (tables, notes, form fields, when the
    extractor left them at 0) and its pages needing OCR; returns the report."""
    report = doc.report
    report.needs_ocr_pages = sorted(set(report.needs_ocr_pages) | set(doc.needs_ocr_pages))
    if not report.tables:
        report.tables = _table_count(doc)
    if not report.notes:
        report.notes = sum(b.kind == "note" for b in doc.blocks)
    if not report.form_fields:
        report.form_fields = sum(b.kind == "form_field" for b in doc.blocks)
    return report


def _table_count(doc: ExtractedDocument) -> int:
    """Tables among the blocks: a table block starts a new table unless it continues the previous
    block's table (a part of a split table repeats its header row)."""
    count, previous = 0, None
    for block in doc.blocks:
        head = block.text.split("\n", 1)[0] if block.kind == "table" else None
        count += head is not None and head != previous
        previous = head
    return count


def check_magic(path: Path, suffix: str) -> str:
    """Reject empty and mislabelled files by their first bytes; returns ``"ole"`` for a .doc/.docx
    that is an OLE compound file (legacy .doc, encrypted package: :mod:`indexer.extract.office`),
    else ``""``.

    Raises:
        ExtractionError: empty file; a .doc/.docx that is neither a zip nor an OLE file; a .pdf
            without %PDF-.
    """
    try:
        with path.open("rb") as fh:
            head = fh.read(1024)
    except OSError as exc:
        raise ExtractionError(f"cannot read the file ({exc.strerror})") from None
    if not head:
        raise ExtractionError("empty file (0 bytes); it may still be uploading or was saved empty")
    if suffix in (".docx", ".doc") and head.startswith(OLE2_MAGIC):
        return "ole"
    if suffix in (".docx", ".doc") and head.startswith(RTF_MAGIC):
        raise ExtractionError(f"an RTF document named {suffix}; open it in Word and save it as .docx")
    if suffix in (".docx", ".doc") and not head.startswith(ZIP_MAGIC):
        raise ExtractionError(f"not a Word document (neither a .docx zip package nor a Word 97-2003 "
                              f"file) named {suffix}; save it as .docx again")
    if suffix == ".pdf" and PDF_MAGIC not in head:
        raise ExtractionError("not a PDF (no %PDF- header); check the file type")
    return ""
