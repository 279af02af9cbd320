"""Reference following: a kept passage that defers its figures to a table of its document brings the
row of that table that matches the question.

Policies state a benefit in prose and its amount in a table elsewhere: "Expenses payable are subject
to the limit stated in the Table of Benefits", "up to the limit as shown in the schedule of
benefits", "see the table below". Retrieval finds the prose (it shares the question's words) but
the table chunk — numbers under column headers, which an English sentence-embedding model reads
poorly — sits at the edge of the vector leg's candidates, and a small change to every vector of the
document (a new title in the chunk contexts) moves it in or out of the kept passages. The referring
passage says where the answer is; this module follows it, as a reader would: the explicit reference
is the evidence, not the candidate rank. Using a document's own cross-references is
established in legal retrieval (Louis, van Dijck & Spanakis, "Finding the Law: Enhancing Statutory
Article Retrieval via Graph Neural Networks", EACL 2023, link articles by the references between
them).

Rule (:meth:`ReferenceFollower.follow`): for each kept passage (best first) whose text refers to a
table (:func:`table_reference`), the chunks of that table in the same document
(:func:`referred_table`: by name, the run of table chunks from the one carrying its caption; by
position, the nearest table below/above) are scored by Okapi BM25 against the question's content
terms (:mod:`core.bm25`, IDF over those chunks) and the best one that shares a term with the
question is added after the kept passages, unless it is already kept. At most one per document and
:data:`MAX_ADDED` in all; an added chunk takes the score of the passage that refers to it (the
reference is its evidence; the answerer weighs a passage by it) and ``scores["reference"] = 1.0``; it
never displaces or reorders a kept passage.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.bm25 import bm25_scores
from core.lru import LockedLRU
from core.text import content_terms
from core.types import Chunk, ScoredChunk

TABLE_REFERENCE = re.compile(
    r"\b(?:the|this)\s+(?P<name>(?:table|schedule)\s+of\s+[a-z]+|(?!following\b)[a-z]+\s+(?:table|schedule))\b"
    r"|\b(?:the\s+)?(?:following\s+table|table\s+(?P<side>below|above))\b",
    re.IGNORECASE)
"""A sentence pointing at a table of the same document: by its name ("the limit stated in the Table of
Benefits", "as per the benefit schedule") or by position ("see the table below", "the following
table")."""
MAX_ADDED = 2
"""Table chunks added to one retrieval result."""
REGION_CHUNKS = 40
"""Most chunks of one referred table (a long table is split into chunks that repeat its header)."""
NEAR = 3
"""A positional reference ("the table below") looks this many chunks away for the table's start."""
CACHE_DOCUMENTS = 32
_CAPTION_CHARS = 80


@dataclass(frozen=True)
class Reference:
    """A table reference of a passage: the table's ``name`` (lowercase, ``""`` when positional) and,
    for a positional one, ``side`` (``"below"``/``"above"``)."""

    name: str
    side: str = "below"


def table_reference(text: str) -> Reference | None:
    """The first table reference of ``text`` (:data:`TABLE_REFERENCE`), or ``None``."""
    m = TABLE_REFERENCE.search(text)
    if m is None:
        return None
    if m.group("name"):
        return Reference(" ".join(m.group("name").lower().split()))
    return Reference("", (m.group("side") or "below").lower())


def is_table_chunk(text: str) -> bool:
    """Whether a chunk holds a markdown table (a ``| --- |`` header separator line)."""
    return re.search(r"(?m)^\|\s*:?-{3,}", text) is not None


def captioned(text: str, name: str) -> bool:
    """Whether a short line of ``text`` starts with the table name ``name`` (its caption or heading,
    e.g. "Table of Benefits:")."""
    return any(line.strip().lower().startswith(name) and len(line.strip()) <= _CAPTION_CHARS
               for line in text.splitlines() if not line.lstrip().startswith("|"))


def header_row(text: str) -> str:
    """The first markdown table line of ``text`` (a table's column headers), whitespace-normalised."""
    line = next((x for x in text.splitlines() if x.lstrip().startswith("|")), "")
    return " ".join(line.split()).lower()


def table_run(chunks: Sequence[Chunk], start: int) -> list[Chunk]:
    """The chunks of one table from index ``start`` of ``chunks`` (a document's, by ordinal): the
    table chunk there and the following ones with the same header row (a long table is split into
    chunks that repeat its header), at most :data:`REGION_CHUNKS`."""
    if not 0 <= start < len(chunks) or not is_table_chunk(chunks[start].text):
        return []
    header = header_row(chunks[start].text)
    run = [chunks[start]]
    for c in chunks[start + 1: start + REGION_CHUNKS]:
        if not is_table_chunk(c.text) or header_row(c.text) != header:
            break
        run.append(c)
    return run


def referred_table(ref: Reference, source: Chunk, chunks: Sequence[Chunk]) -> list[Chunk]:
    """The chunks of the table ``ref`` points at among ``chunks`` (the document's, by ordinal): by
    name, the run of table chunks starting at the chunk that carries its caption (or right after
    it); by position, the first run of table chunks within :data:`NEAR` chunks below (above) the
    referring ``source``. ``[]`` when there is none."""
    if ref.name:
        for i, c in enumerate(chunks):
            if c.chunk_id != source.chunk_id and captioned(c.text, ref.name):
                run = table_run(chunks, i) or table_run(chunks, i + 1)
                if run:
                    return run
        return []
    at = next((i for i, c in enumerate(chunks) if c.chunk_id == source.chunk_id), None)
    if at is None:
        return []
    near = range(at + 1, at + 1 + NEAR) if ref.side == "below" else range(at - 1, max(-1, at - 1 - NEAR), -1)
    for i in near:
        if 0 <= i < len(chunks) and is_table_chunk(chunks[i].text):
            if ref.side == "below":
                return table_run(chunks, i)
            first, header = i, header_row(chunks[i].text)
            while first > 0 and i - first < REGION_CHUNKS and is_table_chunk(chunks[first - 1].text) \
                    and header_row(chunks[first - 1].text) == header:
                first -= 1
            return table_run(chunks, first)
    return []


def best_row_chunk(question: str, tables: Sequence[Chunk]) -> Chunk | None:
    """The table chunk of ``tables`` that scores best for ``question`` by BM25 over ``tables``, or
    ``None`` when none shares a content term with the question."""
    q_terms = sorted(set(content_terms(question, question=True)))
    if not q_terms or not tables:
        return None
    scores = bm25_scores(q_terms, [content_terms(c.text) for c in tables])
    best = max(range(len(tables)), key=lambda i: scores[i])
    return tables[best] if scores[best] > 0 else None


class DocumentChunks:
    """Every chunk of a document in ordinal order, read once per document version and shared by the
    followers that look beyond the kept passages (:class:`ReferenceFollower`,
    :class:`core.continuation.ListContinuation`), so one question never reads a document twice.

    Args:
        chunks_of: path → the chunks of that document (any order), e.g. read from the store; called
            at most once per document and version.
        version_of: path → a string that changes when the document does (its content hash).
    """

    def __init__(self, chunks_of: Callable[[str], list[Chunk]], version_of: Callable[[str], str]) -> None:
        self.chunks_of = chunks_of
        self.version_of = version_of
        self._cache: LockedLRU[tuple[str, str], list[Chunk]] = LockedLRU(CACHE_DOCUMENTS)

    def __call__(self, path: str) -> list[Chunk]:
        """The chunks of ``path``, sorted by ordinal (a cached list: do not mutate it)."""
        key = (path, self.version_of(path))
        return self._cache.get_or_compute(key, lambda: sorted(self.chunks_of(path), key=lambda c: c.ordinal))


class ReferenceFollower:
    """Adds the table row chunk a kept passage refers to (module doc).

    Args:
        chunks: path → the chunks of that document in ordinal order (:class:`DocumentChunks`).
    """

    def __init__(self, chunks: Callable[[str], list[Chunk]]) -> None:
        self._chunks = chunks

    def follow(self, question: str, kept: Sequence[ScoredChunk]) -> list[ScoredChunk]:
        """``kept`` plus the referred table chunks (module doc); ``list(kept)`` when none applies."""
        out = list(kept)
        have = {sc.chunk.chunk_id for sc in kept}
        done: set[str] = set()
        for sc in kept:
            ref = table_reference(sc.chunk.text)
            if len(out) - len(kept) >= MAX_ADDED or sc.chunk.path in done or ref is None:
                continue
            done.add(sc.chunk.path)
            row = best_row_chunk(question, referred_table(ref, sc.chunk, self._chunks(sc.chunk.path)))
            if row is not None and row.chunk_id not in have:
                have.add(row.chunk_id)
                out.append(ScoredChunk(row, sc.score, {"reference": 1.0}))
        return out
