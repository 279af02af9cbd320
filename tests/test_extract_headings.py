"""Section labels for citations on generated PDFs (fpdf2): the nearest real heading above the text,
never a list item, a continuation line, a measurement on its own line or a running header; a heading
at the foot of a page does not move the citation a page early."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from core.config import Settings
from core.types import ExtractedDocument
from indexer.chunker import Chunker
from indexer.extract import extract_file
from indexer.extract.ocr import words_to_result


class _Doc(FPDF):
    def header(self) -> None:
        self.set_font("helvetica", "B", 9)
        self.cell(0, 6, "GOLDEN SHIELD PLAN", new_x="LMARGIN", new_y="NEXT")
        self.ln(4)


def _lines(pdf: FPDF, lines: list[str], bold: bool = False) -> None:
    pdf.set_font("helvetica", "B" if bold else "", 10)
    for line in lines:
        pdf.cell(0, 5, line, new_x="LMARGIN", new_y="NEXT")


def build(path: Path) -> None:
    pdf = _Doc()
    pdf.set_auto_page_break(False)
    pdf.add_page()
    _lines(pdf, ["1. Covered Treatment"], bold=True)
    _lines(pdf, ["Treatment is covered when it is medically necessary and prescribed",
                 "by a registered practitioner. Assisted reproduction such as IVF, ZIFT, GIFT,",
                 "ICSI",
                 "is excluded. Correction of eye sight is excluded for refractive errors less than",
                 "7.5 dioptres",
                 "in either eye.",
                 "a) WAITING PERIOD APPLIES",
                 "b) NO CLAIM IS PAID IN THE FIRST 30 DAYS"])
    pdf.set_y(270)
    _lines(pdf, ["2. Claims Procedure"], bold=True)
    for first, second in (("Claims are filed within thirty days of discharge with the original bills.",
                           "The claims desk confirms receipt by e-mail."),
                          ("Cashless treatment needs the insurer's approval before admission.",
                           "Network hospitals request it on the member's behalf.")):
        pdf.add_page()
        _lines(pdf, [first, second])
    pdf.output(str(path))


def extract(tmp_path: Path) -> ExtractedDocument:
    build(tmp_path / "plan.pdf")
    return extract_file(tmp_path / "plan.pdf", tmp_path, Settings())


def test_bold_numbered_line_is_a_heading(tmp_path: Path) -> None:
    doc = extract(tmp_path)
    assert [(b.page, b.text) for b in doc.blocks if b.kind == "heading"] == [
        (1, "1. Covered Treatment"), (1, "2. Claims Procedure")]


def test_continuations_measurements_and_list_items_are_never_labels(tmp_path: Path) -> None:
    doc = extract(tmp_path)
    body = next(b for b in doc.blocks if "ZIFT" in b.text)
    assert body.section == "1. Covered Treatment"
    assert "GIFT,\nICSI\nis excluded" in body.text and "less than\n7.5 dioptres\nin either eye." in body.text
    labels = {b.section.split(" > ")[-1] for b in doc.blocks}
    assert labels == {"1. Covered Treatment", "2. Claims Procedure"}


def test_running_header_is_neither_text_nor_label(tmp_path: Path) -> None:
    doc = extract(tmp_path)
    assert all("GOLDEN SHIELD PLAN" not in b.text and "GOLDEN SHIELD PLAN" not in b.section
               for b in doc.blocks)


def test_heading_at_the_foot_of_a_page_cites_the_next_page(tmp_path: Path) -> None:
    doc = extract(tmp_path)
    chunks = Chunker(Settings().chunking, lambda t: len(t.split()), 256).chunk(doc)
    claims = next(c for c in chunks if "Claims are filed" in c.text)
    assert claims.text.startswith("2. Claims Procedure\n")
    assert (claims.page, claims.section) == (2, "2. Claims Procedure")


def test_ocr_lines_set_larger_than_the_body_are_headings() -> None:
    """Tesseract's word heights (px): titles of 30 over body words of 22 are headings, a bullet line of
    tall words (26: ascenders and descenders) is not, nor is a large line that reads like a sentence."""
    lines = [("Overview", 30, (1, 1, 1)),
             ("Employees may expense fitness programs up to the yearly limit.", 22, (1, 2, 1)),
             ("What is Covered?", 30, (2, 1, 1)),
             ("Gym memberships", 26, (3, 1, 1)),
             ("Claims are paid monthly.", 31, (4, 1, 1)),
             ("Receipts are kept for audit by the finance team each year.", 22, (5, 1, 1))]
    words = [(w, h, key) for text, h, key in lines for w in text.split()]
    result = words_to_result([w for w, _, _ in words], [95.0] * len(words), [k for _, _, k in words],
                             [h for _, h, _ in words])
    assert result.headings == {"Overview": 2, "What is Covered?": 2}
    assert words_to_result(["Overview"], [95.0], [(1, 1, 1)]).headings == {}
