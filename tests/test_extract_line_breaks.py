"""Numbers hyphenated at a line end and clause numbers glued to the next word (PDF text)."""

from __future__ import annotations

from indexer.extract.normalize import join_hyphenated, unglue_clause_numbers
from indexer.extract.tables import clean_rows


def test_hyphen_cutting_a_digit_group_after_its_comma_is_dropped() -> None:
    assert join_hyphenated("a limit of Rs. 1,00,-\n000 per year", set()) == "a limit of Rs. 1,00,000 per year"


def test_hyphen_cutting_a_digit_group_inside_it_is_dropped() -> None:
    assert join_hyphenated("up to 7,5-\n00 a day", set()) == "up to 7,500 a day"


def test_hyphen_cutting_an_inner_lakh_group_is_dropped() -> None:
    assert join_hyphenated("Rs 2,0-\n0,000", set()) == "Rs 2,00,000"


def test_phone_number_hyphen_at_a_line_end_stays() -> None:
    assert join_hyphenated("call 1-\n888-123-4567 now", set()) == "call 1-888-123-4567 now"


def test_number_range_hyphen_at_a_line_end_stays() -> None:
    assert join_hyphenated("between 20,000-\n40,000 steps", set()) == "between 20,000-40,000 steps"


def test_table_cell_with_a_number_broken_at_its_line_end_is_joined() -> None:
    rows = clean_rows([["Band", "Days"], ["first", "91-\n180"]])
    assert rows[1][1] == "91-180"


def test_clause_number_glued_to_its_word_is_split() -> None:
    assert unglue_clause_numbers("7.3Surgery means an operation") == "7.3 Surgery means an operation"


def test_single_digit_clause_glued_at_a_line_start_is_split() -> None:
    assert unglue_clause_numbers("intro\n5Grace Period") == "intro\n5 Grace Period"


def test_year_glued_to_a_word_is_left_alone() -> None:
    assert unglue_clause_numbers("1999Regulations apply") == "1999Regulations apply"


def test_number_glued_inside_a_line_is_left_alone() -> None:
    assert unglue_clause_numbers("Pincode 411001Website") == "Pincode 411001Website"
