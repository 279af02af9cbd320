"""Comparison answers: one quoted passage per document, each labelled with its document.

Used by the extractive answerer when retrieval spread its sources over documents
(:attr:`core.llm.base.GenerationRequest.documents`, set for comparison and multi-document questions by
:mod:`core.query.compare` and :mod:`core.diversity`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Protocol, TypeVar

from core.types import Chunk, ScoredChunk


class _Located(Protocol):
    @property
    def source(self) -> int: ...


class _Ranked(Protocol):
    @property
    def unit(self) -> _Located: ...


T = TypeVar("T", bound=_Ranked)


def per_document(ranked: Sequence[T], sources: Sequence[ScoredChunk], documents: Sequence[str]) -> list[T]:
    """The best of ``ranked`` (scored units, best first; ``unit.source`` is 1-based into ``sources``)
    for each of ``documents``, in the order of ``documents``; documents without a unit are skipped."""
    best: dict[str, T] = {}
    for su in ranked:
        best.setdefault(sources[su.unit.source - 1].chunk.path, su)
    return [best[d] for d in documents if d in best]


def document_label(chunk: Chunk) -> str:
    """A short name of a chunk's document: the first part of the title in its context
    (``"Contoso Benefit Options"`` of ``"Contoso Benefit Options · … — Section › …"``), else the file
    name without extension and with ``_`` as spaces."""
    title = chunk.context.split(" — ")[0].split(" · ")[0].strip() if chunk.context else ""
    return title or PurePosixPath(chunk.path).stem.replace("_", " ")
