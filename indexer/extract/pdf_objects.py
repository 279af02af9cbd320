"""What a PDF's objects say, read with pypdf (https://pypdf.readthedocs.io): opening (password and
damage errors), image XObjects, painted table rules in content streams, and pypdf's page text for
the pages PDFium cannot read (rotated pages, text PDFium drops).

Used by :mod:`indexer.extract.pdf`; no PDFium here.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pypdf
from pypdf.errors import DependencyError, PdfReadError, PyPdfError

from core.config import ExtractionSettings
from core.errors import ExtractionError
from indexer.extract.headings import emphasised_lines
from indexer.extract.normalize import nfkc

__all__ = ["TABULAR_MIN_RULES", "TEXT_OBJECT", "content", "count_rules", "has_image_xobject", "one_line",
           "open_pdf", "pypdf_page_text", "shows_text", "wants_tables"]

TABULAR_MIN_RULES = 8
"""Painted rectangles + stroked lines on a page from which it is worth running pdfplumber (tuned on
the corpus: table pages have 23–636, prose pages 0–3)."""

TEXT_OBJECT = re.compile(rb"\bBT\b.*?\bET\b", re.S)
"""A text object of a content stream (PDF 32000-1:2008 §9.4); text objects cannot nest or hold paths."""
_PAINTED_RULE = re.compile(rb"\s(?:re|l)\s+(?:h\s+)?(?:f\*?|F|S|s|B\*?|b\*?)(?=\s|$)")


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
        raise ExtractionError(f"encrypted PDF needs the 'cryptography' package ({one_line(exc)})") from None
    except (PdfReadError, PyPdfError, ValueError, KeyError, OSError) as exc:
        raise ExtractionError(f"damaged or truncated PDF ({type(exc).__name__}: {one_line(exc)}); "
                              "re-export or copy the file again") from None
    return reader


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def pypdf_page_text(reader: pypdf.PdfReader, index: int, warnings: list[str]) -> tuple[str, dict[str, int]]:
    """pypdf's text of one page and its lines set in a larger font (heading candidates)."""
    fragments: list[tuple[str, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        scale = abs(tm[0] * cm[0] + tm[1] * cm[2]) or 1.0
        if text.strip():
            fragments.append((nfkc(text), round(size * scale, 1)))

    try:
        text = reader.pages[index].extract_text(visitor_text=visit) or ""
    except Exception as exc:  # pypdf raises many types on odd pages; one page never stops a file
        warnings.append(f"page {index + 1}: text extraction failed ({one_line(exc)})")
        return "", {}
    return text, emphasised_lines(fragments)


def wants_tables(reader: pypdf.PdfReader, index: int, settings: ExtractionSettings) -> bool:
    if settings.pdf_tables != "auto":
        return settings.pdf_tables == "always"
    return count_rules(reader.pages[index]) >= TABULAR_MIN_RULES


def count_rules(page: pypdf.PageObject) -> int:
    """Painted rectangles and stroked line segments in the page's content stream (text objects
    stripped first); ~5 ms a page. Form XObjects are not followed."""
    data = content(page)
    if data is None:  # unreadable stream: let pdfplumber decide
        return TABULAR_MIN_RULES
    return len(_PAINTED_RULE.findall(TEXT_OBJECT.sub(b" ", data)))


def shows_text(page: pypdf.PageObject) -> bool:
    """The page's content stream holds a text object (``BT … ET``); form XObjects are not followed."""
    data = content(page)
    return data is not None and TEXT_OBJECT.search(data) is not None


def content(page: pypdf.PageObject) -> bytes | None:
    """The page's decoded content stream(s), or None when unreadable."""
    try:
        contents = page.get("/Contents")
        obj = contents.get_object() if contents is not None else None
        # not "if obj": an uncompressed stream's decoded dictionary is empty, hence falsy
        streams = list(obj) if isinstance(obj, pypdf.generic.ArrayObject) else [] if obj is None else [obj]
        return b"\n".join(s.get_object().get_data() for s in streams)
    except Exception:  # pypdf raises many types on odd streams
        return None
