"""Quiet by default (issue 15, item 4): with the repository's default ``config.yaml`` (the bundled
embedding model, the default reranker) and no network, ``index``, ``ask`` and ``run`` print nothing on
stderr at the default verbosity — no library warnings, no progress bars, no reranker-download warning —
while ``-v`` shows the INFO lines (which reranker runs, said once). Real model, child processes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli_helpers import REPO, cli_env, run_cli

QUESTION = "How many days a week can I work from home?"


@pytest.fixture(scope="module")
def default_setup(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's config.yaml and policies/ in a fresh folder (data dir .policybot beside them)."""
    base = tmp_path_factory.mktemp("default")
    shutil.copy2(REPO / "config.yaml", base / "config.yaml")
    shutil.copytree(REPO / "policies", base / "policies")
    return base / "config.yaml"


def _env() -> dict[str, str]:
    env = cli_env()
    for key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):  # the defaults policybot sets itself
        env.pop(key, None)
    return env


def test_index_ask_and_run_print_no_warnings(default_setup: Path) -> None:
    cfg = str(default_setup)
    index = run_cli("--config", cfg, "index", env=_env())
    assert index.returncode == 0 and index.stderr == "", index.stderr
    ask = run_cli("--config", cfg, "ask", QUESTION, env=_env())
    assert ask.returncode == 0 and ask.stderr == "", ask.stderr
    assert "remote_work_policy.md" in ask.stdout
    run = run_cli("--config", cfg, "run", env=_env(), stdin=f"{QUESTION}\nexit\n")
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert "Loading weights" not in run.stdout and "remote_work_policy.md" in run.stdout


def test_verbose_says_once_which_reranker_runs(default_setup: Path) -> None:
    out = run_cli("--config", str(default_setup), "-v", "ask", QUESTION, env=_env())
    assert out.returncode == 0
    lines = [line for line in out.stderr.splitlines() if "reranker:" in line]
    assert len(lines) == 1 and "offline" in lines[0]
