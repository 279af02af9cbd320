"""Table rows read with their column headers (core.answer.table_cells): units from the header, and
plan / grade identifiers found as a cell under their column."""

from __future__ import annotations

import pytest

from core.answer.answer_type import classify, satisfies
from core.answer.evidence import EvidenceFinder
from core.answer.table_cells import header_unit, identifier_in_table, typed_row
from core.llm.base import GenerationRequest
from core.types import Chunk, ScoredChunk

TABLE = ("Daily allowances depend on the grade and the city.\n| Grade | City | Daily allowance (EUR) |\n"
         "| --- | --- | --- |\n| A | Berlin | 40 |\n| A | Munich | 45 |\n| B | Berlin | 30 |")


@pytest.mark.parametrize(("header", "unit"), [
    ("Daily allowance (EUR)", ("before", "eur")),
    ("Amount in ₹", ("before", "₹")),
    ("Waiting period (months)", ("after", "months")),
    ("Co-payment (%)", ("after", "%")),
    ("City", None),
])
def test_a_column_header_states_the_unit_of_its_cells(header: str, unit: tuple[str, str] | None) -> None:
    assert header_unit(header) == unit


def test_a_bare_number_under_a_currency_header_is_an_amount() -> None:
    row = typed_row("Grade | City | Daily allowance (EUR)", "A | Munich | 45")
    assert row == "Grade: A; City: Munich; Daily allowance (EUR): eur 45"
    assert satisfies(row, classify("What is the daily allowance in Munich?"))


def test_a_row_that_does_not_fit_its_header_is_read_as_written() -> None:
    assert typed_row("Grade | City", "A | Munich | 45") == "Grade | City A | Munich | 45"


def test_an_identifier_is_found_as_a_cell_under_its_keyword_column() -> None:
    assert identifier_in_table("grade A", TABLE)
    assert not identifier_in_table("grade C", TABLE)
    assert not identifier_in_table("Plan A", TABLE)  # no "Plan" column


def test_a_table_row_answers_a_value_question_about_a_grade() -> None:
    chunk = Chunk(chunk_id="c1", path="travel.pdf", text=TABLE, page=1, page_end=1, section="Allowances",
                  ordinal=0, text_hash="h")
    request = GenerationRequest("What is the daily allowance for grade A in Munich?",
                                [ScoredChunk(chunk, 0.7, {"rerank": 0.7})])
    evidence = EvidenceFinder(None).find(request)
    assert evidence.signals["type_ok"] == 1.0 and evidence.signals["ids_found"] == 1.0
    assert evidence.chosen[0].unit.text == "A | Munich | 45"
