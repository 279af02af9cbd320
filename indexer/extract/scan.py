"""OCR decisions for one PDF page: replace an unusable text layer, and read images that hold text.

The caller finds the page's large images once (:func:`indexer.extract.pdfium_page.image_boxes`).

1. :func:`ocr_gate` – when :func:`indexer.extract.quality.assess_text` rejects the page's text
   (empty on a page with an image, or garbage), the page is rendered at ``extraction.ocr_dpi`` and
   OCR'd; when that read is not confident words its orientation is detected and the image turned
   upright (:func:`_recognize`). Without an engine, or
   when the OCR output is not words (:func:`indexer.extract.quality.ocr_verdict`: the orientation
   could not be found, or the scan is unreadable), the page number is recorded in ``needs_ocr`` and
   its text dropped, so the file is reported as needing OCR rather than silently indexed as noise.
2. :func:`image_text` – with ``extraction.ocr_images``, images covering ≥ 5% of a page that does have
   text (a table pasted as a picture) are cropped and OCR'd; the text is added after the page text.
   In the corpus 2 of 857 text pages qualify, so the cost stays small. Such images are binarised
   locally (:func:`indexer.extract.ocr.sauvola`): coloured table cells survive.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from core.config import ExtractionSettings
from indexer.extract.layout import Box
from indexer.extract.ocr import OcrEngine, OcrResult, prepare
from indexer.extract.pdfium_page import render
from indexer.extract.quality import MAX_DOUBTFUL_CONFIDENCE, assess_text, ocr_verdict

log = logging.getLogger(__name__)

MIN_IMAGE_CONFIDENCE = 60.0
"""Mean word confidence below which the OCR of an image is taken for a photo or a logo and dropped."""


@dataclass
class ScanNotes:
    """What the OCR stage did to a file: pages that still need OCR, warnings, OCR'd pages and time."""

    needs_ocr: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    ocr_pages: int = 0
    ocr_seconds: float = 0.0
    ocr_page_numbers: list[int] = field(default_factory=list)
    """1-based pages whose text (or an image's) came from OCR and was kept."""
    ocr_headings: dict[int, dict[str, int]] = field(default_factory=dict)
    """1-based page → the lines of its OCR text set in a larger font, with their heading level."""


def ocr_gate(page: Any, number: int, text: str, images: list[Box], ocr: OcrEngine | None,
             settings: ExtractionSettings, notes: ScanNotes) -> str | None:
    """Replacement text for a page whose text layer is unusable, or ``None`` to keep ``text``.

    Args:
        page: the PDFium page.
        number: 1-based page number (for notes).
        text: the text pypdf extracted.
        images: the page's large images (:func:`image_boxes`).
        ocr: the engine, or ``None`` (OCR off or tesseract missing).

    Returns:
        The OCR text; ``""`` when the page needs OCR but no engine is available; ``None`` when the
        text is usable.
    """
    verdict = assess_text(text, has_image=bool(images))
    if verdict.usable:
        return None
    if ocr is None:
        notes.needs_ocr.append(number)
        notes.warnings.append(f"page {number}: {verdict.reason}; needs OCR (OCR is off or "
                              "tesseract is missing)")
        return ""
    result, turned = _recognize(page, None, ocr, settings, notes, upright=True)
    text, confidence = result.text, result.confidence
    words = ocr_verdict(text, confidence)
    if not words.usable:
        notes.needs_ocr.append(number)
        notes.warnings.append(f"page {number}: {verdict.reason}; OCR with {ocr.name} gave {words.reason}"
                              f"{'' if turned is not None else ' (orientation not found)'}; needs OCR")
        return ""
    notes.ocr_page_numbers.append(number)
    notes.ocr_headings[number] = result.headings
    notes.warnings.append(f"page {number}: {verdict.reason}; OCR'd with {ocr.name} "
                          f"(confidence {confidence:.0f}{f', turned {turned}°' if turned else ''})")
    return text


def image_text(page: Any, number: int, images: list[Box], ocr: OcrEngine | None,
               settings: ExtractionSettings, notes: ScanNotes) -> str:
    """OCR text of the large ``images`` of a page that has a usable text layer (``""`` when none)."""
    if ocr is None or not settings.ocr_images or page.get_rotation() % 360:
        return ""
    texts = []
    for box in images:
        result, _ = _recognize(page, box, ocr, settings, notes, upright=False)
        text, confidence = result.text, result.confidence
        if text.strip() and confidence >= MIN_IMAGE_CONFIDENCE:
            texts.append(text)
            notes.ocr_page_numbers.append(number)
        else:
            log.debug("page %d: image OCR dropped (confidence %.0f)", number, confidence)
    return "\n\n".join(texts)


def _recognize(page: Any, region: Box | None, ocr: OcrEngine, settings: ExtractionSettings,
               notes: ScanNotes, upright: bool) -> tuple[OcrResult, int | None]:
    """OCR result of the page (or ``region``), and with ``upright`` the degrees the
    image was turned clockwise (None: orientation not found, not turned). The orientation is asked
    for (Tesseract OSD, about as costly as the OCR itself) only when the upright read does not come
    out as confident words (:func:`~indexer.extract.quality.ocr_verdict` and a confidence of at
    least :data:`~indexer.extract.quality.MAX_DOUBTFUL_CONFIDENCE`); then a turned page is read
    again upright (PIL turns counter-clockwise, hence ``-turned``)."""
    t0 = time.perf_counter()
    image = render(page, settings.ocr_dpi, region)
    result = ocr.recognize(prepare(image, local=region is not None), settings.ocr_language)
    turned: int | None = 0
    if upright and not (ocr_verdict(result.text, result.confidence).usable
                        and result.confidence >= MAX_DOUBTFUL_CONFIDENCE):
        turned = ocr.orientation(image)
        if turned:
            result = ocr.recognize(prepare(image.rotate(-turned, expand=True)), settings.ocr_language)
    notes.ocr_pages += 1
    notes.ocr_seconds += time.perf_counter() - t0
    return result, turned
