"""Extraction quality gates: OCR of scanned/garbage pages, "needs OCR" without tesseract, reading
order of two-column and rotated pages."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pypdf
import pytest
from fpdf import FPDF

from core.config import ExtractionSettings, Settings
from core.types import ExtractedDocument
from indexer.extract import extract_file
from indexer.extract.headings import heading_level
from indexer.extract.layout import Box, reading_regions
from indexer.extract.ocr import FakeOcr, TesseractOcr, make_ocr_engine
from indexer.extract.quality import assess_text
from indexer.extract.tables import column_list_text

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
SCANNED = CORPUS / "hard" / "PerksPlus_scanned.pdf"
PROSE = ("The policy covers the insured person for all medical expenses that are incurred in a hospital "
         "during the policy period, subject to the limits of the schedule and to the waiting periods "
         "and the exclusions that are listed in the section below. ")


def page_text(doc: ExtractedDocument, page: int) -> str:
    return "\n".join(b.text for b in doc.blocks if b.page == page)


def shifted(text: str, by: int = 3) -> str:
    """Letters shifted like a font whose codes map to the wrong glyph names."""
    return "".join(chr((ord(c) - 97 + by) % 26 + 97) if "a" <= c <= "z" else c for c in text)


@pytest.fixture(scope="module")
def scanned() -> ExtractedDocument:
    """PerksPlus_scanned.pdf OCR'd with the real tesseract, once for the module."""
    return extract_file(SCANNED, CORPUS, Settings())


def test_scanned_page_is_ocrd_to_the_answer(scanned: ExtractedDocument) -> None:
    assert "$1000" in page_text(scanned, 3)
    assert scanned.needs_ocr_pages == []


def test_single_bullet_on_a_noisy_page_survives_ocr(scanned: ExtractedDocument) -> None:
    assert "Food and supplements" in page_text(scanned, 4)


def test_titles_of_a_scanned_page_start_sections(scanned: ExtractedDocument) -> None:
    """The OCR'd page's larger-font titles are heading blocks, so its text is cited under a section."""
    assert [b for b in scanned.blocks if b.page == 3 and b.kind == "heading"]
    assert all(b.section for b in scanned.blocks if b.page == 3)


def test_ocr_is_recorded_in_warnings(scanned: ExtractedDocument) -> None:
    assert any("page 3: no text layer" in w and "OCR'd with tesseract" in w for w in scanned.warnings)


def test_without_tesseract_the_file_needs_ocr() -> None:
    settings = Settings(extraction=ExtractionSettings(tesseract_cmd="/nonexistent/tesseract"))
    doc = extract_file(SCANNED, CORPUS, settings)
    assert doc.needs_ocr_pages == [1, 2, 3, 4]
    assert doc.blocks == []
    assert any("needs OCR" in w for w in doc.warnings)


def test_ocr_never_reports_needs_ocr_even_with_an_engine() -> None:
    doc = extract_file(SCANNED, CORPUS, Settings(extraction=ExtractionSettings(ocr="never")),
                       ocr=FakeOcr(["should not be used"]))
    assert doc.needs_ocr_pages == [1, 2, 3, 4]


def test_injected_engine_reads_every_scanned_page() -> None:
    fake = FakeOcr(["Cover page.", "Disclaimer.", "Fitness programs up to $1000.", "Food."])
    doc = extract_file(SCANNED, CORPUS, Settings(), ocr=fake)
    assert len(fake.calls) == 4
    assert page_text(doc, 3) == "Fitness programs up to $1000."


def test_factory_finds_tesseract_or_reports_none() -> None:
    assert isinstance(make_ocr_engine(ExtractionSettings()), TesseractOcr)
    assert make_ocr_engine(ExtractionSettings(tesseract_cmd="/nonexistent/tesseract")) is None
    assert make_ocr_engine(ExtractionSettings(ocr="never")) is None


def test_image_only_table_on_a_text_page_is_ocrd() -> None:
    doc = extract_file(CORPUS / "hr" / "Contoso_Benefit_Options.pdf", CORPUS, Settings())
    assert "$71.00" in page_text(doc, 4)


