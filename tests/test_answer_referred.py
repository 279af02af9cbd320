"""Table rows brought along from elsewhere in the sources (core.answer.referred)."""

from __future__ import annotations

from dataclasses import replace

from core.answer.answer_type import classify
from core.answer.extractive import ExtractiveAnswerer
from core.answer.referred import ranged_rows, referred_rows
from core.answer.sentences import Unit, split_units
from core.embedder import FakeEmbedder
from core.llm.base import Generation, GenerationRequest
from core.types import ScoredChunk
from tests.retrieval_helpers import ANSWER, scored

EYE_TEST = ("Eye test: the cost of one eye test every two years is reimbursed. Expenses payable are "
            "subject to the limit stated in the Schedule of Allowances.")
ALLOWANCES = ("| Allowance | Silver | Gold |\n| --- | --- | --- |\n"
              "| Eye test (per member) | up to EUR 40 | up to EUR 60 |\n"
              "| Hearing aid | up to EUR 400 | up to EUR 700 |\n"
              "| Gym membership | EUR 10 a month | EUR 20 a month |")
STEPS = ("| Steps a day | Discount |\n| --- | --- |\n| 4001 to 7000 | 1% |\n| 7001 to 9000 | 3% |\n"
         "| Above 9000 | 6% |\nThe steps are counted by the insurer's phone app.")


def _ask(question: str, *sources: ScoredChunk) -> Generation:
    return ExtractiveAnswerer(ANSWER, FakeEmbedder()).generate(GenerationRequest(question, list(sources)))


def _rows(question: str, *sources: ScoredChunk) -> list[Unit]:
    """:func:`referred_rows` of the last unit of the first source (the one naming the table)."""
    request = GenerationRequest(question, list(sources))
    splits = {i: split_units(sc.chunk.text, i) for i, sc in enumerate(sources, start=1)}
    return referred_rows(request, splits, splits[1][-1], classify(question), {})


def _referred(text: str, score: float, path: str, ordinal: int) -> ScoredChunk:
    """A table chunk added by reference following (``scores["reference"]``)."""
    return replace(scored(text, score, path=path, ordinal=ordinal), scores={"reference": 1.0})


def test_a_unit_naming_a_table_quotes_its_row_about_the_question() -> None:
    gen = _ask("Is an eye test covered?", scored(EYE_TEST, 1.0, path="b.pdf", ordinal=3),
               _referred(ALLOWANCES, 0.5, "b.pdf", 40))
    assert "Eye test (per member) | up to EUR 40 | up to EUR 60 [2]" in gen.text


def test_rows_not_about_the_question_are_left_out() -> None:
    gen = _ask("Is an eye test covered?", scored(EYE_TEST, 1.0, path="b.pdf", ordinal=3),
               _referred(ALLOWANCES, 0.5, "b.pdf", 40))
    assert "Hearing aid" not in gen.text and "Gym membership" not in gen.text


def test_a_table_of_another_document_is_not_quoted_for_a_named_table() -> None:
    rows = _rows("Is an eye test covered?", scored(EYE_TEST, 1.0, path="b.pdf", ordinal=3),
                 _referred(ALLOWANCES, 0.5, "other.pdf", 40))
    assert rows == []


def test_a_table_retrieved_without_the_name_or_a_reference_is_not_taken_for_the_named_one() -> None:
    rows = _rows("Is an eye test covered?", scored(EYE_TEST, 1.0, path="b.pdf", ordinal=3),
                 scored(ALLOWANCES, 0.1, path="b.pdf", ordinal=40))
    assert rows == []


def test_a_captioned_table_chunk_is_the_named_table() -> None:
    rows = _rows("Is an eye test covered?", scored(EYE_TEST, 1.0, path="b.pdf", ordinal=3),
                 scored(f"Schedule of Allowances:\n{ALLOWANCES}", 0.1, path="b.pdf", ordinal=40))
    assert [r.text.split(" |")[0] for r in rows] == ["Eye test (per member)"]


def test_a_row_whose_range_holds_the_stated_quantity_is_quoted_beside_a_nearby_sentence() -> None:
    gen = _ask("I walk 10k steps every day, do I get anything off my premium?",
               scored(STEPS, 1.0, path="h.pdf", ordinal=7))
    assert "Above 9000 | 6%" in gen.text


def test_rows_whose_range_misses_the_stated_quantity_are_not_added() -> None:
    question = "I walk 10k steps every day, do I get anything off my premium?"
    request = GenerationRequest(question, [scored(STEPS, 1.0, path="h.pdf", ordinal=7)])
    rows = ranged_rows(request, {1: split_units(STEPS, 1)}, "h.pdf", [])
    assert [r.text for r in rows] == ["Above 9000 | 6%"]


def test_a_stated_count_without_the_labels_unit_is_no_quantity_for_its_range() -> None:
    refunds = ("| Period on risk | Refund |\n| --- | --- |\n| Upto one month | 75% |\n"
               "| Upto six months | 40% |")
    question = "I am giving one of my kidneys to my sister, is anything paid?"
    request = GenerationRequest(question, [scored(refunds, 1.0, path="r.pdf", ordinal=2)])
    assert ranged_rows(request, {1: split_units(refunds, 1)}, "r.pdf", []) == []


def test_words_of_the_document_title_do_not_make_a_row_about_the_question() -> None:
    title = replace(scored(EYE_TEST, 1.0, path="b.pdf", ordinal=3),
                    chunk=replace(scored(EYE_TEST).chunk, path="b.pdf", ordinal=3,
                                  context="Gym Membership Plan — Benefits"))
    rows = _rows("Does the Gym Membership Plan pay for a hearing aid?", title,
                 _referred(ALLOWANCES, 0.5, "b.pdf", 40))
    assert [r.text.split(" |")[0] for r in rows] == ["Hearing aid"]
