"""The answer log and the votes on answers, persisted in LanceDB (tables ``answers`` and ``votes``).

Every answer the bot posts is recorded with where it was posted (channel, thread, message ts), who asked
what, the answer, its citations, the provider and the cached flag. The log gives a thread's history
back to the answer service (follow-ups such as "And for Plan B?") and maps a reacted-to message back
to its answer. Each answer also keeps the folder ``scope`` it was answered within and the service's
``details`` (``details["cache_id"]`` when served from the verified-answer cache), so a vote needs no
guessing.
Each answer also keeps whether it ``found`` an answer (False: declined) and its ``answerability``
(0–1, None when the service did not rate it), and a vote its ``reason`` (the one-line "what was
wrong?" after a 👎, ``""`` when none); the knowledge-gap report (``core/gaps``) reads them.
Logs written before those columns existed get them added on open (defaults ``["**"]``, ``{}``, true,
null and ``""``: see :data:`ADDED_COLUMNS` and :data:`ADDED_VOTE_COLUMNS`).
Votes are one per (answer, user); ``None`` removes a vote. Vote hooks
(``on_vote(answer_id, user, vote | None)``) let the verified-answer cache follow the votes.
No Slack imports here: channel and ts are plain strings.

The other messages of threads the bot answered in (colleagues' replies,
acknowledgements) live beside the answers in :attr:`AnswerLog.messages` (:mod:`core.thread_log`), so a
follow-up's history never needs Slack's ``conversations.replies``. A deleted answer is removed with
:meth:`AnswerLog.delete` (its votes withdrawn first).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any, Literal

import pyarrow as pa

from core.claims import KeyLocks
from core.database import Database
from core.store import sql_str
from core.thread_log import ThreadLog
from core.types import Citation, Turn

log = logging.getLogger(__name__)

Vote = Literal["up", "down"]
VoteHook = Callable[[str, str, "Vote | None"], None]

ANSWERS_SCHEMA = pa.schema([
    ("answer_id", pa.string()), ("channel", pa.string()), ("thread_ts", pa.string()),
    ("question_ts", pa.string()), ("message_ts", pa.string()), ("parts", pa.string()),
    ("user", pa.string()), ("question", pa.string()), ("answer", pa.string()),
    ("citations", pa.string()), ("provider", pa.string()), ("cached", pa.bool_()),
    ("created_at", pa.float64()), ("scope", pa.string()), ("details", pa.string()),
    ("found", pa.bool_()), ("answerability", pa.float64()),
])
ADDED_COLUMNS = {"scope": "'[\"**\"]'", "details": "'{}'", "found": "true",
                 "answerability": "CAST(NULL AS DOUBLE)"}
"""Columns added after the first release, with the SQL default that fills them in older logs."""
VOTES_SCHEMA = pa.schema([
    ("answer_id", pa.string()), ("user", pa.string()), ("vote", pa.string()), ("updated_at", pa.float64()),
    ("reason", pa.string()),
])
ADDED_VOTE_COLUMNS = {"reason": "''"}
"""Columns added to the votes table after the first release, with their SQL defaults."""


@dataclass(frozen=True)
class AnswerRecord:
    """One posted answer. ``message_ts`` is its first message; ``parts`` all message ts (long answers
    are split over several messages); ``question_ts`` the asking message; times are unix seconds."""

    answer_id: str
    channel: str
    thread_ts: str
    question_ts: str
    message_ts: str
    user: str
    question: str
    answer: str
    citations: list[Citation] = field(default_factory=list)
    provider: str = ""
    cached: bool = False
    parts: tuple[str, ...] = ()
    created_at: float = 0.0
    scope: tuple[str, ...] = ("**",)
    """Folder globs the question was answered within."""
    details: dict[str, str] = field(default_factory=dict)
    """The service's ``Answer.details`` (e.g. ``cache_id`` of a verified answer)."""
    found: bool = True
    """False when the answer was a refusal or a decline (``Answer.found``)."""
    answerability: float | None = None
    """How answerable the question was from the policies, 0–1 (None: not rated)."""

    def turns(self) -> list[Turn]:
        """The question and the answer as two history turns."""
        return [Turn("user", self.question), Turn("assistant", self.answer)]


@dataclass(frozen=True)
class VoteRecord:
    """One user's current vote on an answer; ``reason`` is the 👎 "what was wrong?" text (or "")."""

    answer_id: str
    user: str
    vote: Vote
    reason: str = ""
    updated_at: float = 0.0


