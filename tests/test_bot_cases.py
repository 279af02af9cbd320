"""The three Slack inputs of ../shared/cases (read by path, delivered through the local Slack in order).

- slack-inbound-markup: the question reaches the answer service and the answer log as the user typed
  it (entities decoded once, links reduced to their text).
- slack-connect-external-user: in a channel shared with another organisation, its user gets a
  one-line notice and the answer service is not called; the home user is answered; an allow-listed
  team is answered too.
- slack-thread-thanks: replies like "thanks…" after an answer get no reply and never reach the
  answer service.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from core.cache.service import CachedAnswerService
from tests.slack_standin.fake_service import FakeAnswerService
from tests.slack_standin.harness import BotEnv, open_env

CASES = Path(__file__).resolve().parents[2] / "shared" / "cases"


def case(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASES / name / "events.json").read_text(encoding="utf-8"))
    return data


def deliver(env: BotEnv, events: list[dict[str, Any]]) -> None:
    for body in events:
        assert env.send(body) == 200
        env.settle()


def test_inbound_markup_reaches_the_service_and_log_as_typed(tmp_path: Path) -> None:
    data = case("slack-inbound-markup")
    with open_env(tmp_path) as env:
        deliver(env, data["events"])
        (call,) = env.service.calls
        assert call.question == data["expected_question"]
        (rec,) = env.answer_log.thread("C0FAKEPOL1", data["events"][0]["event"]["ts"])
        assert rec.question == data["expected_question"]


def test_inbound_markup_reaches_the_cache_lookup_decoded(tmp_path: Path) -> None:
    data = case("slack-inbound-markup")
    seen: list[str] = []

    class RecordingCache(CachedAnswerService):
        """The cached service, recording what its lookup is asked (no cache behind it)."""

        def _lookup(self, question: str, history: Any, scope: Any) -> None:
            seen.append(question)
            return None

    with open_env(tmp_path, RecordingCache(FakeAnswerService(), cache=None)) as env:  # type: ignore[arg-type]
        deliver(env, data["events"])
        assert seen == [data["expected_question"]]


def test_outside_user_gets_a_notice_and_the_home_user_an_answer(tmp_path: Path) -> None:
    external, home = case("slack-connect-external-user")["events"]
    with open_env(tmp_path) as env:
        deliver(env, [external, home])
        (call,) = env.service.calls
        assert call.question == "what is the parental leave policy?"
        (eph,) = env.slack.state.ephemerals
        assert eph["user"] == "U0EXTUSER9" and "\n" not in eph["text"] and "members" in eph["text"]
        posts = env.slack.calls_to("chat.postMessage")
        assert [p.args["thread_ts"] for p in posts] == [home["event"]["ts"]]


def test_allow_listed_outside_team_is_answered(tmp_path: Path) -> None:
    external, _ = case("slack-connect-external-user")["events"]
    with open_env(tmp_path, allowed_teams=("T0OTHERORG",)) as env:
        deliver(env, [external])
        assert len(env.service.calls) == 1 and env.slack.state.ephemerals == []


def test_thanks_in_the_thread_get_no_answer(tmp_path: Path) -> None:
    mention, *thanks = case("slack-thread-thanks")["events"]
    with open_env(tmp_path) as env:
        deliver(env, [mention, *thanks])
        assert len(env.service.calls) == 1
        assert len(env.slack.calls_to("chat.postMessage")) == 1 and env.slack.state.ephemerals == []
