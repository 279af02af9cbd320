"""Which logged questions are flagged as knowledge gaps (core.gaps.signals) and how they are grouped
(core.gaps.cluster); vectors are hand-made so each test controls the similarities."""

from __future__ import annotations

import numpy as np

from core.answer_log import AnswerRecord, VoteRecord
from core.gaps.cluster import cluster
from core.gaps.signals import SignalRules, anonymise, flag, reasked_rows

RULES = SignalRules(min_answerability=0.5, reask_window_s=600.0, reask_similarity=0.62)


def rec(i: int, question: str, *, user: str = "", at: float = 0.0, found: bool = True,
        answerability: float | None = None) -> AnswerRecord:
    return AnswerRecord(answer_id=f"a{i}", channel="C1", thread_ts="1.0", question_ts="1.0",
                        message_ts="2.0", user=user or f"U{i:09d}", question=question, answer="x",
                        created_at=at or 1000.0 + i, found=found, answerability=answerability)


def vecs(*rows: list[float]) -> np.ndarray:
    v = np.asarray(rows, dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_a_decline_is_flagged_declined() -> None:
    out = flag([rec(0, "q", found=False)], [], vecs([1, 0]), RULES)
    assert [f.signals for f in out] == [("declined",)]


def test_low_answerability_is_flagged_and_unknown_is_not() -> None:
    records = [rec(0, "a", answerability=0.3), rec(1, "b", answerability=0.7),
               rec(2, "c", answerability=None)]
    out = flag(records, [], vecs([1, 0], [0, 1], [1, 1]), RULES)
    assert [(f.row, f.signals) for f in out] == [(0, ("low_answerability",))]


def test_a_downvote_is_flagged_with_its_reason_and_an_upvote_is_not() -> None:
    votes = [VoteRecord("a0", "U9", "down", "wrong number for <@U12345678> here"),
             VoteRecord("a1", "U9", "up")]
    out = flag([rec(0, "a"), rec(1, "b")], votes, vecs([1, 0], [0, 1]), RULES)
    assert [(f.row, f.signals, f.reasons) for f in out] == [
        (0, ("downvoted",), ("wrong number for @user here",))]


def test_a_reask_in_other_words_by_the_same_user_within_the_window_is_flagged() -> None:
    records = [rec(0, "How much for a desk?", user="U1", at=100.0),
               rec(1, "What is the budget for a desk?", user="U1", at=200.0)]
    assert reasked_rows(records, vecs([1, 0.1], [1, 0.2]), RULES) == {0}


def test_no_reask_for_another_user_a_late_question_an_exact_repeat_or_another_topic() -> None:
    v = vecs([1, 0.1], [1, 0.2])
    other_user = [rec(0, "a b", user="U1", at=100.0), rec(1, "a c", user="U2", at=110.0)]
    too_late = [rec(0, "a b", user="U1", at=100.0), rec(1, "a c", user="U1", at=100.0 + 601.0)]
    repeat = [rec(0, "A b?", user="U1", at=100.0), rec(1, "a  b", user="U1", at=110.0)]
    other_topic = [rec(0, "a b", user="U1", at=100.0), rec(1, "a c", user="U1", at=110.0)]
    assert reasked_rows(other_user, v, RULES) == set()
    assert reasked_rows(too_late, v, RULES) == set()
    assert reasked_rows(repeat, v, RULES) == set()
    assert reasked_rows(other_topic, vecs([1, 0], [0.5, 1]), RULES) == set()  # cos 0.45 < 0.62


def test_user_ids_are_removed_from_questions() -> None:
    assert anonymise("ask <@U0ABCDEF12|bob> or W0ABCDEF123 please") == "ask @user or @user please"


def test_cluster_merges_at_the_average_similarity_threshold() -> None:
    v = vecs([1, 0, 0], [0.9, 0.1, 0], [0, 1, 0], [0, 0.95, 0.2], [0, 0, 1])
    assert cluster(v, 0.9) == [[0, 1], [2, 3], [4]]
    assert cluster(v, 0.999) == [[0], [1], [2], [3], [4]]


def test_cluster_edge_cases() -> None:
    assert cluster(np.zeros((0, 3), dtype=np.float32), 0.5) == []
    assert cluster(vecs([1, 0]), 0.5) == [[0]]
    assert cluster(np.asarray([[1, 0], [0, 0], [1, 0.01]], dtype=np.float32), 0.5) == [[0, 2], [1]]
