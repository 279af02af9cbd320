"""The index remembers its policy folder (issue 15, item 1): the data-loss sequence "index folder A, then
``watch`` with a config naming folder B" is refused with both folders named and nothing removed;
``watch A`` and ``run A`` work; ``--switch-root`` is the explicit way to change folders; ``status``
shows the folder. Real CLI (typer's runner or a child process), real LanceDB, fake embedder.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from policybot.cli import cli
from tests.cli_helpers import LEAVE, TRAVEL, CliProcess, policy_folder, write_config


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Folder A (indexed first), folder B (named by the config) and the config."""
    a = policy_folder(tmp_path / "A", {"leave.md": LEAVE})
    b = policy_folder(tmp_path / "B", {"travel.md": TRAVEL})
    return a, b, write_config(tmp_path, b)


def _invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args), input=stdin)
    return r.exit_code, r.stdout, r.stderr


def _status(cfg: Path) -> dict[str, object]:
    code, out, _ = _invoke("--config", str(cfg), "status", "--json")
    assert code == 0
    data: dict[str, object] = json.loads(out)
    return data


def test_watch_of_the_configured_folder_after_indexing_another_is_refused(
        folders: tuple[Path, Path, Path]) -> None:
    a, b, cfg = folders
    assert _invoke("--config", str(cfg), "index", str(a))[0] == 0
    before = _status(cfg)
    code, _, err = _invoke("--config", str(cfg), "watch")
    text = " ".join(err.split())
    assert code == 2 and str(a) in text and str(b) in text and "--switch-root" in text
    assert "Traceback" not in err
    after = _status(cfg)
    assert [f["path"] for f in after["files"]] == ["leave.md"]  # type: ignore[index]
    assert after["chunks"] == before["chunks"] and after["policy_root"] == str(a)


def test_run_and_index_refuse_another_folder_too(folders: tuple[Path, Path, Path]) -> None:
    a, b, cfg = folders
    _invoke("--config", str(cfg), "index", str(a))
    for command in (["run"], ["index"], ["run", str(b)]):
        code, _, err = _invoke("--config", str(cfg), *command, stdin="exit\n")
        assert code == 2 and "--switch-root" in err, command
    assert _status(cfg)["documents"]["indexed"] == 1  # type: ignore[index]


def test_run_with_the_indexed_folder_works(folders: tuple[Path, Path, Path]) -> None:
    a, _, cfg = folders
    _invoke("--config", str(cfg), "index", str(a))
    code, out, err = _invoke("--config", str(cfg), "run", str(a),
                             stdin="How long is parental leave for mothers?\nexit\n")
    assert code == 0, err
    assert "26 weeks" in " ".join(out.split())


def test_watch_with_the_indexed_folder_works_and_stops_on_sigterm(folders: tuple[Path, Path, Path]) -> None:
    a, _, cfg = folders
    _invoke("--config", str(cfg), "index", str(a))
    proc = CliProcess("--config", str(cfg), "watch", str(a))
    try:
        proc.wait_for(r"watching .*A")
        code, _ = proc.stop(signal.SIGTERM)
    finally:
        proc.kill()
    assert code == 0 and "Traceback" not in proc.stderr
    assert _status(cfg)["documents"]["indexed"] == 1  # type: ignore[index]


def test_switch_root_replaces_the_folder_explicitly(folders: tuple[Path, Path, Path]) -> None:
    a, b, cfg = folders
    _invoke("--config", str(cfg), "index", str(a))
    code, _, err = _invoke("--config", str(cfg), "index", "--switch-root")
    assert code == 0, err
    data = _status(cfg)
    assert [f["path"] for f in data["files"]] == ["travel.md"]  # type: ignore[index]
    assert data["policy_root"] == str(b) and data["root_matches"] is True


def test_status_shows_the_indexed_folder_and_the_mismatch(folders: tuple[Path, Path, Path]) -> None:
    a, b, cfg = folders
    _invoke("--config", str(cfg), "index", str(a))
    data = _status(cfg)
    assert data["policy_root"] == str(a) and data["configured_root"] == str(b)
    assert data["root_matches"] is False
    code, out, _ = _invoke("--config", str(cfg), "status")
    text = " ".join(out.split())
    assert code == 0 and f"policy root: {a}" in text and str(b) in text
