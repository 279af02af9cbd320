"""Slack Connect in an Enterprise Grid install: a user of another workspace of the same enterprise is
a member (checked with users.info), a user of another organisation is not; plus the hint for a
content-free mention and the thread log keeping acknowledgements without answering them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.slack_standin import event_body
from tests.slack_standin.harness import BotEnv, open_env
from tests.test_bot_cases import case

PARENT = "1718000000.000100"


def grid_mention(user: str, team: str) -> dict[str, Any]:
    """The shared-channel mention of the Connect case, in an enterprise (org-wide) install."""
    body = case("slack-connect-external-user")["events"][0]
    body["authorizations"][0]["enterprise_id"] = body["enterprise_id"] = "E0FAKEORG"
    body["event"].update(user=user, team=team, user_team=team, source_team=team)
    return body


def test_same_enterprise_user_of_another_workspace_is_answered(tmp_path: Path) -> None:
    with open_env(tmp_path) as env:
        env.slack.state.user_teams["U0SIBLING1"] = "T0SIBLING"
        env.slack.state.user_enterprises["U0SIBLING1"] = "E0FAKEORG"
        env.send(grid_mention("U0SIBLING1", "T0SIBLING"))
        env.settle()
        assert len(env.service.calls) == 1 and env.slack.calls_to("users.info")


def test_other_organisation_in_an_enterprise_install_gets_the_notice(tmp_path: Path) -> None:
    with open_env(tmp_path) as env:
        env.slack.state.user_teams["U0EXTUSER9"] = "T0OTHERORG"
        env.send(grid_mention("U0EXTUSER9", "T0OTHERORG"))
        env.settle()
        assert env.service.calls == [] and env.slack.calls_to("chat.postMessage") == []
        (eph,) = env.slack.state.ephemerals
        assert eph["user"] == "U0EXTUSER9"


def test_content_free_mention_gets_a_hint_not_an_answer(tmp_path: Path) -> None:
    with open_env(tmp_path) as env:
        env.send(event_body("app_mention", text="<@U0FAKEBOT1> :wave:"))
        env.settle()
        (post,) = env.slack.calls_to("chat.postMessage")
        assert "Ask me a question" in post.args["text"] and env.service.calls == []


def test_acknowledgement_is_kept_as_thread_context_but_not_answered(tmp_path: Path) -> None:
    env: BotEnv
    with open_env(tmp_path) as env:
        env.send(event_body("app_mention"))
        env.settle()
        env.send(event_body("message_channel_thread_reply", text="thanks, that helps!"))
        env.settle()
        assert len(env.service.calls) == 1
        (kept,) = env.answer_log.messages.thread("C0FAKEPOL1", PARENT)
        assert kept.text == "thanks, that helps!"
