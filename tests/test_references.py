"""Reference following (core/references.py): a kept passage that defers its figures to a table of its
document brings that table's chunk best matching the question. Real LanceDB in tmp_path, fake
embedder; the documents here are hand-written."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embedder import FakeEmbedder
from core.references import DocumentChunks, ReferenceFollower, is_table_chunk, referred_table, table_reference
from core.retrieval import HybridRetriever
from core.types import Chunk, ScoredChunk
from tests.retrieval_helpers import RETRIEVAL, add_document, make_chunk, new_store

DOC = "benefits.pdf"
PROSE = [
    "4.2 Eye test. Expenses of an eye test are reimbursed once a year, subject to the limit stated "
    "in the Schedule of Allowances.",
    "4.3 Gym membership. A gym membership is refunded for employees on the wellness programme.",
    "Schedule of Allowances:\n| Item | Grade 1 | Grade 2 |\n| --- | --- | --- |\n"
    "| Gym membership | Up to 300 | Up to 400 |",
    "| Item | Grade 1 | Grade 2 |\n| --- | --- | --- |\n| Eye test | Up to 90 | Up to 120 |\n"
    "| Dental check | Up to 60 | Up to 80 |",
    "| Type of claim | Deadline |\n| --- | --- |\n| Eye test receipts | within 30 days |",
]


def _chunks(texts: list[str]) -> list[Chunk]:
    return [make_chunk(DOC, t, i) for i, t in enumerate(texts)]


def _follower(chunks: list[Chunk]) -> ReferenceFollower:
    return ReferenceFollower(DocumentChunks(lambda path: [c for c in chunks if c.path == path],
                                            lambda path: "v1"))


@pytest.mark.parametrize(("text", "name"), [
    ("subject to the limit stated in the Table of Benefits.", "table of benefits"),
    ("up to the amount shown in the schedule of allowances", "schedule of allowances"),
    ("as set out in the benefit table", "benefit table"),
    ("See the table below for the limits.", ""),
    ("The following table lists the rates.", ""),
])
def test_table_references_are_recognised_with_their_name(text: str, name: str) -> None:
    ref = table_reference(text)
    assert ref is not None and ref.name == name


@pytest.mark.parametrize("text", [
    "The table is set for four guests.",
    "Claims are paid within 30 days of the schedule date.",
    "The employee may table a motion at the meeting.",
])
def test_sentences_without_a_table_reference_are_not_followed(text: str) -> None:
    assert table_reference(text) is None


def test_a_named_table_is_the_run_of_table_chunks_under_its_caption() -> None:
    chunks = _chunks(PROSE)
    ref = table_reference(PROSE[0])
    assert ref is not None
    assert [c.ordinal for c in referred_table(ref, chunks[0], chunks)] == [2, 3]


def test_a_positional_reference_takes_the_next_table_below() -> None:
    chunks = _chunks(["Rates are in the table below.", "Intro text.", PROSE[4], "Other text."])
    ref = table_reference(chunks[0].text)
    assert ref is not None and [c.ordinal for c in referred_table(ref, chunks[0], chunks)] == [2]


def test_the_referred_tables_row_chunk_matching_the_question_is_added_after_the_kept() -> None:
    chunks = _chunks(PROSE)
    kept = [ScoredChunk(chunks[0], 0.9), ScoredChunk(chunks[1], 0.4)]
    out = _follower(chunks).follow("How much is refunded for an eye test?", kept)
    assert [sc.chunk.ordinal for sc in out] == [0, 1, 3]
    assert out[-1].score == 0.9 and out[-1].scores["reference"] == 1.0  # the referring passage's score


def test_a_table_of_another_name_is_not_taken_for_the_referred_one() -> None:
    chunks = _chunks([PROSE[0], PROSE[4]])  # the only table is the claims deadlines table
    out = _follower(chunks).follow("How much is refunded for an eye test?", [ScoredChunk(chunks[0], 0.9)])
    assert len(out) == 1


def test_nothing_is_added_without_a_reference_or_when_the_row_chunk_is_already_kept() -> None:
    chunks = _chunks(PROSE)
    follower = _follower(chunks)
    plain = [ScoredChunk(chunks[1], 0.9)]
    assert follower.follow("Is a gym membership refunded?", plain) == plain
    kept = [ScoredChunk(chunks[0], 0.9), ScoredChunk(chunks[3], 0.5)]
    assert follower.follow("How much is refunded for an eye test?", kept) == kept


def test_retrieval_follows_the_reference_of_a_kept_passage(tmp_path: Path) -> None:
    store, embedder = new_store(tmp_path), FakeEmbedder()
    add_document(store, embedder, DOC, PROSE)
    settings = RETRIEVAL.model_copy(update={"top_k": 1})
    on = HybridRetriever(store, embedder, settings)
    off = HybridRetriever(store, embedder, settings.model_copy(update={"follow_references": False}))
    question = "eye test reimbursed once a year limit stated"
    assert [c.chunk.ordinal for c in off.retrieve(question).chunks] == [0]
    assert [c.chunk.ordinal for c in on.retrieve(question).chunks] == [0, 3]


def test_table_chunks_are_recognised_by_their_header_separator() -> None:
    assert is_table_chunk(PROSE[3]) and not is_table_chunk(PROSE[0])


def test_a_reindexed_document_with_the_same_content_is_followed_from_its_new_chunks(tmp_path: Path) -> None:
    """A shadow rebuild re-indexes unchanged files (same sha256, new pages and chunk ids): the follower's
    cache must not serve the old generation's chunks."""
    from core.store import DocumentRecord

    store, embedder = new_store(tmp_path), FakeEmbedder()
    add_document(store, embedder, DOC, PROSE)
    retriever = HybridRetriever(store, embedder, RETRIEVAL.model_copy(update={"top_k": 1}))
    question = "eye test reimbursed once a year limit stated"
    assert retriever.retrieve(question).chunks[-1].chunk.page == 4
    add_document(store, embedder, DOC, PROSE, page=10)
    store.put_document(DocumentRecord(DOC, "sha", 1, 1, "fp", "indexed", chunk_count=len(PROSE),
                                      indexed_at=2.0))
    assert retriever.retrieve(question).chunks[-1].chunk.page == 13