def test_cid_runs_are_garbage() -> None:
    verdict = assess_text("(cid:49)(cid:50)(cid:3)(cid:51) " * 20 + "Page 3", has_image=False)
    assert not verdict.usable
    assert "(cid:N)" in verdict.reason


def test_shifted_letters_are_garbage_but_prose_is_not() -> None:
    assert not assess_text(shifted(PROSE.lower()), has_image=False).usable
    assert assess_text(PROSE, has_image=False).usable


def test_empty_page_needs_ocr_only_with_an_image() -> None:
    assert not assess_text("  3 ", has_image=True).usable
    assert assess_text("", has_image=False).usable


def _pdf_with_text(lines: list[str]) -> bytes:
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    for i, line in enumerate(lines):
        pdf.text(20, 20 + i * 6, line)
    return bytes(pdf.output())


def test_garbage_pdf_page_is_replaced_by_ocr(tmp_path: Path) -> None:
    f = tmp_path / "garbage.pdf"
    f.write_bytes(_pdf_with_text(["(cid:41)(cid:72)(cid:72)(cid:86)(cid:3)(cid:83)(cid:68)(cid:76)"] * 8))
    doc = extract_file(f, tmp_path, Settings(), ocr=FakeOcr(["Fees paid by the employer."]))
    assert page_text(doc, 1) == "Fees paid by the employer."
    assert "garbage text" in doc.warnings[0]


def test_two_column_list_is_read_column_by_column() -> None:
    doc = extract_file(CORPUS / "family_medicare.pdf", CORPUS, Settings())
    text = page_text(doc, 13)
    assert text.index("4. Cataract") < text.index("5. Acid Peptic") < text.index("9. Non infective") \
        < text.index("10. Piles") < text.index("13. Calculus")


def test_layout_reads_left_column_before_right() -> None:
    boxes = [Box(50, 100 + 12 * i, 280, 110 + 12 * i) for i in range(6)]
    boxes += [Box(320, 100 + 12 * i, 550, 110 + 12 * i) for i in range(6)]
    boxes.insert(0, Box(50, 80, 550, 90))  # a full-width title above the columns
    regions = reading_regions(boxes, 600, 800)
    assert regions is not None
    assert [(r.x0 < 300, r.x1 > 300) for r in regions] == [(True, True), (True, False), (False, True)]


def test_layout_keeps_a_label_value_table_row_by_row() -> None:
    """Short labels and values on shared baselines, widths varying 20-140 pt: a table, not columns."""
    boxes = [Box(50, 100 + 12 * i, 70 + 60 * (i % 3), 110 + 12 * i) for i in range(6)]
    boxes += [Box(320, 100 + 12 * i, 340 + 60 * ((i + 1) % 3), 110 + 12 * i) for i in range(6)]
    assert reading_regions(boxes, 600, 800) is None


def test_layout_reads_hung_list_markers_with_their_items() -> None:
    """Roman numerals hung left of wrapped items ("i." at x=140, text from x=169, as a policy's
    "We will at Our option, i. … ii. … iii. …"): a hanging indent, read row by row so each marker
    stays with its item, not a narrow left column read before the text."""
    boxes = [Box(100, 80, 480, 89)]  # the lead-in line
    for i, top in enumerate((100, 136, 160)):
        boxes.append(Box(140, top, 146 + 2 * i, top + 8))  # "i." "ii." "iii."
        boxes.append(Box(169, top, 489, top + 9))
        boxes.append(Box(168, top + 12, 300, top + 21))  # the item's wrapped second line
    assert reading_regions(boxes, 595, 842) is None


def _rotated_pdf(tmp_path: Path) -> Path:
    """Page 1: text drawn rotated and /Rotate 270 (reads upright); page 2: upright text, /Rotate 90."""
    pdf = FPDF(format="A4")
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    with pdf.rotation(90, x=105, y=148):
        for i in range(1, 6):
            pdf.text(40, 100 + i * 8, f"Line {i} of the landscape page.")
    pdf.add_page()
    for i in range(1, 6):
        pdf.text(20, 20 + i * 8, f"Row {i} of the turned page.")
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(bytes(pdf.output())))
    writer.pages[0].rotate(270)
    writer.pages[1].rotate(90)
    out = tmp_path / "rotated.pdf"
    with out.open("wb") as fh:
        writer.write(fh)
    return out


