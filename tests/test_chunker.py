"""Chunking: token limits (cl100k and the embedding model's own tokenizer), overlap, ids, metadata."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from core.config import ChunkingSettings, Settings
from core.embedder import resolve_model_path
from core.types import Block, ExtractedDocument, page_at
from indexer.chunker import Chunker
from indexer.extract import extract_file

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
MINILM_MAX = 254  # all-MiniLM-L6-v2: max_seq_length 256 minus [CLS] and [SEP]


@pytest.fixture(scope="module")
def minilm_count() -> Callable[[str], int]:
    """Word pieces in the real all-MiniLM-L6-v2 tokenizer (tokenizer only, no model weights)."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(resolve_model_path("all-MiniLM-L6-v2"))
    return lambda text: len(tok(text, add_special_tokens=False)["input_ids"])


@functools.cache
def extracted(rel: str) -> ExtractedDocument:
    """A corpus file extracted once per test session."""
    return extract_file(CORPUS / rel, CORPUS, Settings())


def words(text: str) -> int:
    return len(text.split())


def doc_of(*blocks: Block) -> ExtractedDocument:
    return ExtractedDocument(path="a.md", blocks=list(blocks))


@pytest.mark.parametrize("rel", ["nonenglish/CSS_Reiseversicherung_AVB_2016_de.pdf",
                                 "insurance/ICIHLIP22012V012223.pdf", "hr/Contoso_Expenses_Policy.docx"])
def test_no_chunk_exceeds_the_model_limit_on_real_text(rel: str, minilm_count: Callable[[str], int]) -> None:
    doc = extracted(rel)
    chunks = Chunker(ChunkingSettings(), minilm_count, MINILM_MAX).chunk(doc)
    assert chunks
    assert max(minilm_count(c.text) for c in chunks) <= MINILM_MAX


def test_the_model_limit_bites_on_real_text(minilm_count: Callable[[str], int]) -> None:
    """Without the model-tokenizer check, 256-cl100k-token chunks of German text overflow MiniLM."""
    doc = extracted("nonenglish/CSS_Reiseversicherung_AVB_2016_de.pdf")
    unlimited = Chunker(ChunkingSettings(), minilm_count, 10**6).chunk(doc)
    assert any(minilm_count(c.text) > MINILM_MAX for c in unlimited)


def test_chunks_respect_the_configured_size(minilm_count: Callable[[str], int]) -> None:
    settings = ChunkingSettings(max_tokens=128, overlap_tokens=16)
    doc = extract_file(CORPUS / "hr/Contoso_Employee_Handbook.pdf", CORPUS, Settings())
    chunker = Chunker(settings, minilm_count, MINILM_MAX)
    chunks = chunker.chunk(doc)
    assert len(chunks) > 10
    assert max(chunker.count(c.text) for c in chunks) <= 128


def test_long_sentence_without_punctuation_is_split() -> None:
    text = " ".join(f"word{i}" for i in range(1000))
    chunks = Chunker(ChunkingSettings(), words, 100).chunk(doc_of(Block("a.md", text)))
    assert len(chunks) >= 10
    assert all(words(c.text) <= 100 for c in chunks)
    assert "word0" in chunks[0].text and "word999" in chunks[-1].text


def test_consecutive_chunks_overlap_by_whole_sentences() -> None:
    text = " ".join(f"Sentence number {i} is here." for i in range(200))
    chunks = Chunker(ChunkingSettings(max_tokens=64, overlap_tokens=16), words, 500).chunk(
        doc_of(Block("a.md", text)))
    assert len(chunks) > 3
    chunker = Chunker(ChunkingSettings(), words, 500)
    for prev, nxt in zip(chunks, chunks[1:], strict=False):
        sentences = [s + "." for s in prev.text.rstrip(".").split(". ")]
        shared = [k for k in range(1, len(sentences)) if nxt.text.startswith(" ".join(sentences[-k:]))]
        assert shared, "the next chunk starts with the last sentence(s) of the previous one"
        assert chunker.count(" ".join(sentences[-max(shared):])) <= 16


def test_repeated_paragraph_gets_distinct_ids_and_same_hash() -> None:
    para = "Claims must be filed within 30 days."
    blocks = [Block("a.md", para, section=f"S{i}") for i in range(3)]
    chunks = Chunker(ChunkingSettings(), words, 254).chunk(doc_of(*blocks))
    assert len(chunks) == 3
    assert len({c.chunk_id for c in chunks}) == 3
    assert {c.text_hash for c in chunks} == {hashlib.sha256(para.encode()).hexdigest()}
    assert [c.ordinal for c in chunks] == [0, 1, 2]


def test_chunk_ids_are_stable_across_runs() -> None:
    blocks = [Block("a.md", "One. Two. Three.", section="S")]
    first = Chunker(ChunkingSettings(), words, 254).chunk(doc_of(*blocks))
    second = Chunker(ChunkingSettings(), words, 254).chunk(doc_of(*blocks))
    assert [c.chunk_id for c in first] == [c.chunk_id for c in second]


