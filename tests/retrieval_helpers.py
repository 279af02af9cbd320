"""Helpers for retrieval/answer tests: a real LanceDB store in tmp_path filled with hand-written chunks
embedded by the deterministic FakeEmbedder (the model is not the subject of these tests)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from core.config import AnswerSettings, RetrievalSettings
from core.embedder import FakeEmbedder
from core.store import DocumentRecord, Store
from core.types import Chunk, ScoredChunk


def make_chunk(path: str, text: str, ordinal: int = 0, page: int | None = 1, section: str = "") -> Chunk:
    """A chunk with a stable id derived from (path, ordinal, text)."""
    cid = hashlib.sha256(f"{path}\0{ordinal}\0{text}".encode()).hexdigest()[:32]
    return Chunk(cid, path, text, page, page, section, ordinal, hashlib.sha256(text.encode()).hexdigest())


def add_document(store: Store, embedder: FakeEmbedder, path: str, texts: Sequence[str],
                 page: int | None = 1, section: str = "") -> list[Chunk]:
    """Index ``texts`` as the chunks of ``path`` (one page each from ``page`` on) and record the doc."""
    chunks = [make_chunk(path, t, i, None if page is None else page + i, section)
              for i, t in enumerate(texts)]
    store.replace_chunks(path, chunks, embedder.embed([c.text for c in chunks]))
    store.put_document(DocumentRecord(path, "sha", 1, 1, "fp", "indexed", chunk_count=len(chunks)))
    return chunks


def scored(text: str, score: float = 1.0, path: str = "p.pdf", ordinal: int = 0) -> ScoredChunk:
    """A ScoredChunk for answerer tests."""
    return ScoredChunk(make_chunk(path, text, ordinal), score)


def new_store(tmp_path: Path) -> Store:
    """An empty store under ``tmp_path``."""
    return Store(tmp_path / "data")


RETRIEVAL = RetrievalSettings(top_k=5, candidates=10, glossary={"PED": "pre-existing disease"})
ANSWER = AnswerSettings(min_answerability=0.0, max_sentences=4)
"""Answer whenever the gates pass (the calibrated threshold is exercised by the eval floors)."""
