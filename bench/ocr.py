"""OCR cost per page and the cost of the page-geometry pass, on ../shared/corpus.

    .venv/bin/python bench/ocr.py [--dpis 200,300]

1. Each page of ``hard/PerksPlus_scanned.pdf`` rendered with PDFium and OCR'd with tesseract at each
   dpi, with the median+Otsu clean-up (:func:`indexer.extract.ocr.prepare`) and, at the first dpi,
   without it: seconds per page and whether "$1000" (p3) and "Food and supplements" (p4) were read.
2. The geometry every PDF page now pays (image check + column detection with PDFium) as ms/page
   and as a ratio of pypdf's text extraction of the same pages in the same run.
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

import pypdfium2 as pdfium

from indexer.extract.ocr import TesseractOcr, prepare
from indexer.extract.pdf_objects import has_image_xobject, open_pdf
from indexer.extract.pdfium_page import column_text, image_boxes, render

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
SCANNED = CORPUS / "hard" / "PerksPlus_scanned.pdf"
EXPECTED = {3: "$1000", 4: "Food and supplements"}


def ocr_run(engine: TesseractOcr, dpi: int, clean: bool) -> tuple[float, int, int]:
    """OCR every scanned page; returns (seconds, pages, expected strings found)."""
    doc = pdfium.PdfDocument(str(SCANNED))
    found = 0
    t0 = time.perf_counter()
    for i in range(len(doc)):
        image = render(doc[i], dpi)
        text = engine.recognize(prepare(image) if clean else image, "eng").text
        found += EXPECTED.get(i + 1, "\0") in text
    return time.perf_counter() - t0, len(doc), found


def geometry_run() -> tuple[float, float, int]:
    """Over every readable corpus PDF: seconds of pypdf's text extraction, seconds of the added
    geometry (image check + column detection, as :func:`extract_pdf` does it), and pages."""
    pages, text_s, geom_s = 0, 0.0, 0.0
    for path in sorted(CORPUS.rglob("*.pdf")):
        try:
            reader = open_pdf(path)
            doc = pdfium.PdfDocument(str(path), password="")
        except Exception:  # broken files are not the subject
            continue
        for i in range(len(doc)):
            t0 = time.perf_counter()
            reader.pages[i].extract_text()
            t1 = time.perf_counter()
            if has_image_xobject(reader.pages[i]):
                image_boxes(doc[i])
            column_text(doc[i])
            geom_s += time.perf_counter() - t1
            text_s += t1 - t0
            pages += 1
    return text_s, geom_s, pages


def main() -> None:
    """Print the OCR figures per dpi and the geometry cost."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--dpis", default="200,300")
    dpis = [int(d) for d in ap.parse_args().dpis.split(",")]
    cmd = shutil.which("tesseract")
    if cmd is None:
        raise SystemExit("tesseract is not installed (make system-deps)")
    engine = TesseractOcr(cmd)
    runs = [(dpi, True) for dpi in dpis] + [(dpis[0], False)]
    base = None
    for dpi, clean in runs:
        secs, pages, found = ocr_run(engine, dpi, clean)
        base = base or secs
        print(f"ocr dpi={dpi} clean={clean!s:5s} pages={pages} s/page={secs / pages:.2f} "
              f"ratio={secs / base:.2f} expected_found={found}/{len(EXPECTED)}")
    text_s, geom_s, pages = geometry_run()
    print(f"pages={pages} pypdf_text ms/page={1e3 * text_s / pages:.1f} "
          f"geometry ms/page={1e3 * geom_s / pages:.1f} geometry/pypdf={geom_s / text_s:.2f}")


if __name__ == "__main__":
    main()
