"""The answer log and votes in a real LanceDB store (tmp_path)."""

from __future__ import annotations

from pathlib import Path

from core.answer_log import AnswerLog, AnswerRecord
from core.store import Store
from core.types import Citation, Turn


def rec(answer_id: str, q_ts: str, parts: tuple[str, ...], channel: str = "C1") -> AnswerRecord:
    return AnswerRecord(answer_id=answer_id, channel=channel, thread_ts="100.000001", question_ts=q_ts,
                        message_ts=parts[0], user="U1", question=f"q{answer_id}", answer=f"a{answer_id}",
                        citations=[Citation("hr/x.pdf", 3, "Leave", 0.7)], provider="extractive",
                        parts=parts)


def test_log_survives_reopening_the_store(tmp_path: Path) -> None:
    AnswerLog(Store(tmp_path).db).record(rec("a1", "100.000001", ("100.000002",)))
    again = AnswerLog(Store(tmp_path).db).get("a1")
    assert again is not None and again.citations == [Citation("hr/x.pdf", 3, "Leave", 0.7)]


def test_any_part_of_a_split_answer_finds_it_but_a_prefix_does_not(tmp_path: Path) -> None:
    log = AnswerLog(Store(tmp_path).db)
    log.record(rec("a1", "100.000001", ("100.000002", "100.000003")))
    found = log.find_by_message("C1", "100.000003")
    assert found is not None and found.answer_id == "a1"
    assert log.find_by_message("C1", "100.00000") is None
    assert log.find_by_message("C2", "100.000002") is None


def test_thread_turns_in_question_order(tmp_path: Path) -> None:
    log = AnswerLog(Store(tmp_path).db)
    log.record(rec("b", "100.000005", ("100.000006",)))
    log.record(rec("a", "100.000001", ("100.000002",)))
    turns = [t for r in log.thread("C1", "100.000001") for t in r.turns()]
    assert turns == [Turn("user", "qa"), Turn("assistant", "aa"), Turn("user", "qb"), Turn("assistant", "ab")]


def test_quotes_in_ids_do_not_break_filters(tmp_path: Path) -> None:
    log = AnswerLog(Store(tmp_path).db)
    log.record(rec("x' OR '1'='1", "100.000001", ("100.000002",)))
    assert log.get("nope' OR '1'='1") is None
    assert log.set_vote("x' OR '1'='1", "U' --", "up")
    assert log.votes("x' OR '1'='1") == {"U' --": "up"}


def test_setting_the_same_vote_twice_is_no_change(tmp_path: Path) -> None:
    log = AnswerLog(Store(tmp_path).db)
    assert log.set_vote("a1", "U2", "up") is True
    assert log.set_vote("a1", "U2", "up") is False
    assert log.set_vote("a1", "U2", None) is True
    assert log.tally("a1").net == 0
