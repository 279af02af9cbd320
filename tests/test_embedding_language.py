"""Query/passage prompts (issue 11, item 6), each document's detected language, and the question
translated into the scoped documents' language by the LLM rewriter (real google-genai client against
the local LLM stand-in)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from core.config import EmbeddingSettings, RetrievalSettings, Settings
from core.embedder import SentenceTransformerEmbedder, embed_queries, make_embedder
from core.fingerprint import config_fingerprint, embedding_fingerprint
from core.language import detect_language, translation_target
from core.llm.gemini import GeminiProvider
from core.llm.retry import RetryPolicy
from core.query.rewriter import FakeRewriter, ProviderRewriter
from core.retrieval import HybridRetriever
from core.store import DOCUMENTS_SCHEMA, Store
from tests.incremental_helpers import build
from tests.llm_standin import StandIn
from tests.llm_standin import replies as r

E5 = {"query_prompt": "query: ", "passage_prompt": "passage: "}


def test_prompts_are_part_of_both_fingerprints() -> None:
    base, e5 = Settings(), Settings.model_validate({"embedding": E5})
    assert config_fingerprint(base) != config_fingerprint(e5)
    assert embedding_fingerprint(base) != embedding_fingerprint(e5)
    query_only = Settings.model_validate({"embedding": {"query_prompt": "query: "}})
    assert embedding_fingerprint(query_only) != embedding_fingerprint(base)


def test_real_model_puts_the_query_prompt_in_front_of_questions_only() -> None:
    emb = SentenceTransformerEmbedder(EmbeddingSettings(query_prompt="query: ", dtype="float32"))
    asked = embed_queries(emb, ["grace period for premium payment"])[0]
    assert np.allclose(asked, emb.embed(["query: grace period for premium payment"])[0], atol=1e-5)
    assert not np.allclose(asked, emb.embed(["grace period for premium payment"])[0], atol=1e-3)


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    r_ = tmp_path / "policies"
    (r_ / "de").mkdir(parents=True)
    (r_ / "hr_leave.md").write_text(
        "# Leave\n\nEmployees get twenty-five days of paid leave each calendar year. Unused days lapse "
        "at the end of March unless your manager approves a carry-over.\n", encoding="utf-8")
    (r_ / "de/reise.md").write_text(
        "# Reiseversicherung\n\n## Selbstbehalt\n\nDer Selbstbehalt beträgt CHF 200 pro Schadenfall. "
        "Bei Annullierung der Reise werden die Kosten bis zur vereinbarten Versicherungssumme "
        "übernommen.\n", encoding="utf-8")
    return r_


def test_passage_prompt_goes_in_front_of_indexed_chunks(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root, embedding={"provider": "fake", **E5})
    factory.embedder = make_embedder(indexer.settings.embedding)  # type: ignore[assignment]
    indexer.reconcile()
    embedded = factory.embedder.texts  # type: ignore[attr-defined]
    assert embedded and all(t.startswith("passage: ") for t in embedded)
    HybridRetriever(store, factory.embedder, Settings().retrieval).retrieve("paid leave days")
    assert factory.embedder.texts[-1] == "query: paid leave days"  # type: ignore[attr-defined]


def test_each_document_stores_its_language(tmp_path: Path, root: Path) -> None:
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    assert {p: d.language for p, d in store.documents().items()} == {"hr_leave.md": "en", "de/reise.md": "de"}


def test_translation_target_needs_one_other_document_language() -> None:
    assert translation_target("What is the deductible for a cancelled trip?", ["de"]) == "de"
    assert translation_target("What is the deductible for a cancelled trip?", ["en", "de"]) == ""
    assert translation_target("What is the deductible for a cancelled trip?", ["en"]) == ""
    assert detect_language("ok") == ""


GERMAN_QUERY = "Wie hoch ist der Selbstbehalt bei Annullierung der Reise?"
QUESTION = "How much excess do I pay if I cancel my trip?"


def translator(standin: StandIn) -> ProviderRewriter:
    provider = GeminiProvider("gemini-test", api_key="k", base_url=standin.url, timeout_s=2.0,
                              retry=RetryPolicy(max_retries=0, backoff_s=0.01, max_wait_s=1.0))
    return ProviderRewriter(provider)


def test_question_is_also_searched_in_the_documents_language(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    settings = RetrievalSettings(top_k=3, candidates=10, legs=("keyword",))
    plain = HybridRetriever(store, factory.embedder, settings).retrieve(QUESTION, scope=["de/**"])
    assert not plain.chunks  # no English word of the question is in the German terms
    with StandIn() as standin:
        standin.script("gemini", "gemini-test", r.answer_json(f"{GERMAN_QUERY} [1]", [1]))
        result = HybridRetriever(store, factory.embedder, settings,
                                 translator=translator(standin)).retrieve(QUESTION, scope=["de/**"])
        (request,) = standin.requests_for("gemini", "gemini-test")
    assert result.translations == (GERMAN_QUERY,)
    assert result.chunks and result.chunks[0].chunk.path == "de/reise.md"
    assert "German" in str(request.body) and QUESTION in str(request.body)


def test_no_translation_when_question_and_documents_share_a_language(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    fake = FakeRewriter()
    HybridRetriever(store, factory.embedder, Settings().retrieval, translator=fake).retrieve(
        "How many days of paid leave do I get?", scope=["hr_leave.md"])
    assert fake.translate_calls == []


def test_a_failed_translation_searches_the_question_alone(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    with StandIn() as standin:
        standin.script("gemini", "gemini-test", r.unavailable())
        result = HybridRetriever(store, factory.embedder, Settings().retrieval,
                                 translator=translator(standin)).retrieve(QUESTION, scope=["de/**"])
    assert result.translations == () and result.chunks


def test_store_reads_language_of_rows_written_before_it_existed(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    old = pa.schema([f for f in DOCUMENTS_SCHEMA if f.name != "language"])
    row = {"path": "a.md", "sha256": "s", "size": 1, "mtime_ns": 1, "fingerprint": "f", "status": "indexed",
           "error": "", "chunk_count": 1, "pages": 0, "indexed_at": 0.0, "needs_ocr_pages": None}
    store.db.create_table(store.documents_table_name, pa.Table.from_pylist([row], schema=old))
    assert store.documents()["a.md"].language == ""
