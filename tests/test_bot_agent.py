"""Agent messaging against the local Slack: the DM welcome with suggested prompts from the indexed
documents, the Home tab with its sections, and a mention answered as status → task updates →
streamed text → stopStream with sources and feedback buttons, in that order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.embedder import FakeEmbedder
from core.store import DocumentRecord, Store
from core.topics import suggested_questions
from tests.retrieval_helpers import make_chunk
from tests.slack_standin import event_body
from tests.slack_standin.fake_service import FakeAnswerService
from tests.slack_standin.harness import open_env
from tests.slack_standin.web_api import Call

PARENT = "1718000000.000100"
DOCS = {"hr/annual-leave_policy.md": ["Carry-over"] * 3 + ["Scope"],
        "hr/remote_work.pdf": ["2. Eligibility", "2. Eligibility"],
        "finance/travel-expenses.pdf": ["Meals"] * 5}


def policy_store(tmp_path: Path) -> Store:
    """An index with three documents (sections as given) in two folders."""
    store, emb = Store(tmp_path / "index"), FakeEmbedder()
    for path, sections in DOCS.items():
        chunks = [make_chunk(path, f"{path} text {i}", i, section=s) for i, s in enumerate(sections)]
        store.replace_chunks(path, chunks, emb.embed([c.text for c in chunks]))
        store.put_document(DocumentRecord(path, "sha", 1, 1, "fp", "indexed", chunk_count=len(chunks)))
    return store


def test_dm_opened_gets_a_welcome_with_prompts_from_documents_in_scope(tmp_path: Path) -> None:
    store = policy_store(tmp_path)
    with open_env(tmp_path, default_scope=("hr/**",),
                  topics=lambda scope: suggested_questions(store, scope)) as env:
        env.send(event_body("app_home_opened"))
        env.send(event_body("app_home_opened"))  # opened again: prompts again, no second welcome
        env.settle()
        first, second = env.slack.state.prompts
        assert first["channel_id"] == "D0FAKEDM01" and first["thread_ts"] is None  # agent apps: no thread_ts
        assert [p["title"] for p in first["prompts"]] == ["Carry-over", "Eligibility"]
        assert first["prompts"][0]["message"] == "What does Annual leave policy say about carry-over?"
        assert second["prompts"] == first["prompts"]
        (welcome,) = env.slack.bot_messages("D0FAKEDM01")
        assert "ask me anything" in welcome["text"].lower() and "carry-over?" in welcome["text"]
        assert "travel" not in str(env.slack.state.prompts).lower()  # outside the default scope


def test_home_tab_shows_suggestions_and_sections_for_that_user(tmp_path: Path) -> None:
    store = policy_store(tmp_path)

    def admin_section(user: str) -> list[dict[str, Any]]:
        if user != "U0FAKEADMIN":
            return []
        return [{"type": "section", "text": {"type": "mrkdwn", "text": "*Admin report* (later)"}}]

    with open_env(tmp_path, topics=lambda scope: suggested_questions(store, scope),
                  home_sections=[admin_section]) as env:
        env.send(event_body("app_home_opened", tab="home", channel=None))
        env.send(event_body("app_home_opened", tab="home", channel=None, user="U0FAKEADMIN"))
        env.settle()
        views = env.slack.state.home_views
        assert "Meals" in str(views["U0FAKEUSR1"]) or "meals" in str(views["U0FAKEUSR1"])
        assert "Admin report" not in str(views["U0FAKEUSR1"]) and "Admin report" in str(views["U0FAKEADMIN"])


def _stream_calls(calls: list[Call]) -> list[tuple[str, str]]:
    """(method, what) for the calls of one streamed answer, in order."""
    out = []
    for c in calls:
        if c.method == "assistant.threads.setStatus":
            out.append((c.method, c.args["status"]))
        elif c.method.startswith("chat.") and c.method.endswith("Stream"):
            chunks = c.args.get("chunks") or []
            tasks = ",".join(f"{k['id']}:{k['status']}" for k in chunks if k["type"] == "task_update")
            out.append((c.method, tasks or ("text" if c.args.get("markdown_text") else "")))
    return out


def test_mention_streams_status_tasks_text_then_sources_and_feedback(tmp_path: Path) -> None:
    with open_env(tmp_path, FakeAnswerService(stream_words=True, long_answer=700), stream=True) as env:
        env.send(event_body("app_mention"))
        env.settle()
        seq = _stream_calls(env.slack.calls)
        assert seq[:4] == [
            ("assistant.threads.setStatus", "Searching the policies…"),
            ("chat.startStream", "search:in_progress"),
            ("chat.appendStream", "search:complete,read:in_progress"),
            ("chat.appendStream", "read:complete,answer:in_progress")]
        assert {m for m, w in seq[4:-1]} == {"chat.appendStream"} and all(w == "text" for _, w in seq[4:-1])
        assert seq[-1] == ("chat.stopStream", "answer:complete")
        start = env.slack.calls_to("chat.startStream")[0].args
        assert start["chunks"][0]["title"] == "Searching 4 policies"
        assert (start["recipient_user_id"], start["recipient_team_id"]) == ("U0FAKEUSR1", "T0FAKETEAM")
        (msg,) = env.slack.bot_messages()
        (rec,) = env.answer_log.thread("C0FAKEPOL1", PARENT)
        assert msg["thread_ts"] == PARENT and msg["text"] == rec.answer
        kinds = [b["type"] for b in msg["blocks"]]
        assert "Sources" in str(msg["blocks"]) and kinds[-1] == "context_actions"
        assert env.slack.calls_to("chat.postMessage") == []


def test_without_streaming_the_steps_show_as_thread_status(tmp_path: Path) -> None:
    with open_env(tmp_path) as env:  # stream: false
        env.send(event_body("app_mention"))
        env.settle()
        statuses = [s["status"] for s in env.slack.state.statuses]
        assert statuses == ["Searching the policies…", "Searching 4 policies…", "Reading 2 passages…",
                            "Answering…", ""]  # cleared by the reply
        (post,) = env.slack.calls_to("chat.postMessage")
        assert post.args["blocks"][-1]["type"] == "context_actions"
