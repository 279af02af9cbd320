"""``policybot ask`` uses a running ``watch``/``run`` process on the same data dir (issue 15, item 9):
the answer comes over the data dir's socket, without the asking process importing LanceDB or torch;
with no process running it answers by itself; ``status`` never imports LanceDB when its snapshot is
current. Child processes, fake embedder, real LanceDB.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from policybot.cli import cli
from tests.cli_helpers import LEAVE, REPO, CliProcess, cli_env, policy_folder, run_cli, write_config

QUESTION = "How long is parental leave for mothers?"
PROBE = ("import sys; from policybot.cli import main\n"
         "try:\n    main()\nexcept SystemExit:\n    pass\n"
         "heavy = ('lancedb', 'torch', 'sentence_transformers')\n"
         "print('HEAVY', sorted(m for m in heavy if m in sys.modules),"
         " file=sys.stderr)")


def _probe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=REPO,
                          env=cli_env(), timeout=300)


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    """A policy folder indexed by ``policybot index`` run in this process (the set-up, not the subject:
    a child process would pay the CLI's start-up, LanceDB's import included, once more per test)."""
    root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
    cfg = write_config(tmp_path, root)
    indexed = CliRunner().invoke(cli, ["--config", str(cfg), "index"])
    assert indexed.exit_code == 0, indexed.output
    return root, cfg


def test_ask_is_answered_by_the_running_watch_without_heavy_imports(tmp_path: Path) -> None:
    root, cfg = _setup(tmp_path)
    proc = CliProcess("--config", str(cfg), "watch", str(root))
    try:
        proc.wait_for(r"watching")
        out = _probe("--config", str(cfg), "-v", "ask", "--json", QUESTION)
    finally:
        code, _ = proc.stop(signal.SIGTERM)
    assert out.returncode == 0, out.stderr
    assert "26 weeks" in json.loads(out.stdout)["answer"]
    assert "answered by the running policybot process" in out.stderr
    assert "HEAVY []" in out.stderr
    assert code == 0 and not (tmp_path / "data" / "policybot.sock").exists()


def test_ask_without_a_running_process_answers_by_itself(tmp_path: Path) -> None:
    _, cfg = _setup(tmp_path)
    out = run_cli("--config", str(cfg), "ask", "--json", QUESTION)
    assert out.returncode == 0 and "26 weeks" in json.loads(out.stdout)["answer"]


def test_status_reads_the_snapshot_without_lancedb(tmp_path: Path) -> None:
    _, cfg = _setup(tmp_path)
    out = _probe("--config", str(cfg), "status", "--json")
    assert out.returncode == 0 and "HEAVY []" in out.stderr
    data = json.loads(out.stdout)
    assert data["documents"]["indexed"] == 1 and data["chunks"] > 0
    assert data["files"][0]["path"] == "hr/leave.md"


def test_status_from_the_snapshot_equals_status_from_the_tables(tmp_path: Path) -> None:
    from core.config import load_config
    from core.store import Store
    from policybot.status import collect, collect_fast

    _, cfg = _setup(tmp_path)
    settings = load_config(cfg)
    fast = collect_fast(settings, now=1.0)
    assert fast is not None and fast == collect(settings, Store(settings.data_dir), now=1.0)
    other = Store(settings.data_dir)  # another writer, e.g. a tool that does not write the snapshot
    other.put_document(other.documents()["hr/leave.md"])
    assert collect_fast(settings, now=1.0) is None  # not provably current any more: the tables are read


def test_health_follows_the_watcher_loop(tmp_path: Path) -> None:
    root, cfg = _setup(tmp_path)
    assert run_cli("--config", str(cfg), "health").returncode == 1  # nothing running yet
    proc = CliProcess("--config", str(cfg), "watch", str(root))
    try:
        proc.wait_for(r"watching")
        alive = run_cli("--config", str(cfg), "health")
    finally:
        proc.stop(signal.SIGTERM)
    stopped = run_cli("--config", str(cfg), "health")
    assert alive.returncode == 0 and alive.stdout.strip() == "healthy"
    assert stopped.returncode == 1 and "not running" in stopped.stderr
