"""The verified-answer cache in front of the answer service, and the vote hook that feeds it.

Data flow of a question: :meth:`CachedAnswerService.ask` → :meth:`AnswerCache.lookup` in the asker's
scope → a hit is returned as is (``cached=True``, provider ``"cache"``, the entry's citations; no
retrieval, no generation) → a miss is delegated to the inner :class:`~core.service.AnswerService`.

Follow-ups: a question asked with thread history is never looked up, and its answer is never admitted
(``details["cache_skip"] = "follow-up"``, counted as miss reason ``"follow-up"``). Its meaning depends
on the thread ("And for Plan B?"), the log keeps it as typed, and a wrong condensation would serve a
verified answer to another question — the cache must never do that, so it trades those hits away.

Data flow of a vote: :meth:`core.answer_log.AnswerLog.set_vote` → :func:`cache_vote_hook` → the logged
record as a :class:`~core.cache.types.LoggedAnswer` (its scope, and ``details["cache_id"]`` when it was
served from the cache) → :meth:`AnswerCache.record_vote`. A 👎 on a served cached answer invalidates
its entry at once, so the next ask goes through retrieval again.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator, Sequence

from core.answer_log import AnswerLog, AnswerRecord, Vote, VoteHook
from core.cache.answer_cache import AnswerCache
from core.cache.types import LoggedAnswer
from core.service import AnswerService, StreamItem
from core.types import Answer, Turn

log = logging.getLogger(__name__)

SKIP_KEY = "cache_skip"
"""``Answer.details`` key naming why an answer may not enter the cache (``"follow-up"``)."""
FOLLOW_UP = "follow-up"


class CachedAnswerService:
    """An :class:`~core.service.AnswerService` that serves verified answers before asking ``inner``.

    Args:
        inner: the answer service that retrieves and generates (e.g. ``PolicyAnswerService``).
        cache: the verified-answer cache (:func:`core.cache.make_answer_cache`).

    ``ask`` never raises for a cache failure: it is logged, counted as miss reason ``"error"`` and the
    question goes to ``inner``.
    """

    def __init__(self, inner: AnswerService, cache: AnswerCache) -> None:
        self.inner = inner
        self.cache = cache

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)) -> Answer:
        """The cached answer when one is verified for ``question`` in ``scope``, else ``inner.ask``."""
        hit = self._lookup(question, history, scope)
        if hit is not None:
            return hit
        return _mark(self.inner.ask(question, history=history, scope=scope), history)

    def ask_stream(
        self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)
    ) -> Iterator[StreamItem]:
        """A hit yields only the final cached Answer; a miss streams ``inner.ask_stream``."""
        hit = self._lookup(question, history, scope)
        if hit is not None:
            yield hit
            return
        for item in self.inner.ask_stream(question, history=history, scope=scope):
            yield _mark(item, history) if isinstance(item, Answer) else item

    def _lookup(self, question: str, history: Sequence[Turn], scope: Sequence[str]) -> Answer | None:
        if history:
            self.cache.count_miss(FOLLOW_UP)
            return None
        try:
            result = self.cache.lookup(question, scope)
        except Exception:  # the cache is an optimisation: a broken one must not stop answers
            log.exception("cache lookup failed; answering through retrieval")
            self.cache.count_miss("error")
            return None
        return result if isinstance(result, Answer) else None


def _mark(answer: Answer, history: Sequence[Turn]) -> Answer:
    """``answer`` with ``details["cache_skip"]`` set when it answered a follow-up (never admitted)."""
    if not history:
        return answer
    return dataclasses.replace(answer, details={**answer.details, SKIP_KEY: FOLLOW_UP})


def logged_answer(rec: AnswerRecord) -> LoggedAnswer | None:
    """The cache's view of a logged answer; None when the cache must ignore it (a follow-up's answer)."""
    if rec.details.get(SKIP_KEY):
        return None
    return LoggedAnswer(answer_id=rec.answer_id, question=rec.question, answer=rec.answer,
                        citations=list(rec.citations), scope=tuple(rec.scope), provider=rec.provider,
                        cached=rec.cached, cache_entry_id=rec.details.get("cache_id") or None)


def cache_vote_hook(answer_log: AnswerLog, cache: AnswerCache) -> VoteHook:
    """``on_vote(answer_id, user, vote | None)`` for :meth:`AnswerLog.add_vote_hook`: applies the vote
    to the cache (admission, tally, invalidation on 👎). Failures are logged, never raised (the vote
    itself is already in the log)."""

    def on_vote(answer_id: str, user: str, vote: Vote | None) -> None:
        rec = answer_log.get(answer_id)
        logged = logged_answer(rec) if rec is not None else None
        if logged is None:
            log.info("vote on %s not used by the cache (unknown or follow-up answer)", answer_id)
            return
        try:
            result = cache.record_vote(logged, user, vote)
        except Exception:
            log.exception("cache could not record the vote on %s", answer_id)
            return
        if result.invalidated:
            log.info("vote on %s invalidated cache entries %s", answer_id, list(result.invalidated))

    return on_vote
