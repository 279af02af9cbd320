"""Hybrid retrieval: fusion maths, tokenisation, glossary, scope filtering, 0/1/2 documents.

Real LanceDB in tmp_path; FakeEmbedder (deterministic bag-of-words) since the model is not the subject.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from core.config import RetrievalSettings
from core.embedder import FakeEmbedder
from core.fusion import convex_fusion, min_max, reciprocal_rank_fusion
from core.retrieval import HybridRetriever, expand_glossary, in_scope, keyword_query, tokenize
from core.scoping import DocumentScoper
from core.types import ScoredChunk
from tests.retrieval_helpers import RETRIEVAL, add_document, make_chunk, new_store

A, B, C = (make_chunk("a.md", "alpha"), make_chunk("b.md", "beta"), make_chunk("c.md", "gamma"))


def test_rrf_score_is_weighted_reciprocal_rank_scaled_to_one() -> None:
    fused = reciprocal_rank_fusion({"vector": [(A, 0.9), (B, 0.5)], "keyword": [(B, 7.0), (C, 3.0)]},
                                   {"vector": 1.0, "keyword": 1.0}, k=60)
    top = 2 / 61
    expected = {"b.md": (1 / 62 + 1 / 61) / top, "a.md": (1 / 61) / top, "c.md": (1 / 62) / top}
    assert [s.chunk.path for s in fused] == ["b.md", "a.md", "c.md"]
    for s in fused:
        assert s.score == pytest.approx(expected[s.chunk.path])


def test_rrf_weight_zero_ignores_a_leg() -> None:
    fused = reciprocal_rank_fusion({"vector": [(A, 0.9)], "keyword": [(B, 7.0)]},
                                   {"vector": 1.0, "keyword": 0.0}, k=60)
    assert fused[0].chunk.path == "a.md" and fused[1].score == 0.0


def test_rrf_records_each_legs_score_and_rank() -> None:
    fused = reciprocal_rank_fusion({"vector": [(A, 0.9), (B, 0.5)], "keyword": [(B, 7.0)]}, {}, k=60)
    b = next(s for s in fused if s.chunk.path == "b.md")
    assert b.scores["vector"] == 0.5 and b.scores["vector_rank"] == 2.0
    assert b.scores["keyword"] == 7.0 and b.scores["keyword_rank"] == 1.0


def test_min_max_scales_to_unit_interval() -> None:
    assert min_max([2.0, 4.0, 3.0]) == [0.0, 1.0, 0.5]


def test_min_max_of_a_single_positive_score_is_one() -> None:
    assert min_max([0.3]) == [1.0]


def test_convex_fusion_is_weighted_mean_of_normalised_scores() -> None:
    fused = convex_fusion({"vector": [(A, 0.9), (B, 0.5)], "keyword": [(B, 8.0), (C, 2.0)]},
                          {"vector": 3.0, "keyword": 1.0})
    scores = {s.chunk.path: s.score for s in fused}
    assert scores == pytest.approx({"a.md": 0.75, "b.md": 0.25, "c.md": 0.0})


def test_fusion_of_empty_legs_is_empty() -> None:
    assert reciprocal_rank_fusion({"vector": [], "keyword": []}, {}) == []
    assert convex_fusion({"vector": [], "keyword": []}, {}) == []


def test_tokenize_nfkc_lowercase_punctuation_split() -> None:
    assert tokenize("Beneﬁt: Pre-existing (PED)?") == ["benefit", "pre", "existing", "ped"]


def test_keyword_query_strips_fts_syntax() -> None:
    assert keyword_query('room AND "rent" OR icu^2 -plan* (a:b)') == "room and rent or icu 2 plan a b"


def test_glossary_expands_whole_word_abbreviation() -> None:
    assert expand_glossary("PED waiting period?", {"PED": "pre-existing disease"}) == (
        "PED (pre-existing disease) waiting period?")


def test_glossary_ignores_abbreviation_inside_a_word() -> None:
    assert expand_glossary("SPEED limits", {"PED": "pre-existing disease"}) == "SPEED limits"


@pytest.mark.parametrize(("path", "scope", "inside"), [
    ("hr/leave.md", ["**"], True),
    ("hr/leave.md", ["hr/**"], True),
    ("hr/leave.md", ["hr"], True),
    ("hr/leave.md", ["insurance/**"], False),
    ("hrx/leave.md", ["hr/**"], False),
    ("insurance/a.pdf", ["hr/**", "insurance/*.pdf"], True),
])
def test_in_scope(path: str, scope: list[str], inside: bool) -> None:
    assert in_scope(path, scope) is inside


@pytest.fixture
def two_docs(tmp_path: Path) -> HybridRetriever:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "hr/leave.md", ["Employees receive 25 days of paid leave each year.",
                                              "Sick leave needs a doctor's note after three days."])
    add_document(store, emb, "insurance/policy.pdf",
                 ["Pre-existing disease is covered after 36 months of continuous coverage.",
                  "A grace period of thirty days is allowed for premium payment."])
    return HybridRetriever(store, emb, RETRIEVAL)


def test_zero_documents_return_nothing(tmp_path: Path) -> None:
    result = HybridRetriever(new_store(tmp_path), FakeEmbedder(), RETRIEVAL).retrieve("grace period?")
    assert result.chunks == []


def test_one_document_ranks_matching_chunk_first(tmp_path: Path) -> None:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "only.md", ["The office opens at nine.", "Parking is free for staff."])
    result = HybridRetriever(store, emb, RETRIEVAL).retrieve("Is parking free?")
    assert result.chunks[0].chunk.text == "Parking is free for staff."


def test_scores_are_never_negative(two_docs: HybridRetriever) -> None:
    result = two_docs.retrieve("zebra crossing unrelated words")
    assert all(s.score >= 0 and all(v >= 0 for v in s.scores.values()) for s in result.chunks)


def test_two_documents_find_the_right_one(two_docs: HybridRetriever) -> None:
    assert two_docs.retrieve("grace period for premium").chunks[0].chunk.path == "insurance/policy.pdf"


def test_scope_excludes_documents_outside_it(two_docs: HybridRetriever) -> None:
    result = two_docs.retrieve("grace period for premium", scope=["hr/**"])
    assert result.chunks and {s.chunk.path for s in result.chunks} == {"hr/leave.md"}


def test_scope_matching_nothing_returns_nothing(two_docs: HybridRetriever) -> None:
    assert two_docs.retrieve("grace period", scope=["legal/**"]).chunks == []


def test_glossary_expansion_reaches_the_keyword_leg(two_docs: HybridRetriever) -> None:
    result = two_docs.retrieve("PED?")
    assert result.query == "PED (pre-existing disease)?"
    assert result.chunks[0].chunk.text.startswith("Pre-existing disease")


def test_top_k_limits_results(two_docs: HybridRetriever) -> None:
    assert len(two_docs.retrieve("leave days premium disease", top_k=2).chunks) == 2


def test_convex_fusion_from_settings(tmp_path: Path) -> None:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "a.md", ["Grace period of thirty days.", "Office opens at nine."])
    retriever = HybridRetriever(store, emb, RetrievalSettings(fusion="convex"))
    best = retriever.retrieve("grace period").chunks[0]
    assert best.chunk.text.startswith("Grace") and 0.0 <= best.score <= 1.0


class _ReverseReranker:
    name = "reverse"
    fallback_reason: str | None = None

    def rerank(self, question: str, candidates: list[ScoredChunk], keep: int) -> list[ScoredChunk]:
        return list(reversed(candidates))[:keep]


def test_reranker_hook_reorders_candidates(two_docs: HybridRetriever) -> None:
    plain = two_docs.retrieve("grace period for premium").chunks
    reranked = HybridRetriever(two_docs.store, two_docs.embedder, RETRIEVAL, reranker=_ReverseReranker())
    result = reranked.retrieve("grace period for premium")
    assert result.reranker == "reverse" and result.chunks[-1].chunk == plain[0].chunk


def test_question_naming_a_document_searches_only_it(tmp_path: Path) -> None:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "arogya_sanjeevani.pdf",
                 ["Arogya Sanjeevani Policy", "The grace period for premium payment is fifteen days."])
    add_document(store, emb, "policy.pdf",
                 ["National Parivar Mediclaim Plus Policy", "The grace period for premium is thirty days."])
    retriever = HybridRetriever(store, emb, RETRIEVAL, scoper=DocumentScoper(store))
    result = retriever.retrieve("What is the grace period under the National Parivar Mediclaim Plus Policy?")
    assert result.chunks and {s.chunk.path for s in result.chunks} == {"policy.pdf"}


def test_document_naming_never_widens_the_scope(tmp_path: Path) -> None:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "hr/leave.md", ["Leave policy", "Staff get 25 days of paid leave."])
    add_document(store, emb, "insurance/arogya.pdf", ["Arogya Sanjeevani Policy", "Grace period is 15 days."])
    retriever = HybridRetriever(store, emb, RETRIEVAL, scoper=DocumentScoper(store))
    result = retriever.retrieve("Grace period under Arogya Sanjeevani?", scope=["hr/**"])
    assert {s.chunk.path for s in result.chunks} == {"hr/leave.md"}


class InlineLegs(HybridRetriever):
    """The legs run one after the other on the calling thread (the path before the leg threads)."""

    def _submit(self, fn):  # type: ignore[no-untyped-def]
        from concurrent.futures import Future

        done: Future[object] = Future()
        done.set_result(fn())
        return done


def test_concurrent_legs_fuse_as_the_legs_run_one_after_the_other(two_docs: HybridRetriever) -> None:
    inline = InlineLegs(two_docs.store, two_docs.embedder, RETRIEVAL)
    for question in ("grace period for premium", "sick leave note", "coverage after 36 months", "parking"):
        threaded = two_docs.retrieve(question).chunks
        assert [(s.chunk.chunk_id, s.score, s.scores) for s in threaded] == \
            [(s.chunk.chunk_id, s.score, s.scores) for s in inline.retrieve(question).chunks]


def _record_threads(retriever: HybridRetriever, search: str) -> list[str]:
    """Names of the threads the store's ``search`` method runs on from now on (appended per call)."""
    seen: list[str] = []
    inner = getattr(retriever.store, search)

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(threading.current_thread().name)
        return inner(*args, **kwargs)

    setattr(retriever.store, search, recording)
    return seen


