"""Exact-match terms (numbers with units, clause ids, plan and product names) and the exact boost."""

from __future__ import annotations

import hashlib

import pytest

from core.query.definition import defined_term
from core.query.exact import boost_terms, exact_match_boost, extract_terms
from core.query.text import normalise_numbers
from core.types import Chunk, ScoredChunk


def scored(text: str, score: float, path: str = "policy.pdf") -> ScoredChunk:
    digest = hashlib.sha256(text.encode()).hexdigest()
    return ScoredChunk(Chunk(digest[:16], path, text, 1, 1, "", 0, digest), score, {"fused": score})


def texts(question: str) -> list[str]:
    return [t.text for t in extract_terms(question)]


@pytest.mark.parametrize(("raw", "expected"), [
    ("Thirty days", "30 days"),
    ("Rs 1,00,000", "rs 100000"),
    ("INR 5,600,000", "inr 5600000"),
    ("Rs 3 lakh", "rs 300000"),
    ("one hundred and fifty km", "150 km"),
    ("twenty-four months", "24 months"),
    ("one and two", "1 and 2"),
])
def test_normalise_numbers(raw: str, expected: str) -> None:
    assert normalise_numbers(raw) == expected


def test_numbers_with_units_are_terms() -> None:
    expected = ["thirty days", "24 months", "5%", "300 km"]
    assert texts("Is it thirty days, 24 months, 5% or 300 km?") == expected


def test_amounts_are_terms_but_small_bare_numbers_are_not() -> None:
    assert texts("I am 45 with 3 kids; the bill was Rs 40,000 of a 5,600,000 sum insured") == [
        "Rs 40,000", "5,600,000"]


def test_clause_ids_are_terms() -> None:
    terms = extract_terms("Do Section 3(b), clause 4.1.2, Art. 4 and Clause 2.3 apply?")
    assert [(t.kind, t.text) for t in terms] == [("clause", "Section 3(b)"), ("clause", "clause 4.1.2"),
                                                 ("clause", "Art. 4"), ("clause", "Clause 2.3")]


def test_plan_and_product_names_are_terms() -> None:
    assert texts("What is the Imperial Plus limit for Plan A under ICICI Lombard Golden Shield?") == [
        "Imperial Plus", "Plan A", "ICICI Lombard Golden Shield"]


def test_quoted_name_and_brand_words_are_terms() -> None:
    assert texts('Under the Edelweiss "Well Baby Well Mother" add-on, what about PerksPlus?') == [
        "Edelweiss", "Well Baby Well Mother", "PerksPlus"]


def test_question_words_and_apostrophes_are_not_terms() -> None:
    assert extract_terms("Once I'm back from visiting a customer, what's my deadline?") == []


def test_number_word_term_matches_digits_in_chunk() -> None:
    (term,) = extract_terms("Is the grace period thirty days?")
    assert term.matches(normalise_numbers("A grace period of 30 days is allowed"))
    assert not term.matches(normalise_numbers("A grace period of 130 days is allowed"))


def test_amount_matches_indian_grouping() -> None:
    (term,) = extract_terms("for the INR 5,600,000 option")
    assert term.matches(normalise_numbers("Sum insured INR 56,00,000 per year"))


def test_plan_letter_is_case_sensitive_in_chunk() -> None:
    (term,) = extract_terms("And for plan b?")
    assert term.case_sensitive
    assert not term.found_in("we plan b-roll shots", "We plan b-roll shots")
    assert term.found_in("room rent under plan b", "Room rent under Plan B")


def test_plain_clause_id_needs_its_keyword() -> None:
    (term,) = extract_terms("What does Art. 4 say?")
    assert term.matches(normalise_numbers("Gemäss Art. 4 beträgt der Selbstbehalt CHF 100"))
    assert not term.matches(normalise_numbers("Section 4 covers something else"))


def test_long_product_name_matches_its_distinctive_part() -> None:
    (term,) = extract_terms("Under ICICI Lombard Golden Shield?")
    assert term.matches(normalise_numbers("Golden Shield Policy Wording"))
    assert not term.matches(normalise_numbers("a golden opportunity to shield"))


def test_generic_part_of_product_name_does_not_match() -> None:
    (term,) = extract_terms("Under Bajaj Allianz Global Health Care?")
    assert not term.matches(normalise_numbers("Global Health Care Policy Wordings"))
    assert term.matches(normalise_numbers("Bajaj Allianz General Insurance"))


def test_boost_moves_exact_match_to_top_and_records_it() -> None:
    plain = scored("Room rent is capped at a percentage of the sum insured.", 0.5)
    exact = scored("Plan A: room rent 1% of sum insured per day; ICU 2%.", 0.4)
    out = exact_match_boost("Are room rent limits 1% for Plan A?", [plain, exact], weight=0.2)
    assert [sc.chunk.text for sc in out] == [exact.chunk.text, plain.chunk.text]
    assert out[0].scores["exact"] == pytest.approx(0.2)
    assert out[0].score == pytest.approx(0.6)
    assert out[1].scores["exact"] == 0.0
    assert out[0].scores["fused"] == 0.4


def test_partial_match_gets_partial_boost() -> None:
    (out,) = exact_match_boost("Is it 30 days for Plan B?", [scored("Claims within 30 days.", 0.1)], 0.5)
    assert out.scores["exact"] == pytest.approx(0.25)


def test_no_terms_leaves_candidates_unchanged() -> None:
    candidates = [scored("b", 0.1), scored("a", 0.9)]
    assert exact_match_boost("How long is the grace period?", candidates, weight=1.0) == candidates


@pytest.mark.parametrize(("question", "term"), [
    ("How does the policy define a 'Hospital'?", "Hospital"),
    ("What does pre-existing disease mean?", "pre-existing disease"),
    ("What is the definition of 'Accident' in this policy?", "Accident"),
    ("What is meant by Cashless Facility?", "Cashless Facility"),
    ("What is a day care centre?", "day care centre"),
    ("What is the grace period for premium payment?", None),
    ("Does this policy cover maternity expenses?", None),
])
def test_defined_term_of_definition_questions(question: str, term: str | None) -> None:
    assert defined_term(question) == term


def test_definition_term_replaces_the_name_inside_it() -> None:
    terms = boost_terms("How does the policy define a 'Hospital'?")
    assert [(t.kind, t.text) for t in terms] == [("definition", "Hospital")]


def test_definition_term_matches_a_clause_number_glued_to_the_term() -> None:
    (term,) = boost_terms("What is meant by Hospital?")
    assert term.matches("2.22hospital means any institution") and not term.matches("hospitalisation means")


def test_boost_lifts_the_defining_clause_over_mentions_of_the_term() -> None:
    mention = scored("2.38 Non-Network means any Hospital that is not part of the network.", 0.5)
    definition = scored("2.22 Hospital means any institution with at least ten inpatient beds.", 0.4)
    out = exact_match_boost("How does the policy define a 'Hospital'?", [mention, definition], 0.2)
    assert [sc.chunk.text for sc in out] == [definition.chunk.text, mention.chunk.text]
