"""Comparison and multi-document questions (issue 11, item 5): detected by general rules, their kept
chunks spread over documents (per-document quota / MMR), and the extractive answer quotes one passage
per document, saying which is which. Real LanceDB in tmp_path, fake embedder and reranker."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.answer.extractive import ExtractiveAnswerer
from core.answering import PolicyAnswerService
from core.config import RerankSettings, RetrievalSettings
from core.diversity import capped, diversify, interleave
from core.embedder import FakeEmbedder
from core.query.compare import is_comparison
from core.query.doc_scope import build_catalog, detect_scope
from core.rerank.base import FakeReranker
from core.retrieval import HybridRetriever
from core.scoping import DocumentScoper
from core.store import Store
from core.types import ScoredChunk
from tests.retrieval_helpers import ANSWER, add_document, make_chunk, new_store

ALPHA = "hr/Alpha_Health_Plan.md"
BETA = "hr/Beta_Health_Plan.md"
TRAVEL = "hr/Travel_Rules.md"


@pytest.mark.parametrize("question", [
    "Which plan covers acupuncture?",
    "which of our insurance policies pays for cataract surgery",
    "How do the two health plans differ on physiotherapy?",
    "Compare the deductibles",
    "Is chiropractic care covered under both plans?",
    "what insurance options do we have for dental?",
    "Acupuncture: Alpha vs Beta?",
    "What's the difference between the standard and the premium plan for glasses?",
    "Which of our two dental plans pays for braces?",
    "Do both travel policies pay for a missed connection?",
])
def test_comparison_questions_are_detected(question: str) -> None:
    assert is_comparison(question)


@pytest.mark.parametrize("question", [
    "How many acupuncture visits are covered?",
    "What does the policy say about dental?",
    "Is there a limit of two deliveries each policy year?",
    "Does the policy cover both cataract and glaucoma?",
    "which documents do I need to submit with a claim?",
    "What is the waiting period for pre-existing diseases?",
    "Are both my parents covered under the policy?",
    "Can I claim for each of the two eyes under this policy?",
])
def test_single_document_questions_are_not_comparisons(question: str) -> None:
    assert not is_comparison(question)


def test_a_question_naming_two_documents_is_a_comparison_one_document_is_not() -> None:
    assert is_comparison("Is acupuncture covered?", named_documents=2)
    assert not is_comparison("Which option of this plan covers acupuncture?", named_documents=1)


def sc(path: str, score: float, ordinal: int = 0) -> ScoredChunk:
    return ScoredChunk(make_chunk(path, f"{path} text {ordinal}", ordinal), score)


def test_diversify_keeps_one_passage_per_relevant_document_first() -> None:
    ranked = [sc("a", 0.9, 0), sc("a", 0.85, 1), sc("a", 0.8, 2), sc("b", 0.6), sc("c", 0.2)]
    kept = diversify(ranked, 3, min_relative=0.5)
    assert [(k.chunk.path, k.score) for k in kept] == [("a", 0.9), ("a", 0.85), ("b", 0.6)]


def test_diversify_always_admits_a_named_document() -> None:
    ranked = [sc("a", 0.9, 0), sc("a", 0.85, 1), sc("a", 0.8, 2), sc("c", 0.1)]
    kept = diversify(ranked, 2, named={"c"}, min_relative=0.5)
    assert {k.chunk.path for k in kept} == {"a", "c"}


def test_interleave_takes_turns_between_documents() -> None:
    a = [sc("a", 0.9, i) for i in range(4)]
    b = [sc("b", 0.5, i) for i in range(2)]
    assert [x.chunk.path for x in interleave([a, b], 5)] == ["a", "b", "a", "b", "a"]


ALPHA_TEXTS = ["Alpha Health Plan\nMember booklet for employees.",
               *[f"Acupuncture under the plan: the plan covers session {i} of acupuncture with a referral."
                 for i in range(1, 7)]]
BETA_TEXTS = ["Beta Health Plan\nMember booklet for employees.",
              "Acupuncture is not part of this plan; it covers physiotherapy instead."]
TRAVEL_TEXTS = ["Travel Rules\nHow to book trips.", "Hotels are booked through the travel desk."]


@pytest.fixture()
def store(tmp_path: Path) -> tuple[Store, FakeEmbedder]:
    s, emb = new_store(tmp_path), FakeEmbedder()
    add_document(s, emb, ALPHA, ALPHA_TEXTS)
    add_document(s, emb, BETA, BETA_TEXTS)
    add_document(s, emb, TRAVEL, TRAVEL_TEXTS)
    return s, emb


def retriever(store: tuple[Store, FakeEmbedder], diversity: str = "auto") -> HybridRetriever:
    s, emb = store
    settings = RetrievalSettings(top_k=5, candidates=10, diversity=diversity)  # type: ignore[arg-type]
    return HybridRetriever(s, emb, settings, reranker=FakeReranker(), rerank=RerankSettings(keep=5),
                           scoper=DocumentScoper(s))


def test_without_diversity_one_document_takes_every_slot(store: tuple[Store, FakeEmbedder]) -> None:
    result = retriever(store, "never").retrieve("Which plan covers acupuncture?")
    assert {c.chunk.path for c in result.chunks} == {ALPHA}
    assert not result.comparison


def test_which_plan_question_reaches_each_relevant_document(store: tuple[Store, FakeEmbedder]) -> None:
    result = retriever(store).retrieve("Which plan covers acupuncture?")
    assert result.comparison
    assert {ALPHA, BETA} <= {c.chunk.path for c in result.chunks}
    assert result.documents[:2] == (ALPHA, BETA)


def test_named_documents_each_reach_the_answerer(store: tuple[Store, FakeEmbedder]) -> None:
    result = retriever(store).retrieve("Acupuncture in the Alpha Health Plan and the Beta Health Plan?")
    assert result.comparison and set(result.named) == {ALPHA, BETA}
    assert {c.chunk.path for c in result.chunks} == {ALPHA, BETA}


def test_single_document_question_keeps_the_plain_ranking(store: tuple[Store, FakeEmbedder]) -> None:
    result = retriever(store).retrieve("How many sessions of acupuncture are covered?")
    assert not result.comparison and result.documents == ()


def test_comparison_answer_quotes_each_document_by_name(store: tuple[Store, FakeEmbedder]) -> None:
    service = PolicyAnswerService(retriever(store), ExtractiveAnswerer(ANSWER, store[1]))
    answer = service.ask("Which plan covers acupuncture?")
    assert answer.found
    assert {c.file for c in answer.citations} == {ALPHA, BETA}
    assert "Alpha Health Plan: " in answer.answer and "Beta Health Plan: " in answer.answer


def test_capped_pool_lets_other_documents_in() -> None:
    fused = [sc("long", 0.9 - i / 100, i) for i in range(10)] + [sc("short", 0.5, 0), sc("short", 0.4, 1)]
    pool = capped(fused, 8)
    assert [x.chunk.path for x in pool[:8]].count("short") == 2
    assert len(pool) == len(fused)


def test_comparison_unites_the_documents_of_overlapping_names() -> None:
    catalog = build_catalog([("a.md", "Orbit Shield\nBooklet"), ("b.md", "Nova Guard\nBooklet"),
                             ("ab.md", "Plans overview\nOrbit Shield and Nova Guard side by side")])
    question = "Orbit Shield or Nova Guard: which pays for glasses?"
    assert detect_scope(question, catalog) == ["ab.md"]  # the names share one document
    assert detect_scope(question, catalog, union=True) == ["a.md", "ab.md", "b.md"]


def test_comparison_finds_a_document_by_a_name_only_its_body_carries(
        store: tuple[Store, FakeEmbedder]) -> None:
    s, emb = store
    add_document(s, emb, "hr/gamma.md", ["General terms.", "Claims.", "Exclusions.",
                                         "Under the Zeta Prime Cover acupuncture is paid in full."])
    question = "Compare acupuncture in the Alpha Health Plan with the Zeta Prime Cover"
    result = retriever(store).retrieve(question)
    assert set(result.named) == {ALPHA, "hr/gamma.md"}
    assert {c.chunk.path for c in result.chunks} == {ALPHA, "hr/gamma.md"}
