"""Name binding, rate-basis agreement and value displacement (core/answer/binding.py), each with
invented examples, and how the evidence path reports them."""

from __future__ import annotations

from core.answer import answerability as ans
from core.answer.binding import (
    MEANING_BOUND,
    asked_names,
    bases,
    basis_agreement,
    bound_in_meaning,
    name_binding,
    question_terms,
    value_displacement,
)
from core.answer.evidence import EvidenceFinder
from core.answer.extractive import ExtractiveAnswerer
from core.answer.focus import question_focus
from core.config import AnswerSettings
from core.llm.base import GenerationRequest
from core.text import stem
from core.types import ScoredChunk
from tests.retrieval_helpers import make_chunk

TITLES = ["Globex Travel Rules globex travel rules md", "Initech Benefits initech benefits md"]


def test_a_capitalised_word_of_a_document_title_is_an_asked_name() -> None:
    assert asked_names("How many days of leave does Initech give?", TITLES) == {"initech"}


def test_a_capitalised_word_no_document_title_holds_is_not_an_asked_name() -> None:
    assert asked_names("How much do we get for a trip to Lisbon?", TITLES) == frozenset()


def test_a_name_in_a_framing_sentence_is_not_asked() -> None:
    assert asked_names("We moved here from Initech. How many days of leave do we get?", TITLES) == frozenset()


def test_a_name_is_bound_when_the_quoted_evidence_or_its_title_holds_it() -> None:
    names = asked_names("How many days of leave does Initech give?", TITLES)
    assert name_binding(names, ["Staff get 25 days of leave. Leave Initech Benefits"]) == 1.0


def test_a_name_is_unbound_when_the_evidence_comes_from_another_organisation() -> None:
    names = asked_names("How many days of leave does Initech give?", TITLES)
    assert name_binding(names, ["Staff get 25 days of leave. Leave Globex Travel Rules"]) == 0.0


def test_a_rate_basis_is_read_from_per_a_slash_and_adverbs() -> None:
    assert bases("$0.40 per mile, INR 8/km") == {"distance"}
    assert bases("Rs 900 a day, or $120 nightly") == {"day"}
    assert bases("a fee per insured person") == {"person"}


def test_an_article_before_a_non_time_word_is_no_basis() -> None:
    assert bases("How much can I claim on a trip abroad?") == set()


def test_a_value_on_another_basis_disagrees() -> None:
    assert basis_agreement("What is the per-kilometre allowance for my own car?",
                           "Lodging | $180 per night | a mid-range hotel") == 0.0


def test_a_value_on_the_same_dimension_agrees() -> None:
    assert basis_agreement("What is the per-mile allowance for my own car?",
                           "Private car | INR 12 per km | when no taxi is available") == 1.0


def test_a_value_stated_without_a_basis_is_not_checked() -> None:
    assert basis_agreement("What is the daily meal allowance?", "Meals are reimbursed up to $60.") == 1.0


def test_a_question_without_a_basis_is_not_checked() -> None:
    assert basis_agreement("What is the meal allowance?", "Meals | $60 per day") == 1.0


OPTIONS = "Share options are granted to every permanent employee."
PENSION = "You can join the pension scheme after one year of service."


def _displaced(question: str, answer: str, candidates: list[tuple[str, bool]]) -> float:
    return value_displacement(question_focus(question), question_terms(question), answer, candidates)


def test_a_value_in_a_unit_about_another_slot_is_displaced_when_the_asked_slot_holds_none() -> None:
    question = "How long until my share options are fully vested?"
    assert _displaced(question, PENSION, [(OPTIONS, False), (PENSION, True)]) == 0.0


def test_a_value_is_not_displaced_when_the_asked_slot_holds_one_too() -> None:
    question = "How long until my share options are fully vested?"
    vesting = "Share options vest over four years."
    assert _displaced(question, PENSION, [(vesting, True), (PENSION, True)]) == 1.0


def test_a_value_in_a_unit_sharing_the_questions_words_is_not_displaced() -> None:
    question = "My knee was hurt in a fall. What share of the accident cover is paid?"
    row = "Loss of a knee joint | 40%"
    assert _displaced(question, row, [("The accident cover pays the insured.", False), (row, True)]) == 1.0


