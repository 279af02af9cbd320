"""Hostile input found by trying to break policybot: a warm-``ask`` socket that answers nonsense, a
100 kB question, config values that are infinite or of the wrong shape, an include list that matches
nothing, an unreadable subfolder, file names in two Unicode forms, ``inspect`` of a decomposed name or
a folder.

Fake embedder and real LanceDB in ``tmp_path``; the CLI through typer's CliRunner.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from policybot.cli import cli
from policybot.local_api import SOCKET_FILE, ask_running
from tests.incremental_helpers import build, write_policy


def _cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args))
    return r.exit_code, r.stdout, r.stderr


def _config(tmp_path: Path, root: Path, extra: str = "") -> Path:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"embedding:\n  provider: fake\nrerank:\n  enabled: false\npolicies:\n  root: {root}\n"
                   f"data_dir: {tmp_path / 'data'}\n{extra}")
    return cfg


# ---- warm ask: a socket that does not answer the protocol -----------------------------------------
@pytest.fixture
def bad_socket(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    """A Unix socket at the data dir's warm-ask address that reads the request and replies
    ``request.param`` (bytes) then closes, as a process stopped mid-answer or a stranger would."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(tmp_path / SOCKET_FILE))
    server.listen(4)

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                conn.sendall(request.param)

    threading.Thread(target=serve, daemon=True).start()
    yield tmp_path
    server.close()


@pytest.mark.parametrize("bad_socket", [b"", b"<html>busy</html>\n", b'{"ok": true}\n', b"[1, 2]\n"],
                         indirect=True, ids=["closed", "not-json", "no-answer", "not-an-object"])
def test_warm_ask_with_a_reply_outside_the_protocol_answers_here(bad_socket: Path) -> None:
    assert ask_running(bad_socket, "How many days of leave?", ("**",)) is None


# ---- a 100 kB question -------------------------------------------------------------------------------
def _within(seconds: float, fn: object, *args: object) -> object:
    """``fn(*args)``, failing when it has not returned within ``seconds`` (a liveness bound)."""
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(fn(*args)), daemon=True)  # type: ignore[operator]
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still running after {seconds} s"
    return result[0]


def test_a_200_kb_message_without_sentence_ends_is_measured_promptly() -> None:
    from core.notices import last_question

    text = "how many days of leave do employees get " * 5000  # 200 kB, no '.', '?' or line break
    assert _within(60, last_question, text, 1000) is None  # the old search took minutes (quadratic)


def test_the_last_question_of_a_long_message_is_found_after_a_long_run() -> None:
    from core.notices import last_question

    text = "context " * 20_000 + ". Earlier question here? Then more. How long is parental leave?"
    assert _within(60, last_question, text, 1000) == "How long is parental leave?"


# ---- config values of the wrong kind ------------------------------------------------------------------
@pytest.mark.parametrize(("yaml_text", "key"), [
    ("extraction:\n  timeout_s: .inf\n", "extraction.timeout_s"),
    ("slack:\n  answer_timeout_s: .inf\n", "slack.answer_timeout_s"),
    ("watch:\n  poll_interval_s: 1e400\n", "watch.poll_interval_s"),
    ("store:\n  read_consistency_s: .inf\n", "store.read_consistency_s"),
])
def test_an_infinite_number_is_a_config_error_naming_its_key(tmp_path: Path, yaml_text: str,
                                                             key: str) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(yaml_text)
    code, _, err = _cli("--config", str(cfg), "status")
    assert code == 2 and f"{key} must be a finite number" in err


@pytest.mark.parametrize("include", ["[]", "['']", "['*.md', '  ']"])
def test_an_include_list_that_matches_nothing_is_a_config_error(tmp_path: Path, include: str) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"policies:\n  include: {include}\n")
    code, _, err = _cli("--config", str(cfg), "status")
    assert code == 2 and "policies.include" in err and "remove every indexed document" in err


@pytest.mark.parametrize("value", ["[a, b]", "{x: 1}", "true"])
def test_a_data_dir_that_is_not_text_is_a_config_error(tmp_path: Path, value: str) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"data_dir: {value}\n")
    code, _, err = _cli("--config", str(cfg), "status")
    assert code == 2 and "data_dir" in err and "written as text" in err


