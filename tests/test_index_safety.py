"""A missing embedding model never empties the index (issue 16, item 1).

* CLI, bundled model: ``index`` and ``ask`` (in this process), then ``policybot index`` with
  ``embedding.model`` set to a path that does not exist → exit 2 naming the key and the path, chunk count
  (``policybot status``) and answers unchanged; ``run`` refuses with the same message.
* Indexer, fake embedder, real LanceDB: a rebuild whose files all fail is abandoned (the live generation
  stays), a reconcile whose files all fail for one machine-side reason is rolled back, a model that
  cannot load stops the reconcile instead of failing file by file, and a folder that really is empty
  empties the index only with ``allow_removals``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.config import Settings
from core.embedder import FakeEmbedder
from core.errors import ExtractionError, ModelLoadError, ReconcileAbortedError
from core.store import Store
from core.types import ExtractedDocument
from indexer.extract import extract_file
from indexer.pipeline import Indexer
from policybot.cli import cli
from tests.cli_helpers import LEAVE, REPO, policy_folder, run_cli, write_config

SAMPLES = REPO / "policies"
QUESTION = "How long is parental leave for mothers?"
WORKER_DOWN = "the extraction worker process did not start: it exited at start-up with exit code 1"


# ---- the CLI with the bundled model -------------------------------------------------------------------
def _in_process(*args: str) -> str:
    """``policybot args`` run in this process (typer's CliRunner): what it printed on stdout. For the
    steps that need the real model but are not the subject (indexing first, the answers before and
    after): a child process per step paid the torch + sentence-transformers import (~7 s on CI)."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_missing_model_path_exits_2_and_changes_nothing(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
    real = {"provider": "sentence-transformers", "model": "all-MiniLM-L6-v2"}
    cfg = write_config(tmp_path, root, embedding=real)
    _in_process("--config", str(cfg), "index")
    asked = json.loads(_in_process("--config", str(cfg), "ask", "--json", QUESTION))
    before = json.loads(run_cli("--config", str(cfg), "status", "--json").stdout)
    missing = tmp_path / "models" / "minilm-typo"
    bad = write_config(tmp_path, root, name="bad.yaml", embedding={**real, "model": str(missing)})

    out = run_cli("--config", str(bad), "index")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    message = " ".join(out.stderr.split())
    assert "embedding.model" in message and str(missing) in message

    after = json.loads(run_cli("--config", str(cfg), "status", "--json").stdout)
    keys = ("chunks", "files", "index")
    assert [after[k] for k in keys] == [before[k] for k in keys]
    again = json.loads(_in_process("--config", str(cfg), "ask", "--json", QUESTION))
    assert (again["answer"], again["citations"]) == (asked["answer"], asked["citations"])
    assert "26 weeks" in again["answer"]

    refused = run_cli("--config", str(bad), "run", stdin="exit\n")
    assert refused.returncode == 2 and " ".join(refused.stderr.split()) == message


# ---- the indexer --------------------------------------------------------------------------------------
def _settings(tmp_path: Path, root: Path, **extra: object) -> Settings:
    return Settings.model_validate({"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
                                    "embedding": {"provider": "fake"}, **extra})


def _indexed(tmp_path: Path) -> tuple[Path, Store]:
    root = tmp_path / "policies"
    shutil.copytree(SAMPLES, root)
    settings = _settings(tmp_path, root)
    store = Store(settings.data_dir)
    Indexer(settings, store, FakeEmbedder).reconcile()
    return root, store


def _worker_down(path: Path, root: Path) -> ExtractedDocument:
    raise ExtractionError(WORKER_DOWN)


def test_rebuild_whose_files_all_fail_is_abandoned(tmp_path: Path) -> None:
    root, store = _indexed(tmp_path)
    live, chunks = store.state().generation, store.count_chunks()
    changed = _settings(tmp_path, root, chunking={"max_tokens": 128})  # new fingerprint: shadow rebuild
    with pytest.raises(ReconcileAbortedError, match="extraction worker"):
        Indexer(changed, store, FakeEmbedder, extract=_worker_down).reconcile()
    st = store.state()
    assert (st.generation, st.building, store.count_chunks()) == (live, None, chunks)
    assert store.generations_on_disk() == {live}


def test_reconcile_whose_files_all_fail_for_one_machine_reason_is_rolled_back(tmp_path: Path) -> None:
    root, store = _indexed(tmp_path)
    before = {p: (d.status, d.sha256) for p, d in store.documents().items()}
    for f in root.rglob("*.md"):
        f.write_text(f.read_text() + "\n\nAmended.\n")
    (root / "hr" / "new.md").write_text("# New\n\nA new policy.\n")
    indexer = Indexer(_settings(tmp_path, root), store, FakeEmbedder, extract=_worker_down)
    with pytest.raises(ReconcileAbortedError, match="not the files' fault"):
        indexer.reconcile()
    after = {p: (d.status, d.sha256) for p, d in store.documents().items()}
    assert after == before


def test_model_that_cannot_load_stops_the_reconcile(tmp_path: Path) -> None:
    root, store = _indexed(tmp_path)
    live, chunks = store.state().generation, store.count_chunks()

    def broken() -> FakeEmbedder:
        raise ModelLoadError("embedding.model: cannot load 'gone'")

    other = _settings(tmp_path, root, embedding={"provider": "fake", "model": "gone"})
    with pytest.raises(ModelLoadError):
        Indexer(other, store, broken).reconcile()
    assert (store.state().generation, store.count_chunks()) == (live, chunks)
    assert all(d.status == "indexed" for d in store.documents().values())


def test_one_broken_file_among_good_ones_is_recorded_not_aborted(tmp_path: Path) -> None:
    root, store = _indexed(tmp_path)
    (root / "hr" / "new.md").write_text("# New\n\nA new policy on desks.\n")
    changed = root / "hr" / "remote_work_policy.md"
    changed.write_text(changed.read_text() + "\n\nAmended.\n")

    def one_bad(path: Path, r: Path) -> ExtractedDocument:
        if path.name == "new.md":
            raise ExtractionError(WORKER_DOWN)
        return extract_file(path, r, _settings(tmp_path, root))

    summary = Indexer(_settings(tmp_path, root), store, FakeEmbedder, extract=one_bad).reconcile()
    assert (summary.indexed, summary.failed) == (1, 1) and store.documents()["hr/new.md"].status == "failed"


def test_an_emptied_folder_empties_the_index_only_when_removals_are_allowed(tmp_path: Path) -> None:
    """An empty folder (an unmounted share) under a new fingerprint keeps the live generation: the
    rebuild is not started (indexer.removal_guard); ``allow_removals`` (index --allow-removals) empties it."""
    root, store = _indexed(tmp_path)
    docs, chunks, live = store.documents(), store.count_chunks(), store.state().generation
    shutil.rmtree(root)
    root.mkdir()
    changed = _settings(tmp_path, root, chunking={"max_tokens": 128})
    held = Indexer(changed, store, FakeEmbedder).reconcile()
    assert held.held_removals == len(docs) and "--allow-removals" in held.held_reason
    assert (store.documents(), store.count_chunks(), store.state().generation) == (docs, chunks, live)
    summary = Indexer(changed, store, FakeEmbedder).reconcile(allow_removals=True)
    assert summary.held_removals == 0 and store.count_chunks() == 0 and store.documents() == {}


def test_one_unreadable_new_file_is_recorded_not_an_aborted_reconcile() -> None:
    """A single file without read permission is that file's problem: recorded failed (visible in
    ``status``); the same reason on several files at once is the machine's (a share's permissions)."""
    from indexer.safety import MIN_FILES_FOR_LIMITS, environmental_failure
    from indexer.summary import IndexSummary

    reason = "cannot read the file (Permission denied)"
    assert environmental_failure(IndexSummary(new_failures=[reason])) is None
    assert environmental_failure(IndexSummary(new_failures=[reason] * MIN_FILES_FOR_LIMITS)) == reason
