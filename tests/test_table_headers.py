"""Table headers that extraction splits: sub-header rows of column labels under a spanning header
cell, and a table continued on the next page without its header (SCHEMA 13)."""

from __future__ import annotations

from core.config import ExtractionSettings
from indexer.extract.pdf_blocks import Segment, to_blocks
from indexer.extract.tables import continued_table, flatten_header, is_label, to_markdown

SPANNING = [["Benefit", "Tiers", "", ""], ["", "TIER X", "TIER Y", "TIER Z"],
            ["Courier refund", "Up to 300 credits", "Up to 450 credits", "Up to 600 credits"]]


def test_sub_header_labels_are_folded_into_the_header_row() -> None:
    md = to_markdown(SPANNING)
    lines = md.split("\n")
    assert lines[0] == "| Benefit | Tiers TIER X | Tiers TIER Y | Tiers TIER Z |"
    assert lines[2] == "| Courier refund | Up to 300 credits | Up to 450 credits | Up to 600 credits |"
    assert len(lines) == 3  # the labels are no body row of their own


def test_rows_of_list_markers_or_numbers_are_not_labels() -> None:
    assert is_label("TIER X") and is_label("Description")
    assert not any(is_label(c) for c in ("a.", "(ii) Courier", "1", "25%", "• Acme", ""))
    markers = [["Clause", "Text", ""], ["", "a.", "1"], ["Scope", "Acme staff", "all"]]
    assert flatten_header(markers) == markers
    sentence = [["Clause", "Text", ""], ["", "Globex staff may claim a refund", "Yes"], ["x", "y", "z"]]
    assert flatten_header(sentence) == sentence


def test_table_without_a_spanning_header_cell_is_unchanged() -> None:
    plain = [["Grade", "City", "Allowance"], ["", "Initech", "Acme"], ["A", "Springfield", "45"]]
    assert flatten_header(plain) == plain


PAGE_ONE = ("| Injury | Share of sum insured |\n| --- | --- |\n| Loss of speech | 50% |\n"
            "| Loss of a foot | 40% |")
PAGE_TWO = "| Loss of one finger | 5% |\n| --- | --- |\n| Loss of one ear | 30% |"


def test_table_continued_on_the_next_page_gets_the_header_back() -> None:
    joined = continued_table(PAGE_ONE, PAGE_TWO)
    assert joined == ("| Injury | Share of sum insured |\n| --- | --- |\n| Loss of one finger | 5% |\n"
                      "| Loss of one ear | 30% |")
    assert continued_table(PAGE_ONE, PAGE_ONE.split("\n", 2)[0] + "\n| --- | --- |\n| x | 1 |") is None
    words = "| Region | Office |\n| --- | --- |\n| North | Acme Tower |"
    assert continued_table(PAGE_ONE, words) is None  # a new table: its first row names columns
    blank = "|  | Share of sum insured |\n| --- | --- |\n| Loss of speech | 50% |"
    assert continued_table(blank, PAGE_TWO) is None  # a header that names no first column
    three = "| Loss of one finger | 5% | 2% |\n| --- | --- | --- |\n| a | 1 | 2 |"
    assert continued_table(PAGE_ONE, three) is None


def test_pdf_blocks_repeat_the_header_on_a_continuation_page_only() -> None:
    pages = [[Segment("text", "Globex accident cover, schedule of injuries:"), Segment("table", PAGE_ONE)],
             [Segment("table", PAGE_TWO)]]
    blocks, _ = to_blocks("globex.pdf", pages, ExtractionSettings(), [[], []])
    tables = [b for b in blocks if b.kind == "table"]
    assert [b.page for b in tables] == [1, 2]
    assert tables[1].text.startswith(
        "| Injury | Share of sum insured |\n| --- | --- |\n| Loss of one finger | 5% |")
    pages[1].insert(0, Segment("text", "Schedule of fees for Initech members."))
    blocks, _ = to_blocks("globex.pdf", pages, ExtractionSettings(), [[], []])
    assert [b for b in blocks if b.kind == "table"][1].text == PAGE_TWO  # text before it: not continued
