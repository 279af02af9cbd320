"""Guards of the verified-answer cache: numbers/units, names, negation, contrasts, scope (pure functions)."""

from __future__ import annotations

from core.cache.guards import failed_guard, scope_key, signature
from core.cache.numbers import Quantity, quantities

GLOSSARY = {"NCD": "no claim discount", "PED": "pre-existing disease"}


def guard(a: str, b: str) -> str | None:
    return failed_guard(signature(a, GLOSSARY), signature(b, GLOSSARY))


def test_number_words_equal_digits() -> None:
    assert guard("Is the grace period thirty days?", "Is the grace period 30 days?") is None


def test_currency_and_grouping_are_normalised() -> None:
    assert quantities("Rs 40,000") == [Quantity(40000.0, "money")]
    assert guard("Is cataract capped at Rs 40,000?", "Is cataract capped at 40000?") is None


def test_indian_units_and_grouping() -> None:
    assert [q.value for q in quantities("Rs 3 lakh and Rs 1,00,000 and two hundred and fifty")] == [
        300000.0, 100000.0, 250.0]


def test_other_number_is_a_miss() -> None:
    assert guard("Is the grace period 30 days?", "Is the grace period 60 days?") == "numbers"


def test_other_unit_is_a_miss() -> None:
    assert guard("Is the grace period 30 days?", "Is the grace period thirty months?") == "numbers"


def test_other_plan_is_a_miss() -> None:
    assert guard("Room rent limit for Plan A?", "Room rent limit for Plan B?") == "names"


def test_other_tier_is_a_miss() -> None:
    assert guard("Air ambulance limit for the Imperial Plan?",
                 "Air ambulance limit for the Imperial Plus Plan?") == "names"


def test_names_compare_case_insensitively() -> None:
    assert guard("Under the Arogya Sanjeevani policy, what is the cataract limit?",
                 "What is the cataract limit under arogya sanjeevani?") is None


def test_not_covered_flips_polarity() -> None:
    assert guard("Is maternity covered?", "Is maternity not covered?") == "negation"


def test_excluded_flips_polarity() -> None:
    assert guard("Is flood damage covered?", "Is flood damage excluded?") == "negation"


def test_glossary_expansion_matches_acronym() -> None:
    assert guard("What is the No Claim Discount (NCD) offered?", "What NCD is offered?") is None


def test_pre_vs_post_hospitalisation_is_a_miss() -> None:
    assert guard("Days of pre-hospitalisation cover?", "Days of post-hospitalisation cover?") == "contrast"


def test_strict_contrast_one_sided_qualifier_is_a_miss() -> None:
    assert guard("Coverage for AYUSH treatment?", "Coverage for outpatient AYUSH treatment?") == "contrast"


def test_scope_key_ignores_order_and_duplicates() -> None:
    assert scope_key(["hr/**", "insurance/**", "hr/**"]) == scope_key(["insurance/**", "hr/**"])
    assert scope_key([]) == scope_key(["**"]) != scope_key(["hr/**"])


def test_over_vs_under_an_amount_with_a_currency_is_a_miss() -> None:
    assert guard("Is a taxi receipt needed under €40?", "Is a taxi receipt needed over €40?") == "contrast"


def test_up_to_vs_at_least_is_a_miss() -> None:
    assert guard("Is the bike subsidy up to 300 euros?",
                 "Is the bike subsidy at least 300 euros?") == "contrast"


def test_per_day_vs_per_month_is_a_miss() -> None:
    assert guard("Is the parking allowance 12 euros per day?",
                 "Is the parking allowance 12 euros per month?") == "contrast"


def test_daily_and_per_day_are_the_same_period() -> None:
    assert guard("What is the daily parking allowance?", "What parking allowance do I get per day?") is None


def test_unpaid_flips_polarity() -> None:
    assert guard("How long is paid sabbatical leave?", "How long is unpaid sabbatical leave?") == "negation"


def test_individual_matches_its_plural() -> None:
    assert guard("What is the dental limit for an individual?",
                 "For individuals, what is the dental limit?") is None
