"""A local Slack for tests: Web API stand-in, signed Events API driver and Socket Mode server.

The real ``slack_sdk`` / ``slack_bolt`` clients talk to these servers through ``base_url``; nothing in
the SDKs is patched. Payload shapes come from ``../shared/slack-fixtures/`` (see its PROVENANCE.md).
"""

from tests.slack_standin.events import EventsDriver, sign
from tests.slack_standin.fixtures import event_body, load_fixture
from tests.slack_standin.socket_mode import SocketModeServer
from tests.slack_standin.web_api import Fault, SlackStandIn

__all__ = ["EventsDriver", "Fault", "SlackStandIn", "SocketModeServer", "event_body", "load_fixture", "sign"]
