"""Expected answer types (Li & Roth coarse classes, rules) and typed values in passages."""

from __future__ import annotations

import pytest

from core.answer.answer_type import classify, satisfies, strip_placeholders, value_clause, value_kinds


@pytest.mark.parametrize(("question", "kind"), [
    ("Which number do I ring to report a safety problem?", "phone"),
    ("Is there a number I can call for claims?", "phone"),
    ("What's the e-mail address for privacy requests?", "email"),
    ("Which website do I use to book travel?", "url"),
    ("What share of the bill do I pay myself?", "percentage"),
    ("how much of my salary is paid while I'm on disability?", "percentage"),
    ("How long do I have to file a claim after an accident?", "duration"),
    ("What is the notice period for resigning?", "duration"),
    ("When does the open enrollment start?", "date"),
    ("How much can I spend on a hotel per night?", "money"),
    ("what's the most i can claim for meals", "money"),
    ("What extra premium is charged for the optional cover?", "money"),
    ("How many physiotherapy sessions are covered each year?", "count"),
    ("What is the minimum age to enrol?", "count"),
    ("Is acupuncture covered?", "yes_no"),
    ("Is there a limit on room rent?", "yes_no"),
    ("Under the travel cover, if I hire a lawyer myself before reporting it, are those fees covered?",
     "yes_no"),
    ("If I'm hospitalised abroad, how much is paid for the flight home?", "money"),
    ("What does 'day care treatment' mean?", "definition"),
    ("What counts as a valid receipt?", "definition"),
    ("How do I submit my expenses?", "procedure"),
    ("Who do I talk to about my personal data?", "person"),
    ("Which documents are needed for a claim?", "list"),
    ("Tell me about the maternity benefit", "description"),
])
def test_classify_questions(question: str, kind: str) -> None:
    assert classify(question).kind == kind


def test_the_value_clause_of_a_compound_question_decides() -> None:
    atype = classify("Does it cover dental treatment abroad, and up to what amount?")
    assert atype.kind == "money" and atype.needs_value and "percentage" in atype.accepts


def test_context_a_follow_up_carries_in_parentheses_does_not_decide_the_type() -> None:
    # core.query.condense appends the previous question's topic words; "fees" there is no money question
    asked = "If my flight is cancelled, are the extra hotel nights covered? (travel delay benefit fees)"
    assert classify(asked).kind == "yes_no" and not classify(asked).needs_value
    assert classify("How much is paid? (travel delay benefit)").kind == "money"


def test_a_value_question_with_a_yes_no_tag_keeps_its_value_type() -> None:
    atype = classify("What's the waiting period for knee surgery, is it two years?")
    assert atype.kind == "duration" and atype.needs_value


def test_yes_no_and_procedure_questions_need_no_value() -> None:
    assert not classify("Is physiotherapy covered?").needs_value
    assert not classify("How do I claim my expenses?").needs_value


def test_focus_names_the_asked_for_thing() -> None:
    assert classify("What's the per-mile rate if I drive my own car?").focus == "the per-mile rate"
    assert classify("How many hours is the waiting period?").focus == "how many hours"


@pytest.mark.parametrize(("text", "kinds"), [
    ("Call the hotline at 1-800-555-1212.", {"phone"}),
    ("Write to privacy@contoso.com.", {"email"}),
    ("See www.example.com/claims for forms.", {"url"}),
    ("Co-payment of 5% on all claims.", {"percentage", "count"}),
    ("Submit within 30 days of the expense.", {"duration", "count"}),
    ("Cover starts on 1 April.", {"date", "count"}),
    ("Capped at Rs. 40,000 per eye.", {"money", "count"}),
    ("Room rent is payable up to the sum insured.", {"money"}),
])
def test_value_kinds_in_passages(text: str, kinds: set[str]) -> None:
    assert value_kinds(text) == kinds


@pytest.mark.parametrize("placeholder", ["[Claims Contact Number]", "<insert phone number>", "XXX-XXX-XXXX",
                                         "____", "{{phone}}", "TBD"])
def test_template_placeholders_are_not_values(placeholder: str) -> None:
    text = f"Claims Helpline: {placeholder}"
    assert not satisfies(text, classify("What phone number do I call for a claim?"))
    assert placeholder not in strip_placeholders(text)


def test_a_markdown_link_is_not_a_placeholder() -> None:
    assert "[the portal]" in strip_placeholders("Book on [the portal](https://example.com).")


def test_a_year_is_not_an_amount() -> None:
    assert "money" not in value_kinds("Under the Transplantation of Human Organs Act 1994.")


def test_the_value_clause_is_the_clause_asking_for_a_value() -> None:
    question = "After the surgery, is there a form to send, and how much of my salary is paid?"
    assert value_clause(question) == "how much of my salary is paid?"


def test_a_question_asking_only_for_a_value_is_its_own_value_clause() -> None:
    assert value_clause("How many weeks of notice do I give?") == "How many weeks of notice do I give?"
