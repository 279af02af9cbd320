"""A heading set in a larger or bold font on a page that holds a table starts its section there, as
on a page without tables (issue 11, item 9): the table under it is cited under that heading, not
under the previous page's (generated PDF, fpdf2)."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from core.config import Settings
from core.types import ExtractedDocument
from indexer.extract import extract_file


def _text(pdf: FPDF, lines: list[str], size: float = 10, bold: bool = False) -> None:
    pdf.set_font("helvetica", "B" if bold else "", size)
    for line in lines:
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")


def build(path: Path) -> None:
    """Page 1: a bold numbered heading and body text; page 2: a larger-font title, a sentence, a
    ruled table of limits and a bold question title without "?" over a sentence."""
    pdf = FPDF()
    pdf.add_page()
    _text(pdf, ["1. Waiting Periods"], bold=True)
    _text(pdf, ["Illnesses are covered after a waiting period of thirty days from the start date.",
                "Accidents are covered from the first day of the policy."])
    pdf.add_page()
    _text(pdf, ["Schedule of Limits"], size=16)
    _text(pdf, ["The limits below apply per member and per policy year."])
    pdf.set_font("helvetica", "", 10)
    with pdf.table(col_widths=(60, 60)) as table:
        rows = [("Benefit", "Limit")] + [(f"Benefit {n}", f"Rs {n},000 per trip") for n in range(1, 9)]
        for row in rows:
            cells = table.row()
            for cell in row:
                cells.cell(cell)
    pdf.ln(4)
    _text(pdf, ["3. Who is eligible"], size=12, bold=True)
    _text(pdf, ["Employees of Initech working at least twenty hours a week are eligible."])
    pdf.output(str(path))


def extract(tmp_path: Path) -> ExtractedDocument:
    build(tmp_path / "acme_plan.pdf")
    return extract_file(tmp_path / "acme_plan.pdf", tmp_path, Settings())


def test_larger_font_title_on_a_table_page_is_a_heading(tmp_path: Path) -> None:
    doc = extract(tmp_path)
    page2 = [b for b in doc.blocks if b.page == 2]
    assert any(b.kind == "table" for b in page2), [(b.kind, b.text) for b in page2]
    assert [b.text for b in page2 if b.kind == "heading"] == ["Schedule of Limits", "3. Who is eligible"]


def test_table_under_a_title_is_cited_under_it_not_the_previous_page(tmp_path: Path) -> None:
    doc = extract(tmp_path)
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.section.split(" > ")[-1] == "Schedule of Limits"
    sentence = next(b for b in doc.blocks if "per member" in b.text)
    assert sentence.section.split(" > ")[-1] == "Schedule of Limits"


def test_question_title_without_question_mark_is_a_heading(tmp_path: Path) -> None:
    doc = extract(tmp_path)
    sentence = next(b for b in doc.blocks if "twenty hours" in b.text)
    assert sentence.kind == "text"
    assert sentence.section.split(" > ")[-1] == "3. Who is eligible"
