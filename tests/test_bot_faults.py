"""Never silent: each fault in the question path ends in exactly one reply in the thread, with an error
id that is also in the log, and the thread status cleared; nothing is posted twice.

Faults are injected where they really happen: the real PolicyAnswerService with a retriever whose
store raises ``OSError`` and with a provider raising ``RuntimeError``; the local Slack answering
``chat.postMessage`` with HTTP 500; the answer log's LanceDB files overwritten with garbage; an
answer service slower than ``slack.answer_timeout_s``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from core.answer.extractive import ExtractiveAnswerer
from core.answering import PolicyAnswerService
from core.embedder import FakeEmbedder
from core.llm.base import Generation, GenerationRequest
from core.retrieval import HybridRetriever, RetrievalResult
from tests.retrieval_helpers import ANSWER, RETRIEVAL, add_document, new_store
from tests.slack_standin import Fault, event_body
from tests.slack_standin.fake_service import FakeAnswerService
from tests.slack_standin.harness import BotEnv, open_env

PARENT = "1718000000.000100"
ERROR_ID = re.compile(r"error id `([0-9a-f]{8})`")


class UnreadableIndex(HybridRetriever):
    """A retriever whose index cannot be read (the disk under the store went away)."""

    def retrieve(self, question: str, scope: Sequence[str] = ("**",),
                 top_k: int | None = None) -> RetrievalResult:
        raise OSError(5, "Input/output error", "chunks.lance")


class BuggyProvider:
    """An answer provider with a bug (not a ProviderError: nothing in the chain expects it)."""

    name = "buggy"

    def generate(self, request: GenerationRequest) -> Generation:
        raise RuntimeError("unexpected None in prompt packing")

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        raise RuntimeError("unexpected None in prompt packing")
        yield ""


def policy_service(tmp_path: Path, *, broken_index: bool = False) -> PolicyAnswerService:
    store, emb = new_store(tmp_path / "index"), FakeEmbedder()
    add_document(store, emb, "hr/leave.md", ["Parental leave is 16 weeks at full pay."], page=None)
    if broken_index:
        return PolicyAnswerService(UnreadableIndex(store, emb, RETRIEVAL), ExtractiveAnswerer(ANSWER, emb))
    return PolicyAnswerService(HybridRetriever(store, emb, RETRIEVAL), BuggyProvider())  # type: ignore[arg-type]


def one_error_reply(env: BotEnv, caplog: pytest.LogCaptureFixture, thread: str = PARENT) -> str:
    """Assert exactly one bot message in ``thread``, carrying an error id that is in the log, and
    the thread status cleared; returns the reply text."""
    msgs = [m for m in env.slack.bot_messages("C0FAKEPOL1") if m.get("thread_ts") == thread]
    assert len(msgs) == 1, msgs
    text = str(msgs[0].get("text", "")) + str(msgs[0].get("blocks", ""))
    match = ERROR_ID.search(text)
    assert match is not None, text
    assert match.group(1) in caplog.text
    statuses = [s["status"] for s in env.slack.state.statuses if s["thread_ts"] == thread]
    assert not statuses or statuses[-1] == ""
    return text


def test_retrieval_raising_oserror(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with open_env(tmp_path, policy_service(tmp_path, broken_index=True)) as env:
        env.send(event_body("app_mention"))
        env.settle()
        assert "data store could not be read" in one_error_reply(env, caplog)
        assert env.answer_log.thread("C0FAKEPOL1", PARENT) == []


def test_provider_raising_runtime_error_while_streaming(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    with open_env(tmp_path, policy_service(tmp_path), stream=True) as env:
        env.send(event_body("app_mention"))
        env.settle()
        text = one_error_reply(env, caplog)  # the failure closes the stream that showed the progress
        assert "internal error" in text and "unexpected None" not in text
        (stop,) = env.slack.calls_to("chat.stopStream")
        assert stop.args["chunks"][0]["status"] == "error"


def test_post_message_answering_500_twice_then_200(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with open_env(tmp_path) as env:
        env.slack.fail("chat.postMessage", Fault(error="internal_error", status=500, times=2))
        env.send(event_body("app_mention"))
        env.settle()
        assert "Slack refused my reply" in one_error_reply(env, caplog)
        assert [c.status for c in env.slack.calls_to("chat.postMessage", ok_only=False)] == [500, 500, 200]


def test_answer_log_unreadable_for_a_follow_up(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with open_env(tmp_path) as env:
        env.send(event_body("app_mention", text="<@U0FAKEBOT1> What is the grace period for Plan A?"))
        env.settle()
        for root, _, files in os.walk(tmp_path / "data" / "lancedb" / "answers.lance" / "data"):
            for name in files:
                Path(root, name).write_bytes(b"not a lance file")
        env.send(event_body("message_channel_thread_reply", text="And for Plan B?"))
        env.settle()
        msgs = [m for m in env.slack.bot_messages("C0FAKEPOL1") if m.get("thread_ts") == PARENT]
        assert len(msgs) == 2 and "thirty days" in str(msgs[0]["blocks"])
        assert ERROR_ID.search(str(msgs[1]["blocks"])) and "data store could not be read" in str(msgs[1])
        assert ERROR_ID.search(str(msgs[1]["blocks"])).group(1) in caplog.text  # type: ignore[union-attr]
        assert len(env.service.calls) == 1
        assert [s["status"] for s in env.slack.state.statuses][-1] == ""


def test_answer_slower_than_answer_timeout(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with open_env(tmp_path, FakeAnswerService(delay_s=2.0), answer_timeout_s=0.5) as env:
        env.send(event_body("app_mention"))
        env.settle()  # waits for the slow answer too: it must not be posted late
        assert "giving up" in one_error_reply(env, caplog)
        assert len(env.service.calls) == 1 and env.answer_log.thread("C0FAKEPOL1", PARENT) == []