def test_legs_run_on_the_retrievers_threads(two_docs: HybridRetriever) -> None:
    seen = _record_threads(two_docs, "keyword_search")  # started before the question is embedded
    assert two_docs.retrieve("grace period for premium").chunks
    two_docs.close()
    assert seen and all(name.startswith("retrieval-leg") for name in seen)
    assert two_docs.retrieve("grace period for premium").chunks  # a closed retriever starts its threads again


def test_a_questions_last_leg_runs_on_its_own_thread(two_docs: HybridRetriever) -> None:
    seen = _record_threads(two_docs, "vector_search")
    assert two_docs.retrieve("grace period for premium").chunks
    assert seen and set(seen) == {threading.current_thread().name}  # progresses while the pool is busy


def test_allowed_paths_follow_a_new_document(two_docs: HybridRetriever) -> None:
    assert two_docs.retrieve("grace period", scope=["legal/**"]).chunks == []
    add_document(two_docs.store, two_docs.embedder, "legal/terms.md", ["A grace period of ten days applies."])
    result = two_docs.retrieve("grace period", scope=["legal/**"])
    assert [s.chunk.path for s in result.chunks] == ["legal/terms.md"]


def test_the_keyword_leg_searches_while_the_question_is_embedded(two_docs: HybridRetriever) -> None:
    """The BM25 leg starts before the embedding and the two overlap: the embedding waits (bounded) for
    the BM25 search to be running, which only happens when it was started first, on another thread."""
    searching, overlapped = threading.Event(), []
    search, embed = two_docs.store.keyword_search, two_docs.embedder.embed_query  # type: ignore[attr-defined]

    def keyword_search(*args, **kwargs):  # type: ignore[no-untyped-def]
        searching.set()
        return search(*args, **kwargs)

    def embedding(texts):  # type: ignore[no-untyped-def]
        overlapped.append(searching.wait(timeout=5))
        return embed(texts)

    two_docs.store.keyword_search = keyword_search  # type: ignore[method-assign]
    two_docs.embedder.embed_query = embedding  # type: ignore[attr-defined]
    assert two_docs.retrieve("grace period for premium").chunks
    assert overlapped == [True]


