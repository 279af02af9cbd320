"""Comparison answers: one quoted passage per document, each labelled with its document.

Used by the extractive answerer when retrieval spread its sources over documents
(:attr:`core.llm.base.GenerationRequest.documents`, set for comparison and multi-document questions by
:mod:`core.query.compare` and :mod:`core.diversity`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


def per_document(ranked: Sequence[T], sources: Sequence[ScoredChunk], documents: Sequence[str],
                 prefer: Callable[[T], bool] | None = None) -> list[T]:
    """The best of ``ranked`` (scored units, best first; ``unit.source`` is 1-based into ``sources``)
    for each of ``documents``, in the order of ``documents``; documents without a unit are skipped.
    With ``prefer`` (for a question that needs a value: the unit holds one), a document's best unit
    ``prefer`` accepts comes before its best unit: what each document says of the asked value."""
    best: dict[str, T] = {}
    for su in ranked:
        best.setdefault(sources[su.unit.source - 1].chunk.path, su)
    if prefer is not None:
        chosen: dict[str, T] = {}
        for su in ranked:
            if prefer(su):
                chosen.setdefault(sources[su.unit.source - 1].chunk.path, su)
        best = {**best, **chosen}
    return [best[d] for d in documents if d in best]


def by_document(chosen: Sequence[T], extra: Sequence[T], sources: Sequence[ScoredChunk],
                documents: Sequence[str]) -> list[T]:
    """``chosen`` plus the units of ``extra`` not in it, grouped by document in the order of
    ``documents`` (each group keeps its order), so an answer reads document by document."""
    units = list(chosen) + [u for u in extra if u not in chosen]
    order = {d: i for i, d in enumerate(documents)}
    return sorted(units, key=lambda u: order.get(sources[u.unit.source - 1].chunk.path, len(order)))


def document_labels(chunks: Sequence[Chunk]) -> dict[str, str]:
    """A short name per document of ``chunks`` (path → label), distinct between them: the last part
    of the title in each chunk's context (``"Initech Health Plus Plan"`` of ``"Acme Corp ·
    Initech Health Plus Plan — …"``); when two documents would get the same label (or one has no
    context), every document is named by its file name without extension, ``_`` as spaces."""
    titles: dict[str, str] = {}
    for c in chunks:
        title = c.context.split(" — ")[0].split(" · ")[-1].strip() if c.context else ""
        titles.setdefault(c.path, title)
    names = list(titles.values())
    if all(names) and len(set(n.lower() for n in names)) == len(names):
        return titles
    return {p: PurePosixPath(p).stem.replace("_", " ") for p in titles}
