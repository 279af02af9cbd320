"""Plain dataclasses of the verified-answer cache, in data-flow order:

a logged answer (:class:`LoggedAnswer`) gets votes → :class:`VoteResult`; admitted answers become
:class:`CacheEntry` rows; a lookup returns an :class:`~core.types.Answer` or a :class:`Miss`;
admins read :class:`CacheStats`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal, Protocol

import numpy as np

from core.types import Answer, Citation

Vote = Literal["up", "down"]
EntryStatus = Literal["candidate", "active", "invalidated"]
"""candidate: has votes but is not served; active: served; invalidated: never served again."""


def answer_key(text: str) -> str:
    """SHA-256 of the answer text, lowercased with whitespace collapsed (finds same-answer twins)."""
    return hashlib.sha256(re.sub(r"\s+", " ", text.strip().lower()).encode()).hexdigest()


class AnswerRecordLike(Protocol):
    """What :meth:`LoggedAnswer.from_record` reads (``core.answer_log.AnswerRecord`` fits)."""

    @property
    def answer_id(self) -> str: ...
    @property
    def question(self) -> str: ...
    @property
    def answer(self) -> str: ...
    @property
    def citations(self) -> list[Citation]: ...
    @property
    def provider(self) -> str: ...
    @property
    def cached(self) -> bool: ...


@dataclass(frozen=True)
class LoggedAnswer:
    """An answer as the answer log recorded it: what a vote is about.

    Attributes:
        answer_id: the answer log's id of the posted answer (becomes the cache entry id).
        question: the question as asked (standalone, i.e. follow-ups already rewritten).
        answer: the answer text that was shown.
        citations: its citations; each needs ``chunk_id`` and ``text_hash`` to be admissible.
        scope: the folder globs the question was answered within.
        provider: who produced the text (``"cache"`` when it was served from this cache).
        found: False for refusals / declines (never admitted).
        cached: True when the answer was served from this cache.
        cache_entry_id: the cache entry it was served from (``Answer.details["cache_id"]``); votes then
            apply to that entry. When unknown for a cached answer, the live entry with the same
            answer text is used.
    """

    answer_id: str
    question: str
    answer: str
    citations: Sequence[Citation]
    scope: Sequence[str] = ("**",)
    provider: str = ""
    found: bool = True
    cached: bool = False
    cache_entry_id: str | None = None

    @property
    def admissible(self) -> bool:
        """A found, non-empty answer whose every citation has a chunk id and content hash."""
        return (self.found and bool(self.citations) and bool(self.answer.strip())
                and all(c.chunk_id and c.text_hash for c in self.citations))

    @classmethod
    def from_record(cls, record: AnswerRecordLike, scope: Sequence[str] = ("**",)) -> LoggedAnswer:
        """Build from an answer-log record; ``scope`` is the folder scope of the record's channel.
        A cached record's entry is found by its answer text (the record keeps no cache id)."""
        return cls(answer_id=record.answer_id, question=record.question, answer=record.answer,
                   citations=list(record.citations), scope=tuple(scope), provider=record.provider,
                   cached=record.cached)

    @classmethod
    def from_answer(cls, answer_id: str, question: str, answer: Answer,
                    scope: Sequence[str] = ("**",)) -> LoggedAnswer:
        """Build from a service :class:`~core.types.Answer`; a cached one carries ``details["cache_id"]``."""
        entry = answer.details.get("cache_id") if answer.cached else None
        return cls(answer_id=answer_id, question=question, answer=answer.answer,
                   citations=list(answer.citations), scope=tuple(scope), provider=answer.provider,
                   found=answer.found, cached=answer.cached, cache_entry_id=entry)


@dataclass(frozen=True)
class VoteResult:
    """What one vote did: the entry it landed on, its status afterwards and its vote tally."""

    entry_id: str | None
    status: EntryStatus | Literal["ineligible"]
    upvotes: int = 0
    downvotes: int = 0
    invalidated: tuple[str, ...] = ()
    """Entry ids this vote invalidated (a downvote on a served answer and its same-answer twins)."""


@dataclass
class CacheEntry:
    """One row of the ``answer_cache`` table (times are Unix seconds, UTC)."""

    entry_id: str
    question: str
    vector: np.ndarray
    """The question's embedding, float32, shape (dim,)."""
    answer: str
    answer_key: str
    citations: list[Citation]
    scope: str
    fingerprint: str
    provider: str
    votes: dict[str, Vote] = field(default_factory=dict)
    status: EntryStatus = "candidate"
    reason: str = ""
    created_at: float = 0.0
    updated_at: float = 0.0
    confirmed_at: float = 0.0
    last_served_at: float = 0.0
    times_served: int = 0

    @property
    def upvotes(self) -> int:
        """Distinct users whose current vote is up."""
        return sum(1 for v in self.votes.values() if v == "up")

    @property
    def downvotes(self) -> int:
        """Distinct users whose current vote is down."""
        return sum(1 for v in self.votes.values() if v == "down")

    @property
    def sources(self) -> set[str]:
        """Files cited by the answer."""
        return {c.file for c in self.citations}

    def as_answer(self, similarity: float) -> Answer:
        """The service Answer for this entry: ``cached=True``, provider ``"cache"``, its citations and
        ``details`` cache_id, upvotes, confirmed (ISO date, UTC), similarity, sources, times_served,
        cached_question."""
        confirmed = datetime.fromtimestamp(self.confirmed_at, UTC).date().isoformat()
        details = {"cache_id": self.entry_id, "upvotes": str(self.upvotes), "confirmed": confirmed,
                   "similarity": f"{similarity:.3f}", "sources": "unchanged",
                   "times_served": str(self.times_served), "cached_question": self.question}
        return Answer(answer=self.answer, citations=list(self.citations), provider="cache", cached=True,
                      found=True, details=details)


@dataclass(frozen=True)
class Miss:
    """A cache miss: ``reason`` is ``"empty"``, ``"disabled"``, ``"similarity"``, a guard name
    (``"scope"``, ``"numbers"``, ``"names"``, ``"negation"``, ``"contrast"``) or ``"stale"``."""

    reason: str
    entry_id: str | None = None
    similarity: float = 0.0


@dataclass(frozen=True)
class CacheStats:
    """Counts for admins: entries by status, serving totals and this process's counters."""

    entries: dict[str, int]
    times_served: int
    hits: int
    misses: dict[str, int]
    invalidations: dict[str, int]
