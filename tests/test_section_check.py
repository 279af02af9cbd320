"""The nearest-heading citation check (:mod:`tests.section_check`) on hand-made extractions."""

from __future__ import annotations

from core.types import Block, Citation, ExtractedDocument
from tests.citation_check import Quote
from tests.section_check import section_problem


def _doc() -> ExtractedDocument:
    blocks = [Block("a.pdf", "1. Waiting Periods", 1, "1. Waiting Periods", "heading"),
              Block("a.pdf", "Illnesses are covered after thirty days.", 1, "1. Waiting Periods"),
              Block("a.pdf", "Schedule of Limits", 2, "Schedule of Limits", "heading"),
              Block("a.pdf", "| Ambulance | Rs 2,000 per trip |", 2, "Schedule of Limits", "table")]
    return ExtractedDocument(path="a.pdf", blocks=blocks, pages=2)


def _quote(text: str, page: int, section: str) -> Quote:
    return Quote(text, Citation("a.pdf", page, section, 0.5))


def test_table_cited_under_the_previous_pages_heading_is_flagged() -> None:
    problem = section_problem(_doc(), _quote("Ambulance | Rs 2,000 per trip", 2, "1. Waiting Periods"))
    assert problem is not None and "Schedule of Limits" in problem


def test_nearest_heading_and_a_quoted_title_pass() -> None:
    doc = _doc()
    assert section_problem(doc, _quote("Ambulance | Rs 2,000 per trip", 2, "Schedule of Limits")) is None
    assert section_problem(doc, _quote("Waiting Periods", 1, "1. Waiting Periods")) is None
    opened = _quote("1. Waiting Periods Illnesses are covered", 1, "1. Waiting Periods")
    assert section_problem(doc, opened) is None
