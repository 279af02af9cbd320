"""The verified-answer cache: 👍/👎 votes admit and invalidate answers; lookups serve them again.

Data flow: :meth:`AnswerCache.record_vote` (the answer log's vote hook) → entries in
:class:`~core.cache.store.CacheTable` → :meth:`AnswerCache.lookup` before retrieval →
an :class:`~core.types.Answer` (``cached=True``, provider ``"cache"``) or a :class:`~core.cache.types.Miss`.

Admission: an answer is served once ≥ ``cache.min_net_upvotes`` distinct users vote up and no user's
vote is down (a downvote on a fresh answer is recorded and keeps it out until withdrawn). Only found
answers whose every citation names a chunk id and content hash are admitted (else staleness could
not be checked). A downvote on an admitted answer invalidates it at once, with every entry of the
same answer text. Invalidation is final; :meth:`expire` deletes long-dead rows.

Lookup serves the nearest cached question only if (a) cosine similarity ≥ ``cache.similarity_threshold``
(calibrated in docs/cache-calibration.md), (b) the guards pass (:mod:`core.cache.guards`) and
(c) every cited chunk still exists with the same content hash; a failed (c) invalidates the entry.
When the nearest fails, the next candidates above the threshold are tried (at most
:data:`MAX_CANDIDATES`); the miss reason is the nearest candidate's.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

from core.cache.guards import Signature, failed_guard, scope_key, signature
from core.cache.store import CacheTable, cosines
from core.cache.types import CacheEntry, CacheStats, LoggedAnswer, Miss, Vote, VoteResult, answer_key
from core.config import CacheSettings
from core.embedder import Embedder, embed_queries
from core.types import Answer

log = logging.getLogger(__name__)

ChunkHashes = Callable[[Sequence[str]], Mapping[str, str]]
"""``chunk_hashes(chunk_ids) -> {chunk_id: text_hash}`` for the chunks that still exist."""

MAX_CANDIDATES = 5
DAY_S = 86_400.0


class AnswerCache:
    """Verified answers, admitted by votes, served by guarded nearest-question lookup. Thread-safe.

    Args:
        table: the cache table (its own LanceDB table, beside the index).
        embedder: embeds questions (the same model as the index, so callers may pass its vector).
        settings: ``cache`` settings (enabled, min_net_upvotes, similarity_threshold, ttl_days).
        fingerprint: the index's config fingerprint; entries of another fingerprint are never served.
        chunk_hashes: current content hash of each cited chunk id (missing ids: deleted chunks).
        chunks_version: optional token that changes whenever the chunks table changes; an entry
            verified under the current token is not re-checked (saves a table scan per hit).
        glossary: abbreviation → expansion (``retrieval.glossary``) applied before the guards.
        clock: Unix time in seconds (tests pass a fake).
    """

    def __init__(self, table: CacheTable, embedder: Embedder, settings: CacheSettings, *,
                 fingerprint: str, chunk_hashes: ChunkHashes, glossary: Mapping[str, str] | None = None,
                 chunks_version: Callable[[], object] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self._table = table
        self._embedder = embedder
        self.settings = settings
        self._fingerprint = fingerprint
        self._chunk_hashes = chunk_hashes
        self._chunks_version = chunks_version
        self._verified: dict[str, object] = {}
        self._glossary = dict(glossary or {})
        self._clock = clock
        self._lock = threading.RLock()
        self._signatures: dict[str, Signature] = {}
        self._hits = 0
        self._misses: Counter[str] = Counter()
        self._invalidations: Counter[str] = Counter()

    # ---- votes --------------------------------------------------------------------------
    def record_vote(self, answer: LoggedAnswer, user_id: str, vote: Vote | None) -> VoteResult:
        """Record ``user_id``'s vote (``"up"``, ``"down"``, or ``None`` = withdrawn) on a logged answer.

        Votes on an answer served from the cache (``answer.cache_entry_id``) apply to that entry. A user
        counts once per entry whatever they send. Returns the entry's status and tally afterwards;
        ``"ineligible"`` for refusals and answers without verifiable citations.
        """
        with self._lock:
            self._table.sync(latest=True)  # another replica may have voted on this entry just now
            entry = self._target(answer)
            if entry is None:
                if vote is None or answer.cached or not answer.admissible:
                    return VoteResult(entry_id=None, status="ineligible")
                entry = self._new_entry(answer)
            return self._apply_vote(entry, user_id, vote)

    def _target(self, answer: LoggedAnswer) -> CacheEntry | None:
        """The entry a vote lands on: the serving entry for cached answers, else the answer's own."""
        if answer.cache_entry_id:
            return self._table.get(answer.cache_entry_id)
        if not answer.cached:
            return self._table.get(answer.answer_id)
        key, scope = answer_key(answer.answer), scope_key(answer.scope)
        live = [e for e in self._table.entries() if e.answer_key == key and e.status != "invalidated"]
        live.sort(key=lambda e: (e.scope != scope, -e.last_served_at))
        return live[0] if live else None

    def _new_entry(self, answer: LoggedAnswer) -> CacheEntry:
        now = self._clock()
        vector = embed_queries(self._embedder, [answer.question])[0]
        return CacheEntry(
            entry_id=answer.answer_id, question=answer.question, vector=np.asarray(vector, np.float32),
            answer=answer.answer, answer_key=answer_key(answer.answer), citations=list(answer.citations),
            scope=scope_key(answer.scope), fingerprint=self._fingerprint, provider=answer.provider,
            created_at=now, updated_at=now)

    def _apply_vote(self, entry: CacheEntry, user_id: str, vote: Vote | None) -> VoteResult:
        was_active = entry.status == "active"
        if vote is None:
            entry.votes.pop(user_id, None)
        else:
            entry.votes[user_id] = vote
        now = self._clock()
        entry.updated_at = now
        changed: list[CacheEntry] = [entry]
        invalidated: tuple[str, ...] = ()
        if entry.status != "invalidated":
            if vote == "down" and was_active:
                changed += self._twins(entry)
                self._mark_invalid(changed, "downvote", write=False)
                invalidated = tuple(e.entry_id for e in changed)
            else:
                entry.status = "active" if self._admissible(entry) else "candidate"
                if entry.status == "active" and (vote == "up" or not was_active):
                    entry.confirmed_at = now
        self._table.put(changed)
        log.info("vote entry=%s vote=%s status=%s up=%d down=%d", entry.entry_id, vote, entry.status,
                 entry.upvotes, entry.downvotes)
        return VoteResult(entry.entry_id, entry.status, entry.upvotes, entry.downvotes, invalidated)

    def _admissible(self, entry: CacheEntry) -> bool:
        return entry.downvotes == 0 and entry.upvotes >= self.settings.min_net_upvotes

    def _twins(self, entry: CacheEntry) -> list[CacheEntry]:
        """Other live entries with the same answer text (a downvote invalidates them all)."""
        return [e for e in self._table.entries()
                if e.answer_key == entry.answer_key and e.entry_id != entry.entry_id
                and e.status != "invalidated"]

    def _mark_invalid(self, entries: Sequence[CacheEntry], reason: str, *, write: bool = True) -> None:
        now = self._clock()
        for e in entries:
            e.status, e.reason, e.updated_at = "invalidated", reason, now
            self._invalidations[reason] += 1
            log.info("cache entry invalidated id=%s reason=%s", e.entry_id, reason)
        if write:
            self._table.put(list(entries))

    # ---- lookup -------------------------------------------------------------------------
    def lookup(self, question: str, scope: Sequence[str] = ("**",),
               vector: np.ndarray | None = None) -> Answer | Miss:
        """Serve a verified answer for ``question`` within ``scope``, or say why not.

        Args:
            question: the standalone question.
            scope: folder globs of the asker; only entries of the same scope are served.
            vector: the question's embedding when the caller already has it (shape (dim,)).

        Returns:
            An Answer with ``cached=True``, provider ``"cache"``, the entry's citations and
            ``details`` (cache_id, upvotes, confirmed date, similarity, sources), or a :class:`Miss`.
        """
        t0 = time.perf_counter()
        if not self.settings.enabled:
            return Miss("disabled")
        if vector is None:
            vector = embed_queries(self._embedder, [question])[0]
        vector = np.asarray(vector, dtype=np.float32)
        vector = vector / (float(np.linalg.norm(vector)) or 1.0)
        with self._lock:
            self._table.sync()
            ids, matrix = self._table.active_matrix(self._fingerprint)
            in_scope = self._table.active_scopes(self._fingerprint) == scope_key(scope)
            result = self._search(question, ids, cosines(matrix, vector), in_scope)
        if isinstance(result, Miss):
            self._misses[result.reason] += 1
            log.info("cache miss reason=%s entry=%s sim=%.3f", result.reason, result.entry_id,
                     result.similarity)
            return result
        self._hits += 1
        result.timings_ms["cache_lookup"] = (time.perf_counter() - t0) * 1e3
        log.info("cache hit entry=%s in %.1f ms", result.details["cache_id"],
                 result.timings_ms["cache_lookup"])
        return result

    def count_miss(self, reason: str) -> None:
        """Count a miss decided before :meth:`lookup` (e.g. ``"follow-up"``: lookup skipped)."""
        with self._lock:
            self._misses[reason] += 1

    def _search(self, question: str, ids: list[str], sims: np.ndarray, in_scope: np.ndarray) -> Answer | Miss:
        """Try the nearest in-scope entries above the threshold; a miss names the nearest one's reason
        (``"scope"`` when only entries of other scopes are that close)."""
        if not ids:
            return Miss("empty")
        nearest = int(np.argmax(sims))
        scoped = np.where(in_scope, sims, -np.inf)
        k = min(MAX_CANDIDATES, len(ids))
        top = np.argpartition(-scoped, k - 1)[:k]
        sig = signature(question, self._glossary)
        first: Miss | None = None
        for i in top[np.argsort(-scoped[top])]:
            sim = float(scoped[i])
            if sim < self.settings.similarity_threshold:
                break
            entry = self._table.get(ids[i])
            assert entry is not None
            reason = self._check(entry, sig)
            if reason is None:
                return self._serve(entry, sim)
            first = first or Miss(reason, entry.entry_id, sim)
        if first is None and sims[nearest] >= self.settings.similarity_threshold and not in_scope[nearest]:
            first = Miss("scope", ids[nearest], float(sims[nearest]))
        return first or Miss("similarity", ids[nearest], float(sims[nearest]))

    def _check(self, entry: CacheEntry, sig: Signature) -> str | None:
        cached = self._signatures.get(entry.entry_id)
        if cached is None:
            cached = self._signatures[entry.entry_id] = signature(entry.question, self._glossary)
        reason = failed_guard(cached, sig)
        if reason is None and not self._sources_unchanged(entry):
            self._mark_invalid([entry], "stale")
            reason = "stale"
        return reason

    def _sources_unchanged(self, entry: CacheEntry) -> bool:
        version = self._chunks_version() if self._chunks_version else None
        if version is not None and self._verified.get(entry.entry_id) == version:
            return True
        wanted = {c.chunk_id: c.text_hash for c in entry.citations}
        current = self._chunk_hashes(sorted(wanted))
        fresh = all(current.get(cid) == h for cid, h in wanted.items())
        if fresh and version is not None:
            self._verified[entry.entry_id] = version
        return fresh

    def _serve(self, entry: CacheEntry, similarity: float) -> Answer:
        self._table.mark_served(entry.entry_id, self._clock())
        return entry.as_answer(similarity)

    # ---- invalidation and admin -----------------------------------------------------------
    def invalidate_sources(self, paths: Iterable[str]) -> list[str]:
        """Invalidate every live entry citing one of ``paths`` (policy-root-relative); returns their ids."""
        wanted = set(paths)
        with self._lock:
            self._table.sync()
            hit = [e for e in self._table.entries() if e.status != "invalidated" and e.sources & wanted]
            self._mark_invalid(hit, "source changed")
            return [e.entry_id for e in hit]

    def expire(self, now: float | None = None) -> dict[str, int]:
        """TTL job: invalidate live entries confirmed (else created) more than ``cache.ttl_days`` ago,
        delete dead rows (invalidated or never admitted) untouched for as long, then compact the table.
        Returns ``{"expired": n, "deleted": m}``."""
        now = self._clock() if now is None else now
        cutoff = now - self.settings.ttl_days * DAY_S
        with self._lock:
            self._table.flush()
            entries = self._table.entries()
            old = [e for e in entries if e.status == "active" and (e.confirmed_at or e.created_at) < cutoff]
            dead = [e.entry_id for e in entries if e.status != "active" and e.updated_at < cutoff]
            self._mark_invalid(old, "expired")
            deleted = self._table.delete(dead)
            self._table.compact()
        log.info("cache expire: expired=%d deleted=%d", len(old), deleted)
        return {"expired": len(old), "deleted": deleted}

    def flush(self) -> None:
        """Write buffered serving counters (call on shutdown)."""
        with self._lock:
            self._table.flush()

    def forget(self, entry_id: str) -> bool:
        """Admin: stop serving ``entry_id`` for good (kept as invalidated so later votes cannot revive it).
        Returns False when no live entry has that id."""
        with self._lock:
            self._table.sync()
            entry = self._table.get(entry_id)
            if entry is None or entry.status == "invalidated":
                return False
            self._mark_invalid([entry], "forgotten")
            return True

    def counters(self) -> tuple[int, dict[str, int]]:
        """This process's lookup counters, without touching the table: ``(hits, {miss reason: n})``."""
        with self._lock:
            return self._hits, dict(self._misses)

    def stats(self) -> CacheStats:
        """Entries by status and times served (from the table), hits / misses by reason /
        invalidations by reason (this process's counters since start)."""
        with self._lock:
            self._table.flush()
            entries = self._table.entries()
            by_status = Counter(e.status for e in entries)
            return CacheStats(
                entries={s: by_status.get(s, 0) for s in ("active", "candidate", "invalidated")},
                times_served=sum(e.times_served for e in entries), hits=self._hits,
                misses=dict(self._misses), invalidations=dict(self._invalidations))

