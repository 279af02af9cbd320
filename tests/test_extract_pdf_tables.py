"""PDF tables: grids found by pdfplumber from the page's paths only, cell text read from PDFium."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium

from indexer.extract.pdf_tables import PageChars, band_text, find_grids, page_chars, table_rows

REPO = Path(__file__).resolve().parents[1]
POLICY = REPO.parent / "shared" / "corpus" / "policy.pdf"
BENEFITS_PAGE = 21
"""0-based index of policy.pdf p22 (Table of Benefits)."""


def test_grid_from_paths_only_matches_pdfplumber_on_the_full_page() -> None:
    with pdfplumber.open(POLICY) as pdf:
        full = [tuple(round(v, 2) for v in t.bbox) for t in pdf.pages[BENEFITS_PAGE].find_tables()]
    grids = find_grids(POLICY, [BENEFITS_PAGE])[BENEFITS_PAGE]
    assert full
    assert [tuple(round(v, 2) for v in g.bbox) for g in grids] == full


def test_table_cells_are_read_from_pdfium() -> None:
    page = pdfium.PdfDocument(str(POLICY))[BENEFITS_PAGE]
    grid = find_grids(POLICY, [BENEFITS_PAGE])[BENEFITS_PAGE][0]
    rows = table_rows(page_chars(page), grid)
    assert ["Post Hospitalisation", "60 days", "60 days", "60 days"] in rows


def test_band_text_leaves_out_table_cells() -> None:
    page = pdfium.PdfDocument(str(POLICY))[BENEFITS_PAGE]
    grid = find_grids(POLICY, [BENEFITS_PAGE])[BENEFITS_PAGE][0]
    chars = page_chars(page)
    whole = band_text(chars, 0.0, page.get_height(), [])
    around = band_text(chars, 0.0, page.get_height(), [grid.bbox])
    assert "Post Hospitalisation" in whole
    assert "Post Hospitalisation" not in around


def test_skipped_characters_join_with_a_line_break_when_one_was_skipped() -> None:
    # "ab" on line 1 left, "XY" on line 1 right, line break, "cd" on line 2 left
    chars = PageChars("abXY\ncd", [(0, 0, 5, 10), (5, 0, 10, 10), (100, 0, 105, 10), (105, 0, 110, 10),
                                   None, (0, 20, 5, 30), (5, 20, 10, 30)])
    assert band_text(chars, 0.0, 40.0, [(50.0, 0.0, 200.0, 40.0)]) == "ab\ncd"
    assert band_text(chars, 0.0, 40.0, [(0.0, 0.0, 20.0, 40.0)]) == "XY"
