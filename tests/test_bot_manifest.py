"""slack/manifest.yaml against the app-manifest reference, and every subscribed event handled.

Field rules from https://docs.slack.dev/reference/app-manifest (and its JSON schema):
``display_information.name`` is required (≤ 35 characters), ``description`` ≤ 140,
``background_color`` a hex colour; a bot user needs ``features.bot_user.display_name`` (≤ 80); slash
commands start with ``/`` (≤ 32 characters) and have a description; bot events need their scopes
(https://docs.slack.dev/reference/events: app_mention → app_mentions:read, message.channels →
channels:history, message.groups → groups:history, message.im → im:history, reaction_added/removed →
reactions:read). Agent messaging (https://docs.slack.dev/ai/migrating-to-agent-messaging):
``features.agent_view`` with ``agent_description`` replaces ``assistant_view``; the DM is detected
with ``app_home_opened``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.slack_standin import event_body
from tests.slack_standin.harness import open_env

ROOT = Path(__file__).resolve().parents[1]
MANIFEST: dict[str, Any] = yaml.safe_load((ROOT / "slack" / "manifest.yaml").read_text())
TOP_LEVEL = {"_metadata", "display_information", "settings", "features", "oauth_config", "functions",
             "workflows", "datastores", "outgoing_domains", "types", "external_auth_providers"}
EVENT_SCOPES = {"app_mention": "app_mentions:read", "message.channels": "channels:history",
                "message.groups": "groups:history", "message.im": "im:history",
                "reaction_added": "reactions:read", "reaction_removed": "reactions:read",
                "app_home_opened": None}
FIXTURE_OF = {"app_mention": "app_mention", "message.channels": "message_channel_thread_reply",
              "message.groups": "message_file_share_group", "message.im": "message_im",
              "reaction_added": "reaction_added", "reaction_removed": "reaction_removed",
              "app_home_opened": "app_home_opened"}


def test_only_known_top_level_keys_and_display_information_fits() -> None:
    assert set(MANIFEST) <= TOP_LEVEL
    info = MANIFEST["display_information"]
    assert 0 < len(info["name"]) <= 35 and len(info.get("description", "")) <= 140
    assert re.fullmatch(r"#(?:[0-9a-fA-F]{3}){1,2}", info["background_color"])


def test_agent_view_replaces_assistant_view() -> None:
    features = MANIFEST["features"]
    assert "assistant_view" not in features
    agent = features["agent_view"]
    assert agent["agent_description"].strip()
    prompts = agent.get("suggested_prompts", [])
    assert len(prompts) <= 4 and all(p.get("title") and p.get("message") for p in prompts)
    assert features["app_home"]["messages_tab_enabled"] is True


def test_bot_user_and_slash_command_fields() -> None:
    features = MANIFEST["features"]
    assert 0 < len(features["bot_user"]["display_name"]) <= 80
    for cmd in features["slash_commands"]:
        assert re.fullmatch(r"/[a-z0-9_\-]{1,31}", cmd["command"]) and cmd["description"]


def test_every_event_has_its_scope_and_interactivity_is_on() -> None:
    events = MANIFEST["settings"]["event_subscriptions"]["bot_events"]
    scopes = set(MANIFEST["oauth_config"]["scopes"]["bot"])
    assert set(events) == set(EVENT_SCOPES)
    assert {EVENT_SCOPES[e] for e in events} - {None} <= scopes
    assert {"chat:write", "commands", "assistant:write"} <= scopes
    assert MANIFEST["settings"]["interactivity"]["is_enabled"] is True


@pytest.mark.parametrize("event", sorted(FIXTURE_OF))
def test_every_subscribed_event_has_a_handler(tmp_path: Path, event: str,
                                             caplog: pytest.LogCaptureFixture) -> None:
    with open_env(tmp_path) as env:
        assert env.send(event_body(FIXTURE_OF[event])) == 200
        env.settle()
    assert "Unhandled request" not in caplog.text


def test_docs_walk_through_creating_the_app_from_the_manifest() -> None:
    doc = (ROOT / "docs" / "slack.md").read_text()
    assert "slack/manifest.yaml" in doc and "agent_view" in doc and "app_home_opened" in doc
    for scope in MANIFEST["oauth_config"]["scopes"]["bot"]:
        assert f"`{scope}`" in doc, scope
