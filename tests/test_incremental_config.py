"""Config changes: (a) a fusion weight re-embeds nothing and rebuilds nothing; (b) a chunk-size change
is a shadow rebuild that embeds exactly the chunk texts never seen before; (c) an embedding-model change
(another dimension) re-embeds everything into a shadow generation that is swapped in, while queries
during the rebuild still answer from the old generation."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import Settings
from core.retrieval import HybridRetriever
from core.store import Store
from indexer.pipeline import Indexer
from tests.incremental_helpers import Factory, build, live_hashes, make_settings, write_policy


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    r = tmp_path / "policies"
    write_policy(r / "handbook.md", range(24), "Handbook")
    write_policy(r / "hr/travel.md", range(100, 112), "Travel")
    write_policy(r / "hr/claims.md", range(200, 206), "Claims")
    return r


def reindex(tmp_path: Path, root: Path, factory: Factory, **extra: object) -> tuple[Indexer, Store, Settings]:
    settings = make_settings(tmp_path, root, **extra)
    store = Store(settings.data_dir, settings.keyword, settings.index)
    return Indexer(settings, store, factory), store, settings


def test_fusion_weight_change_re_embeds_nothing(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    generation = store.generation
    again, _, _ = reindex(tmp_path, root, factory, retrieval={"vector_weight": 0.3})
    summary = again.reconcile()
    assert (summary.chunks_embedded, summary.indexed, summary.rebuilt) == (0, 0, None)
    assert store.generation == generation


def test_chunk_size_change_embeds_only_new_chunk_texts(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    seen, generation = live_hashes(store), store.generation
    smaller, _, _ = reindex(tmp_path, root, factory, chunking={"max_tokens": 64, "overlap_tokens": 0})
    summary = smaller.reconcile()
    new_texts = live_hashes(store) - seen
    assert summary.rebuilt == store.generation != generation
    assert summary.chunks_embedded == len(new_texts) > 0
    assert summary.chunks_reused > 0
    assert store.count_chunks() == summary.chunks_embedded + summary.chunks_reused


def test_embedding_model_change_rebuilds_everything_in_a_shadow_generation(tmp_path: Path,
                                                                          root: Path) -> None:
    indexer, store, old_factory = build(tmp_path, root)
    indexer.reconcile()
    old_generation, old_chunks = store.generation, store.count_chunks()
    reader = Store(store.data_dir)  # a reader, e.g. the bot's process, following the live pointer
    retriever = HybridRetriever(reader, old_factory.embedder, Settings().retrieval)
    during: list[tuple[int, int, int]] = []

    def query_between_files(rel: str, done: int, total: int) -> None:
        result = retriever.retrieve("travel hotel allowance", top_k=3)
        during.append((reader.generation, reader.count_chunks(), len(result.chunks)))

    new_factory = Factory(dimension=32, model_id="fake:other-model")
    other, _, _ = reindex(tmp_path, root, new_factory, embedding={"provider": "fake", "model": "other-model"})
    summary = other.reconcile(progress=query_between_files)
    assert len(during) >= 3
    assert all(d == (old_generation, old_chunks, 3) for d in during)
    assert summary.rebuilt == reader.generation != old_generation
    assert summary.chunks_embedded == reader.count_chunks() == new_factory.embedded
    assert summary.chunks_reused == 0
    assert len(reader.chunk_rows(columns=["vector"])[0]["vector"]) == 32
    assert reader.generations_on_disk() == {reader.generation}


def test_query_with_the_new_model_after_the_swap(tmp_path: Path, root: Path) -> None:
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    new_factory = Factory(dimension=32, model_id="fake:other-model")
    other, _, _ = reindex(tmp_path, root, new_factory, embedding={"provider": "fake", "model": "other-model"})
    other.reconcile()
    result = HybridRetriever(store, new_factory.embedder, Settings().retrieval).retrieve("hotel flight meal")
    assert result.chunks and {c.chunk.path for c in result.chunks} <= {"handbook.md", "hr/travel.md",
                                                                         "hr/claims.md"}


def test_interrupted_rebuild_resumes_without_re_embedding(tmp_path: Path, root: Path) -> None:
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    smaller, _, _ = reindex(tmp_path, root, factory, chunking={"max_tokens": 64, "overlap_tokens": 0})

    class Crash(Exception):
        pass

    def crash_at_third(rel: str, done: int, total: int) -> None:
        if done == 2:
            raise Crash

    with pytest.raises(Crash):
        smaller.reconcile(progress=crash_at_third)
    assert store.state().building is not None
    embedded = factory.embedded
    summary = smaller.reconcile()
    assert summary.rebuilt == store.generation
    assert summary.unchanged >= 1  # files written before the crash are kept in the shadow
    assert factory.embedded - embedded == summary.chunks_embedded
    assert store.state().building is None
