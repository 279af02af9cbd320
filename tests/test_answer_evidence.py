"""Issue 11 answer side: refusals carry citations and name what is missing, citations name the page of
the quoted sentence, ``ask --json`` gains ``answerability`` and ``answer_type``, LLM answers are
assessed too, and answers never quote page furniture."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from core.answer.extractive import ExtractiveAnswerer
from core.answering import PolicyAnswerService
from core.config import AnswerSettings
from core.embedder import FakeEmbedder
from core.llm.base import Generation, GenerationRequest
from core.retrieval import HybridRetriever
from core.store import DocumentRecord
from core.types import Answer, ScoredChunk, page_at
from tests.retrieval_helpers import ANSWER, RETRIEVAL, add_document, make_chunk, new_store, scored

EXPENSES = ["Travel | $500 per trip | Book the most economical transport.",
            "Meals | $50 per day | Choose reasonably priced restaurants."]


@pytest.fixture
def service(tmp_path: Path) -> PolicyAnswerService:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "hr/Expenses_Policy.pdf", EXPENSES, page=3)
    return PolicyAnswerService(HybridRetriever(store, emb, RETRIEVAL), ExtractiveAnswerer(ANSWER, emb))


def test_a_refusal_names_the_missing_thing_and_cites_the_closest_passages(
        service: PolicyAnswerService) -> None:
    refusal = service.ask("What phone number do I call to book a business trip?")
    assert not refusal.found and refusal.answer_type == "phone" and refusal.answerability == 0.0
    assert refusal.answer.startswith("The Expenses Policy does not state the phone number. The closest "
                                     "passages: “Travel | $500 per trip")
    assert {c.file for c in refusal.citations} == {"hr/Expenses_Policy.pdf"} and "[1]" in refusal.answer


def test_below_the_threshold_the_refusal_still_quotes_and_cites(service: PolicyAnswerService) -> None:
    strict = PolicyAnswerService(service.retriever, ExtractiveAnswerer(AnswerSettings(min_answerability=1.0)))
    refusal = strict.ask("What is the per-mile rate for my own car on a business trip?")
    assert not refusal.found and refusal.citations and "closest passages" in refusal.answer


def test_ask_json_gains_answerability_and_answer_type_without_changing_existing_keys(
        service: PolicyAnswerService) -> None:
    data = service.ask("What is the daily limit for meals?").to_json()
    assert list(data)[:7] == ["answer", "citations", "provider", "cached", "timings_ms", "found", "details"]
    assert data["answer_type"] == "money" and 0.0 <= data["answerability"] <= 1.0


def test_a_citation_names_the_page_of_the_quoted_sentence() -> None:
    text = "4. Claims\nNotify us promptly.\nSubmit the claim form within 30 days of the loss."
    offset = text.index("Submit")
    chunk = replace(make_chunk("policy.pdf", text), page=6, page_end=7, page_breaks=((offset, 7),))
    answerer = ExtractiveAnswerer(ANSWER)
    gen = answerer.generate(GenerationRequest("How many days do I have to submit a claim?",
                                              [ScoredChunk(chunk, 0.9)]))
    assert gen.found and gen.text.startswith("Submit the claim form within 30 days") and gen.pages == {1: 7}


def test_an_item_quoted_after_a_lead_in_on_the_page_before_cites_both_pages(tmp_path: Path) -> None:
    text = "3. What We pay\na. If the contents are damaged, We pay the cost of their repair within 30 days."
    chunk = replace(make_chunk("policy.pdf", text), page=6, page_end=7,
                    page_breaks=((text.index("a. If"), 7),))
    gen = ExtractiveAnswerer(ANSWER).generate(GenerationRequest(
        "Within how many days is the repair of damaged contents paid?", [ScoredChunk(chunk, 0.9)]))
    assert gen.found and gen.text.startswith("3. What We pay … a. If the contents")
    assert (gen.pages, gen.first_pages) == ({1: 7}, {1: 6})
    store, emb = new_store(tmp_path), FakeEmbedder()
    store.replace_chunks("policy.pdf", [chunk], emb.embed([text]))
    store.put_document(DocumentRecord("policy.pdf", "sha", 1, 1, "fp", "indexed", chunk_count=1))
    svc = PolicyAnswerService(HybridRetriever(store, emb, RETRIEVAL), ExtractiveAnswerer(ANSWER, emb))
    answer = svc.ask("Within how many days is the repair of damaged contents paid?")
    assert [(c.page, c.page_end) for c in answer.citations] == [(6, 7)]


def test_a_lead_in_quoted_with_its_items_on_the_next_page_cites_both_pages() -> None:
    """A lead-in ending with ":" at the foot of page 5 brings its list items along, and they start
    page 6: the quote runs over the page break, so the citation spans pp. 5–6, not page 5 alone."""
    text = ("3. Legal costs\nPer legal case we pay up to CHF 50 000 for the following costs:\n"
            "a) the fees of the lawyer who acts for the insured person;\n"
            "b) the costs of court proceedings.")
    chunk = replace(make_chunk("policy.pdf", text), page=5, page_end=6,
                    page_breaks=((text.index("a) the fees"), 6),))
    gen = ExtractiveAnswerer(ANSWER).generate(GenerationRequest(
        "Up to what amount are the costs per legal case paid?", [ScoredChunk(chunk, 0.9)]))
    assert gen.found and "following costs: a) the fees" in gen.text
    assert (gen.pages, gen.first_pages) == ({1: 6}, {1: 5})


def test_a_quote_starting_with_a_heading_from_the_page_before_cites_that_page() -> None:
    """A chunk cut from a heading at the foot of page 13 and its text on page 14 has page 14; a unit
    that starts with the heading's words is cited from page 13, where its first words are."""
    text = "3. Post-Treatment\nThe costs incurred during the 90 days after discharge are paid."
    chunk = replace(make_chunk("policy.pdf", text), page=14, page_end=14,
                    page_breaks=((0, 13), (text.index("The costs"), 14)))
    assert page_at(chunk, 0) == 13 and page_at(chunk, text.index("The costs")) == 14
    assert page_at(replace(chunk, page_breaks=((text.index("The costs"), 15),)), 0) == 14


