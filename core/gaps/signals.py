"""Which logged questions are knowledge gaps: the signals read from the answer log.

A question (one :class:`~core.answer_log.AnswerRecord`) is *flagged* when at least one of these holds:

- ``declined`` — the service found no answer or refused (``found`` is False);
- ``low_answerability`` — it answered, but rated the question's answerability from the policies below
  ``gaps.min_answerability`` (only when the service rated it; ``answerability`` None is unknown);
- ``downvoted`` — some user's current vote on the answer is 👎 (their "what was wrong?" reasons
  are kept, without user ids);
- ``reasked`` — the same user asked again within ``gaps.reask_window_s`` seconds, in different words
  (the normalised text differs) but with the same meaning (cosine similarity of the two questions ≥
  ``gaps.reask_similarity``): the first answer did not satisfy.

Pure functions over plain records and a matrix of question vectors; no I/O.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from core.answer_log import AnswerRecord, VoteRecord
from core.types import Citation

Signal = Literal["declined", "low_answerability", "downvoted", "reasked"]
SIGNALS: tuple[Signal, ...] = ("declined", "low_answerability", "downvoted", "reasked")

_USER_ID = re.compile(r"<@[UW][A-Z0-9]+(?:\|[^>]*)?>|\b[UW][A-Z0-9]{8,}\b")


@dataclass(frozen=True)
class SignalRules:
    """Thresholds of the signals (from :class:`core.config.GapsSettings`)."""

    min_answerability: float = 0.5
    reask_window_s: float = 600.0
    reask_similarity: float = 0.62


@dataclass(frozen=True)
class FlaggedQuestion:
    """A question that is a knowledge gap: its text (user ids removed), when it was asked, why it is
    flagged, the 👎 reasons, and what its answer cited. Index ``row`` points into the vector matrix."""

    row: int
    question: str
    asked_at: float
    signals: tuple[Signal, ...]
    reasons: tuple[str, ...] = ()
    cited: tuple[Citation, ...] = field(default_factory=tuple)


def anonymise(text: str) -> str:
    """``text`` with Slack user mentions and bare user ids replaced by ``@user``."""
    return " ".join(_USER_ID.sub("@user", text).split())


def normalised(text: str) -> str:
    """Lower-case words only: two questions with the same normalised text are the same words."""
    return " ".join(re.findall(r"\w+", text.lower()))


def reasked_rows(records: Sequence[AnswerRecord], vectors: np.ndarray, rules: SignalRules) -> set[int]:
    """Rows of ``records`` whose asker asked again, in other words with the same meaning, within
    ``rules.reask_window_s`` seconds. ``vectors`` are the questions' L2-normalised embeddings, row for
    row (shape ``(len(records), dim)``)."""
    by_user: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(records):
        by_user[r.user].append(i)
    out: set[int] = set()
    for rows in by_user.values():
        rows.sort(key=lambda i: records[i].created_at)
        for a, i in enumerate(rows):
            for j in rows[a + 1:]:
                if records[j].created_at - records[i].created_at > rules.reask_window_s:
                    break
                if normalised(records[i].question) != normalised(records[j].question) and \
                        float(vectors[i] @ vectors[j]) >= rules.reask_similarity:
                    out.add(i)
                    break
    return out


def flag(records: Sequence[AnswerRecord], votes: Sequence[VoteRecord], vectors: np.ndarray,
         rules: SignalRules) -> list[FlaggedQuestion]:
    """The flagged questions among ``records`` (in their order), with their signals and 👎 reasons.

    ``votes`` may hold votes on other answers (ignored); ``vectors`` as in :func:`reasked_rows`."""
    downs: dict[str, list[str]] = defaultdict(list)
    for v in votes:
        if v.vote == "down":
            downs[v.answer_id].append(anonymise(v.reason))
    reasked = reasked_rows(records, vectors, rules)
    out = []
    for i, r in enumerate(records):
        found: list[Signal] = []
        if not r.found:
            found.append("declined")
        if r.answerability is not None and r.answerability < rules.min_answerability:
            found.append("low_answerability")
        if r.answer_id in downs:
            found.append("downvoted")
        if i in reasked:
            found.append("reasked")
        if found:
            reasons = tuple(x for x in downs.get(r.answer_id, []) if x)
            out.append(FlaggedQuestion(i, anonymise(r.question), r.created_at, tuple(found), reasons,
                                       tuple(r.citations)))
    return out
