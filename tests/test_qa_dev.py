"""Issue 2 "Done when" floors over ``../shared/corpus/qa_dev.yaml`` with the REAL embedder.

- Retrieval hit@5 ≥ 0.8 on the golden, lookup and table items: a retrieved chunk from a gold file whose
  page span overlaps the gold pages (``core.eval.metrics.relevance``).
- The extractive answer contains every key fact (case-insensitive, thousands separators ignored,
  number words ≈ digits: ``core.eval.metrics.fact_found``) for ≥ 8 of the 10 golden questions
  (issue 2 asked for 6; 8–9 measured since issue 5's answer-selection work).

Protocol: the golden items are the HackRx 6.0 questions, posed *against policy.pdf* ("this policy"),
so they are asked with scope ``["policy.pdf"]``; every other item is asked over the whole index
(the whole shared corpus, several of its documents other insurers' health policies).
Unscoped, the golden items compete with other insurers' wordings that answer the same question;
document-scope detection is issue 5.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from core.eval.dataset import QAItem, load_qa
from core.eval.metrics import fact_found, relevance
from core.types import Answer
from tests.conftest import QA_DEV, QAIndex

pytestmark = pytest.mark.slow


def _items() -> list[QAItem]:
    return load_qa(QA_DEV)


def _scope(item: QAItem) -> Sequence[str]:
    return ["policy.pdf"] if item.id.startswith("golden") else ["**"]


@pytest.fixture(scope="module")
def answers(qa_index: QAIndex) -> dict[str, Answer]:
    """One answer per golden/lookup/table item (asked once, shared by the tests below)."""
    graded = [i for i in _items() if i.id.startswith("golden") or i.kind in ("lookup", "table")]
    return {i.id: qa_index.app.service.ask(i.question, scope=_scope(i)) for i in graded}


def test_whole_corpus_indexed_with_only_the_broken_files_failing(qa_index: QAIndex) -> None:
    docs = qa_index.app.store.documents()
    failed = sorted(p for p, d in docs.items() if d.status != "indexed")
    assert len(docs) == 24 and failed == sorted(p for p in docs if p.startswith("broken/"))


def test_retrieval_hit_at_5_floor(answers: dict[str, Answer]) -> None:
    items = {i.id: i for i in _items()}
    hits = {qid: any(relevance(a.retrieved[:5], items[qid].sources)) for qid, a in answers.items()}
    rate = sum(hits.values()) / len(hits)
    misses = sorted(q for q, h in hits.items() if not h)
    print(f"\nhit@5 = {rate:.2f} ({sum(hits.values())}/{len(hits)}); misses: {misses}")
    assert rate >= 0.8


def test_golden_key_facts_floor(answers: dict[str, Answer]) -> None:
    golden = [i for i in _items() if i.id.startswith("golden")]
    complete = [i.id for i in golden if all(fact_found(f, answers[i.id].answer) for f in i.key_facts)]
    print(f"\ngolden answers with every key fact: {len(complete)}/10: {complete}")
    assert len(golden) == 10 and len(complete) >= 8
