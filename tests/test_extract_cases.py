"""Every document input of ../shared/cases/ gives the values its README names, in the extracted text
(one test each; the answers of ``policybot ask`` are in tests/test_ask_cases.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.config import Settings
from core.types import ExtractedDocument
from indexer.chunker import Chunker
from indexer.extract import extract_file
from indexer.extract.ocr import FakeOcr

CASES = Path(__file__).resolve().parents[1].parent / "shared" / "cases"


def extract(rel: str, **kwargs: object) -> ExtractedDocument:
    path = CASES / rel
    return extract_file(path, path.parent, Settings(), **kwargs)  # type: ignore[arg-type]


def text_of(doc: ExtractedDocument) -> str:
    return "\n".join(b.text for b in doc.blocks)


def chunks_of(doc: ExtractedDocument) -> list[str]:
    chunker = Chunker(Settings().chunking, lambda t: len(t.split()), 256)
    return [c.text for c in chunker.chunk(doc)]


def test_content_controls_cover_and_table_are_extracted() -> None:
    doc = extract("docx-content-controls/content_controls.docx")
    text = text_of(doc)
    assert "Effective date: 1 July 2025." in text  # cover page in a block-level content control
    assert "| Support agent | 1 |" in text  # table inside a content control
    assert "EUR 400 once every three years" in text  # inline control (already worked)


def test_non_breaking_hyphens_are_hyphens_and_soft_hyphens_vanish() -> None:
    text = text_of(extract("docx-nonbreaking-hyphen/nonbreaking_hyphen.docx"))
    assert "2-3 days per week" in text
    assert "Part-time employees" in text
    assert "grades 1-4 is one month" in text
    assert "eligible for reimbursement." in text


def test_merged_grade_cell_is_carried_down_each_city_row() -> None:
    doc = extract("pdf-table-merged-rows/rowspan_allowances.pdf")
    table = next(b.text for b in doc.blocks if b.kind == "table")
    assert "| A | Munich | 45 |" in table
    assert "| B | Hamburg | 32 |" in table
    assert "Berlin Munich Hamburg" not in table


@pytest.mark.parametrize("name", ["sentence_across_pages.pdf", "sentence_across_pages_furniture_last.pdf"])
def test_sentence_runs_across_the_page_break_without_furniture(name: str) -> None:
    doc = extract(f"pdf-sentence-across-page-break/{name}")
    joined = next(b for b in doc.blocks if "moving costs up to" in b.text)
    assert "moving costs up to\nEUR 5,000, provided that" in joined.text
    assert (joined.page, joined.page_end) == (1, 2)
    chunks = chunks_of(doc)
    assert any("moving costs up to EUR 5,000, provided that the receipts" in c for c in chunks)
    furniture = ("Company Handbook - Relocation", "Confidential - internal use only", "Page 1 of 2")
    assert not any(f in c for c in chunks for f in furniture)
    assert doc.report.furniture_lines == 4


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract (make system-deps)")
@pytest.mark.parametrize("name", ["scan_rotated_90.pdf", "control_scan_upright.pdf"])
def test_scanned_page_is_turned_upright_before_ocr(name: str) -> None:
    doc = extract(f"ocr-rotated-scan/{name}")
    assert "acknowledges every report within\nseven days" in text_of(doc)
    assert doc.report.ocr_pages == [1] and doc.needs_ocr_pages == []
    assert all(b.kind in ("ocr", "heading") for b in doc.blocks)


def test_ocr_that_is_not_words_without_an_orientation_needs_ocr() -> None:
    garbage = "ay} Jaye suead aay 10) ase Jo spuoday pea; pue aduayo snouas e s! uosuad Burpodas " \
              "ysurebe pue sAep Yoda Auana adyjo sul ayy ul auljyjoy YBnouyy AjsnowAuoue apew"
    doc = extract("ocr-rotated-scan/scan_rotated_90.pdf", ocr=FakeOcr([garbage], confidence=60, rotate=None))
    assert doc.needs_ocr_pages == [1] and doc.report.needs_ocr_pages == [1]
    assert "Jaye" not in text_of(doc)
    assert any("orientation not found" in w and "needs OCR" in w for w in doc.warnings)


def test_utf16_text_file_is_decoded_by_its_bom() -> None:
    doc = extract("text-utf16/leave_austria_utf16.txt")
    assert "Employees in Austria receive 27 days of paid annual leave per year." in text_of(doc)
    assert doc.report.encoding == "utf-16-le (BOM)"


def test_markdown_html_comments_never_reach_the_text() -> None:
    doc = extract("md-html-comments/travel_policy.md")
    text = text_of(doc)
    assert "EUR 45" in text and "Submit expense reports within 30 days" in text
    assert "EUR 60" not in text and "Draft note" not in text
    assert "Business class" not in text and "4 hours" not in text
    assert doc.report.hidden_removed == 2
