"""Slack Connect on every surface: a person outside the installing organisation gets no policy content
from ``/policy`` (a question or any subcommand), the App Home, the DM's suggested prompts or a shortcut,
and casts no vote (reactions, feedback buttons, the 👎 reason), so verified answers are neither admitted
nor invalidated by them — real slack_bolt/slack_sdk against the local Slack. Payload shapes:
../shared/slack-fixtures (events, ``interactivity/block_actions_feedback_buttons.json``); the slash
command is the driver's form (tests/slack_standin/events.py); the shortcut and view_submission bodies
follow https://docs.slack.dev/reference/interaction-payloads/ (no shared fixture for them)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.membership import OUTSIDE_NOTICE
from core.answer_log import AnswerRecord
from core.cache import AnswerCache, make_answer_cache
from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import Store
from core.topics import Suggestion
from tests.slack_standin import Fault, event_body, load_fixture
from tests.slack_standin.harness import BotEnv, open_env
from tests.test_cache_slack_e2e import QUESTION, CitingService, index_facts

OUTSIDER, OTHER_TEAM = "U0EXTUSER9", "T0OTHERORG"
MEMBER = "U0FAKEUSR2"
CHANNEL = "C0FAKEPOL1"
ASKED = "what is the parental leave policy?"


def topics(scope: Sequence[str]) -> list[Suggestion]:
    """One suggested question (what a member's DM would show)."""
    return [Suggestion("Carry-over", "How many leave days carry over?", "hr/annual-leave.md")]


@pytest.fixture
def env(tmp_path: Path) -> Iterator[BotEnv]:
    """The bot against a local Slack whose users.info puts OUTSIDER in another organisation."""
    with open_env(tmp_path, topics=topics) as env:
        env.slack.state.user_teams[OUTSIDER] = OTHER_TEAM
        yield env


def shared(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` delivered from a channel shared with another organisation (Slack Connect)."""
    return body | {"is_ext_shared_channel": True}


def answered(env: BotEnv, text: str = ASKED, ts: str = "1718000000.000100") -> AnswerRecord:
    """A member's mention answered in a new thread at ``ts``; returns its logged answer."""
    env.send(shared(event_body("app_mention", text=f"<@U0FAKEBOT1> {text}", ts=ts, event_ts=ts)))
    env.settle()
    (rec,) = env.answer_log.thread(CHANNEL, ts)
    return rec


def react(env: BotEnv, rec: AnswerRecord, user: str, name: str) -> None:
    item = {"type": "message", "channel": CHANNEL, "ts": rec.message_ts}
    env.send(shared(event_body("reaction_added", user=user, reaction=name, item=item)))
    env.settle()


def click(env: BotEnv, rec: AnswerRecord, value: str, user: str = OUTSIDER, team: str = OTHER_TEAM) -> None:
    payload = load_fixture("interactivity/block_actions_feedback_buttons.json")
    payload["container"]["message_ts"] = payload["message"]["ts"] = rec.message_ts
    payload["user"].update(id=user, team_id=team)
    payload["actions"][0]["value"] = value
    assert env.driver.send_interaction(payload).status == 200
    env.settle()


def command(env: BotEnv, text: str, user: str = OUTSIDER) -> dict[str, Any]:
    """``/policy text`` from ``user``; returns the command's response body (``{}`` when empty)."""
    delivery = env.driver.send_command("/policy", text, user=user)
    env.settle()
    assert delivery.status == 200
    return dict(json.loads(delivery.body)) if delivery.body.strip() else {}


def shortcut(user: str, team: str) -> dict[str, Any]:
    """A global shortcut payload (https://docs.slack.dev/reference/interaction-payloads/shortcuts-interactions-payload)."""
    return {"type": "shortcut", "token": "fake-verification-token", "action_ts": "1718001000.000100",
            "team": {"id": "T0FAKETEAM", "domain": "fake-workspace"},
            "user": {"id": user, "username": user.lower(), "team_id": team},
            "is_enterprise_install": False, "enterprise": None, "callback_id": "policy_search",
            "trigger_id": "0000000000.1111111111.fakeshortcut"}


# ---- /policy ---------------------------------------------------------------------------------------
def test_outside_slash_question_gets_the_notice_privately_and_no_answer(env: BotEnv) -> None:
    body = command(env, ASKED)
    assert body["response_type"] == "ephemeral" and body["text"] == OUTSIDE_NOTICE
    assert env.service.calls == []


def test_outside_slash_subcommand_gets_the_notice_and_does_not_run(env: BotEnv) -> None:
    body = command(env, "status")
    assert body["text"] == OUTSIDE_NOTICE and env.slack.state.ephemerals == []


def test_member_slash_question_is_answered(env: BotEnv) -> None:
    assert command(env, ASKED, user="U0FAKEUSR1") == {}
    assert len(env.service.calls) == 1


def test_membership_lookup_is_reused(env: BotEnv) -> None:
    command(env, ASKED)
    command(env, "help")
    assert len(env.slack.calls_to("users.info")) == 1


def test_failed_lookup_counts_as_outside(env: BotEnv) -> None:
    env.slack.fail("users.info", Fault(error="internal_error"))
    body = command(env, ASKED, user="U0FAKEUSR1")
    assert body["text"] == OUTSIDE_NOTICE and env.service.calls == []


# ---- App Home, DM, shortcuts -----------------------------------------------------------------------
def test_outside_dm_open_gets_no_suggested_prompts_nor_welcome(env: BotEnv) -> None:
    env.send(shared(event_body("app_home_opened", user=OUTSIDER, channel="D0EXTDM001")))
    env.settle()
    assert env.slack.calls_to("assistant.threads.setSuggestedPrompts") == []
    assert env.slack.calls_to("chat.postMessage") == []


def test_outside_home_tab_is_not_published(env: BotEnv) -> None:
    env.send(event_body("app_home_opened", user=OUTSIDER, tab="home", channel=None))
    env.settle()
    assert env.slack.calls_to("views.publish") == []


def test_outside_shortcut_never_reaches_its_listener(env: BotEnv) -> None:
    seen: list[str] = []
    env.app.shortcut("policy_search")(lambda ack, body: (ack(), seen.append(body["user"]["id"])))
    assert env.driver.send_interaction(shortcut(OUTSIDER, OTHER_TEAM)).status == 200
    assert seen == []


def test_member_shortcut_reaches_its_listener(env: BotEnv) -> None:
    seen: list[str] = []
    env.app.shortcut("policy_search")(lambda ack, body: (ack(), seen.append(body["user"]["id"])))
    assert env.driver.send_interaction(shortcut(MEMBER, "T0FAKETEAM")).status == 200
    assert seen == [MEMBER]


# ---- votes -----------------------------------------------------------------------------------------
def test_outside_feedback_click_is_no_vote(env: BotEnv) -> None:
    rec = answered(env)
    click(env, rec, "good-feedback")
    assert env.answer_log.votes(rec.answer_id) == {}


def test_outside_thumbs_down_click_opens_no_reason_modal(env: BotEnv) -> None:
    rec = answered(env)
    click(env, rec, "bad-feedback")
    assert env.slack.state.views == []


def test_outside_reason_submission_is_not_stored(env: BotEnv) -> None:
    rec = answered(env)
    env.answer_log.set_vote(rec.answer_id, OUTSIDER, "down")  # e.g. cast before the channel was shared
    view = {"id": "V00000001", "type": "modal", "callback_id": "feedback_reason",
            "private_metadata": json.dumps({"answer_id": rec.answer_id}),
            "state": {"values": {"reason": {"reason_input": {"type": "plain_text_input", "value": "wrong"}}}}}
    submission = {"type": "view_submission", "team": {"id": "T0FAKETEAM", "domain": "fake-workspace"},
                  "user": {"id": OUTSIDER, "team_id": OTHER_TEAM}, "api_app_id": "A0FAKEAPP1",
                  "token": "fake-verification-token", "trigger_id": "0000000000.1111111111.fake2",
                  "view": view}
    assert env.driver.send_interaction(submission).status == 200
    env.settle()
    assert env.answer_log.reasons(rec.answer_id) == {}


@pytest.fixture
def cached_env(tmp_path: Path) -> Iterator[tuple[BotEnv, AnswerCache]]:
    """The bot with the verified-answer cache over indexed facts (FakeEmbedder, verbatim repeats)."""
    embedder = FakeEmbedder(dimension=256)
    store = Store(tmp_path / "data")
    service = CitingService(index_facts(store, embedder))
    cache = make_answer_cache(store, embedder, Settings(), fingerprint="fp-outside")
    with open_env(tmp_path, service=service, cache=cache) as env:
        env.slack.state.user_teams[OUTSIDER] = OTHER_TEAM
        yield env, cache


def test_outside_thumbs_up_does_not_admit_a_verified_answer(cached_env: tuple[BotEnv, AnswerCache]) -> None:
    env, cache = cached_env
    react(env, answered(env, QUESTION), OUTSIDER, "+1")
    again = answered(env, QUESTION, ts="1718000200.000100")
    assert not again.cached and cache.stats().entries.get("active", 0) == 0


def test_outside_thumbs_down_does_not_invalidate_a_verified_answer(
        cached_env: tuple[BotEnv, AnswerCache]) -> None:
    env, cache = cached_env
    react(env, answered(env, QUESTION), MEMBER, "+1")
    served = answered(env, QUESTION, ts="1718000200.000100")
    react(env, served, OUTSIDER, "-1")
    again = answered(env, QUESTION, ts="1718000400.000100")
    assert served.cached and again.cached and cache.stats().invalidations == {}


# ---- messages other than mentions --------------------------------------------------------------------
def outside_message(kind: str, **event: Any) -> dict[str, Any]:
    """A ``kind`` message event (a shared fixture's name) from OUTSIDER, whose payload names the other
    organisation."""
    body = event_body(kind, user=OUTSIDER, text=ASKED, **event)
    body["event"].update(team=OTHER_TEAM, user_team=OTHER_TEAM, source_team=OTHER_TEAM)
    return shared(body)


def test_outside_dm_message_is_not_answered(env: BotEnv) -> None:
    env.send(outside_message("message_im", channel="D0EXTDM001"))
    env.settle()
    assert env.service.calls == [] and env.slack.calls_to("chat.postMessage") == []


def test_outside_reply_in_an_answered_thread_is_not_answered(env: BotEnv) -> None:
    rec = answered(env)
    posts = len(env.slack.calls_to("chat.postMessage"))
    env.send(outside_message("message_channel_thread_reply", channel=CHANNEL, ts="1718000100.000100",
                             thread_ts=rec.thread_ts))
    env.settle()
    assert len(env.service.calls) == 1 and len(env.slack.calls_to("chat.postMessage")) == posts


def test_outside_message_shortcut_never_reaches_its_listener(env: BotEnv) -> None:
    """A message shortcut (https://docs.slack.dev/reference/interaction-payloads/shortcuts-interactions-payload)."""
    seen: list[str] = []
    env.app.message_shortcut("policy_quote")(lambda ack, body: (ack(), seen.append(body["user"]["id"])))
    payload = shortcut(OUTSIDER, OTHER_TEAM) | {
        "type": "message_action", "callback_id": "policy_quote", "channel": {"id": CHANNEL},
        "message": {"type": "message", "ts": "1718000000.000100", "text": ASKED}}
    assert env.driver.send_interaction(payload).status == 200
    assert seen == []
