"""Stored unit vectors (issue 11, latency): the units of each chunk text are embedded once by the
indexer role's ``unit-vectors`` job and looked up when answering; what is not stored is embedded on
the fly and answers the same. Real LanceDB (tmp_path, and S3 on SeaweedFS), fake embedder."""

from __future__ import annotations

import signal
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest

from core.answer.extractive import ExtractiveAnswerer
from core.answer.focus import question_focus
from core.answer.unit_vectors import BATCH_CHUNKS, FillResult, UnitVectorJob, UnitVectors, chunk_unit_texts
from core.answering import PolicyAnswerService
from core.config import EmbeddingSettings
from core.database import Database
from core.embedder import FakeEmbedder
from core.llm.base import GenerationRequest
from core.retrieval import HybridRetriever
from core.store import Store
from core.types import Chunk, ScoredChunk
from policybot.factory import LazyEmbedder
from tests.cli_helpers import LEAVE, CliProcess, policy_folder, run_cli, write_config
from tests.retrieval_helpers import ANSWER, RETRIEVAL, add_document, new_store

CLAIMS = ["Claims must be filed within 30 days of discharge. Late claims need a written reason from "
          "the treating doctor.",
          "Room rent is covered up to 1% of the sum insured per day. Intensive care is covered up to "
          "2% of the sum insured per day."]
QUESTION = "How many days do I have to file a claim after discharge?"


def _filled(tmp_path: Path, texts: Sequence[str] = CLAIMS) -> tuple[Store, UnitVectors, list[Chunk]]:
    store = new_store(tmp_path)
    chunks = add_document(store, FakeEmbedder(), "health/claims.pdf", texts)
    vectors = UnitVectors(store.db, lambda: "key-a")
    UnitVectorJob(vectors, store, FakeEmbedder()).run()
    return store, vectors, chunks


def _request(chunks: Sequence[Chunk]) -> GenerationRequest:
    return GenerationRequest(QUESTION, [ScoredChunk(c, 0.9 - 0.1 * i) for i, c in enumerate(chunks)])


def test_a_question_over_stored_units_embeds_only_the_question(tmp_path: Path) -> None:
    _, vectors, chunks = _filled(tmp_path)
    emb = FakeEmbedder()
    ExtractiveAnswerer(ANSWER, emb, unit_vectors=vectors).generate(_request(chunks))
    assert emb.texts == [QUESTION, question_focus(QUESTION).phrase]  # the question side only


def test_stored_units_answer_exactly_as_embedding_them_on_the_fly(tmp_path: Path) -> None:
    _, vectors, chunks = _filled(tmp_path)
    on_the_fly = FakeEmbedder()
    stored = ExtractiveAnswerer(ANSWER, FakeEmbedder(), unit_vectors=vectors).generate(_request(chunks))
    fresh = ExtractiveAnswerer(ANSWER, on_the_fly).generate(_request(chunks))
    assert len(on_the_fly.texts) > 1  # the units were embedded here
    assert (stored.text, stored.cited, stored.answerability) == (fresh.text, fresh.cited, fresh.answerability)
    assert stored.signals == pytest.approx(fresh.signals, abs=1e-6)


def test_a_missing_table_falls_back_to_embedding_the_units_and_answers_the_same(tmp_path: Path) -> None:
    chunks = add_document(new_store(tmp_path), FakeEmbedder(), "health/claims.pdf", CLAIMS)
    empty = UnitVectors(Database(tmp_path / "other"), lambda: "key-a")  # no table at all
    emb = FakeEmbedder()
    with_empty = ExtractiveAnswerer(ANSWER, emb, unit_vectors=empty).generate(_request(chunks))
    plain = ExtractiveAnswerer(ANSWER, FakeEmbedder()).generate(_request(chunks))
    units = {t for c in chunks for t in chunk_unit_texts(c.text)}
    assert emb.texts[0] == QUESTION and set(emb.texts[1:]) == units | {question_focus(QUESTION).phrase}
    assert (with_empty.text, with_empty.answerability) == (plain.text, plain.answerability)


class _Broken:
    def lookup(self, chunks: Sequence[Chunk]) -> Mapping[str, np.ndarray]:
        raise OSError("bucket unreachable")


