"""Document titles from PDF metadata and running headers (issue 11): kept out of the quoted text, used
for chunk contexts, stored per document and read by the document-name catalog; images of text on
coloured table cells binarised locally before OCR."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from fpdf import FPDF
from PIL import Image, ImageDraw

from core.config import Settings
from core.retrieval import HybridRetriever
from core.scoping import DocumentScoper
from indexer.extract import extract_file
from indexer.extract.ocr import prepare
from indexer.extract.pdf_blocks import running_lines
from tests.incremental_helpers import build

BODY = ("Section {n}. The insurer pays the reasonable cost of treatment for an illness that starts "
        "during the policy period, up to the sum insured stated in the schedule, subject to the "
        "waiting periods and exclusions below. Claims are settled within thirty days.")


def header_pdf(path: Path, *, title: str | None, header: str, pages: int = 4) -> Path:
    """A PDF whose product name is printed only in the running header of every page."""
    pdf = FPDF()
    if title is not None:
        pdf.set_title(title)
    pdf.set_font("helvetica", size=11)
    for n in range(1, pages + 1):
        pdf.add_page()
        pdf.set_xy(10, 8)
        pdf.cell(0, 6, header)
        pdf.set_xy(10, 40)
        pdf.multi_cell(0, 6, BODY.format(n=n) + (" Hearing aid batteries are covered." if n == 3 else ""))
        pdf.set_xy(10, 280)
        pdf.cell(0, 6, f"Page {n} of {pages}")
    pdf.output(str(path))
    return path


def test_running_lines_keep_repeated_furniture_most_frequent_first() -> None:
    removed = ["Zephyr Care", "Page 1 of 3", "Zephyr Care", "Page 2 of 3", "Zephyr Care", "Stray"]
    assert running_lines(removed) == ["Zephyr Care", "Page 1 of 3"]


def test_header_name_is_a_title_hint_never_quoted_text(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    pdf = header_pdf(root / "wording.pdf", title="2022-Zephyr Care-POLICY WORDING.cdr", header="Zephyr Care")
    doc = extract_file(pdf, root, Settings.model_validate({"extraction": {"ocr": "never"}}))
    assert "Zephyr Care" in doc.header_lines
    assert all("Zephyr" not in b.text for b in doc.blocks)
    assert doc.metadata_title == "2022-Zephyr Care-POLICY WORDING.cdr"


def test_named_document_found_through_its_running_header(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    header_pdf(root / "a.pdf", title=None, header="Zephyr Care")
    header_pdf(root / "b.pdf", title=None, header="Aurora Shield")
    indexer, store, factory = build(tmp_path, root, extraction={"ocr": "never"})
    indexer.reconcile()
    assert store.documents()["a.pdf"].title == "Zephyr Care"
    scoper = DocumentScoper(store)
    question = "Does Zephyr Care pay for hearing aid batteries?"
    assert scoper.narrow(question, ["**"], ["a.pdf", "b.pdf"]) == ["a.pdf"]
    result = HybridRetriever(store, factory.embedder, Settings().retrieval, scoper=scoper).retrieve(question)
    assert result.named == ("a.pdf",) and {c.chunk.path for c in result.chunks} == {"a.pdf"}
    assert result.chunks[0].chunk.context.startswith("Zephyr Care")


def test_dark_text_on_a_coloured_cell_survives_local_binarisation() -> None:
    image = Image.new("RGB", (400, 120), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((200, 0, 399, 119), fill=(237, 125, 49))  # an orange table cell
    for x in range(220, 380, 20):
        draw.rectangle((x, 50, x + 6, 70), fill=(30, 30, 30))  # strokes of dark text on it
    cell = (slice(10, 110), slice(205, 395))
    global_bin, local_bin = np.asarray(prepare(image)), np.asarray(prepare(image, local=True))
    assert (global_bin[cell] == 0).mean() > 0.9  # Otsu: the whole cell turns black, text lost
    assert 0.02 < (local_bin[cell] == 0).mean() < 0.3  # Sauvola: only the strokes are black
