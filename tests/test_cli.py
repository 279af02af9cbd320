"""The ``policybot`` CLI through typer's CliRunner: JSON shapes, error handling, console chat.

Config uses the fake embedder (the model is not the subject); the store is real LanceDB in tmp_path.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from core.answer.extractive import ExtractiveAnswerer
from core.answering import PolicyAnswerService
from core.embedder import FakeEmbedder
from core.retrieval import HybridRetriever
from policybot.cli import cli
from policybot.console import chat
from tests.retrieval_helpers import ANSWER, RETRIEVAL, add_document, new_store

REPO = Path(__file__).resolve().parents[1]
GRACE = "The Grace Period for payment of the premium shall be thirty days."


@pytest.fixture
def config(tmp_path: Path) -> Path:
    policies = tmp_path / "policies"
    policies.mkdir()
    (policies / "grace.md").write_text(f"# Premium\n\n## Grace period\n\n{GRACE}\n\n"
                                       "## Renewal\n\nThe policy is renewed every year on the due date.\n")
    cfg = tmp_path / "config.yaml"
    cfg.write_text("embedding:\n  provider: fake\nrerank:\n  enabled: false\n"
                   f"policies:\n  root: {policies}\ndata_dir: {tmp_path / 'data'}\n")
    return cfg


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout


def test_index_json_summary_shape(config: Path) -> None:
    code, out = _invoke("--config", str(config), "index", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["indexed"] == 1 and summary["failures"] == []
    assert set(summary) >= {"indexed", "unchanged", "failed", "removed", "pages", "chunks_embedded",
                            "seconds"}


def test_ask_json_has_the_contract_keys(config: Path) -> None:
    _invoke("--config", str(config), "index", "--json")
    code, out = _invoke("--config", str(config), "ask", "--json", "What is the grace period for premium?")
    data = json.loads(out)
    assert code == 0
    assert {"answer", "citations", "provider", "cached", "timings_ms"} <= set(data)
    assert "thirty days" in data["answer"] and data["provider"] == "extractive" and data["cached"] is False
    assert data["citations"][0]["file"] == "grace.md"
    assert set(data["citations"][0]) == {"file", "page", "section", "score"}
    assert {"embed", "retrieve", "rerank", "generate", "total"} <= set(data["timings_ms"])


def test_data_dir_option_overrides_config(config: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    _invoke("--config", str(config), "--data-dir", str(other), "index", "--json")
    code, out = _invoke("--config", str(config), "--data-dir", str(other), "status", "--json")
    assert code == 0 and json.loads(out)["data_dir"] == str(other.resolve())


def test_status_json_lists_documents(config: Path) -> None:
    _invoke("--config", str(config), "index", "--json")
    code, out = _invoke("--config", str(config), "status", "--json")
    data = json.loads(out)
    assert code == 0 and data["documents"]["indexed"] == 1 and data["chunks"] >= 1
    assert data["files"][0]["path"] == "grace.md" and data["documents"]["stale"] == 0


def test_bad_config_is_one_line_error_exit_2(tmp_path: Path) -> None:
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("retrieval:\n  fusion: magic\n")
    result = CliRunner().invoke(cli, ["--config", str(cfg), "status"])
    assert result.exit_code == 2 and "retrieval.fusion" in result.stderr
    assert "Traceback" not in result.output


def test_index_of_missing_folder_is_user_error(config: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--config", str(config), "index", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "no such folder" in result.stderr


def test_status_does_not_import_sentence_transformers(config: Path) -> None:
    code = ("import sys; from policybot.cli import cli; from typer.testing import CliRunner; "
            f"r = CliRunner().invoke(cli, ['--config', {str(config)!r}, 'status', '--json']); "
            "assert r.exit_code == 0, r.output; "
            "print('sentence_transformers' in sys.modules, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_console_chat_answers_with_sources_and_exits(tmp_path: Path) -> None:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "policy.pdf", [GRACE], page=2)
    service = PolicyAnswerService(HybridRetriever(store, emb, RETRIEVAL), ExtractiveAnswerer(ANSWER))
    console = Console(record=True, width=120)
    lines = iter(["What is the grace period for premium?", "exit"])
    asked = chat(service, console, read=lambda _prompt: next(lines))
    text = console.export_text()
    assert asked == 1 and "thirty days" in text and "policy.pdf" in text


def test_console_chat_stops_at_end_of_input(tmp_path: Path) -> None:
    service = PolicyAnswerService(HybridRetriever(new_store(tmp_path), FakeEmbedder(), RETRIEVAL),
                                  ExtractiveAnswerer(ANSWER))

    def eof(_prompt: str) -> str:
        raise EOFError

    assert chat(service, Console(record=True), read=eof) == 0


def test_run_without_slack_tokens_opens_console_chat(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SLACK_BOT_TOKEN", raising=False)
    monkeypatch.delenv("SLACK_APP_TOKEN", raising=False)
    result = CliRunner().invoke(cli, ["--config", str(config), "run"],
                                input="What is the grace period for premium?\nexit\n")
    out = " ".join(result.stdout.split())  # rich wraps long lines
    assert result.exit_code == 0, result.output
    assert "No Slack tokens" in out and "thirty days" in out and "grace.md" in out
