"""List continuation (core/continuation.py) and the items that number on in the next chunk
(core/answer/attached.py ``continued_items``). Real LanceDB in tmp_path, fake embedder; the documents
are hand-written."""

from __future__ import annotations

from pathlib import Path

from core.answer.attached import continued_items, numbers_on
from core.answer.sentences import split_units
from core.continuation import ListContinuation, ends_in_list
from core.embedder import FakeEmbedder
from core.llm.base import GenerationRequest
from core.references import DocumentChunks
from core.retrieval import HybridRetriever
from core.types import Chunk, ScoredChunk
from tests.retrieval_helpers import RETRIEVAL, add_document, make_chunk, new_store

DOC = "travel.pdf"
TEXTS = [
    "7.4 Lost passport. A lost passport is replaced at the company's cost.\n"
    "The refund is paid subject to the following:\n"
    "a. The loss is reported to the travel desk within one day.\n"
    "b. Receipts for the new passport are kept.",
    "b. Receipts for the new passport are kept.\n"
    "c. A copy of the consulate's letter is sent to the travel desk.\n"
    "7.5 Luggage. Delayed luggage is covered after twelve hours.",
    "7.6 Visa fees. Visa fees are paid by the company.",
]


def _chunks() -> list[Chunk]:
    return [make_chunk(DOC, t, i, page=i + 1) for i, t in enumerate(TEXTS)]


def _follower(chunks: list[Chunk]) -> ListContinuation:
    return ListContinuation(DocumentChunks(lambda path: [c for c in chunks if c.path == path],
                                           lambda path: "v1"))


def test_a_chunk_ending_inside_a_lead_in_list_ends_in_a_list() -> None:
    assert ends_in_list(TEXTS[0])


def test_a_chunk_ending_in_prose_does_not_end_in_a_list() -> None:
    assert not ends_in_list(TEXTS[2])


def test_a_kept_chunk_ending_in_a_list_brings_the_next_chunk_with_the_lowest_kept_score() -> None:
    chunks = _chunks()
    kept = [ScoredChunk(chunks[0], 0.9), ScoredChunk(chunks[2], 0.4)]
    added = _follower(chunks).follow(kept)[2:]
    assert [(sc.chunk.ordinal, sc.score) for sc in added] == [(1, 0.4)]


def test_a_kept_chunk_ending_in_prose_brings_nothing() -> None:
    chunks = _chunks()
    kept = [ScoredChunk(chunks[2], 0.9)]
    assert _follower(chunks).follow(kept) == kept


def test_retrieval_adds_the_next_chunk_only_when_continue_lists_is_on(tmp_path: Path) -> None:
    store, embedder = new_store(tmp_path), FakeEmbedder()
    add_document(store, embedder, DOC, TEXTS)
    settings = RETRIEVAL.model_copy(update={"top_k": 1, "follow_references": False})
    on = HybridRetriever(store, embedder, settings)
    off = HybridRetriever(store, embedder, settings.model_copy(update={"continue_lists": False}))
    question = "lost passport refund paid subject to the following"
    assert [c.chunk.ordinal for c in off.retrieve(question).chunks] == [0]
    assert [c.chunk.ordinal for c in on.retrieve(question).chunks] == [0, 1]


def test_markers_number_on_by_letter_and_by_number() -> None:
    assert numbers_on("b. Receipts", "c. A copy") and numbers_on("2. Delivery", "3. Two deliveries")


def test_a_marker_that_skips_or_changes_style_does_not_number_on() -> None:
    assert not numbers_on("b. Receipts", "d. A copy") and not numbers_on("2. Delivery", "c. A copy")


def test_items_numbering_on_without_the_lead_in_in_the_next_chunk_are_quoted() -> None:
    chunks = _chunks()
    request = GenerationRequest("What must I do to get a lost passport refunded?",
                                tuple(ScoredChunk(c, 0.5) for c in chunks[:2]))
    splits = {i: split_units(c.text, i) for i, c in enumerate(chunks[:2], start=1)}
    intro = next(u for u in splits[1] if u.text.endswith(":"))
    own = [u for u in splits[1] if u.kind == "item" and u.lead == intro.text]
    more = continued_items(request, splits, intro, own, 8)
    assert [u.text for u in more] == ["c. A copy of the consulate's letter is sent to the travel desk."]



def test_items_numbering_on_in_a_table_chunk_are_not_quoted() -> None:
    texts = ["The refund is paid subject to the following:\n1. The loss is reported to the desk.\n"
             "2. Receipts are kept.",
             "| Cover |  |\n| --- | --- |\n|  | 3. A copy of the letter is sent. |\n"
             "|  | 4. The old passport is returned. |"]
    chunks = [make_chunk(DOC, t, i, page=i + 1) for i, t in enumerate(texts)]
    request = GenerationRequest("What must I do?", tuple(ScoredChunk(c, 0.5) for c in chunks))
    splits = {i: split_units(c.text, i) for i, c in enumerate(chunks, start=1)}
    intro = splits[1][0]
    assert continued_items(request, splits, intro, splits[1][1:], 8) == []
