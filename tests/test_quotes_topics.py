"""Quoted spans under sources and suggested questions from the index (pure / real LanceDB)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from core.embedder import FakeEmbedder
from core.quotes import quote_span
from core.store import DocumentRecord, Store
from core.topics import document_name, pick_documents, suggested_questions, suggestion_for
from tests.retrieval_helpers import make_chunk

PASSAGE = ("Premiums are due monthly. A grace period of thirty days is allowed for premium payment. "
           "Claims are settled within 30 days.")


def test_quote_is_the_sentence_sharing_most_words_with_the_answer() -> None:
    quote = quote_span(PASSAGE, "The policy allows a grace period of thirty days.")
    assert quote == "A grace period of thirty days is allowed for premium payment."


def test_no_shared_word_means_no_quote() -> None:
    assert quote_span(PASSAGE, "Zebras.") == "" and quote_span("", "anything") == ""


def test_long_quote_is_cut_at_a_word() -> None:
    quote = quote_span("word " * 100 + "grace.", "grace word", max_chars=40)
    assert len(quote) <= 40 and quote.endswith("…") and not quote.endswith(" …")


def test_document_names_and_suggestions_come_from_paths_and_sections() -> None:
    assert document_name("hr/annual-leave_policy 2025.pdf") == "Annual leave policy 2025"
    s = suggestion_for("hr/remote.md", Counter({"3.1 Eligibility": 4, "Scope": 1, "": 9}))
    assert (s.title, s.question) == ("Eligibility", "What does Remote say about eligibility?")
    assert suggestion_for("hr/faq.md", Counter({"": 2})).question == "What does Faq cover?"


def test_documents_are_picked_largest_first_taking_turns_between_folders() -> None:
    counts = Counter({"hr/a.md": 9, "hr/b.md": 8, "hr/c.md": 7, "it/x.md": 2, "legal/y.md": 1})
    assert pick_documents(counts, 4) == ["hr/a.md", "it/x.md", "legal/y.md", "hr/b.md"]


def test_suggested_questions_stay_inside_the_scope(tmp_path: Path) -> None:
    store, emb = Store(tmp_path), FakeEmbedder()
    for path in ("hr/leave.md", "finance/travel.md", "hr/old.md"):
        chunks = [make_chunk(path, f"{path} {i}", i, section="Rules") for i in range(2)]
        store.replace_chunks(path, chunks, emb.embed([c.text for c in chunks]))
        status = "failed" if path == "hr/old.md" else "indexed"
        store.put_document(DocumentRecord(path, "sha", 1, 1, "fp", status, chunk_count=2))
    found = suggested_questions(store, ["hr/**"])
    assert [s.path for s in found] == ["hr/leave.md"]
