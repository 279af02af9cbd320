"""The one text module (core/text.py): tokens, stop words, stemming, numbers, units, currencies; and
that the stages which compare text use it (so they agree)."""

from __future__ import annotations

import pytest

from core import text
from core.cache.numbers import quantities as cache_quantities
from core.eval.metrics import fact_found, normalise_text
from core.query.exact import extract_terms
from core.rerank.base import words as rerank_words
from core.retrieval import tokenize as retrieval_tokenize
from core.text import Quantity, content_terms, normalise_numbers, quantities, stem, terms, tokenize


@pytest.mark.parametrize(("raw", "value", "unit", "currency"), [
    ("thirty days", 30, "day", None),
    ("half", 0.5, None, None),
    ("two and a half years", 2.5, "year", None),
    ("1.5k steps", 1500, None, None),
    ("12k+ a day", 12000, None, None),
    ("2 billion", 2_000_000_000, None, None),
    ("Rs. 40,000", 40000, "money", "INR"),
    ("₹40,000", 40000, "money", "INR"),
    ("INR 56,00,000", 5_600_000, "money", "INR"),
    ("Rs 3 lakh", 300_000, "money", "INR"),
    ("1.5 crore", 15_000_000, None, None),
    ("$71.00", 71, "money", "USD"),
    ("CHF 3000", 3000, "money", "CHF"),
    ("five per cent", 5, "percent", None),
    ("one hundred and fifty km", 150, "km", None),
    ("a thousand rupees", 1000, "money", "INR"),
])
def test_quantities_parse_numbers_units_and_currencies(raw: str, value: float, unit: str | None,
                                                        currency: str | None) -> None:
    q = quantities(raw)[0]
    assert (q.value, q.unit, q.currency) == (value, unit, currency)


@pytest.mark.parametrize("raw", ["expiry of 24 (twenty four) months of cover",
                                 "within ninety (90) days of discharge"])
def test_a_number_restated_in_brackets_keeps_its_unit(raw: str) -> None:
    assert {q.unit for q in quantities(raw)} == {"month" if "months" in raw else "day"}


def test_a_bracketed_different_number_does_not_take_the_first_numbers_unit() -> None:
    assert [q.unit for q in quantities("12 (15) weeks")] == [None, "week"]


def test_ordinals_are_their_own_unit() -> None:
    assert [q.unit for q in quantities("the 2nd and the third claim")] == ["ordinal", "ordinal"]


def test_clause_ids_and_phone_numbers_are_left_alone_by_normalisation() -> None:
    assert normalise_numbers("Clause 4.1.2 and 3(b); call 1-800-555-1212") == (
        "clause 4.1.2 and 3(b); call 1-800-555-1212")


def test_normalise_numbers_rewrites_words_grouping_and_scales() -> None:
    assert normalise_numbers("Thirty days, Rs 1,00,000 or 3 lakh") == "30 days, rs 100000 or 300000"


def test_tokenize_matches_the_full_text_index_and_terms_keep_numbers_whole() -> None:
    assert tokenize("Rs. 40,000 (PED)") == ["rs", "40", "000", "ped"]
    assert terms("Rs. 40,000 within thirty days; 2.22Hospital") == [
        "rs", "40000", "within", "30", "days", "2.22", "hospital"]


def test_content_terms_drop_stop_words_and_question_filler_and_stem() -> None:
    assert content_terms("Please explain the waiting period for deliveries", question=True) == [
        "wait", "period", "delivery"]
    assert stem("claims") == "claim" and stem("limited") == "limit" and stem("30") == "30"


def test_every_stage_uses_the_same_tokens_and_numbers() -> None:
    assert retrieval_tokenize is tokenize
    assert rerank_words("Rs 40,000 within thirty days") == terms("Rs 40,000 within thirty days")
    assert cache_quantities("Rs 40,000") == [Quantity(40000.0, "money")]
    assert normalise_text("Rs 40 thousand") == "rs 40000"
    assert fact_found("thirty days", "within 30 days") and fact_found("1.5 crore", "15000000")
    assert [t.text for t in extract_terms("Is it thirty days?")] == ["thirty days"]


def test_stop_words_keep_negations() -> None:
    assert "not" not in text.STOP_WORDS and "no" not in text.STOP_WORDS