def test_a_focus_word_no_candidate_holds_is_a_paraphrase_and_not_checked() -> None:
    question = "How soon must I hand in my receipts?"
    unit = "Submit expense reports within 30 days of the trip."
    assert _displaced(question, unit, [(unit, True)]) == 1.0


def test_one_incidental_word_of_a_long_focus_does_not_name_the_slot() -> None:
    question = "What number do I ring to report shady dealings without giving my name?"
    unit = "Call 0800 123 456 to reach the ethics line."
    other = "Write your name on every form."
    assert _displaced(question, unit, [(other, False), (unit, True)]) == 1.0


def _request(question: str, *texts: str) -> GenerationRequest:
    chunks = [ScoredChunk(make_chunk(f"hr/Doc{i}.md", t, i), 1.0 - i / 10)
              for i, t in enumerate(texts)]
    return GenerationRequest(question=question, sources=tuple(chunks))


def test_the_evidence_reports_a_basis_mismatch_of_the_answering_unit() -> None:
    found = EvidenceFinder(None).find(_request("What is the per-mile rate for my own car?",
                                               "Hotel | $150 per night | a standard hotel."))
    assert found.signals["basis_ok"] == 0.0


def test_the_evidence_reports_an_asked_name_the_answering_passage_does_not_hold() -> None:
    other = "Staff may take 25 days of paid leave each year."
    found = EvidenceFinder(None).find(GenerationRequest(
        "How many days of leave does Initech give?",
        (ScoredChunk(make_chunk("hr/Globex_Handbook.md", other), 0.9),
         ScoredChunk(make_chunk("hr/Initech_Benefits.md", "Initech offers a pension scheme."), 0.5))))
    assert found.chosen[0].unit.text == other and found.signals["name_bound"] == 0.0


def test_a_closed_binding_gate_makes_the_answerability_zero() -> None:
    assert ans.answerability({"type_ok": 1.0, "ids_found": 1.0, "named_doc": 1.0, "basis_ok": 0.0}) == 0.0


def test_the_answerer_refuses_a_rate_on_another_basis() -> None:
    hotel = ScoredChunk(make_chunk("hr/Travel.md", "Hotel | $150 per night | a standard hotel."), 0.8,
                        {"rerank": 0.8})
    gen = ExtractiveAnswerer(AnswerSettings(min_answerability=0.0)).generate(
        GenerationRequest("What is the per-mile rate for my own car?", [hotel]))
    assert not gen.found


def test_the_refusal_of_an_unbound_name_names_it() -> None:
    leave = "Staff may take 25 days of paid leave each year."
    other = ScoredChunk(make_chunk("hr/Globex_Handbook.md", leave), 0.9, {"rerank": 0.9})
    initech = ScoredChunk(make_chunk("hr/Initech_Benefits.md", "Initech offers a pension scheme."), 0.5)
    gen = ExtractiveAnswerer(AnswerSettings(min_answerability=0.0)).generate(
        GenerationRequest("How many days of leave does Initech give?", [other, initech]))
    assert not gen.found and gen.text.startswith("None of the passages I found that could answer this is "
                                                 "about Initech.")


def test_a_displaced_value_is_reopened_when_the_unit_is_about_the_slot_in_meaning() -> None:
    # "up to $400 for commuting costs" answering "how much for a bus pass": no shared word, same thing
    found = {"value_bound": 0.0, "focus_sim": MEANING_BOUND + 0.1, "focus": 0.0}
    assert bound_in_meaning(found)["value_bound"] == 1.0


def test_a_displaced_value_stays_closed_when_the_meaning_is_not_close() -> None:
    found = {"value_bound": 0.0, "focus_sim": MEANING_BOUND - 0.15, "focus": 0.0}
    assert bound_in_meaning(found)["value_bound"] == 0.0


def test_meaning_never_closes_an_open_value_gate() -> None:
    found = {"value_bound": 1.0, "focus_sim": 0.0}
    assert bound_in_meaning(found) == found


def test_the_questions_words_leave_out_a_trailing_place_adjunct() -> None:
    # "at the depot" must not bind a "Depot supplies | $20" row to a question about bike storage
    assert stem("depot") not in question_terms("what do we refund for bike storage at the depot?").terms
