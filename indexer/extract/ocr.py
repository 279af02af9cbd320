"""OCR behind a small protocol: Tesseract (through pytesseract) for real, a canned fake for tests.

Tesseract (https://github.com/tesseract-ocr/tesseract) is a separate binary (Debian:
``tesseract-ocr`` plus ``tesseract-ocr-<lang>`` packages); pytesseract
(https://github.com/madmaze/pytesseract) runs it as a subprocess per image. :func:`make_ocr_engine`
returns ``None`` when OCR is off (``extraction.ocr: never``) or the binary is missing, and the PDF
extractor then reports the pages as needing OCR instead of indexing nothing.

Images are cleaned before recognition (:func:`prepare`): a 3×3 median filter removes scanner speckle
and Otsu's threshold (N. Otsu, "A threshold selection method from gray-level histograms", IEEE SMC
1979) binarises the page. On the shared corpus's scanned flyer this turns one page, where Tesseract
read only noise from the raw render, into the expected bullet, and makes OCR 3.2× faster (bench/ocr.py).
200 dpi is the default: at 300 dpi the same pages took 2.2× longer and that page's bullet was lost.

Images of text on a text page (a table pasted as a picture, :func:`indexer.extract.scan.image_text`)
are binarised with Sauvola's local threshold instead (J. Sauvola & M. Pietikäinen, "Adaptive document
image binarization", Pattern Recognition 33, 2000): their cells are often coloured, and one global
threshold between the white page and an orange cell turns the cell and its dark text both black
(a benefits table pasted as a picture lost its row labels and header that way; read locally, every
cell came out).

Before a page is OCR'd its orientation is found with Tesseract's OSD (:meth:`OcrEngine.orientation`)
and the image turned upright: a page scanned on its side otherwise reads as nonsense.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import statistics
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from PIL import Image, ImageFilter

from core.config import ExtractionSettings
from indexer.extract.headings import title_like

log = logging.getLogger(__name__)

MIN_WORD_CONFIDENCE = 30.0
"""Tesseract word confidence (0–100) below which a word is dropped as noise."""
MIN_OSD_CONFIDENCE = 2.0
"""Tesseract OSD ``orientation_conf`` below which its answer is not used (its own docs call values
under ~2 unreliable; the corpus's scans read 15)."""
MAX_BINARY_THRESHOLD = 200
"""Upper clamp of the Otsu threshold: on an almost blank page Otsu splits JPEG grey from white (233
on that flyer's sparse page) and the text vanishes; 160–200 all read that page correctly."""


OCR_LARGER = 1.3
"""Median word height of a line, as a multiple of the page's median word height, from which a
title-like line counts as set in a larger font. A word box spans ascenders to descenders, so body
lines full of them reach ~1.2 (a scanned corpus page at 200 dpi: body words 22 px, a bullet line of
tall words 26, its titles 30)."""
OCR_LARGEST = 1.6
"""The same ratio for a top-level title (as :data:`indexer.extract.headings.LARGEST_FONT`)."""


@dataclass(frozen=True)
class OcrResult:
    """Recognised text (lines joined by ``\\n``, paragraphs by a blank line), the mean word
    confidence 0–100 of the words kept (0 when none) and the title-like lines set in a larger font
    with their heading level (:func:`large_lines`; empty without word heights)."""

    text: str
    confidence: float
    headings: dict[str, int] = field(default_factory=dict)


class OcrEngine(Protocol):
    """Turns one page or region image into text."""

    name: str

    def recognize(self, image: Image.Image, language: str) -> OcrResult:
        """OCR ``image`` (any PIL mode) in ``language`` (Tesseract codes, e.g. ``"eng+deu"``)."""
        ...

    def orientation(self, image: Image.Image) -> int | None:
        """Degrees (0, 90, 180, 270) to turn ``image`` clockwise so its text stands upright, or
        ``None`` when the orientation cannot be found (too little text, low confidence)."""
        ...


class TesseractOcr:
    """The real engine: ``tesseract`` through pytesseract's ``image_to_data`` (words with confidences).

    Tesseract's OpenMP threads are limited to one (``OMP_THREAD_LIMIT=1`` while tesseract starts,
    unless set): on the shared 2-core machine this made a page 4.6× faster (10.8 s → 2.3 s). The
    variable is restored after each call: left set, it would also reach torch's OpenMP runtime if
    the embedder first runs later in the same process, and change its embeddings.
    """

    name = "tesseract"

    def __init__(self, cmd: str) -> None:
        self.cmd = cmd

    def recognize(self, image: Image.Image, language: str) -> OcrResult:
        """OCR one image. Raises ``pytesseract.TesseractError`` on a missing language pack."""
        import pytesseract

        pytesseract.pytesseract.tesseract_cmd = self.cmd
        with _one_omp_thread():
            data = pytesseract.image_to_data(image, lang=language, output_type=pytesseract.Output.DICT)
        return words_to_result(data["text"], [float(c) for c in data["conf"]],
                               list(zip(data["block_num"], data["par_num"], data["line_num"], strict=True)),
                               [int(h) for h in data["height"]])

    def orientation(self, image: Image.Image) -> int | None:
        """Tesseract's orientation and script detection (``--psm 0``, the ``osd`` traineddata): its
        ``rotate`` when ``orientation_conf`` ≥ :data:`MIN_OSD_CONFIDENCE`; None when OSD fails
        (too few characters, ``osd`` not installed) or is unsure."""
        import pytesseract

        pytesseract.pytesseract.tesseract_cmd = self.cmd
        try:
            with _one_omp_thread():
                osd = pytesseract.image_to_osd(image, output_type=pytesseract.Output.DICT)
        except pytesseract.TesseractError as exc:
            log.debug("orientation detection failed: %s", " ".join(str(exc).split())[:200])
            return None
        if float(osd.get("orientation_conf", 0.0)) < MIN_OSD_CONFIDENCE:
            return None
        return int(osd.get("rotate", 0)) % 360


@contextlib.contextmanager
def _one_omp_thread() -> Iterator[None]:
    """``OMP_THREAD_LIMIT=1`` in the environment tesseract inherits, for the duration of the block
    (pytesseract offers no ``env`` argument); a value the user set is left alone."""
    if "OMP_THREAD_LIMIT" in os.environ:
        yield
        return
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        yield
    finally:
        os.environ.pop("OMP_THREAD_LIMIT", None)


class FakeOcr:
    """In-memory engine for tests: returns ``texts`` in turn (the last one repeats) and counts calls;
    ``rotate`` is what :meth:`orientation` answers."""

    name = "fake"

    def __init__(self, texts: Sequence[str], confidence: float = 90.0, rotate: int | None = 0) -> None:
        self.texts = list(texts) or [""]
        self.confidence = confidence
        self.rotate = rotate
        self.calls: list[tuple[int, int]] = []

    def orientation(self, image: Image.Image) -> int | None:
        """The canned ``rotate``."""
        return self.rotate

    def recognize(self, image: Image.Image, language: str) -> OcrResult:
        """The next canned text; records the image size (pixels)."""
        self.calls.append(image.size)
        text = self.texts[min(len(self.calls) - 1, len(self.texts) - 1)]
        return OcrResult(text=text, confidence=self.confidence if text else 0.0)


def make_ocr_engine(settings: ExtractionSettings) -> OcrEngine | None:
    """The configured engine, or ``None`` when ``ocr`` is ``"never"`` or ``tesseract_cmd`` is not an
    executable on PATH (then scanned pages are reported as needing OCR)."""
    if settings.ocr == "never":
        return None
    cmd = shutil.which(settings.tesseract_cmd)
    if cmd is None:
        log.info("tesseract not found (%s); scanned pages will be reported as needing OCR",
                 settings.tesseract_cmd)
        return None
    return TesseractOcr(cmd)


def words_to_result(words: Sequence[str], confs: Sequence[float], lines: Sequence[tuple[int, int, int]],
                    heights: Sequence[int] | None = None) -> OcrResult:
    """Rebuild text from Tesseract's word table: words with confidence ≥ :data:`MIN_WORD_CONFIDENCE`
    joined by spaces, a newline between lines, a blank line between paragraphs/blocks; with the
    words' pixel ``heights``, the lines set in a larger font (:func:`large_lines`)."""
    out: list[str] = []
    kept: list[float] = []
    per_line: dict[tuple[int, int, int], list[tuple[str, int]]] = {}
    prev: tuple[int, int, int] | None = None
    for i, (word, conf, key) in enumerate(zip(words, confs, lines, strict=True)):
        word = word.strip()
        if not word or conf < MIN_WORD_CONFIDENCE:
            continue
        if prev is not None:
            out.append(" " if key == prev else "\n" if key[:2] == prev[:2] else "\n\n")
        out.append(word)
        kept.append(conf)
        per_line.setdefault(key, []).append((word, heights[i] if heights is not None else 0))
        prev = key
    return OcrResult(text="".join(out), confidence=sum(kept) / len(kept) if kept else 0.0,
                     headings=large_lines(list(per_line.values())) if heights is not None else {})


def large_lines(lines: Sequence[Sequence[tuple[str, int]]]) -> dict[str, int]:
    """Title-like lines (:func:`~indexer.extract.headings.title_like`) whose median word height is at
    least :data:`OCR_LARGER` × the page's median word height, mapped to level 1 (≥
    :data:`OCR_LARGEST`) or 2; ``lines``: each line's ``(word, height in pixels)``. The font-size rule
    of :func:`~indexer.extract.headings.emphasised_lines` for scanned pages."""
    body = statistics.median([h for line in lines for _, h in line] or [0])
    out: dict[str, int] = {}
    for line in lines:
        text = " ".join(w for w, _ in line)
        height = statistics.median(h for _, h in line)
        if body > 0 and height >= OCR_LARGER * body and title_like(text):
            out.setdefault(text, 1 if height >= OCR_LARGEST * body else 2)
    return out


def prepare(image: Image.Image, local: bool = False) -> Image.Image:
    """Grayscale, 3×3 median filter (speckle), then binarisation: Otsu's global threshold (clamped to
    :data:`MAX_BINARY_THRESHOLD`), or with ``local`` Sauvola's (:func:`sauvola`); returns a mode-"L"
    image of the same size."""
    gray = image.convert("L").filter(ImageFilter.MedianFilter(3))
    if local:
        return sauvola(gray)
    threshold = min(otsu_threshold(np.asarray(gray)), MAX_BINARY_THRESHOLD)
    return gray.point(lambda v: 255 if v > threshold else 0)


SAUVOLA_WINDOW = 41
"""Window side in pixels (about two text lines at the 200 dpi default)."""
SAUVOLA_K = 0.2
SAUVOLA_R = 128.0


def sauvola(gray: Image.Image, window: int = SAUVOLA_WINDOW, k: float = SAUVOLA_K,
            r: float = SAUVOLA_R) -> Image.Image:
    """Sauvola binarisation of a mode-"L" image: a pixel is white when brighter than
    ``m · (1 + k · (s / r − 1))``, with ``m``/``s`` the mean and standard deviation of the
    ``window``×``window`` square around it (integral images, so linear time; Sauvola & Pietikäinen
    2000, k = 0.2 and R = 128 as there)."""
    a = np.asarray(gray, dtype=np.float64)
    h, w = a.shape
    pad = np.pad(a, window // 2 + 1, mode="edge")
    ii, ii2 = pad.cumsum(0).cumsum(1), (pad * pad).cumsum(0).cumsum(1)

    def box(t: np.ndarray) -> np.ndarray:
        return t[window:window + h, window:window + w] - t[:h, window:window + w] \
            - t[window:window + h, :w] + t[:h, :w]

    n = window * window
    mean = box(ii) / n
    std = np.sqrt(np.maximum(box(ii2) / n - mean * mean, 0.0))
    out = np.where(a > mean * (1.0 + k * (std / r - 1.0)), 255, 0).astype(np.uint8)
    return Image.fromarray(out, mode="L")


def otsu_threshold(pixels: np.ndarray) -> int:
    """Otsu's threshold (0–255) of an 8-bit grayscale array: maximises between-class variance."""
    hist = np.bincount(pixels.ravel(), minlength=256).astype(np.float64)
    total = hist.sum()
    if total == 0:
        return 127
    weight_bg = np.cumsum(hist)
    mean_cum = np.cumsum(hist * np.arange(256))
    weight_fg = total - weight_bg
    with np.errstate(divide="ignore", invalid="ignore"):
        between = (mean_cum[-1] * weight_bg - total * mean_cum) ** 2 / (weight_bg * weight_fg)
    between = np.nan_to_num(between)
    return int(np.argmax(between))
