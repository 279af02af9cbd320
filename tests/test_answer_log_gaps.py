"""The answer-log columns the knowledge-gap report reads (found, answerability, the 👎 reason), added
to logs written before they existed, in a real LanceDB store (tmp_path)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from core.answer_log import AnswerLog, AnswerRecord
from core.store import Store


def rec(answer_id: str, at: float, **kw: object) -> AnswerRecord:
    return AnswerRecord(answer_id=answer_id, channel="C1", thread_ts="1.0", question_ts="1.0",
                        message_ts=f"{at}", user="U1", question=f"q{answer_id}", answer="a", created_at=at,
                        **kw)  # type: ignore[arg-type]


OLD_ANSWERS = pa.schema([
    ("answer_id", pa.string()), ("channel", pa.string()), ("thread_ts", pa.string()),
    ("question_ts", pa.string()), ("message_ts", pa.string()), ("parts", pa.string()),
    ("user", pa.string()), ("question", pa.string()), ("answer", pa.string()),
    ("citations", pa.string()), ("provider", pa.string()), ("cached", pa.bool_()),
    ("created_at", pa.float64()),
])
OLD_VOTES = pa.schema([("answer_id", pa.string()), ("user", pa.string()), ("vote", pa.string()),
                       ("updated_at", pa.float64())])


def test_found_and_answerability_round_trip(tmp_path: Path) -> None:
    log = AnswerLog(Store(tmp_path).db)
    log.record(rec("a1", 10.0, found=False, answerability=0.25))
    log.record(rec("a2", 20.0))
    got = AnswerLog(Store(tmp_path).db)
    a1, a2 = got.get("a1"), got.get("a2")
    assert a1 is not None and (a1.found, a1.answerability) == (False, 0.25)
    assert a2 is not None and (a2.found, a2.answerability) == (True, None)


def test_a_log_from_before_the_columns_gets_them_with_defaults(tmp_path: Path) -> None:
    db = Store(tmp_path).db
    row = {"answer_id": "old", "channel": "C1", "thread_ts": "1.0", "question_ts": "1.0", "message_ts": "2.0",
           "parts": "2.0", "user": "U1", "question": "q", "answer": "a", "citations": "[]", "provider": "x",
           "cached": False, "created_at": 5.0}
    db.create_table("answers", data=pa.Table.from_pylist([row], schema=OLD_ANSWERS))
    db.create_table("votes", data=pa.Table.from_pylist(
        [{"answer_id": "old", "user": "U2", "vote": "down", "updated_at": 6.0}], schema=OLD_VOTES))
    log = AnswerLog(db)
    old = log.get("old")
    assert old is not None and (old.found, old.answerability, old.scope) == (True, None, ("**",))
    assert [(v.vote, v.reason) for v in log.votes_since(0.0)] == [("down", "")]
    log.record(rec("new", 7.0, found=False))  # the migrated table takes new rows
    assert [r.answer_id for r in log.since(0.0)] == ["old", "new"]


def test_a_reason_is_stored_with_the_vote_and_a_changed_vote_clears_it(tmp_path: Path) -> None:
    log = AnswerLog(Store(tmp_path).db)
    log.record(rec("a1", 10.0))
    assert not log.set_reason("a1", "U2", "no vote yet")
    log.set_vote("a1", "U2", "down")
    assert log.set_reason("a1", "U2", "  wrong amount ")
    assert [(v.user, v.vote, v.reason) for v in log.votes_since(0.0)] == [("U2", "down", "wrong amount")]
    log.set_vote("a1", "U2", "up")
    assert [(v.vote, v.reason) for v in log.votes_since(0.0)] == [("up", "")]


def test_since_is_inclusive_and_oldest_first(tmp_path: Path) -> None:
    log = AnswerLog(Store(tmp_path).db)
    for i, at in enumerate((30.0, 10.0, 20.0)):
        log.record(rec(f"a{i}", at))
    assert [r.created_at for r in log.since(20.0)] == [20.0, 30.0]


def test_the_bot_logs_a_declined_answer_as_not_found(tmp_path: Path) -> None:
    from tests.slack_standin import event_body
    from tests.slack_standin.harness import open_env

    with open_env(tmp_path) as env:
        assert env.send(event_body("app_mention", text="<@U0FAKEBOT1> can I work from abroad?")) == 200
        assert env.send(event_body("app_mention", text="<@U0FAKEBOT1> how long is parental leave?",
                                   ts="1718000000.000200")) == 200
        env.settle()
        logged = {r.question: r.found for r in env.answer_log.since(0.0)}
    assert logged == {"can I work from abroad?": False, "how long is parental leave?": True}