def test_chunk_spanning_pages_keeps_first_and_last_page() -> None:
    blocks = [Block("a.pdf", "End of clause one.", page=3), Block("a.pdf", "Start of two.", page=4)]
    (chunk,) = Chunker(ChunkingSettings(), words, 254).chunk(
        ExtractedDocument(path="a.pdf", blocks=blocks, pages=4))
    assert (chunk.page, chunk.page_end) == (3, 4)


def test_chunk_spanning_pages_records_where_each_later_page_starts() -> None:
    blocks = [Block("a.pdf", "End of clause one.", page=3), Block("a.pdf", "Start of two.", page=4)]
    (chunk,) = Chunker(ChunkingSettings(), words, 254).chunk(
        ExtractedDocument(path="a.pdf", blocks=blocks, pages=4))
    ((offset, page),) = chunk.page_breaks
    assert page == 4 and chunk.text[offset:].startswith("Start of two.")
    assert page_at(chunk, 0) == 3 and page_at(chunk, offset) == 4


def test_a_heading_from_the_foot_of_an_earlier_page_keeps_its_own_page() -> None:
    """A heading at the foot of page 12 whose body starts on page 14 (page 13 holds no text): the
    chunk is on page 14 and its heading is read on page 12 (``page_breaks`` leads with it), not
    guessed to be on the page right before the chunk's."""
    blocks = [Block("a.pdf", "4. Claims", kind="heading", section="4. Claims", page=12),
              Block("a.pdf", "Notify us within 30 days.", section="4. Claims", page=14)]
    (chunk,) = Chunker(ChunkingSettings(), words, 254).chunk(
        ExtractedDocument(path="a.pdf", blocks=blocks, pages=14))
    body = chunk.text.index("Notify")
    assert (chunk.page, chunk.page_breaks) == (14, ((0, 12), (body, 14)))
    assert page_at(chunk, 0) == 12 and page_at(chunk, body) == 14


def test_text_before_the_first_break_on_a_later_page_is_read_on_that_page() -> None:
    """Blocks out of page order (a block of page 5 read before the rest of page 4): the chunk's page
    is 4, and its first words are read on page 5, where they are — not guessed to be on page 3."""
    blocks = [Block("a.pdf", "A boxed note from page five.", page=5),
              Block("a.pdf", "Clause two of page four goes on.", page=4)]
    (chunk,) = Chunker(ChunkingSettings(), words, 254).chunk(
        ExtractedDocument(path="a.pdf", blocks=blocks, pages=5))
    clause = chunk.text.index("Clause two")
    assert chunk.page == 4 and page_at(chunk, 0) == 5 and page_at(chunk, clause) == 4


def test_new_section_starts_a_new_chunk_with_its_heading() -> None:
    blocks = [Block("a.md", "Leave", section="Leave", kind="heading"),
              Block("a.md", "You get 25 days.", section="Leave"),
              Block("a.md", "Sick leave", section="Leave > Sick leave", kind="heading"),
              Block("a.md", "Call your manager.", section="Leave > Sick leave")]
    chunks = Chunker(ChunkingSettings(), words, 254).chunk(doc_of(*blocks))
    assert [(c.section, c.text) for c in chunks] == [
        ("Leave", "Leave\nYou get 25 days."), ("Leave > Sick leave", "Sick leave\nCall your manager.")]


def test_large_table_is_split_with_header_repeated() -> None:
    rows = "\n".join(f"| item {i} | {i} days |" for i in range(200))
    table = "| Item | Limit |\n| --- | --- |\n" + rows
    chunks = Chunker(ChunkingSettings(), words, 254).chunk(doc_of(Block("a.md", table, kind="table")))
    assert len(chunks) > 1
    assert all(c.text.startswith("| Item | Limit |\n| --- | --- |\n| item") for c in chunks)
    assert all(words(c.text) <= 254 for c in chunks)


@pytest.mark.parametrize("rel", ["nonenglish/CSS_Reiseversicherung_AVB_2016_de.pdf",
                                 "insurance/ICIHLIP22012V012223.pdf"])
def test_additive_counting_gives_the_same_chunks_within_the_limit(
        rel: str, minilm_count: Callable[[str], int]) -> None:
    """MiniLM's WordPiece counts add up over whitespace joins, so skipping the per-chunk re-count
    changes nothing: same chunks, each within the model limit by an exact count."""
    doc = extracted(rel)
    exact = Chunker(ChunkingSettings(), minilm_count, MINILM_MAX).chunk(doc)
    summed = Chunker(ChunkingSettings(), minilm_count, MINILM_MAX, additive=True).chunk(doc)
    assert [c.text for c in summed] == [c.text for c in exact]
    assert max(minilm_count(c.text) for c in summed) <= MINILM_MAX
