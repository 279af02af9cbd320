"""Sharing the CPU with the extraction worker (core.cpu_share): the indexer marks extractions, the
real embedder drops a thread per running extraction, batch by batch, and keeps its output order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.config import Settings
from core.cpu_share import CpuShare
from core.embedder import FakeEmbedder, SentenceTransformerEmbedder
from core.store import Store
from core.types import ExtractedDocument
from indexer.extract import extract_file
from indexer.pipeline import Indexer
from tests.conftest import QAIndex


def test_threads_drop_by_one_per_running_job() -> None:
    share = CpuShare()
    with share.busy():
        assert share.threads(4) == 3
        with share.busy():
            assert share.threads(4) == 2
            assert share.threads(2) == 1  # never below one
    assert share.threads(4) == 4


def test_indexer_marks_the_share_busy_while_a_file_is_extracted(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "a.md").write_text("# Leave\n\nEmployees get 25 days of annual leave.\n")
    settings = Settings.model_validate({"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)}})
    share = CpuShare()
    seen: list[int] = []

    def extract(path: Path, r: Path) -> ExtractedDocument:
        seen.append(share.running)
        return extract_file(path, r, settings)

    indexer = Indexer(settings, Store(settings.data_dir), FakeEmbedder, extract=extract, share=share)
    summary = indexer.reconcile()
    assert summary.indexed == 1
    assert seen == [1]
    assert share.running == 0


@pytest.fixture(scope="module")
def texts() -> list[str]:
    """70 texts of different lengths (three batches of 32), in no length order, each about another
    topic than its neighbours."""
    topics = ["annual leave", "dental cover", "travel expenses", "parental leave", "remote work",
              "overtime pay", "pension plan", "training budget", "company cars", "data protection"]
    return [f"Policy on {topics[i % 10]}, clause {i}. " + "See the handbook for details. " * ((i * 7) % 11)
            for i in range(70)]


def test_embedder_with_a_share_keeps_the_order_of_the_texts(qa_index: QAIndex, texts: list[str]) -> None:
    shared = qa_index.app.embedder.load()  # the app's embedder, built with the app's CpuShare
    plain = SentenceTransformerEmbedder(qa_index.settings.embedding)
    a, b = shared.embed(texts), plain.embed(texts)
    assert a.shape == (70, plain.dimension)
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    assert np.min(np.sum(a * b, axis=1)) > 0.999  # each text's two vectors (bfloat16: not bit-identical)
    shifted = np.sum(a[:-1] * b[1:], axis=1)
    assert np.max(shifted) < 0.99  # neighbours are about different things: a mix-up would show


def test_embedder_uses_one_thread_fewer_while_an_extraction_runs(qa_index: QAIndex, texts: list[str]) -> None:
    import torch

    share = CpuShare()
    default = torch.get_num_threads()
    emb = SentenceTransformerEmbedder(qa_index.settings.embedding, share)
    with share.busy():
        emb.embed(texts)
        assert torch.get_num_threads() == max(1, default - 1)
    emb.embed(texts)
    assert torch.get_num_threads() == default


def test_token_counts_match_the_model_tokenizer_after_an_embed(qa_index: QAIndex) -> None:
    """The private counting tokenizer is not truncated by the model's own (which ``encode`` sets to
    256 tokens) and counts as the transformers tokenizer does."""
    emb = qa_index.app.embedder.load()
    assert isinstance(emb, SentenceTransformerEmbedder)
    long = "Pre-existing diseases are covered after 36 months of continuous coverage. " * 40
    emb.embed([long])
    tok = emb._model.tokenizer
    for text in (long, "Co-payment: 20 %", "Reiseversicherung – Allgemeine Bedingungen"):
        assert emb.count_tokens(text) == len(tok(text, add_special_tokens=False)["input_ids"])
    assert emb.count_tokens(long) > 256
    assert emb.additive_tokens


def test_a_question_is_embedded_on_the_query_threads_and_the_count_is_restored(qa_index: QAIndex) -> None:
    import torch

    emb = SentenceTransformerEmbedder(qa_index.settings.embedding)
    assert qa_index.settings.embedding.query_threads == 1
    seen: list[int] = []
    encode = emb._model.encode

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(torch.get_num_threads())
        return encode(*args, **kwargs)

    emb._model.encode = recording  # the real model still embeds; only the thread count is recorded
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        vector = emb.embed_query(["How many days of annual leave do employees get?"])
        assert torch.get_num_threads() == 2 and seen == [1] and vector.shape == (1, emb.dimension)
    finally:
        torch.set_num_threads(before)
