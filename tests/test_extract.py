"""Extraction: each format, normalisation, tables, and clean one-line failures on broken files."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from core.config import Settings
from core.errors import ExtractionError
from core.types import ExtractedDocument
from indexer.extract import extract_file
from indexer.extract.normalize import join_hyphenated, normalize_pages
from indexer.extract.pdf_objects import TABULAR_MIN_RULES, count_rules
from indexer.extract.tables import merge_continuations, split_markdown_table

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
SAMPLES = REPO / "policies"

BROKEN = [
    ("broken/Contoso_Real_Estate_Support_Guide_password_protected.pdf", "password-protected"),
    ("broken/HDFHLIP23024V072223_truncated.pdf", "truncated"),
    ("broken/empty_upload.pdf", "empty file"),
    ("broken/Zava_Claims_Insurance_Policies.docx", "rights-protected"),
]


def text_of(doc: ExtractedDocument) -> str:
    return "\n".join(b.text for b in doc.blocks)


@pytest.fixture(scope="module")
def policy_pdf() -> ExtractedDocument:
    """policy.pdf (25 pages, Table of Benefits on p22-23), extracted once for this module."""
    return extract_file(CORPUS / "policy.pdf", CORPUS, Settings())


@pytest.mark.parametrize(("rel", "reason"), BROKEN)
def test_broken_file_fails_with_one_line_reason(rel: str, reason: str) -> None:
    with pytest.raises(ExtractionError) as err:
        extract_file(CORPUS / rel, CORPUS, Settings())
    assert reason in str(err.value)
    assert "\n" not in str(err.value)


def test_unsupported_type_is_rejected(tmp_path: Path) -> None:
    f = tmp_path / "budget.xlsx"
    f.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(ExtractionError, match="unsupported file type '.xlsx'"):
        extract_file(f, tmp_path, Settings())


def test_pdf_without_pdf_header_is_rejected(tmp_path: Path) -> None:
    f = tmp_path / "notes.pdf"
    f.write_text("just some text", encoding="utf-8")
    with pytest.raises(ExtractionError, match="not a PDF"):
        extract_file(f, tmp_path, Settings())


def test_restricted_pdf_with_empty_user_password_opens() -> None:
    doc = extract_file(CORPUS / "hard/EDLHLGA23009V012223_restricted.pdf", CORPUS, Settings())
    assert doc.pages == 2
    assert "Well Baby Well Mother" in text_of(doc)
    assert "150 km" in text_of(doc).replace("150km", "150 km")


def test_pdf_blocks_carry_relative_path_and_page(policy_pdf: ExtractedDocument) -> None:
    assert {b.path for b in policy_pdf.blocks} == {"policy.pdf"}
    assert policy_pdf.pages == 25
    assert {b.page for b in policy_pdf.blocks} >= set(range(1, 26)) - {24, 25}


def test_pdf_table_becomes_markdown_block(policy_pdf: ExtractedDocument) -> None:
    tables = [b for b in policy_pdf.blocks if b.kind == "table" and b.page == 22]
    assert tables, "the Table of Benefits on p22 should be detected"
    assert any("| Post Hospitalisation | 60 days | 60 days | 60 days |" in t.text for t in tables)


def test_split_pdf_table_parts_repeat_the_header(policy_pdf: ExtractedDocument) -> None:
    parts = [b.text for b in policy_pdf.blocks if b.kind == "table" and b.page == 22]
    assert len(parts) >= 2
    headers = {tuple(p.split("\n")[:2]) for p in parts}
    assert len(headers) == 1


def test_auto_table_detection_skips_prose_pages() -> None:
    reader = pypdf.PdfReader(CORPUS / "policy.pdf")
    assert count_rules(reader.pages[4]) < TABULAR_MIN_RULES  # p5: prose
    assert count_rules(reader.pages[21]) >= TABULAR_MIN_RULES  # p22: Table of Benefits


def test_split_markdown_table_keeps_small_table_whole() -> None:
    table = "| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |"
    assert split_markdown_table(table, lambda t: len(t) < 1000) == [table]
    parts = split_markdown_table(table, lambda t: t.count("\n") <= 2)
    assert parts == ["| a | b |\n| --- | --- |\n| 1 | 2 |", "| a | b |\n| --- | --- |\n| 3 | 4 |"]


def test_wrapped_pdf_cell_rows_are_merged_into_the_row_above() -> None:
    rows = [["Item", "Rule"], ["Grace", "thirty days is"], ["", "available."], ["", "New point."]]
    assert merge_continuations(rows) == [["Item", "Rule"], ["Grace", "thirty days is available."],
                                         ["", "New point."]]


def test_nfkc_folds_ligatures() -> None:
    assert normalize_pages(["The bene\ufb01t is \ufb02at"], 0.5) == ["The benefit is flat"]


def test_line_end_hyphenation_is_joined_unless_the_hyphen_is_real() -> None:
    text = "allgemeine Versiche-\nrungsbedingungen and pre-\nexisting, see pre-existing"
    assert join_hyphenated(text) == "allgemeine Versicherungsbedingungen and pre-existing, see pre-existing"


def test_hyphenated_german_words_are_rejoined_in_real_pdf() -> None:
    doc = extract_file(CORPUS / "nonenglish/CSS_Reiseversicherung_AVB_2016_de.pdf", CORPUS, Settings())
    text = text_of(doc)
    assert "Versiche-\nrungsbedingungen" not in text
    assert "Versicherungsbedingungen" in text


def test_repeated_header_and_footer_lines_are_dropped() -> None:
    bodies = ["Claims are paid in 15 days.", "Cover starts on day one.", "Fees are 2%.", "Renewal."]
    pages = [f"ACME Insurance Ltd\n{b}\nPage {i} of 4" for i, b in enumerate(bodies, start=1)]
    assert normalize_pages(pages, 0.5) == bodies


def test_recurring_body_line_in_mid_page_is_kept() -> None:
    body = "\n".join(f"line {j} of clause text" for j in range(30))
    pages = [f"Header\n{body}\nFooter" for _ in range(4)]
    out = normalize_pages(pages, 0.5)
    assert all("line 15 of clause text" in p and "Header" not in p for p in out)


def test_docx_table_sits_between_its_paragraphs() -> None:
    doc = extract_file(CORPUS / "hr/Contoso_Expenses_Policy.docx", CORPUS, Settings())
    kinds = [(b.kind, b.text) for b in doc.blocks]
    first_table = next(i for i, (k, _) in enumerate(kinds) if k == "table")
    assert "table below" in kinds[first_table - 2][1] or "table below" in kinds[first_table - 1][1]
    after = [t for k, t in kinds[first_table:] if k == "heading"]
    assert after[0] == "Exceptions and Violations"
    assert "| Expense Category | Limit | Guidelines |" in kinds[first_table][1]


def test_docx_headings_give_section_path() -> None:
    doc = extract_file(SAMPLES / "hr/travel_and_expenses.docx", SAMPLES, Settings())
    flights = next(b for b in doc.blocks if b.text.startswith("Fly economy"))
    assert flights.section == "Travel and Expenses Policy > 1. Booking travel > Flights"
    assert flights.page is None


def test_markdown_headings_tables_and_emphasis() -> None:
    doc = extract_file(SAMPLES / "hr/remote_work_policy.md", SAMPLES, Settings())
    days = next(b for b in doc.blocks if "3 days per week" in b.text)
    assert days.section == "Remote Work Policy > 2. How much remote work"
    assert "**" not in days.text
    table = next(b for b in doc.blocks if b.kind == "table")
    assert "| Internet allowance | $50 per month |" in table.text


def test_markdown_heading_inside_code_fence_is_text(tmp_path: Path) -> None:
    f = tmp_path / "a.md"
    f.write_text("# Real\n\n```\n# not a heading\n```\n", encoding="utf-8")
    doc = extract_file(f, tmp_path, Settings())
    assert [b.kind for b in doc.blocks] == ["heading", "text"]
    assert doc.blocks[1].section == "Real"


def test_sample_pdf_has_pages_and_a_table() -> None:
    doc = extract_file(SAMPLES / "insurance/group_health_summary.pdf", SAMPLES, Settings())
    assert doc.pages == 2
    assert any(b.kind == "table" and "| Annual deductible |" in b.text for b in doc.blocks)
    assert any(b.page == 2 and "31 days" in b.text for b in doc.blocks)
