"""Ages as a quantity kind (core.ages) and questions that state one (core.answer.answer_type)."""

from __future__ import annotations

from dataclasses import replace

from core.ages import ages, stated_ages
from core.answer.answer_type import classify, satisfies, value_kinds


def _values(found: list) -> list[float]:
    return [q.value for q in found]


def test_ages_need_an_age_word_in_a_passage() -> None:
    assert _values(ages("Children up to age 26 can be added as dependants.")) == [26.0]
    assert _values(ages("Members must be 18 years of age or older.")) == [18.0]
    assert _values(ages("A 65-year-old member pays the senior rate.")) == [65.0]
    assert _values(ages("Entry age: 18 years to 65 years.")) == [18.0]
    assert ages("Plan year 1 January to 31 December 2026.") == []
    assert ages("Newborns aged 91 days are covered.") == []
    assert ages("Cover lasts up to 20 days.") == []


def test_a_question_states_an_age_after_a_bounding_word() -> None:
    assert _values(stated_ages("can my kid stay on the Acme plan until 27")) == [27.0]
    assert _values(stated_ages("Is my daughter covered if she turns 65?")) == [65.0]
    assert stated_ages("Is the claim paid until 27 March?") == []
    assert stated_ages("Is leave paid under 26 weeks of service?") == []
    assert stated_ages("Is over 60% refunded?") == []


def test_age_is_a_value_kind_and_a_stated_age_prefers_passages_holding_one() -> None:
    asked = classify("can my son stay on the Globex health plan until 27")
    assert asked.kind == "yes_no" and not asked.needs_value and asked.stated == frozenset({"age"})
    assert "age" in value_kinds("Children up to age 26 can be added.")
    assert satisfies("Children up to age 26 can be added.", asked)
    assert not satisfies("Plan year 1 January to 31 December 2026.", asked)
    plain = classify("Is dental care covered by the Globex plan?")
    assert plain.stated == frozenset() and satisfies("Plan year 1 January to 31 December 2026.", plain)


def test_a_stated_age_makes_the_best_unit_stating_an_age_lead() -> None:
    from core.answer.evidence import ScoredUnit, choose
    from core.answer.sentences import Unit

    asked = classify("can my daughter stay on the Initech plan until 27")
    texts = ["Initech health plan year 1 January to 31 December.", "Children up to age 26 can be added."]
    ranked = [ScoredUnit(Unit(t, 1, n), 0.4 - 0.2 * n, 0.2, 0.4, satisfies(t, asked), frozenset())
              for n, t in enumerate(texts)]
    assert [s.unit.text for s in choose(ranked, asked, 6)][0] == texts[1]
    plain = classify("Is the Initech plan open to contractors?")
    same = [replace(s, typed=satisfies(s.unit.text, plain)) for s in ranked]
    assert [s.unit.text for s in choose(same, plain, 6)][0] == texts[0]