def test_bm25_only_candidates_get_cosines_without_a_second_read(tmp_path: Path) -> None:
    """A candidate only the BM25 leg found gets its cosine from the vector the BM25 leg read with its
    row: no ``chunk_id IN (...)`` read, and the same cosine as computed from the stored vector."""
    store, emb = new_store(tmp_path), FakeEmbedder()
    filler = " ".join(f"word{i}" for i in range(30))
    add_document(store, emb, "fees.md", ["Fee.", "A fee.", "The fee.", f"Initech zorblax {filler}."])
    settings = RetrievalSettings(top_k=8, candidates=2)
    retriever = HybridRetriever(store, emb, settings, reranker=_ReverseReranker())
    reads: list[str | None] = []
    chunk_rows = store.chunk_rows

    def recording(where=None, columns=None):  # type: ignore[no-untyped-def]
        reads.append(where)
        return chunk_rows(where=where, columns=columns)

    store.chunk_rows = recording  # type: ignore[method-assign]
    result = retriever.retrieve("zorblax fee")
    filled = [s for s in result.chunks if s.scores.get("vector_filled")]
    assert filled and not [w for w in reads if w and "chunk_id" in w]
    q = emb.embed_query(["zorblax fee"])[0]
    stored = {r["chunk_id"]: r["vector"] for r in chunk_rows(columns=["chunk_id", "vector"])}
    for s in filled:
        v = np.asarray(stored[s.chunk.chunk_id], dtype=np.float32)
        assert s.scores["vector"] == pytest.approx(float(v @ (q / np.linalg.norm(q))), abs=1e-6)