# ---- an unreadable subfolder ----------------------------------------------------------------------------
def test_documents_in_a_folder_that_became_unreadable_stay_indexed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "policies"
    write_policy(root / "leave.md", range(3), "Leave")
    write_policy(root / "private" / "salary.md", range(5, 8), "Salary")
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    real_walk = os.walk

    def walk(top: Path, onerror: Callable[[OSError], None]) -> Iterator[tuple[str, list[str], list[str]]]:
        for dirpath, dirnames, filenames in real_walk(top):  # tests run as root: chmod cannot deny
            if Path(dirpath).name == "private":
                onerror(PermissionError(13, "Permission denied", dirpath))
                continue
            yield dirpath, dirnames, filenames

    monkeypatch.setattr("indexer.walk.os.walk", walk)
    write_policy(root / "new.md", range(20, 22), "New")  # something else changed: no environmental abort
    summary = indexer.reconcile()
    docs = store.documents()
    assert summary.removed == 0 and docs["private/salary.md"].status == "indexed"
    assert docs["private"].error == "cannot read the folder (Permission denied)"


# ---- names in two Unicode forms, inspect ------------------------------------------------------------------
def _nfd(name: str) -> str:
    return unicodedata.normalize("NFD", name)


def test_two_files_whose_names_differ_only_in_unicode_form_are_recorded_failed(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / "leave.md", range(3), "Leave")
    write_policy(root / unicodedata.normalize("NFC", "résumé.md"), range(5, 7), "One")
    write_policy(root / _nfd("résumé.md"), range(8, 10), "Other")
    indexer, store, _ = build(tmp_path, root)
    summary = indexer.reconcile()
    assert (summary.indexed, summary.failed) == (1, 1)
    assert "same name written with other Unicode characters" in store.documents()["résumé.md"].error


def test_inspect_finds_a_decomposed_file_name_by_the_name_status_shows(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / _nfd("café.md"), range(3), "Cafe")
    cfg = str(_config(tmp_path, root))
    code, out, err = _cli("--config", cfg, "inspect", unicodedata.normalize("NFC", "café.md"), "--json")
    assert code == 0, err
    assert json.loads(out)["file"] == "café.md"


def test_inspect_of_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / "hr" / "leave.md", range(3), "Leave")
    code, _, err = _cli("--config", str(_config(tmp_path, root)), "inspect", "hr")
    assert code == 2 and "hr: is a folder" in err


def test_inspect_page_zero_is_a_usage_error(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / "leave.md", range(3), "Leave")
    code, _, err = _cli("--config", str(_config(tmp_path, root)), "inspect", "leave.md", "--page", "0")
    assert code == 2 and "--page" in err


def test_an_unknown_tokenizer_is_a_one_line_error(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / "leave.md", range(3), "Leave")
    cfg = _config(tmp_path, root, "chunking:\n  tokenizer: no-such-encoding\n")
    code, _, err = _cli("--config", str(cfg), "index")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "chunking.tokenizer" in err


# ---- a damaged index pointer ------------------------------------------------------------------------------
def test_an_index_pointer_with_values_of_the_wrong_type_is_read_with_defaults(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    write_policy(root / "leave.md", range(3), "Leave")
    cfg = str(_config(tmp_path, root))
    assert _cli("--config", cfg, "index")[0] == 0
    pointer = tmp_path / "data" / "blobs" / "state" / "index.json"
    state = json.loads(pointer.read_text())
    pointer.write_text(json.dumps({**state, "generation": "0", "root": 5, "reconciled_at": "yesterday"}))
    assert _cli("--config", cfg, "index")[0] == 0
    code, out, err = _cli("--config", cfg, "status", "--json")
    assert code == 0, err
    assert json.loads(out)["documents"]["indexed"] == 1


# ---- a huge single-line Markdown file ---------------------------------------------------------------------
def test_a_long_line_of_unclosed_brackets_is_read_promptly() -> None:
    from indexer.extract.markdown import plain_inline

    line = "[see clause " * 80_000  # 960 kB, no "]"
    assert _within(60, plain_inline, line) == line  # the link pattern rescanned from each '[' (quadratic)


def test_a_link_after_an_unclosed_bracket_is_still_a_link() -> None:
    from indexer.extract.markdown import plain_inline

    assert plain_inline("[draft [the form](https://x.example/f)") == "[draft the form (https://x.example/f)"
