"""The knowledge-gap report: flagged questions grouped by meaning, with examples, nearest documents,
👎 reasons and the owners of the folders they touch.

:func:`build_report` is the one entry: answer-log records and votes in a time window → embed the
questions → flag (:mod:`core.gaps.signals`) → group (:mod:`core.gaps.cluster`) → for each group the
nearest indexed sections to the group's mean vector (``search``, e.g. ``Store.vector_search``), the
files its answers cited, and the owners whose folder globs (``gaps.owners``) match any of those files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from core.answer_log import AnswerRecord, VoteRecord
from core.embedder import Embedder
from core.gaps.cluster import cluster
from core.gaps.signals import SIGNALS, FlaggedQuestion, SignalRules, flag, normalised
from core.retrieval import in_scope
from core.types import Chunk

Search = Callable[[np.ndarray, int], list[tuple[Chunk, float]]]
"""``search(vector, k)`` → the ``k`` nearest indexed chunks with their cosine similarity
(``Store.vector_search``)."""

MAX_EXAMPLES = 3
MAX_DOCUMENTS = 3
MAX_REASONS = 5
SEARCH_K = 12
"""Chunks fetched per group before keeping the best :data:`MAX_DOCUMENTS` distinct (file, section)."""


@dataclass(frozen=True)
class DocRef:
    """An indexed section near a group: file (relative path), section, first page (PDF) and the
    cosine similarity of its best chunk to the group's mean question vector."""

    file: str
    section: str
    page: int | None
    score: float


@dataclass(frozen=True)
class GapGroup:
    """Questions with one meaning that the policies did not answer well.

    ``count`` flagged questions; ``examples`` 2–3 of them (no user ids; nearest the group's mean
    first); ``signals`` how many carried each signal; ``reasons`` distinct 👎 reasons; ``documents``
    the nearest indexed sections; ``cited`` files the answers cited; ``owners`` Slack ids whose folders
    those files are in; times are unix seconds. ``questions`` holds every member's text (not rendered;
    empty in a report read back from JSON)."""

    count: int
    examples: tuple[str, ...]
    signals: Mapping[str, int]
    reasons: tuple[str, ...]
    documents: tuple[DocRef, ...]
    cited: tuple[str, ...]
    owners: tuple[str, ...]
    first_asked_at: float
    last_asked_at: float
    questions: tuple[str, ...] = ()

    @property
    def files(self) -> set[str]:
        """Every file the group touches (nearest and cited)."""
        return {d.file for d in self.documents} | set(self.cited)


@dataclass(frozen=True)
class GapReport:
    """One report: the window [``since``, ``until``) in unix seconds, how many questions were asked
    and flagged, the grouping threshold, the groups (largest first) and notes on what was missing."""

    generated_at: float
    since: float
    until: float
    questions: int
    flagged: int
    similarity_threshold: float
    groups: tuple[GapGroup, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class ReportInputs:
    """What :func:`build_report` reads: the window's answers and votes, and the clock."""

    records: Sequence[AnswerRecord]
    votes: Sequence[VoteRecord]
    since: float
    until: float
    now: float


def build_report(inputs: ReportInputs, embedder: Embedder, rules: SignalRules, threshold: float,
                 owners: Mapping[str, str], search: Search | None = None) -> GapReport:
    """The gap report of ``inputs`` (records outside [since, until) are ignored).

    Args:
        embedder: embeds the questions (L2-normalised rows are used for cosine similarity).
        rules: signal thresholds; threshold: grouping similarity (:func:`core.gaps.cluster.cluster`).
        owners: folder glob → Slack id (``gaps.owners``).
        search: nearest indexed chunks of a vector; None (no index) leaves ``documents`` empty.

    With no question in the window the embedder is not called (a lazy embedder's model never loads).
    """
    records = [r for r in inputs.records if inputs.since <= r.created_at < inputs.until]
    notes = [] if search is not None else ["no index: nearest documents are not shown (run policybot index)"]
    if not records:  # nothing to group: never load the embedding model (a minute on a busy host)
        return GapReport(inputs.now, inputs.since, inputs.until, 0, 0, threshold, (), tuple(notes))
    vectors = _unit(embedder.embed([r.question for r in records]))
    flagged = flag(records, inputs.votes, vectors, rules)
    rows = np.asarray([f.row for f in flagged], dtype=int)
    groups = [_group([flagged[i] for i in g], vectors, owners, search)
              for g in cluster(vectors[rows], threshold)] if len(flagged) else []
    groups.sort(key=lambda g: (-g.count, -g.signals.get("downvoted", 0), -g.last_asked_at))
    return GapReport(inputs.now, inputs.since, inputs.until, len(records), len(flagged), threshold,
                     tuple(groups), tuple(notes))


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.asarray(vectors / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def _group(members: list[FlaggedQuestion], vectors: np.ndarray, owners: Mapping[str, str],
           search: Search | None) -> GapGroup:
    mean = _unit(vectors[[m.row for m in members]].mean(axis=0, keepdims=True))[0]
    docs = _nearest(search(mean, SEARCH_K)) if search is not None else ()
    cited = tuple(f for f, _ in Counter(c.file for m in members for c in m.cited).most_common())
    files = {d.file for d in docs} | set(cited)
    counts = Counter(s for m in members for s in m.signals)
    return GapGroup(
        count=len(members), examples=_examples(members, vectors, mean),
        signals={s: counts.get(s, 0) for s in SIGNALS}, reasons=_reasons(members), documents=docs,
        cited=cited, owners=owners_of(files, owners),
        first_asked_at=min(m.asked_at for m in members), last_asked_at=max(m.asked_at for m in members),
        questions=tuple(m.question for m in members))


def _examples(members: list[FlaggedQuestion], vectors: np.ndarray, mean: np.ndarray) -> tuple[str, ...]:
    """Up to :data:`MAX_EXAMPLES` questions of different wording, nearest the group's mean first."""
    ranked = sorted(members, key=lambda m: -float(vectors[m.row] @ mean))
    out: dict[str, str] = {}
    for m in ranked:
        out.setdefault(normalised(m.question), m.question)
    return tuple(list(out.values())[:MAX_EXAMPLES])


def _reasons(members: list[FlaggedQuestion]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for m in sorted(members, key=lambda m: m.asked_at):
        for r in m.reasons:
            seen.setdefault(normalised(r), r)
    return tuple(list(seen.values())[:MAX_REASONS])


def _nearest(hits: list[tuple[Chunk, float]]) -> tuple[DocRef, ...]:
    """Best chunk per (file, section), best first, at most :data:`MAX_DOCUMENTS`."""
    best: dict[tuple[str, str], DocRef] = {}
    for chunk, score in sorted(hits, key=lambda h: -h[1]):
        best.setdefault((chunk.path, chunk.section), DocRef(chunk.path, chunk.section, chunk.page, score))
    return tuple(list(best.values())[:MAX_DOCUMENTS])


def owners_of(files: set[str], owners: Mapping[str, str]) -> tuple[str, ...]:
    """Slack ids whose folder glob (matched like a channel scope, :func:`core.retrieval.in_scope`)
    covers at least one of ``files``, in config order, each once."""
    out: dict[str, None] = {}
    for glob, owner in owners.items():
        if any(in_scope(f, (glob,)) for f in files):
            out.setdefault(owner, None)
    return tuple(out)
