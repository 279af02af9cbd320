"""The citation checker of tests/test_citations.py catches what it must (fast, no index)."""

from __future__ import annotations

from core.types import Answer, Block, Citation, ExtractedDocument
from tests.citation_check import heading_problem, page_problem, quotes

DOC = ExtractedDocument("a.pdf", [
    *[Block("a.pdf", "Acme Policy Wording", page=p, kind="heading", section="Acme Policy Wording")
      for p in range(1, 6)],
    Block("a.pdf", "Exclusions", page=2, kind="heading", section="Exclusions"),
    Block("a.pdf", "Cataract is excluded for two years.", page=2, section="Exclusions"),
    Block("a.pdf", "ICSI", page=3, kind="heading", section="Exclusions > ICSI"),
    Block("a.pdf", "| Procedure | | Limit |\n| --- | --- | --- |\n| ICSI | | 50% |", page=3, kind="table",
          section="Exclusions > ICSI"),
    Block("a.pdf", "• Dental", page=4, kind="heading", section="Exclusions > • Dental"),
    Block("a.pdf", "Claims are paid in 30 days.", page=5, section="Claims"),
], pages=5)


def cite(page: int, section: str = "Exclusions") -> Citation:
    return Citation("a.pdf", page, section, 1.0)


def test_quotes_are_split_at_markers_and_lead_ins() -> None:
    answer = Answer("Cataract is excluded for two years. [1] | Procedure | Limit | … | ICSI | 50% | [2]",
                    [cite(2), cite(3)], "extractive")
    assert [(q.text, q.citation.page) for q in quotes(answer)] == [
        ("Cataract is excluded for two years.", 2), ("| Procedure | Limit |", 3), ("| ICSI | 50% |", 3)]


def test_quote_on_another_page_is_caught() -> None:
    (ok,) = quotes(Answer("Cataract is excluded for two years. [1]", [cite(2)], "extractive"))
    (wrong,) = quotes(Answer("Cataract is excluded for two years. [1]", [cite(1)], "extractive"))
    assert page_problem(DOC, ok) is None
    assert "page 2, cited page 1" in str(page_problem(DOC, wrong))


def test_real_heading_passes_and_fake_ones_are_named() -> None:
    assert heading_problem(DOC, "Exclusions") is None
    assert "table cell" in str(heading_problem(DOC, "Exclusions > ICSI"))
    assert "list item" in str(heading_problem(DOC, "Exclusions > • Dental"))
    assert "running header" in str(heading_problem(DOC, "Acme Policy Wording"))
    assert "not a heading" in str(heading_problem(DOC, "Claims"))
    assert heading_problem(DOC, "") == "no section"


def test_outline_letter_heading_is_not_a_list_item() -> None:
    doc = ExtractedDocument("b.pdf", [
        Block("b.pdf", "B) GENERAL CONDITIONS", page=1, kind="heading", section="B) GENERAL CONDITIONS"),
        Block("b.pdf", "b) a claim is filed in writing", page=1, kind="heading",
              section="B) GENERAL CONDITIONS > b) a claim is filed in writing")], pages=1)
    assert heading_problem(doc, "B) GENERAL CONDITIONS") is None
    assert "list item" in str(heading_problem(doc, "B) GENERAL CONDITIONS > b) a claim is filed in writing"))


def test_heading_repeated_as_a_row_label_on_another_page_is_no_table_cell() -> None:
    doc = ExtractedDocument("c.pdf", [
        Block("c.pdf", "4.2 Room Rent", page=1, kind="heading", section="4.2 Room Rent"),
        Block("c.pdf", "Room rent is paid up to 1% of the sum insured.", page=1, section="4.2 Room Rent"),
        Block("c.pdf", "| Benefit | Limit |\n| --- | --- |\n| 4.2 Room Rent | 1% |", page=2, kind="table",
              section="4.2 Room Rent")], pages=2)
    assert heading_problem(doc, "4.2 Room Rent") is None


def test_a_page_span_citation_holds_a_lead_in_on_its_first_page() -> None:
    doc = ExtractedDocument("d.pdf", [
        Block("d.pdf", "3. What is paid", page=1, section="Cover"),
        Block("d.pdf", "a. Repairs to the damaged contents.", page=2, section="Cover")], pages=3)
    span = Citation("d.pdf", 1, "Cover", 1.0, page_end=2)
    lead, item = quotes(Answer("3. What is paid … a. Repairs to the damaged contents. [1]", [span],
                               "extractive"))
    assert page_problem(doc, lead) is None and page_problem(doc, item) is None
    (late,) = quotes(Answer("3. What is paid [1]", [Citation("d.pdf", 2, "Cover", 1.0, page_end=3)],
                            "extractive"))
    assert "page 1, cited page 2-3" in str(page_problem(doc, late))


def test_wrapped_text_boxed_by_a_layout_table_matches_its_quote() -> None:
    """Prose a layout table boxed in one-cell rows, its bullets lost as ".", is quoted as wrapped text
    with "•" markers: the same words in the same order, so the page holds the quote."""
    doc = ExtractedDocument("e.pdf", [Block(
        "e.pdf", "| Cover |  |\n| --- | --- |\n| The insurer pays the donor's costs, provided that: |  |\n"
        "|  | . The organ is used for an insured person. |", page=4, kind="table", section="Cover")], pages=4)
    cite4 = Citation("e.pdf", 4, "Cover", 1.0)
    (ok,) = quotes(Answer("The insurer pays the donor's costs, provided that: • The organ is used for an "
                          "insured person. [1]", [cite4], "extractive"))
    (wrong,) = quotes(Answer("The insurer pays the donor's costs in full. [1]", [cite4], "extractive"))
    assert page_problem(doc, ok) is None and page_problem(doc, wrong) is not None


def test_no_section_is_right_only_above_the_first_heading() -> None:
    doc = ExtractedDocument("f.pdf", [
        Block("f.pdf", "Staff Travel Programme for all employees", page=1),
        Block("f.pdf", "Overview", page=1, kind="heading", section="Overview"),
        Block("f.pdf", "Trips are booked through the travel desk.", page=1, section="Overview")], pages=1)
    cite = Citation("f.pdf", 1, "", 1.0)
    (title,) = quotes(Answer("Staff Travel Programme for all employees [1]", [cite], "extractive"))
    (body,) = quotes(Answer("Trips are booked through the travel desk. [1]", [cite], "extractive"))
    assert heading_problem(doc, "", title) is None
    assert heading_problem(doc, "", body) == "no section"


def test_a_stray_dot_at_the_end_of_a_quote_is_a_lone_marker_too() -> None:
    doc = ExtractedDocument("g.pdf", [Block("g.pdf", "Claims are accepted under the main cover. .\nNext.",
                                            page=2)], pages=2)
    (q,) = quotes(Answer("Claims are accepted under the main cover. . [1]", [Citation("g.pdf", 2, "", 1.0)],
                         "extractive"))
    assert page_problem(doc, q) is None
