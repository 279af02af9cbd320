"""Socket Mode: slack_sdk's SocketModeClient (via bolt's handler) connects to the local websocket
server that ``apps.connections.open`` on the local Slack points at, acks envelopes and answers once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from slack_bolt.adapter.socket_mode import SocketModeHandler

from bot.app import build_app
from bot.membership import OUTSIDE_NOTICE
from bot.work import BackgroundWork
from core.answer_log import AnswerLog
from core.blobs import LocalBlobStore
from core.store import Store
from tests.slack_standin import SocketModeServer, load_fixture
from tests.slack_standin.fake_service import FakeAnswerService
from tests.slack_standin.harness import make_settings, secrets
from tests.slack_standin.web_api import APP_TOKEN, SlackStandIn

ACK_DEADLINE_S = 3.0  # Slack's ack deadline (https://docs.slack.dev/apis/events-api/using-socket-mode)


QUESTION = "<@U0FAKEBOT1> what is the parental leave policy?"
Env = tuple[SocketModeServer, BackgroundWork, SlackStandIn]


@pytest.fixture
def socket_env(tmp_path: Path) -> Iterator[Env]:
    with SlackStandIn() as slack, SocketModeServer(slack) as ws:
        settings = make_settings(tmp_path, slack)
        work = BackgroundWork()
        answer_log = AnswerLog(Store(settings.data_dir).db)
        app = build_app(settings, secrets(), FakeAnswerService(), answer_log, work=work,
                        blobs=LocalBlobStore(settings.data_dir / "blobs"))
        handler = SocketModeHandler(app, APP_TOKEN, web_client=app.client)
        handler.connect()
        assert ws.connected.wait(10)
        try:
            yield ws, work, slack
        finally:
            work.drain(60)
            handler.close()
            work.shutdown()


def test_socket_mode_envelope_is_acked_within_3_seconds(
        socket_env: Env) -> None:
    ws, work, slack = socket_env
    frames = load_fixture("socket_mode/frames.json")
    slack.add_message("C0FAKEPOL1", QUESTION, ts="1718000000.000100")
    sent = ws.send(frames["events_api_envelope"])
    ack = ws.wait_ack(frames["events_api_envelope"]["envelope_id"], timeout=10)
    assert ack is not None and ack[0] - sent < ACK_DEADLINE_S
    assert slack.calls_to("apps.connections.open")


def test_socket_mode_retry_envelope_is_answered_once(
        socket_env: Env) -> None:
    ws, work, slack = socket_env
    frames = load_fixture("socket_mode/frames.json")
    slack.add_message("C0FAKEPOL1", QUESTION, ts="1718000000.000100")
    for name in ("events_api_envelope", "events_api_envelope_retry"):
        ws.send(frames[name])
        assert ws.wait_ack(frames[name]["envelope_id"], timeout=10) is not None
    assert work.drain(60)
    (post,) = slack.calls_to("chat.postMessage")
    assert post.args["thread_ts"] == "1718000000.000100"


def test_socket_mode_outside_slash_command_is_acked_with_the_notice(socket_env: Env) -> None:
    ws, work, slack = socket_env
    slack.state.user_teams["U0EXTUSER9"] = "T0OTHERORG"
    frame = load_fixture("socket_mode/frames.json")["events_api_envelope"]  # envelope keys; payload below
    frame.update(envelope_id="0000-slash-outside", type="slash_commands", accepts_response_payload=True,
                 payload={"token": "fake-verification-token", "team_id": "T0FAKETEAM",
                          "channel_id": "C0FAKEPOL1", "user_id": "U0EXTUSER9", "command": "/policy",
                          "text": "parental leave?", "api_app_id": "A0FAKEAPP1",
                          "trigger_id": "0000000000.1111111111.fake"})
    frame.pop("retry_attempt", None)
    frame.pop("retry_reason", None)
    ws.send(frame)
    ack = ws.wait_ack("0000-slash-outside", timeout=10)
    assert ack is not None and ack[1]["payload"]["text"] == OUTSIDE_NOTICE
