"""Extraction: one function per format, and :func:`extract_file` that picks one by the file's
extension after checking its first bytes.

Every failure a user can fix becomes :class:`core.errors.ExtractionError` with a one-line reason
(empty file, password-protected or truncated PDF, a legacy Word .doc named .docx, unsupported type).
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
from core.types import ExtractedDocument
from indexer.extract.ocr import OcrEngine, make_ocr_engine

log = logging.getLogger(__name__)

OLE2_MAGIC = b"\xd0\xcf\x11\xe0"
"""Compound File Binary (legacy .doc/.xls) signature, [MS-CFB] §2.2."""
ZIP_MAGIC = b"PK\x03\x04"
PDF_MAGIC = b"%PDF-"

Extractor = Callable[[Path, str, ExtractionSettings], ExtractedDocument]


def _extractors(ocr: OcrEngine | None) -> dict[str, Extractor]:
    from indexer.extract.docx import extract_docx
    from indexer.extract.markdown import extract_markdown
    from indexer.extract.pdf import extract_pdf

    return {".pdf": partial(extract_pdf, ocr=ocr), ".docx": extract_docx, ".md": extract_markdown,
            ".markdown": extract_markdown, ".txt": extract_markdown}


def relative_posix(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` with POSIX separators (``path`` itself when outside ``root``)."""
    # absolute, not resolved: a symlinked file keeps its name inside the root
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return path.as_posix()


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
    check_magic(path, suffix)
    t0 = time.perf_counter()
    doc = extractor(path, rel, settings.extraction)
    log.debug("extracted %s blocks=%d pages=%d in %.0f ms", rel, len(doc.blocks), doc.pages,
              (time.perf_counter() - t0) * 1e3)
    return doc


def check_magic(path: Path, suffix: str) -> None:
    """Reject empty and mislabelled files by their first bytes.

    Raises:
        ExtractionError: empty file; a .docx that is an OLE2 .doc or not a zip; a .pdf without %PDF-.
    """
    try:
        with path.open("rb") as fh:
            head = fh.read(1024)
    except OSError as exc:
        raise ExtractionError(f"cannot read the file ({exc.strerror})") from None
    if not head:
        raise ExtractionError("empty file (0 bytes); it may still be uploading or was saved empty")
    if suffix == ".docx" and head.startswith(OLE2_MAGIC):
        raise ExtractionError("legacy Word 97-2003 .doc file named .docx; open it in Word and "
                              "save it as .docx")
    if suffix == ".docx" and not head.startswith(ZIP_MAGIC):
        raise ExtractionError("not a .docx (no zip signature); save it as .docx again")
    if suffix == ".pdf" and PDF_MAGIC not in head:
        raise ExtractionError("not a PDF (no %PDF- header); check the file type")
