"""Reactions on the bot's answers become votes; reactions elsewhere change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.slack_standin import event_body, load_fixture
from tests.slack_standin.harness import BotEnv, open_env


@pytest.fixture
def bot_env(tmp_path: Path) -> Iterator[BotEnv]:
    with open_env(tmp_path) as env:
        yield env


PARENT = "1718000000.000100"


def answered(env: BotEnv) -> tuple[str, str]:
    """Ask once; returns (answer_id, answer message ts)."""
    env.send(event_body("app_mention"))
    env.settle()
    (rec,) = env.answer_log.thread("C0FAKEPOL1", PARENT)
    return rec.answer_id, rec.message_ts


def react(env: BotEnv, kind: str, user: str, name: str, ts: str) -> None:
    item: dict[str, Any] = {"type": "message", "channel": "C0FAKEPOL1", "ts": ts}
    env.send(event_body(kind, user=user, reaction=name, item=item))


def test_up_down_from_two_users_then_one_removal(bot_env: BotEnv) -> None:
    answer_id, ts = answered(bot_env)
    react(bot_env, "reaction_added", "U0FAKEUSR2", "+1", ts)
    react(bot_env, "reaction_added", "U0FAKEUSR3", "-1", ts)
    bot_env.settle()
    assert bot_env.answer_log.tally(answer_id) == (t := bot_env.answer_log.tally(answer_id))
    assert (t.up, t.down) == (1, 1)
    react(bot_env, "reaction_removed", "U0FAKEUSR2", "+1", ts)
    bot_env.settle()
    t = bot_env.answer_log.tally(answer_id)
    assert (t.up, t.down) == (0, 1)


def test_one_vote_per_user_per_answer(bot_env: BotEnv) -> None:
    answer_id, ts = answered(bot_env)
    react(bot_env, "reaction_added", "U0FAKEUSR2", "+1", ts)
    react(bot_env, "reaction_added", "U0FAKEUSR2", "white_check_mark", ts)
    react(bot_env, "reaction_added", "U0FAKEUSR2", "-1", ts)
    bot_env.settle()
    assert bot_env.answer_log.votes(answer_id) == {"U0FAKEUSR2": "down"}


def test_fixture_thumbsup_alias_counts_as_up(bot_env: BotEnv) -> None:
    answer_id, ts = answered(bot_env)
    body = event_body("reaction_added")  # reaction "thumbsup", as Slack may name 👍
    body["event"]["item"]["ts"] = ts
    bot_env.send(body)
    bot_env.settle()
    assert bot_env.answer_log.votes(answer_id) == {"U0FAKEUSR2": "up"}


def test_reaction_on_a_human_message_changes_nothing(bot_env: BotEnv) -> None:
    answer_id, _ = answered(bot_env)
    react(bot_env, "reaction_added", "U0FAKEUSR2", "+1", PARENT)
    bot_env.settle()
    assert bot_env.answer_log.votes(answer_id) == {}


def test_unmapped_emoji_is_not_a_vote(bot_env: BotEnv) -> None:
    answer_id, ts = answered(bot_env)
    react(bot_env, "reaction_added", "U0FAKEUSR2", "tada", ts)
    bot_env.settle()
    assert bot_env.answer_log.votes(answer_id) == {}


def test_vote_hook_sees_every_change(bot_env: BotEnv) -> None:
    seen: list[tuple[str, str, str | None]] = []
    bot_env.answer_log.add_vote_hook(lambda a, u, v: seen.append((a, u, v)))
    answer_id, ts = answered(bot_env)
    react(bot_env, "reaction_added", "U0FAKEUSR2", "+1", ts)
    react(bot_env, "reaction_removed", "U0FAKEUSR2", "+1", ts)
    bot_env.settle()
    assert seen == [(answer_id, "U0FAKEUSR2", "up"), (answer_id, "U0FAKEUSR2", None)]


def test_feedback_button_records_the_same_vote(bot_env: BotEnv) -> None:
    answer_id, ts = answered(bot_env)
    payload = load_fixture("interactivity/block_actions_feedback_buttons.json")
    payload["container"]["message_ts"] = ts
    payload["actions"][0]["value"] = "bad-feedback"
    assert bot_env.driver.send_interaction(payload).status == 200
    bot_env.settle()
    assert bot_env.answer_log.votes(answer_id) == {"U0FAKEUSR2": "down"}
