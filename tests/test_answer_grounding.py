"""Issue 5 wiring: follow-up condensation in the answer service, the exact-match boost and retrieval
legs, and channel scopes in the eval runner."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from core.answer.extractive import ExtractiveAnswerer
from core.answering import PolicyAnswerService
from core.config import RetrievalSettings
from core.embedder import FakeEmbedder
from core.errors import DatasetError
from core.eval import load_context, run_eval
from core.eval.dataset import QAItem
from core.query.rewriter import FakeRewriter
from core.retrieval import HybridRetriever
from core.types import Answer, Turn
from tests.retrieval_helpers import ANSWER, RETRIEVAL, add_document, new_store

Plans = tuple[HybridRetriever, FakeEmbedder]
PETS = "Employees can buy optional pet insurance for dogs and cats through the benefits portal."
PLANS = ["Room rent for Plan A is capped at 1% of the sum insured per day.",
         "Room rent for Plan B is payable up to the sum insured."]


@pytest.fixture
def plans(tmp_path: Path) -> tuple[HybridRetriever, FakeEmbedder]:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "policy.pdf", PLANS)
    return HybridRetriever(store, emb, RETRIEVAL), emb


def _history() -> list[Turn]:
    return [Turn("user", "What is the room rent limit for Plan A?"), Turn("assistant", "1% [1]")]


def test_service_condenses_a_follow_up_before_retrieval(plans: Plans) -> None:
    retriever, emb = plans
    svc = PolicyAnswerService(retriever, ExtractiveAnswerer(ANSWER, emb))
    ans = svc.ask("And for Plan B?", history=_history())
    standalone = ans.details["standalone_question"]
    assert "Plan B" in standalone and "room rent" in standalone


def test_service_leaves_follow_up_alone_when_condense_is_off(plans: Plans) -> None:
    retriever, emb = plans
    svc = PolicyAnswerService(retriever, ExtractiveAnswerer(ANSWER, emb), condense_follow_ups=False)
    assert "standalone_question" not in svc.ask("And for Plan B?", history=_history()).details


def test_service_uses_the_llm_rewriter_when_given(plans: Plans) -> None:
    retriever, emb = plans
    rewriter = FakeRewriter({"And for Plan B?": "What is the room rent limit under Plan B?"})
    svc = PolicyAnswerService(retriever, ExtractiveAnswerer(ANSWER, emb), rewriter=rewriter)
    ans = svc.ask("And for Plan B?", history=_history())
    assert ans.details["standalone_question"] == "What is the room rent limit under Plan B?"


def test_exact_boost_puts_the_named_plan_first(plans: Plans) -> None:
    retriever, emb = plans
    boosted = HybridRetriever(retriever.store, emb, RETRIEVAL.model_copy(update={"exact_weight": 1.0}))
    top = boosted.retrieve("room rent Plan B").chunks[0]
    assert "Plan B" in top.chunk.text and top.scores["exact"] > 0


def test_keyword_leg_alone_is_a_config_switch(plans: Plans) -> None:
    retriever, emb = plans
    only = HybridRetriever(retriever.store, emb, RetrievalSettings(legs=("keyword",)))
    assert all("vector_rank" not in sc.scores for sc in only.retrieve("room rent").chunks)


class _ScopeRecorder:
    def __init__(self) -> None:
        self.scopes: list[tuple[str, list[str]]] = []

    def ask(self, question: str, *, history: object = (), scope: Sequence[str] = ("**",)) -> Answer:
        self.scopes.append((question, list(scope)))
        return Answer(answer="x", citations=[], provider="fake", found=True)


def test_eval_asks_follow_ups_in_their_parents_channel() -> None:
    items = [QAItem("golden-1", "Q1", "lookup"),
             QAItem("dev-1", "Q2", "follow_up", follow_up_of="golden-1"), QAItem("dev-2", "Q3", "lookup")]
    svc = _ScopeRecorder()
    run_eval(svc, items, channels={"golden-*": ["policy.pdf"]})  # type: ignore[arg-type]
    assert svc.scopes == [("Q1", ["policy.pdf"]), ("Q2", ["policy.pdf"]), ("Q3", ["**"])]


def test_context_file_must_map_globs_to_scopes(tmp_path: Path) -> None:
    bad = tmp_path / "ctx.yaml"
    bad.write_text("channels: {golden-*: policy.pdf}\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="channels"):
        load_context(bad)
