"""Pseudo-relevance feedback (core/feedback.py): expansion words come from the best first-pass
passages, weighted by their rarity in the pool, never the question's own words; the retriever
searches them as one more BM25 leg."""

from __future__ import annotations

from pathlib import Path

from core.embedder import FakeEmbedder
from core.feedback import expansion_terms, words
from core.retrieval import HybridRetriever
from core.types import ScoredChunk
from tests.retrieval_helpers import RETRIEVAL, add_document, make_chunk, new_store


def _pool(texts: list[str]) -> list[ScoredChunk]:
    return [ScoredChunk(make_chunk("p.pdf", t, i), 1.0 - i / 10) for i, t in enumerate(texts)]


def test_expansion_words_come_from_the_top_passages_and_skip_the_question() -> None:
    pool = _pool(["Rodents and vermin damage to wiring is excluded under this policy.",
                  "Vermin infestation of the roof space is excluded under this policy.",
                  "Fire damage to the roof is covered under this policy.",
                  "Theft of jewellery is covered under this policy."])
    extra = expansion_terms("squirrels chewed the wiring", pool, docs=2, count=2)
    assert "vermin" in extra and "wiring" not in extra


def test_words_on_every_pooled_passage_are_not_chosen() -> None:
    pool = _pool(["policy excess applies to dental", "policy excess applies to optical",
                  "policy covers travel"])
    assert "policy" not in expansion_terms("what is the excess", pool, docs=3, count=3)


def test_no_expansion_without_a_pool_or_when_turned_off() -> None:
    assert expansion_terms("anything", [], docs=5, count=5) == []
    assert expansion_terms("anything", _pool(["some text here"]), docs=5, count=0) == []


def test_feedback_words_are_content_words_without_digits() -> None:
    assert words("The 30 days limit applies to Rs 4000 of it") == ["days", "limit", "applies"]


def test_the_retriever_adds_a_feedback_leg_when_turned_on(tmp_path: Path) -> None:
    store, embedder = new_store(tmp_path), FakeEmbedder()
    add_document(store, embedder, "home.md", [
        "Squirrels in the attic: damage by vermin such as rodents is excluded.",
        "Vermin damage to electrical wiring is not covered.",
        "Storm damage to the roof is covered.",
    ], page=None)
    settings = RETRIEVAL.model_copy(update={"feedback_terms": 4, "feedback_docs": 1, "top_k": 3})
    found = HybridRetriever(store, embedder, settings).retrieve("squirrels attic").chunks
    assert any("keyword_1" in sc.scores for sc in found)
    plain = HybridRetriever(store, embedder, RETRIEVAL.model_copy(update={"top_k": 3}))
    assert not any("keyword_1" in sc.scores for sc in plain.retrieve("squirrels attic").chunks)
