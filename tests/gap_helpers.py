"""The seeded answer log of the knowledge-gap tests (tests/data/gap_seed.yaml) written into a real
AnswerLog, and the labels the grouping is checked against."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import yaml

from core.answer_log import AnswerLog, AnswerRecord
from core.types import Citation

SEED = Path(__file__).resolve().parent / "data" / "gap_seed.yaml"
DAY = 86400.0
REASK_AFTER_S = 180.0


@dataclass
class Seeded:
    """What was written: per flagged question its meaning label (singles get their own), and counts."""

    labels: dict[str, str] = field(default_factory=dict)
    """question text → meaning label of the flagged questions."""
    questions: int = 0
    reasons: dict[str, list[str]] = field(default_factory=dict)
    """label → the 👎 reasons given."""
    cited: dict[str, str] = field(default_factory=dict)
    """label → the file its answers cited."""


def load_seed(path: Path = SEED) -> dict[str, Any]:
    """The seed file as a dict."""
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


class _Writer:
    def __init__(self, log: AnswerLog, now: float) -> None:
        self.log, self.now, self.n = log, now, 0

    def record(self, question: str, *, user: str | None = None, at: float | None = None,
               cite: str = "", found: bool = True, answerability: float | None = 0.9) -> AnswerRecord:
        self.n += 1
        at = at if at is not None else self.now - DAY * (1 + self.n % 5) - 60.0 * self.n
        cites = [Citation(cite, None, "Policy", 0.5)] if cite else []
        rec = AnswerRecord(
            answer_id=uuid.uuid4().hex, channel="C0FAKEASK1", thread_ts=f"{at:.6f}", question_ts=f"{at:.6f}",
            message_ts=f"{at + 1:.6f}", user=user or f"U0SEED{self.n:04d}", question=question,
            answer="The policies say nothing about this." if not found else "An answer.", citations=cites,
            provider="extractive", created_at=at, found=found, answerability=answerability)
        self.log.record(rec)
        return rec


def seed_log(log: AnswerLog, now: float, path: Path = SEED) -> Seeded:
    """Write the seed into ``log`` with question times in the 6 days before ``now`` (each question by
    its own user, except a re-ask, asked by the same user 3 minutes later)."""
    data, w, out = load_seed(path), _Writer(log, now), Seeded()
    for g in data["groups"]:
        _group(w, g, out)
    for s in data["singles"]:
        _flagged(w, s["question"], s["signal"], s.get("cite", ""), out, label=f"single:{s['question']}")
    for i, f in enumerate(data["fine"]):
        rec = w.record(f["question"], cite=f.get("cite", ""))
        if f.get("upvote"):
            log.set_vote(rec.answer_id, f"U0VOTER{i:03d}", "up")
    out.questions = w.n
    return out


def _group(w: _Writer, g: dict[str, Any], out: Seeded) -> None:
    label, cite = g["label"], g.get("cite", "")
    out.reasons[label] = list(g.get("reasons") or [])
    if cite:
        out.cited[label] = cite
    for i, q in enumerate(g["questions"]):
        reason = out.reasons[label][i % len(out.reasons[label])] if out.reasons[label] else ""
        rec = _flagged(w, q, g["signal"], cite, out, label=label, reason=reason)
        if g["signal"] == "reask":
            w.record(g["again"][i], user=rec.user, at=rec.created_at + REASK_AFTER_S, cite=cite)


def _flagged(w: _Writer, question: str, signal: str, cite: str, out: Seeded, *, label: str,
             reason: str = "") -> AnswerRecord:
    rec = w.record(question, cite="" if signal == "declined" else cite, found=signal != "declined",
                   answerability=0.2 if signal == "low" else (None if signal == "declined" else 0.9))
    if signal == "down":
        voter = f"U0DOWN{w.n:04d}"
        w.log.set_vote(rec.answer_id, voter, "down")
        w.log.set_reason(rec.answer_id, voter, reason)
    out.labels[question] = label
    return rec


def pair_precision_recall(groups: list[list[str]], labels: dict[str, str]) -> tuple[float, float]:
    """Pair-counting precision and recall of ``groups`` (question texts) against ``labels``."""
    where = {q: k for k, g in enumerate(groups) for q in g}
    qs = sorted(where)
    tp = fp = fn = 0
    for a, b in combinations(qs, 2):
        same, together = labels[a] == labels[b], where[a] == where[b]
        tp += same and together
        fp += together and not same
        fn += same and not together
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)
