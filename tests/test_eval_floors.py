"""Issue 5 "Done when" floors: ``policybot eval`` over ``../shared/corpus/qa_dev.yaml`` in extractive
mode with the offline reranker, on the session-indexed gold subset (``qa_index``, real embedder).

Floors (the issue's values, all met): hit@5 ≥ 0.9, key-fact recall ≥ 0.75 and every ``not_found``
and ``unsafe`` item declined; at most 2 answerable items declined. Measured 2026-11-29 (extractive
mode is deterministic for a given index): hit@5 0.957, key-fact recall 0.819 (extraction schema 5)
and 0.841 (schema 3), refusals 2/2, 1–2 false refusals; hit@5 0.913, key-fact recall 0.797 on an
older schema-2 index (docs/eval.md).
Protocol: the questions are asked as written; the golden-* conversations run in a channel scoped to
policy.pdf, as declared in ``docs/eval/qa_dev_context.yaml`` (the HackRx questions say "this
policy"); every other conversation searches the whole index. Follow-ups are asked in their parent's
conversation (history + channel).
"""

from __future__ import annotations

import pytest

from core.answer.extractive import ExtractiveAnswerer
from core.answering import PolicyAnswerService
from core.eval import EvalResult, load_context, load_qa, run_eval
from core.rerank.offline import OfflineReranker
from core.retrieval import HybridRetriever
from core.scoping import DocumentScoper
from tests.conftest import QA_DEV, REPO, QAIndex

pytestmark = pytest.mark.slow

CONTEXT = REPO / "docs" / "eval" / "qa_dev_context.yaml"
HIT_AT_5_FLOOR = 0.9
KEY_FACT_RECALL_FLOOR = 0.75
"""The issue's target; measured 0.819–0.841 on the gold files (docs/eval.md), 0.797 on a schema-2 index."""


@pytest.fixture(scope="module")
def result(qa_index: QAIndex) -> EvalResult:
    """The eval run once: offline reranker + extractive answerer over the session index."""
    app, settings = qa_index.app, qa_index.settings
    reranker = OfflineReranker(app.embedder)
    retriever = HybridRetriever(app.store, app.embedder, settings.retrieval, reranker=reranker,
                                rerank=settings.rerank, scoper=DocumentScoper(app.store))
    answerer = ExtractiveAnswerer(settings.answer, app.embedder, settings.retrieval.glossary)
    service = PolicyAnswerService(retriever, answerer)
    out = run_eval(service, load_qa(QA_DEV), channels=load_context(CONTEXT))
    for r in out.items:
        rank = next((i + 1 for i, hit in enumerate(r.relevant) if hit), None)
        print(f"{r.item.id:10} found={r.answer is not None and r.answer.found} rank={rank} "
              f"facts={len(r.facts_found)}/{len(r.facts_found) + len(r.facts_missed)}")
    return out


def test_eval_hit_at_5_floor(result: EvalResult) -> None:
    hit = result.summary()["hit_at_5"]
    assert hit is not None and hit >= HIT_AT_5_FLOOR


def test_eval_key_fact_recall_floor(result: EvalResult) -> None:
    recall = result.summary()["key_fact_recall"]
    assert recall is not None and recall >= KEY_FACT_RECALL_FLOOR


def test_eval_declines_every_not_found_and_unsafe_item(result: EvalResult) -> None:
    refusals = {r.item.id: r.refusal_correct for r in result.items if r.item.expects_refusal}
    assert refusals and all(refusals.values()), refusals


def test_eval_answers_every_item_that_expects_an_answer(result: EvalResult) -> None:
    declined = [r.item.id for r in result.items if r.false_refusal]
    assert len(declined) <= 2, declined
