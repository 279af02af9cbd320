"""Bad input never crashes policybot: odd file names, concurrent writers, transient extraction
failures, config drift, broken data dirs, unreadable files and empty arguments.

Fake embedder configs in tmp_path (the model is not the subject); the store is real LanceDB; the CLI
runs through typer's CliRunner, the concurrent-writer check through real subprocesses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.store import Store
from indexer.names import BAD_NAME_REASON
from indexer.pipeline import Indexer
from indexer.worker import ExtractionWorker, should_retry
from policybot.cli import cli
from tests import bad_worker_target, incremental_targets
from tests.incremental_helpers import Factory, build, make_settings, write_policy

REPO = Path(__file__).resolve().parents[1]
BAD_NAME = b"bad\xff\xfename.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "policies"
    write_policy(r / "leave.md", range(3), "Leave")
    return r


def _config(tmp_path: Path, root: Path, extra: str = "") -> Path:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"embedding:\n  provider: fake\nrerank:\n  enabled: false\npolicies:\n  root: {root}\n"
                   f"data_dir: {tmp_path / 'data'}\n{extra}")
    return cfg


def _cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args))
    return r.exit_code, r.stdout, r.stderr


def _write_bad_name(root: Path) -> bytes:
    path = os.path.join(os.fsencode(root), BAD_NAME)
    with open(path, "wb") as fh:
        fh.write(b"# Bad\n\nSome text about leave.\n")
    return path


# ---- 1. file names that are not UTF-8 ---------------------------------------------------------
def test_non_utf8_file_name_is_recorded_failed_and_others_index(tmp_path: Path, root: Path) -> None:
    _write_bad_name(root)
    indexer, store, _ = build(tmp_path, root)
    summary = indexer.reconcile()
    assert (summary.indexed, summary.failed) == (1, 1)
    row = store.documents()["bad\\xff\\xfename.md"]
    assert row.status == "failed" and row.error == BAD_NAME_REASON


def test_non_utf8_file_name_is_stable_across_reconciles(tmp_path: Path, root: Path) -> None:
    _write_bad_name(root)
    indexer, _, _ = build(tmp_path, root)
    indexer.reconcile()
    again = indexer.reconcile()
    assert (again.failed, again.removed, again.indexed, again.unchanged) == (1, 0, 0, 1)


def test_watcher_event_for_non_utf8_name_fails_once_without_raising(tmp_path: Path, root: Path) -> None:
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    path = Path(os.fsdecode(_write_bad_name(root)))
    assert indexer.index_path(path) == "failed"
    assert store.documents()["bad\\xff\\xfename.md"].error == BAD_NAME_REASON


# ---- 2. concurrent writers ----------------------------------------------------------------------
def test_second_concurrent_index_process_is_refused(tmp_path: Path, root: Path) -> None:
    cfg = _config(tmp_path, root)
    holder = subprocess.Popen(  # a real indexer process holding the data dir's writer lock
        [sys.executable, "-c", "import sys; from indexer.lock import WriterLock; "
         f"lock = WriterLock(__import__('pathlib').Path({str(tmp_path / 'data')!r})).acquire(); "
         "print('locked', flush=True); sys.stdin.read()"],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        second = subprocess.run([sys.executable, "-c", "from policybot.cli import main; main()",
                                 "--config", str(cfg), "index"],
                                cwd=REPO, capture_output=True, text=True, timeout=120)
    finally:
        holder.communicate("", timeout=30)
    assert second.returncode == 2
    assert "another policybot indexer" in second.stderr and "already writing" in second.stderr
    assert "Traceback" not in second.stderr


def test_reconcile_removes_duplicate_chunk_ids(tmp_path: Path, root: Path) -> None:
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    rows = store.chunk_rows()
    table = store._chunks()
    assert table is not None
    table.add(rows[:3])  # what two racing writers left behind
    assert store.duplicate_chunk_ids() == 3
    summary = indexer.reconcile()
    assert store.duplicate_chunk_ids() == 0 and summary.repaired >= 1
    assert store.count_chunks() == len(rows)


# ---- 3. transient failures ----------------------------------------------------------------------
def test_time_limit_failure_is_retried_after_raising_the_limit(tmp_path: Path, root: Path) -> None:
    write_policy(root / "a_hang.md", range(2))
    settings = make_settings(tmp_path, root, extraction={"timeout_s": 1})
    with ExtractionWorker(incremental_targets.hang_on_marker, settings) as worker:
        first = Indexer(settings, Store(settings.data_dir), Factory(), extract=worker.extract).reconcile()
    assert first.failed == 1
    indexer, store, _ = build(tmp_path, root, extraction={"timeout_s": 60})  # in-process extraction
    again = indexer.reconcile()
    assert (again.indexed, again.failed) == (1, 0) and store.documents()["a_hang.md"].status == "indexed"


def test_transient_reasons_retry_only_when_the_limit_changed(tmp_path: Path, root: Path) -> None:
    ext = make_settings(tmp_path, root, extraction={"timeout_s": 5, "memory_mb": 512}).extraction
    assert should_retry("extraction took longer than 1 s and was stopped (extraction.timeout_s)", ext)
    assert not should_retry("extraction took longer than 5 s and was stopped (extraction.timeout_s)", ext)
    assert should_retry("extraction exceeded the memory limit (256 MB)", ext)
    assert should_retry("the extraction worker process did not start: exit code 1", ext)
    assert not should_retry("the PDF is password-protected; remove the password", ext)


def test_worker_that_dies_at_start_up_names_the_cause(tmp_path: Path, root: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    settings = make_settings(tmp_path, root)
    monkeypatch.setenv("POLICYBOT_TEST_BREAK_WORKER", "1")
    with ExtractionWorker(bad_worker_target.extract, settings) as worker, \
            pytest.raises(Exception, match="did not start: it exited at start-up with exit code 1"):
        worker.extract(root / "leave.md", root)


# ---- 4. index built under another embedding model ----------------------------------------------
def test_ask_with_another_embedding_model_is_a_user_error(tmp_path: Path, root: Path) -> None:
    cfg = _config(tmp_path, root)
    assert _cli("--config", str(cfg), "index", "--json")[0] == 0
    other = _config(tmp_path, root, "")
    other.write_text(other.read_text().replace("provider: fake", "provider: fake\n  model: other-fake"))
    code, _, err = _cli("--config", str(other), "ask", "How many days of leave?")
    assert code == 2 and "another embedding model" in err and "run policybot index" in err


# ---- 5. one-line errors instead of tracebacks -----------------------------------------------------
def test_data_dir_that_is_a_file_is_one_line_error(tmp_path: Path, root: Path) -> None:
    (tmp_path / "afile").write_text("x")
    code, _, err = _cli("--config", str(_config(tmp_path, root)), "--data-dir", str(tmp_path / "afile"),
                        "index")
    assert code == 2 and str(tmp_path / "afile") in err and "Traceback" not in err


def test_unwritable_data_dir_is_one_line_error(tmp_path: Path, root: Path) -> None:
    code, _, err = _cli("--config", str(_config(tmp_path, root)), "--data-dir", "/sys/policybot-test",
                        "index")
    assert code == 2 and "permission denied" in err and "/sys/policybot-test" in err


def test_damaged_index_files_are_reported_as_unreadable_index(tmp_path: Path, root: Path) -> None:
    cfg = _config(tmp_path, root)
    _cli("--config", str(cfg), "index")
    for f in (tmp_path / "data" / "lancedb" / "documents.lance" / "data").iterdir():
        f.write_bytes(f.read_bytes()[:20])
    code, _, err = _cli("--config", str(cfg), "status")
    assert code == 2 and "is unreadable" in err and "move it aside and run policybot index" in err


def test_non_utf8_config_is_a_config_error(tmp_path: Path) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_bytes(b"data_dir: caf\xe9\n")
    code, _, err = _cli("--config", str(cfg), "status")
    assert code == 2 and "not valid UTF-8" in err and str(cfg) in err


def test_non_utf8_eval_file_is_one_line_error(tmp_path: Path, root: Path) -> None:
    cfg = _config(tmp_path, root)
    _cli("--config", str(cfg), "index")
    qa = tmp_path / "qa.yaml"
    qa.write_bytes(b"items:\n  - id: caf\xe9\n")
    code, _, err = _cli("--config", str(cfg), "eval", str(qa))
    assert code == 2 and "not valid UTF-8" in err and "Traceback" not in err


# ---- 6. unreadable files, broken symlinks, loops -------------------------------------------------
def test_unreadable_file_gets_a_failed_row(tmp_path: Path, root: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    write_policy(root / "secret.md", range(3))

    from indexer.jobs import sha256_file

    def denied(path: Path) -> str:  # tests run as root, where chmod 000 does not deny reading
        if path.name != "secret.md":  # every file unreadable would abort the reconcile (indexer.safety)
            return sha256_file(path)
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr("indexer.jobs.sha256_file", denied)
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    assert store.documents()["secret.md"].error == "cannot read the file (Permission denied)"


def test_broken_symlink_is_recorded_failed(tmp_path: Path, root: Path) -> None:
    (root / "gone.md").symlink_to(tmp_path / "nowhere.md")
    indexer, store, _ = build(tmp_path, root)
    summary = indexer.reconcile()
    assert summary.failed == 1 and store.documents()["gone.md"].error == "broken symbolic link"


def test_symlink_loop_is_recorded_failed(tmp_path: Path, root: Path) -> None:
    (root / "loop.md").symlink_to(root / "loop2.md")
    (root / "loop2.md").symlink_to(root / "loop.md")
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    assert {store.documents()[p].error for p in ("loop.md", "loop2.md")} == {"symbolic link loop"}


# ---- 7. empty paths, files for folders, the root indexed ---------------------------------------
def test_index_empty_path_is_an_error(tmp_path: Path, root: Path) -> None:
    code, _, err = _cli("--config", str(_config(tmp_path, root)), "index", "")
    assert code == 2 and "empty path" in err and not (tmp_path / "data").exists()


def test_empty_data_dir_option_is_an_error(tmp_path: Path, root: Path) -> None:
    code, _, err = _cli("--config", str(_config(tmp_path, root)), "--data-dir", "", "status")
    assert code == 2 and "empty path" in err


def test_index_of_a_file_says_it_is_a_file(tmp_path: Path, root: Path) -> None:
    code, _, err = _cli("--config", str(_config(tmp_path, root)), "index", str(root / "leave.md"))
    assert code == 2 and "is a file, not a folder" in err


def test_store_state_records_the_root_indexed(tmp_path: Path, root: Path) -> None:
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    assert store.state().root == str(root.resolve())


# ---- 8. no index yet, empty questions ----------------------------------------------------------
def test_ask_without_index_is_an_error_and_creates_nothing(tmp_path: Path, root: Path) -> None:
    code, _, err = _cli("--config", str(_config(tmp_path, root)), "ask", "How many days of leave?")
    assert code == 2 and "no index in" in err and "run policybot index first" in err
    assert not (tmp_path / "data").exists()


def test_status_of_missing_data_dir_reports_no_index_and_creates_nothing(tmp_path: Path, root: Path) -> None:
    code, out, _ = _cli("--config", str(_config(tmp_path, root)), "status", "--json")
    assert code == 0 and json.loads(out)["index"] is None and not (tmp_path / "data").exists()


@pytest.mark.parametrize("args", [("cache", "stats"), ("cache", "stats", "--json"), ("cache", "forget", "c1"),
                                  ("status",), ("inspect", "leave.md"), ("gaps",), ("health",)])
def test_read_only_command_on_an_empty_data_dir_creates_nothing_there(tmp_path: Path, root: Path,
                                                                     args: tuple[str, ...]) -> None:
    (tmp_path / "data").mkdir()
    _cli("--config", str(_config(tmp_path, root)), *args)
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == []


def test_status_names_a_failed_text_file_once(tmp_path: Path, root: Path) -> None:
    """The status line names the file; its reason does not repeat the name."""
    (root / "notes.txt").write_bytes(b"Leave \x80\x00 rules")  # not UTF-8, a NUL: binary
    cfg = str(_config(tmp_path, root))
    assert _cli("--config", cfg, "index")[0] == 0
    code, out, _ = _cli("--config", cfg, "status")
    assert code == 0 and "binary data (NUL bytes)" in out and out.count("notes.txt") == 1, out


@pytest.mark.parametrize("question", ["", "   "])
def test_empty_question_is_an_error(tmp_path: Path, root: Path, question: str) -> None:
    code, _, err = _cli("--config", str(_config(tmp_path, root)), "ask", question)
    assert code == 2 and "the question is empty" in err


# ---- 9. odd files and odd config values ----------------------------------------------------------
def test_zip_that_is_not_a_word_document_gets_a_clear_reason(tmp_path: Path) -> None:
    import zipfile

    from core.config import ExtractionSettings
    from core.errors import ExtractionError
    from indexer.extract.docx import extract_docx

    fake = tmp_path / "fakezip.docx"
    with zipfile.ZipFile(fake, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(ExtractionError, match=r"^not a valid Word document \(KeyError"):
        extract_docx(fake, "fakezip.docx", ExtractionSettings())


def test_truncated_pdf_prints_nothing_to_stderr(tmp_path: Path) -> None:
    pdf = REPO.parent / "shared" / "corpus" / "policy.pdf"
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(pdf.read_bytes()[:-2000])  # no %%EOF marker: pypdf repairs it and logs a warning
    code = ("from pathlib import Path; from core.config import Settings; from indexer.extract import "
            "extract_file; s = Settings.model_validate({'extraction': {'ocr': 'never'}})\n"
            f"try: extract_file(Path({str(cut)!r}), Path({str(tmp_path)!r}), s)\nexcept Exception: pass")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "EOF marker" not in out.stderr


@pytest.mark.parametrize(("yaml_text", "key"), [
    ("embedding:\n  device: toaster\n", "embedding.device"),
    ("retrieval:\n  glossary:\n    '': leave\n", "retrieval.glossary"),
])
def test_bad_config_values_name_their_key(tmp_path: Path, yaml_text: str, key: str) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(yaml_text)
    code, _, err = _cli("--config", str(cfg), "status")
    assert code == 2 and key in err


def test_single_include_pattern_string_is_accepted(tmp_path: Path) -> None:
    from core.config import Settings

    assert Settings.model_validate({"policies": {"include": "*.md"}}).policies.include == ("*.md",)


def test_empty_config_section_means_defaults(tmp_path: Path) -> None:
    from core.config import PoliciesSettings, load_config

    cfg = tmp_path / "config.yaml"
    cfg.write_text("policies:\nembedding:\n  provider: fake\n")
    assert load_config(cfg).policies.include == PoliciesSettings().include


# ---- 10. one huge line --------------------------------------------------------------------------
def test_splitting_a_huge_line_counts_each_word_a_bounded_number_of_times() -> None:
    from core.config import ChunkingSettings
    from core.embedder import FakeEmbedder
    from indexer.chunker import Chunker

    counted: list[int] = []
    emb = FakeEmbedder()

    def model_count(text: str) -> int:
        counted.append(len(text))
        return emb.count_tokens(text)

    text = " ".join(f"word{i % 997}x" for i in range(20_000))
    parts = Chunker(ChunkingSettings(), model_count, emb.max_tokens).split_long(text)
    assert " ".join(parts).split() == text.split()
    assert sum(counted) < 4 * len(text)  # linear: the old split re-counted the growing part per word


# ---- 11. symlinked files ------------------------------------------------------------------------
def test_symlink_to_a_file_inside_the_root_is_not_indexed_twice(tmp_path: Path, root: Path) -> None:
    (root / "copy.md").symlink_to(root / "leave.md")
    indexer, store, _ = build(tmp_path, root)
    summary = indexer.reconcile()
    assert summary.failed == 0 and set(store.documents()) == {"leave.md"}


def test_symlink_to_a_file_outside_the_root_is_indexed_under_its_name(tmp_path: Path, root: Path) -> None:
    outside = write_policy(tmp_path / "elsewhere" / "travel.md", range(10, 12), "Travel")
    (root / "travel.md").symlink_to(outside)
    indexer, store, _ = build(tmp_path, root)
    indexer.reconcile()
    assert set(store.documents()) == {"leave.md", "travel.md"}


def test_unreadable_subfolder_is_recorded_failed(tmp_path: Path, root: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (root / "private").mkdir()
    real_walk = os.walk

    def walk(top: Path, onerror: object = None) -> object:  # tests run as root: chmod cannot deny
        assert callable(onerror)
        onerror(PermissionError(13, "Permission denied", str(root / "private")))
        return real_walk(top)

    monkeypatch.setattr("indexer.walk.os.walk", walk)
    indexer, store, _ = build(tmp_path, root)
    summary = indexer.reconcile()
    assert summary.failed == 1
    assert store.documents()["private"].error == "cannot read the folder (Permission denied)"


# ---- 10. PDFs with odd content (PDFium text path) -----------------------------------------------
_CYRILLIC = ("Сотрудники должны подать форму в течение десяти дней после поездки и приложить все чеки "
             "расходы на проживание возмещаются только с согласия руководителя отдела кадров компании")
_HEBREW = ("על העובדים להגיש את הטופס תוך עשרה ימים מהנסיעה ולצרף את כל הקבלות הוצאות הלינה מוחזרות "
           "רק באישור מנהל משאבי אנוש של החברה בכתב מראש ובהתאם לנוהל")


@pytest.mark.parametrize("text", [_CYRILLIC, _HEBREW])
def test_text_in_a_non_latin_script_is_not_taken_for_garbage(text: str) -> None:
    from indexer.extract.quality import MIN_WORDS, assess_text

    assert len(text.split()) >= MIN_WORDS  # enough words for the shifted-letters test to judge
    assert assess_text(text, has_image=False).usable


def test_pdf_without_pages_fails_with_what_to_do(tmp_path: Path, root: Path) -> None:
    import pypdf

    pypdf.PdfWriter().write(root / "empty.pdf")  # a valid PDF whose page tree is empty
    indexer, store, _ = build(tmp_path, root)
    summary = indexer.reconcile()
    assert (summary.indexed, summary.failed) == (1, 1)
    assert store.documents()["empty.pdf"].error == ("no extractable text (the PDF has no pages); "
                                                    "export it again from the original document")


def test_status_prints_file_names_that_look_like_rich_markup(tmp_path: Path, root: Path) -> None:
    (root / "[").mkdir()
    (root / "[" / "b].pdf").write_bytes(b"\x89PNG\r\n\x1a\n")  # rel path "[/b].pdf": a closing tag
    cfg = str(_config(tmp_path, root))
    assert _cli("--config", cfg, "index")[0] == 0
    code, out, _ = _cli("--config", cfg, "status")
    assert code == 0 and "[/b].pdf" in out


def test_answer_text_that_looks_like_rich_markup_is_printed_as_is() -> None:
    import io

    from rich.console import Console

    from core.types import Answer, Citation
    from policybot import render

    buf = io.StringIO()
    ans = Answer("Clause [/b] says [red]refunds[/red] apply.", [Citation("[/i].pdf", 1, "[/s]", 0.9)],
                 "extractive")
    render.answer(Console(file=buf, width=200), ans)
    assert "Clause [/b] says [red]refunds[/red] apply." in buf.getvalue() and "[/i].pdf" in buf.getvalue()


def test_progress_bar_shows_a_file_name_that_looks_like_rich_markup() -> None:
    import io

    from rich.console import Console

    from policybot.progress import RichProgress

    buf = io.StringIO()
    with RichProgress(console=Console(file=buf, force_terminal=True, width=120)) as progress:
        progress("[/b].pdf", 1, 2)  # rendered on stop(): a MarkupError before the fix
    assert "[/b].pdf" in buf.getvalue()
