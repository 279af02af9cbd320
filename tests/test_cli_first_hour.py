"""What a new user trips over in their first hour, from the README alone: each is one clear line or a
working command, never a traceback, an empty result or a message printed twice.

Fake embedder configs in tmp_path (the model is not the subject), real LanceDB; the CLI runs through
typer's CliRunner, or a child process where the log output is the subject.
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path

import pytest
from fpdf import FPDF
from typer.testing import CliRunner

from indexer.walk import not_regular_reason
from policybot.cli import cli
from tests.cli_helpers import LEAVE, policy_folder, run_cli, write_config
from tests.incremental_helpers import build


def _cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    return write_config(tmp_path, policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE}))


def _pdf(path: Path, pages: int) -> Path:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for n in range(pages):
        pdf.add_page()
        pdf.multi_cell(0, 8, f"Page {n + 1}. Employees get {20 + n} days of annual leave.")
    pdf.output(str(path))
    return path


# ---- config ------------------------------------------------------------------------------------------
def test_an_embedding_model_that_is_no_hub_id_is_one_error_line(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    named = {"provider": "sentence-transformers", "model": "foo/bar baz"}
    bad = write_config(tmp_path, root, embedding=named)
    code, _, err = _cli("--config", str(bad), "index")
    assert code == 2 and err.startswith("error: embedding.model: 'foo/bar baz'")
    assert "Hugging Face model id" in err and err.count("\n") == 1


# ---- index -------------------------------------------------------------------------------------------
def test_a_missing_configured_folder_names_the_key_and_the_config_file(tmp_path: Path) -> None:
    cfg = write_config(tmp_path, tmp_path / "no-such-folder")
    code, _, err = _cli("--config", str(cfg), "index")
    assert code == 2 and f"no such folder (policies.root in {cfg})" in " ".join(err.split())


def test_run_on_a_missing_folder_creates_no_data_dir(tmp_path: Path) -> None:
    cfg = write_config(tmp_path, tmp_path / "no-such-folder")
    code, _, _ = _cli("--config", str(cfg), "run")
    assert code == 2 and not (tmp_path / "data").exists()


def test_index_names_each_failed_file_once(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE, "blank.md": ""})
    out = run_cli("--config", str(write_config(tmp_path, root)), "index")
    assert out.returncode == 0 and (out.stdout + out.stderr).count("blank.md") == 1


def test_a_failure_nobody_prints_is_logged_once_at_warning(tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE, "blank.md": ""})
    indexer, _, _ = build(tmp_path, root)
    with caplog.at_level(logging.WARNING, logger="indexer"):
        indexer.reconcile(root)
    assert [r.getMessage() for r in caplog.records if "blank.md" in r.getMessage()] == [
        "failed blank.md: empty file (0 bytes); it may still be uploading or was saved empty"]


def test_a_named_pipe_is_recorded_failed_and_the_rest_indexes(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    os.mkfifo(root / "pipe.md")
    cfg = write_config(tmp_path, root)
    code, out, _ = _cli("--config", str(cfg), "index", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["indexed"] == 1
    assert [(f["file"], f["reason"].split(";")[0]) for f in summary["failures"]] == [
        ("pipe.md", "not a regular file (a named pipe)")]


@pytest.mark.timeout(60)
def test_a_watcher_event_for_a_named_pipe_records_it_without_reading_it(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile(root)
    os.mkfifo(root / "pipe.md")
    assert indexer.index_path(root / "pipe.md") == "failed"
    assert store.documents()["pipe.md"].error.startswith("not a regular file")


@pytest.mark.timeout(60)
def test_inspect_of_a_named_pipe_says_what_it_is(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    os.mkfifo(root / "pipe.md")
    code, _, err = _cli("--config", str(write_config(tmp_path, root)), "inspect", "pipe.md")
    assert code == 2 and "pipe.md: not a regular file (a named pipe)" in err


def test_a_character_device_is_not_a_regular_file() -> None:
    assert "a character device" in not_regular_reason(Path("/dev/null"))


# ---- inspect -----------------------------------------------------------------------------------------
def test_inspect_page_of_a_markdown_file_says_pages_are_for_pdfs(cfg: Path) -> None:
    assert _cli("--config", str(cfg), "index")[0] == 0
    code, out, err = _cli("--config", str(cfg), "inspect", "hr/leave.md", "--page", "2")
    assert code == 2 and out == "" and "--page applies only to PDFs" in err


def test_inspect_page_past_the_end_names_the_page_count(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    _pdf(root / "leave.pdf", 3)
    cfg = write_config(tmp_path, root)
    code, _, err = _cli("--config", str(cfg), "inspect", "leave.pdf", "--page", "7")
    assert code == 2 and "page 7 is past the end; the file has 3 pages" in err


def test_inspect_page_inside_a_pdf_keeps_that_page(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    _pdf(root / "leave.pdf", 3)
    code, out, _ = _cli("--config", str(write_config(tmp_path, root)), "inspect", "leave.pdf", "--page", "2",
                        "--json")
    assert code == 0 and {b["page"] for b in json.loads(out)["blocks"]} == {2}


# ---- status ------------------------------------------------------------------------------------------
def test_status_json_says_when_the_indexed_folder_is_gone(tmp_path: Path, cfg: Path) -> None:
    assert _cli("--config", str(cfg), "index")[0] == 0
    (tmp_path / "policies").rename(tmp_path / "moved")
    code, out, _ = _cli("--config", str(cfg), "status", "--json")
    assert code == 0 and json.loads(out)["root_exists"] is False


def test_status_json_says_the_indexed_folder_exists(cfg: Path) -> None:
    assert _cli("--config", str(cfg), "index")[0] == 0
    assert json.loads(_cli("--config", str(cfg), "status", "--json")[1])["root_exists"] is True


def test_status_says_in_words_that_the_indexed_folder_is_gone(tmp_path: Path, cfg: Path) -> None:
    assert _cli("--config", str(cfg), "index")[0] == 0
    (tmp_path / "policies").rename(tmp_path / "moved")
    out = " ".join(_cli("--config", str(cfg), "status")[1].split())
    assert f"policy folder missing: {tmp_path / 'policies'} is not a folder" in out


def test_status_after_an_index_does_not_say_zero_runs(cfg: Path) -> None:
    """``policybot index`` is a reconcile too: no "(0 runs)" beside the time it just recorded (the run
    count is the watcher's and shows only when it ran)."""
    assert _cli("--config", str(cfg), "index")[0] == 0
    line = next(x for x in _cli("--config", str(cfg), "status")[1].splitlines() if "last reconcile" in x)
    assert "0 runs" not in line and "not yet" not in line


def test_status_without_an_index_says_the_configured_folder_is_missing(tmp_path: Path) -> None:
    cfg = write_config(tmp_path, tmp_path / "no-such-folder")
    code, out, _ = _cli("--config", str(cfg), "status", "--json")
    assert code == 0 and json.loads(out)["root_exists"] is False


# ---- version, -h, ask --------------------------------------------------------------------------------
def test_version_prints_the_version(tmp_path: Path) -> None:
    code, out, _ = _cli("--version")
    assert code == 0 and re.fullmatch(r"policybot \S+\n", out)


def test_version_after_a_command_prints_the_version() -> None:
    code, out, _ = _cli("status", "--version")
    assert code == 0 and out.startswith("policybot ")


@pytest.mark.parametrize("args", [["-h"], ["ask", "-h"], ["cache", "stats", "-h"]])
def test_h_is_help(args: list[str]) -> None:
    code, out, _ = _cli(*args)
    usage = out.splitlines()[0] if out else ""
    assert code == 0 and usage.startswith("Usage:") and " ".join(args[:-1]) in usage and "-h, --help" in out


def test_ask_takes_the_words_of_a_question_without_quotes(cfg: Path) -> None:
    assert _cli("--config", str(cfg), "index")[0] == 0
    code, out, _ = _cli("--config", str(cfg), "ask", "--json", "how", "long", "is", "leave", "for", "mothers")
    assert code == 0 and "26 weeks" in json.loads(out)["answer"]


def test_data_dir_that_is_a_file_names_that_file(cfg: Path, tmp_path: Path) -> None:
    """``--data-dir`` pointing at a file: the error names that file, not a folder the store would
    create under it (``…/blobs``)."""
    in_the_way = tmp_path / "not-a-folder"
    in_the_way.write_text("hi", encoding="utf-8")
    code, _, err = _cli("--config", str(cfg), "--data-dir", str(in_the_way), "index")
    assert code == 2
    assert f"{in_the_way}: a file is in the way" in err.replace("\n", " ")