def test_an_unreadable_store_is_logged_and_the_units_are_embedded(tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    chunks = add_document(new_store(tmp_path), FakeEmbedder(), "health/claims.pdf", CLAIMS)
    broken = ExtractiveAnswerer(ANSWER, FakeEmbedder(), unit_vectors=_Broken()).generate(_request(chunks))
    plain = ExtractiveAnswerer(ANSWER, FakeEmbedder()).generate(_request(chunks))
    assert broken.text == plain.text and broken.found
    assert any("bucket unreachable" in r.getMessage() for r in caplog.records)


def _asked_with(store: Store, vectors: UnitVectors, settings: EmbeddingSettings) -> list[str]:
    """The texts the model received while answering :data:`QUESTION` (retrieval + answer)."""
    lazy = LazyEmbedder(settings)
    answerer = ExtractiveAnswerer(ANSWER, lazy, unit_vectors=vectors)
    assert PolicyAnswerService(HybridRetriever(store, lazy, RETRIEVAL), answerer).ask(QUESTION).found
    fake = lazy.load()
    assert isinstance(fake, FakeEmbedder)
    return fake.texts


def test_the_answerer_reuses_the_question_vector_retrieval_just_computed(tmp_path: Path) -> None:
    store, vectors, _ = _filled(tmp_path)
    assert _asked_with(store, vectors, EmbeddingSettings(provider="fake")) == [QUESTION]


def test_with_different_query_and_passage_prompts_the_question_is_embedded_for_each(tmp_path: Path) -> None:
    store, vectors, _ = _filled(tmp_path)
    e5 = EmbeddingSettings(provider="fake", query_prompt="query: ", passage_prompt="passage: ")
    assert _asked_with(store, vectors, e5) == [f"query: {QUESTION}", f"passage: {QUESTION}"]


def test_a_changed_chunk_gets_its_units_recomputed_and_only_it(tmp_path: Path) -> None:
    store, vectors, _ = _filled(tmp_path)
    edited = [CLAIMS[0], "Room rent is covered up to 2% of the sum insured per day."]
    chunks = add_document(store, FakeEmbedder(), "health/claims.pdf", edited)
    emb = FakeEmbedder()
    result = UnitVectorJob(vectors, store, emb).run()
    assert (result.chunks, result.remaining) == (1, 0)
    assert emb.texts == chunk_unit_texts(edited[1])
    assert set(vectors.lookup(chunks[1:])) == set(chunk_unit_texts(edited[1]))


def test_a_complete_pass_deletes_the_rows_of_texts_that_left_the_index(tmp_path: Path) -> None:
    store, vectors, _ = _filled(tmp_path)
    edited = [CLAIMS[0], "Room rent is covered up to 2% of the sum insured per day."]
    add_document(store, FakeEmbedder(), "health/claims.pdf", edited)
    UnitVectorJob(vectors, store, FakeEmbedder()).run()
    live = {r["text_hash"] for r in store.chunk_rows(columns=["text_hash"])}
    assert vectors.stored_hashes() == live and vectors.count() == 2


def test_the_job_skips_at_once_while_the_index_is_unchanged(tmp_path: Path) -> None:
    store, vectors, _ = _filled(tmp_path)
    emb = FakeEmbedder()
    job = UnitVectorJob(vectors, store, emb)  # a new job: the rows were written by another one
    assert job.run() == FillResult(chunks=0, units=0, remaining=0)
    assert job.run().skipped and emb.texts == []


def test_a_run_out_of_budget_stops_between_batches_and_the_next_run_continues(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    texts = [f"Benefit {i} pays {i + 10} percent of the cost of treatment number {i}." for i in range(40)]
    add_document(store, FakeEmbedder(), "health/benefits.pdf", texts)
    job = UnitVectorJob(UnitVectors(store.db, lambda: "key-a"), store, FakeEmbedder(), budget_s=0.0)
    first = job.run()
    assert (first.chunks, first.remaining) == (BATCH_CHUNKS, 40 - BATCH_CHUNKS)
    assert job.run().remaining == 0 and job.vectors.count() == 40


def test_a_run_that_wrote_rows_leaves_the_table_compacted(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    texts = [f"Benefit {i} pays {i + 10} percent of the cost of treatment number {i}." for i in range(40)]
    add_document(store, FakeEmbedder(), "health/benefits.pdf", texts)
    job = UnitVectorJob(UnitVectors(store.db, lambda: "key-a"), store, FakeEmbedder())
    assert job.run().chunks == 40  # two commits of BATCH_CHUNKS and fewer
    stats = dict(store.db.open_table("unit_vectors").stats())
    assert stats["fragment_stats"]["num_fragments"] == 1


def test_a_run_that_wrote_rows_indexes_the_ids_and_lookups_still_find_every_unit(tmp_path: Path) -> None:
    store, vectors, chunks = _filled(tmp_path)
    tbl = store.db.open_table("unit_vectors")
    assert [ix.columns for ix in tbl.list_indices() if str(ix.index_type) == "BTree"] == [["id"]]
    assert set(vectors.lookup(chunks)) == {u for c in chunks for u in chunk_unit_texts(c.text)}


def test_rows_of_another_embedding_key_are_never_returned(tmp_path: Path) -> None:
    store, _, chunks = _filled(tmp_path)
    other = UnitVectors(store.db, lambda: "key-b")
    assert other.lookup(chunks) == {} and other.stored_hashes() == set()


def test_unit_vectors_round_trip_on_s3(s3_uri: str) -> None:
    vectors = UnitVectors(Database(s3_uri), lambda: "key-a")
    texts = chunk_unit_texts(CLAIMS[0])
    vecs = FakeEmbedder().embed(texts)
    chunk = add_document(Store(s3_uri), FakeEmbedder(), "health/claims.pdf", CLAIMS[:1])[0]
    vectors.put({chunk.text_hash: (texts, vecs)})
    found = vectors.lookup([chunk])
    assert list(found) == texts and np.allclose(np.stack(list(found.values())), vecs)


def test_watch_schedules_the_job_and_fills_the_table(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
    cfg = write_config(tmp_path, root)
    assert run_cli("--config", str(cfg), "index").returncode == 0
    proc = CliProcess("--config", str(cfg), "watch", str(root))
    try:
        proc.wait_for(r"watching")
        table = UnitVectors(Database(tmp_path / "data"), lambda: "")
        deadline = time.monotonic() + 120  # liveness bound only
        while table.count() == 0 and time.monotonic() < deadline:
            time.sleep(0.5)
        rows = table.count()
    finally:
        proc.stop(signal.SIGTERM)
    store = Store(tmp_path / "data")
    assert rows == store.count_chunks() > 0
