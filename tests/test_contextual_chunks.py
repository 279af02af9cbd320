"""Contextual chunks (issue 11, item 4): each chunk is embedded and full-text indexed with its document
title and section path in front, stored apart from the quoted text; turning it on is a fingerprint
change that re-embeds the index through the shadow rebuild; tables written before it still answer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from core.config import ChunkingSettings, Settings
from core.fingerprint import config_fingerprint
from core.retrieval import HybridRetriever
from core.store import Store
from core.types import Block, ExtractedDocument
from indexer.chunker import Chunker
from indexer.context import chunk_context, clean_metadata_title, document_title
from indexer.embed_cache import indexed_hash
from tests.incremental_helpers import Factory, build, make_settings


def words(text: str) -> int:
    return len(text.split())


def doc(*blocks: Block, path: str = "hr/Travel_Policy.md") -> ExtractedDocument:
    return ExtractedDocument(path=path, blocks=list(blocks))


TRAVEL = doc(Block("hr/Travel_Policy.md", "Travel Policy", section="Travel Policy", kind="heading"),
             Block("hr/Travel_Policy.md", "Hotels", section="Travel Policy > Hotels", kind="heading"),
             Block("hr/Travel_Policy.md", "Book rooms up to $150 a night.", section="Travel Policy > Hotels"))


def test_chunk_carries_title_and_section_path_apart_from_its_text() -> None:
    (chunk,) = Chunker(ChunkingSettings(), words, 254).chunk(TRAVEL)
    assert chunk.context == "Travel Policy — Hotels"  # the top heading repeats the title
    assert chunk.text == "Travel Policy\nHotels\nBook rooms up to $150 a night."
    assert chunk.indexed_text == f"{chunk.context}\n{chunk.text}"


def test_contextual_off_leaves_chunks_without_context() -> None:
    (chunk,) = Chunker(ChunkingSettings(contextual=False), words, 254).chunk(TRAVEL)
    assert chunk.context == "" and chunk.indexed_text == chunk.text


def test_title_comes_from_the_front_matter_not_the_file_name() -> None:
    front = doc(Block("x/ACMHLIP00001V010101.pdf", "Acme General Insurance Company Limited\nEasy Care\n"
                      "This policy is a contract between you and us.", page=1),
                path="x/ACMHLIP00001V010101.pdf")
    assert document_title(front) == "Easy Care · Acme General Insurance Company Limited"  # product first


def test_product_named_only_in_the_running_header_becomes_the_title() -> None:
    body = doc(Block("a.pdf", "1. Definitions\nA hospital means an institution.", page=1,
                     section="Definitions"), path="a.pdf")
    headed = replace(body, header_lines=["Zephyr Care", "UIN : ZEPHLIP00002V010101 7",
                                         "Premises No. 18-0374, Plot no. CBD-81,"])
    assert document_title(headed) == "Zephyr Care"


def test_metadata_title_is_used_only_when_the_text_confirms_it() -> None:
    body = doc(Block("a.pdf", "Aurora Health\nThis policy is a contract between you and us.", page=1),
               path="a.pdf")
    stale = replace(body, metadata_title="SILVER MEADOWS INSURANCE PLAN")
    assert document_title(stale) == "Aurora Health"
    named = replace(body, metadata_title="20210101001-Aurora Health-POLICY WORDING.cdr")
    assert document_title(named) == "Aurora Health-POLICY WORDING"


def test_metadata_title_is_cleaned_of_file_name_parts() -> None:
    assert clean_metadata_title("Microsoft Word - Travel_Policy_v2.docx") == "Travel Policy v2"
    assert clean_metadata_title("AVB - Reiseversicherung, Ausgabe 04.2016 (gilt ab 2017)") == \
        "AVB - Reiseversicherung, Ausgabe 04.2016"
    assert clean_metadata_title("12345.pdf") == ""


def test_context_is_cut_to_its_token_budget_innermost_heading_kept() -> None:
    title = "Contoso Travel Policy"
    section = "Part A > Chapter 3 > Accommodation and subsistence > Hotels"
    assert chunk_context(title, section, words, 100) == \
        "Contoso Travel Policy — Part A › Chapter 3 › Accommodation and subsistence › Hotels"
    short = chunk_context(title, section, words, 7)
    assert short == "Contoso Travel Policy — Hotels" and words(short) <= 7
    assert words(chunk_context(title, section, words, 2)) <= 2


def test_context_and_text_together_fit_the_model_limit() -> None:
    long_section = " > ".join(f"Heading number {i}" for i in range(30))
    blocks = [Block("a.md", " ".join(f"word{i}." for i in range(400)), section=long_section)]
    chunker = Chunker(ChunkingSettings(), words, 120)
    chunks = chunker.chunk(doc(*blocks, path="a.md"))
    assert len(chunks) > 3
    assert all(words(c.indexed_text) <= 120 + 1 for c in chunks)  # +1: the line break joins two words


def test_embedding_cache_key_covers_the_context() -> None:
    (plain,) = Chunker(ChunkingSettings(contextual=False), words, 254).chunk(TRAVEL)
    (ctx,) = Chunker(ChunkingSettings(), words, 254).chunk(TRAVEL)
    assert indexed_hash(plain) == plain.text_hash
    assert indexed_hash(ctx) != ctx.text_hash and ctx.text_hash == plain.text_hash


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    r = tmp_path / "policies"
    (r / "hr").mkdir(parents=True)
    (r / "hr/Travel_Policy.md").write_text(
        "# Travel Policy\n\n## Accommodation\n\nRooms are reimbursed up to $150 a night.\n\n"
        "## Meals\n\nDinner is reimbursed up to $40.\n", encoding="utf-8")
    (r / "hr/Leave_Policy.md").write_text(
        "# Leave Policy\n\n## Annual leave\n\nYou get 25 days a year.\n", encoding="utf-8")
    return r


def test_turning_context_on_re_embeds_through_a_shadow_rebuild(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root, chunking={"contextual": False})
    indexer.reconcile()
    old_generation, texts = store.generation, {r["text"] for r in store.chunk_rows(columns=["text"])}
    assert {r["context"] for r in store.chunk_rows(columns=["context"])} == {""}
    settings = make_settings(tmp_path, root)
    assert config_fingerprint(settings) != store.state().fingerprint
    before = len(factory.embedder.texts)
    summary = type(indexer)(settings, Store(settings.data_dir), factory).reconcile()
    assert summary.rebuilt == store.generation != old_generation
    assert summary.chunks_embedded == store.count_chunks() and summary.chunks_reused == 0
    rows = store.chunk_rows(columns=["text", "context", "indexed_text"])
    assert {r["text"] for r in rows} == texts  # quoted text unchanged
    assert all(r["context"].startswith("Travel Policy") or r["context"].startswith("Leave Policy")
               for r in rows)
    embedded = factory.embedder.texts[before:]
    assert sorted(embedded) == sorted(r["indexed_text"] for r in rows)
    assert store.generations_on_disk() == {store.generation}


def test_section_words_find_a_chunk_whose_text_lacks_them(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    hits = store.keyword_search("accommodation", 5)
    assert [c.path for c, _ in hits] == ["hr/Travel_Policy.md"]
    (chunk, _), = hits
    assert "Accommodation" in chunk.context and "$150" in chunk.text
    result = HybridRetriever(store, factory.embedder, Settings().retrieval).retrieve("accommodation", top_k=1)
    assert result.chunks[0].chunk.context == chunk.context  # answers get the context, quote the text


def test_a_table_from_before_contextual_chunks_is_still_searched(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    old = pa.schema([("chunk_id", pa.string()), ("path", pa.string()), ("page", pa.int32()),
                     ("page_end", pa.int32()), ("section", pa.string()), ("ordinal", pa.int32()),
                     ("text", pa.string()), ("text_hash", pa.string()),
                     ("vector", pa.list_(pa.float32(), 4))])
    row = {"chunk_id": "c1", "path": "a.md", "page": None, "page_end": None, "section": "S", "ordinal": 0,
           "text": "Dinner is reimbursed up to forty dollars.", "text_hash": "h",
           "vector": np.ones(4, dtype=np.float32).tolist()}
    store.db.create_table(store.chunks_table_name, pa.Table.from_pylist([row], schema=old))
    (chunk, _), = store.keyword_search("dinner", 3)
    assert (chunk.chunk_id, chunk.context) == ("c1", "")
    (hit, _), = store.vector_search(np.ones(4, dtype=np.float32), 3)
    assert hit.chunk_id == "c1"


def test_factory_counts_are_unchanged_by_context_for_unchanged_texts(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    first = factory.embedded
    again, _, _ = build(tmp_path, root, Factory())
    summary = again.reconcile()
    assert first > 0 and summary.chunks_embedded == 0 and summary.unchanged == 2