def test_rotated_pages_keep_reading_order(tmp_path: Path) -> None:
    doc = extract_file(_rotated_pdf(tmp_path), tmp_path, Settings())
    first, second = page_text(doc, 1), page_text(doc, 2)
    assert [first.index(f"Line {i} ") for i in range(1, 6)] == sorted(first.index(f"Line {i} ")
                                                                      for i in range(1, 6))
    assert [second.index(f"Row {i} ") for i in range(1, 6)] == sorted(second.index(f"Row {i} ")
                                                                      for i in range(1, 6))


def test_two_column_text_around_a_table_is_read_column_by_column() -> None:
    doc = extract_file(CORPUS / "insurance" / "ICIHLIP22012V012223.pdf", CORPUS, Settings())
    text = page_text(doc, 10)
    assert text.index("| Treatment of cataract |") < text.index("16. Enhanced Annual Sum insured") \
        < text.index("resulting in in-patient hospitalization") \
        < text.index("The Network Provider /Health Service Provider")


@pytest.mark.parametrize(("line", "level"), [
    ("4.2 Waiting Period", 2),
    ("3.1.1 In-patient Treatment", 3),
    ("4 EXCLUSIONS", 1),
    ("GENERAL CONDITIONS", 1),
    ("Art. 1 Versicherte Personen", 1),
    ("9.3 Für Massnahmen gemäss Art. 9.1, welche nicht durch die", None),
    ("4. Cataract", None),
    ("2.44 Pre existing disease means any condition, ailment", None),
    ("The Company shall pay the claim within 30 days.", None),
])
def test_heading_level_of_a_line(line: str, level: int | None) -> None:
    assert heading_level(line) == level


def test_pdf_blocks_carry_their_section(tmp_path: Path) -> None:
    f = tmp_path / "sections.pdf"
    f.write_bytes(_pdf_with_text(["4 EXCLUSIONS", "4.2 Waiting Period", "Cataract is covered after a year.",
                                  "4. Cataract", "5 CLAIMS", "Notify us within 30 days."]))
    blocks = extract_file(f, tmp_path, Settings()).blocks
    sections = {b.text: b.section for b in blocks if b.kind == "text"}
    expected = "4 EXCLUSIONS > 4.2 Waiting Period"
    assert sections["Cataract is covered after a year.\n4. Cataract"] == expected
    assert sections["Notify us within 30 days."] == "5 CLAIMS"


def test_numbered_list_in_two_table_columns_becomes_a_list() -> None:
    table = "| 1. Cataract | 3. Hernia |\n| --- | --- |\n| 2. Gout | 4. Hydrocele |"
    assert column_list_text(table) == "1. Cataract\n2. Gout\n3. Hernia\n4. Hydrocele"


def test_two_column_key_value_table_stays_a_table() -> None:
    table = "| Benefit | Limit |\n| --- | --- |\n| Room rent | 1% of SI |\n| ICU | 2% of SI |"
    assert column_list_text(table) is None


def test_larger_font_line_starts_a_section(tmp_path: Path) -> None:
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", size=16)
    pdf.text(20, 20, "Meals and Travel")
    pdf.set_font("Helvetica", size=10)
    for i, line in enumerate(["Meals are reimbursed up to a daily limit set by finance.",
                              "Receipts must be attached to each claim within thirty days.",
                              "Alcohol is never reimbursed under this policy at any time."]):
        pdf.text(20, 30 + i * 6, line)
    f = tmp_path / "font.pdf"
    f.write_bytes(bytes(pdf.output()))
    blocks = extract_file(f, tmp_path, Settings()).blocks
    assert [(b.kind, b.section) for b in blocks] == [("heading", "Meals and Travel"),
                                                      ("text", "Meals and Travel")]


def test_tesseract_engine_leaves_the_process_omp_thread_limit_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    """OMP_THREAD_LIMIT left in the environment would reach torch's OpenMP runtime (it changed
    MiniLM's embeddings enough to fail the cache calibration test)."""
    from indexer.extract.ocr import TesseractOcr

    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    TesseractOcr("tesseract")
    assert "OMP_THREAD_LIMIT" not in os.environ