def test_the_service_cites_that_page(tmp_path: Path) -> None:
    store, emb = new_store(tmp_path), FakeEmbedder()
    text = "4. Claims\nNotify us promptly.\nSubmit the claim form within 30 days of the loss."
    chunk = replace(make_chunk("policy.pdf", text), page=6, page_end=7,
                    page_breaks=((text.index("Submit"), 7),))
    store.replace_chunks("policy.pdf", [chunk], emb.embed([text]))
    store.put_document(DocumentRecord("policy.pdf", "sha", 1, 1, "fp", "indexed", chunk_count=1))
    svc = PolicyAnswerService(HybridRetriever(store, emb, RETRIEVAL), ExtractiveAnswerer(ANSWER, emb))
    answer = svc.ask("How many days do I have to submit a claim?")
    assert [(c.page, c.page_end) for c in answer.citations] == [(7, 7)]


def test_page_furniture_and_bare_headings_are_never_quoted() -> None:
    gen = ExtractiveAnswerer(ANSWER).generate(GenerationRequest(
        "What is the grace period for premium payment?",
        [scored("Page | 25 Grace Period Policy\nGrace Period\n"
                "The grace period for payment of the premium is thirty days.")]))
    assert gen.found and gen.text == "The grace period for payment of the premium is thirty days. [1]"


def test_a_table_row_is_quoted_under_its_column_headers() -> None:
    table = "| Expense Category | Limit | Guidelines |\n| --- | --- | --- |\n" + "\n".join(
        f"| {row} |" for row in ("Travel | $500 per trip | Economy", "Meals | $50 per day | Modest"))
    gen = ExtractiveAnswerer(ANSWER).generate(GenerationRequest("What's the daily limit for meals?",
                                                                [scored(table)]))
    assert gen.text.startswith("Expense Category | Limit | Guidelines … Meals | $50 per day")


class _Llm:
    """An LLM provider stand-in that reports no answerability (the model is not the subject here)."""

    name = "llm"

    def generate(self, request: GenerationRequest) -> Generation:
        return Generation("Meals are capped at $50 per day [1].", (1,), self.name)

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        yield self.generate(request)


def test_an_llm_answer_is_assessed_by_the_extractive_evidence(service: PolicyAnswerService) -> None:
    assessor = service.provider
    assert isinstance(assessor, ExtractiveAnswerer)
    svc = PolicyAnswerService(service.retriever, _Llm(), assessor=assessor)
    answer: Answer = svc.ask("What is the daily limit for meals?")
    assert answer.provider == "llm" and answer.answer_type == "money" and answer.answerability is not None