@dataclass(frozen=True)
class Tally:
    """Vote counts of one answer: ``up`` and ``down`` distinct users."""

    up: int = 0
    down: int = 0

    @property
    def net(self) -> int:
        """``up - down``."""
        return self.up - self.down


class AnswerLog:
    """Answers and votes in the data dir's :class:`~core.database.Database` (``App.database``).

    Thread-safe: writes are serialised by a lock. Raises nothing for unknown ids (returns None/empty).
    """

    def __init__(self, db: Database, locks: KeyLocks | None = None) -> None:
        self._db = db
        self._lock = threading.Lock()
        self._locks = locks
        self._answers = db.table("answers", ANSWERS_SCHEMA, defaults=ADDED_COLUMNS)
        self._votes = db.table("votes", VOTES_SCHEMA, defaults=ADDED_VOTE_COLUMNS)
        self._hooks: list[VoteHook] = []

    # ---- answers ---------------------------------------------------------------------------
    def record(self, rec: AnswerRecord) -> None:
        """Append ``rec`` to the log."""
        row = asdict(rec) | {
            "citations": json.dumps([asdict(c) for c in rec.citations]),
            "parts": " ".join(rec.parts or (rec.message_ts,)),
            "scope": json.dumps(list(rec.scope)), "details": json.dumps(rec.details),
            "created_at": rec.created_at or time.time(),
        }
        with self._lock:
            self._answers.add(pa.Table.from_pylist([row], schema=ANSWERS_SCHEMA))
        log.info("answer %s logged (channel %s, thread %s)", rec.answer_id, rec.channel, rec.thread_ts)

    def get(self, answer_id: str) -> AnswerRecord | None:
        """The answer with ``answer_id``, or None (looked up again at the latest version before saying
        so: another replica may have logged it within the read consistency interval)."""
        where = f"answer_id = {sql_str(answer_id)}"
        rows = self._query(where) or self._query(where, latest=True)
        return rows[0] if rows else None

    def find_by_message(self, channel: str, ts: str) -> AnswerRecord | None:
        """The answer of which the message ``(channel, ts)`` is a part, or None (not an answer; looked up
        again at the latest version first, as :meth:`get`)."""
        where = f"channel = {sql_str(channel)} AND parts LIKE {sql_str('%' + ts + '%')}"
        rows = [r for r in self._query(where) if ts in r.parts]
        rows = rows or [r for r in self._query(where, latest=True) if ts in r.parts]
        return rows[0] if rows else None

    def thread(self, channel: str, thread_ts: str) -> list[AnswerRecord]:
        """Answers posted in the thread, oldest question first."""
        rows = self._query(f"channel = {sql_str(channel)} AND thread_ts = {sql_str(thread_ts)}")
        return sorted(rows, key=lambda r: float(r.question_ts or 0))

    def has_thread(self, channel: str, thread_ts: str) -> bool:
        """True when the bot has answered in this thread."""
        return bool(self.thread(channel, thread_ts))

    def since(self, t: float) -> list[AnswerRecord]:
        """Answers logged at or after ``t`` (unix seconds), oldest first."""
        rows = self._answers.search().where(f"created_at >= {float(t)!r}").limit(None).to_list()
        return sorted((_row_record(r) for r in rows), key=lambda r: r.created_at)

    def _query(self, where: str, *, latest: bool = False) -> list[AnswerRecord]:
        if latest:
            self._answers.checkout_latest()
        rows = self._answers.search().where(where).limit(10_000).to_list()
        return [_row_record(r) for r in rows]

    # ---- votes -----------------------------------------------------------------------------
    def add_vote_hook(self, hook: VoteHook) -> None:
        """Call ``hook(answer_id, user, vote | None)`` after every vote change."""
        self._hooks.append(hook)

    def set_vote(self, answer_id: str, user: str, vote: Vote | None) -> bool:
        """Set (or with ``None`` remove) ``user``'s vote on ``answer_id``; True when it changed.

        Idempotent per (answer, user) across replicas: with ``locks`` (the shared store's
        :class:`~core.claims.KeyLocks`) the read-modify-write of the vote row and the vote hooks (the
        verified-answer cache's entry) run while holding the answer's lock, reading the latest version."""
        if self._locks is None:
            return self._set_vote(answer_id, user, vote)
        with self._locks.hold(f"vote:{answer_id}"):
            return self._set_vote(answer_id, user, vote, latest=True)

    def _set_vote(self, answer_id: str, user: str, vote: Vote | None, *, latest: bool = False) -> bool:
        where = f"answer_id = {sql_str(answer_id)} AND user = {sql_str(user)}"
        with self._lock:
            if latest:
                self._votes.checkout_latest()
            old = self._votes.search().where(where).limit(1).to_list()
            previous = old[0]["vote"] if old else None
            if previous == vote:
                return False
            self._votes.delete(where)
            if vote is not None:
                row = {"answer_id": answer_id, "user": user, "vote": vote, "updated_at": time.time(),
                       "reason": ""}
                self._votes.add(pa.Table.from_pylist([row], schema=VOTES_SCHEMA))
        log.info("vote on %s by %s: %s -> %s", answer_id, user, previous, vote)
        for hook in self._hooks:
            hook(answer_id, user, vote)
        return True

    def set_reason(self, answer_id: str, user: str, reason: str) -> bool:
        """Store ``reason`` ("what was wrong?") with ``user``'s vote on ``answer_id``; False when that
        user has no vote there. A later vote change clears it."""
        where = f"answer_id = {sql_str(answer_id)} AND user = {sql_str(user)}"
        with self._lock:
            if not self._votes.search().where(where).limit(1).to_list():
                return False
            self._votes.update(where=where, values={"reason": reason.strip()})
        log.info("vote reason on %s by %s stored", answer_id, user)
        return True

    def votes_since(self, t: float) -> list[VoteRecord]:
        """Current votes last changed at or after ``t`` (unix seconds)."""
        rows = self._votes.search().where(f"updated_at >= {float(t)!r}").limit(None).to_list()
        return [VoteRecord(r["answer_id"], r["user"], r["vote"], r.get("reason") or "", r["updated_at"])
                for r in rows]

    def votes(self, answer_id: str) -> dict[str, Vote]:
        """``{user: vote}`` of one answer."""
        rows = self._votes.search().where(f"answer_id = {sql_str(answer_id)}").limit(100_000).to_list()
        return {r["user"]: r["vote"] for r in rows}

    def tally(self, answer_id: str) -> Tally:
        """Distinct users voting up and down on ``answer_id``."""
        vs = list(self.votes(answer_id).values())
        return Tally(up=vs.count("up"), down=vs.count("down"))

    # ---- Slack: thread messages and deletions -------------------------------------------------
    @cached_property
    def messages(self) -> ThreadLog:
        """The other messages of threads the bot takes part in (table ``thread_messages``)."""
        return ThreadLog(self._db)

    def reasons(self, answer_id: str) -> dict[str, str]:
        """``{user: reason}`` of the votes on ``answer_id`` that carry a 👎 reason."""
        rows = self._votes.search().where(f"answer_id = {sql_str(answer_id)}").limit(100_000).to_list()
        return {r["user"]: r["reason"] for r in rows if r.get("reason")}

    def delete(self, answer_id: str) -> AnswerRecord | None:
        """Forget a deleted answer: every vote on it is withdrawn (vote hooks see ``None``, so the
        verified-answer cache drops them), then its row is removed, so later reactions on its
        messages are not votes. Returns the removed record, or None when there was none."""
        rec = self.get(answer_id)
        if rec is None:
            return None
        for user in self.votes(answer_id):
            self.set_vote(answer_id, user, None)
        with self._lock:
            self._answers.delete(f"answer_id = {sql_str(answer_id)}")
        log.info("answer %s deleted from the log (its message was deleted)", answer_id)
        return rec


def _row_record(r: dict[str, Any]) -> AnswerRecord:
    cites = [Citation(**c) for c in json.loads(r["citations"] or "[]")]
    return AnswerRecord(
        answer_id=r["answer_id"], channel=r["channel"], thread_ts=r["thread_ts"],
        question_ts=r["question_ts"], message_ts=r["message_ts"], user=r["user"],
        question=r["question"], answer=r["answer"], citations=cites, provider=r["provider"],
        cached=bool(r["cached"]), parts=tuple((r["parts"] or "").split()), created_at=r["created_at"],
        scope=tuple(json.loads(r.get("scope") or '["**"]')), details=json.loads(r.get("details") or "{}"),
        found=r.get("found") is not False, answerability=r.get("answerability"),
    )
