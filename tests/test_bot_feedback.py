"""Feedback buttons beside reactions: one vote per user per answer (the latest wins, a second click
undoes), the 👎 reason modal, and the verified-answer cache fed by a button alone — real slack_bolt and
slack_sdk against the local Slack."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.cache import make_answer_cache
from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import Store
from tests.slack_standin import event_body, load_fixture
from tests.slack_standin.harness import BotEnv, open_env
from tests.test_cache_slack_e2e import QUESTION, CitingService, index_facts

PARENT = "1718000000.000100"


@pytest.fixture
def bot_env(tmp_path: Path) -> Iterator[BotEnv]:
    with open_env(tmp_path) as env:
        yield env


def answered(env: BotEnv, text: str = "<@U0FAKEBOT1> what is the parental leave policy?",
             ts: str = PARENT) -> tuple[str, str]:
    """Ask once; returns (answer_id, answer message ts)."""
    env.send(event_body("app_mention", text=text, ts=ts, event_ts=ts))
    env.settle()
    (rec,) = env.answer_log.thread("C0FAKEPOL1", ts)
    return rec.answer_id, rec.message_ts


def click(env: BotEnv, ts: str, value: str, user: str = "U0FAKEUSR2") -> None:
    payload = load_fixture("interactivity/block_actions_feedback_buttons.json")
    payload["container"]["message_ts"] = payload["message"]["ts"] = ts
    payload["user"]["id"] = user
    payload["actions"][0]["value"] = value
    assert env.driver.send_interaction(payload).status == 200
    env.settle()


def react(env: BotEnv, ts: str, name: str, user: str = "U0FAKEUSR2", kind: str = "reaction_added") -> None:
    item: dict[str, Any] = {"type": "message", "channel": "C0FAKEPOL1", "ts": ts}
    env.send(event_body(kind, user=user, reaction=name, item=item))
    env.settle()


def test_a_click_and_a_reaction_from_one_user_are_one_vote(bot_env: BotEnv) -> None:
    answer_id, ts = answered(bot_env)
    click(bot_env, ts, "good-feedback")
    react(bot_env, ts, "+1")
    assert bot_env.answer_log.votes(answer_id) == {"U0FAKEUSR2": "up"}
    t = bot_env.answer_log.tally(answer_id)
    assert (t.up, t.down) == (1, 0)
    react(bot_env, ts, "-1")  # the latest wins
    assert bot_env.answer_log.votes(answer_id) == {"U0FAKEUSR2": "down"}


def test_a_second_click_on_the_same_button_removes_the_vote(bot_env: BotEnv) -> None:
    answer_id, ts = answered(bot_env)
    click(bot_env, ts, "good-feedback")
    click(bot_env, ts, "good-feedback")
    assert bot_env.answer_log.votes(answer_id) == {}


def test_thumbs_down_click_asks_what_was_wrong_and_stores_it(bot_env: BotEnv) -> None:
    answer_id, ts = answered(bot_env)
    click(bot_env, ts, "bad-feedback")
    (opened,) = bot_env.slack.state.views
    view = opened["view"]
    assert opened["trigger_id"] and view["callback_id"] == "feedback_reason"
    element = view["blocks"][0]["element"]
    assert view["blocks"][0]["optional"] is True and element["multiline"] is False
    submission = {"type": "view_submission", "team": {"id": "T0FAKETEAM", "domain": "fake-workspace"},
                  "user": {"id": "U0FAKEUSR2", "team_id": "T0FAKETEAM"}, "api_app_id": "A0FAKEAPP1",
                  "token": "fake-verification-token", "trigger_id": "0000000000.1111111111.fake2",
                  "view": {**view, "id": "V00000001", "state": {"values": {"reason": {"reason_input": {
                      "type": "plain_text_input", "value": "  The number is\noutdated  "}}}}}}
    assert bot_env.driver.send_interaction(submission).status == 200
    bot_env.settle()
    assert bot_env.answer_log.votes(answer_id) == {"U0FAKEUSR2": "down"}
    assert bot_env.answer_log.reasons(answer_id) == {"U0FAKEUSR2": "The number is outdated"}


def test_undoing_a_thumbs_down_opens_no_modal(bot_env: BotEnv) -> None:
    answer_id, ts = answered(bot_env)
    react(bot_env, ts, "-1")
    click(bot_env, ts, "bad-feedback")
    assert bot_env.slack.state.views == [] and bot_env.answer_log.votes(answer_id) == {}


def test_a_button_alone_admits_the_answer_to_the_verified_cache(tmp_path: Path) -> None:
    embedder = FakeEmbedder(dimension=256)
    store = Store(tmp_path / "data")
    service = CitingService(index_facts(store, embedder))
    cache = make_answer_cache(store, embedder, Settings(), fingerprint="fp-buttons")
    with open_env(tmp_path, service=service, cache=cache) as env:
        _, ts = answered(env, f"<@U0FAKEBOT1> {QUESTION}")
        click(env, ts, "good-feedback")
        again_ts = "1718000200.000100"
        env.send(event_body("app_mention", text=f"<@U0FAKEBOT1> {QUESTION}", ts=again_ts, event_ts=again_ts))
        env.settle()
        (served,) = env.answer_log.thread("C0FAKEPOL1", again_ts)
        assert served.cached and len(service.calls) == 1
