"""CLI conventions (issue 15, item 7): ``-v``/``-vv`` is a counter, boolean flags show no ``<bool>``, help
text has no RST markup, global options work after the command, YAML errors name file, line and column,
and a wrongly shaped config section is described in user words. typer's runner, real config files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from policybot.cli import cli, hoist_global_options
from tests.cli_helpers import LEAVE, policy_folder, write_config

COMMANDS = ("index", "watch", "ask", "status", "run", "eval", "health", "cache", "inspect", "gaps")


def _help(*args: str) -> str:
    r = CliRunner().invoke(cli, [*args, "--help"])
    assert r.exit_code == 0
    return r.stdout


@pytest.mark.parametrize("command", [(), *[(c,) for c in COMMANDS]])
def test_help_has_no_type_tags_or_rst_markup(command: tuple[str, ...]) -> None:
    text = _help(*command)
    options = text.split("Options:", 1)[-1]  # an argument's type tag (``PATH <str>``) is typer's style
    assert "<bool>" not in text and not re.search(r"--[\w-]+ <\w+>", options)
    assert "``" not in text and ":class:" not in text


def test_verbose_is_documented_as_a_counter_and_counts(tmp_path: Path) -> None:
    text = " ".join(_help().split())
    assert "-v, --verbose" in text and "-vv DEBUG" in text
    r = CliRunner().invoke(cli, ["-vv", "--data-dir", str(tmp_path / "none"), "status"])
    assert r.exit_code == 0


def test_global_options_after_the_command(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    cfg = write_config(tmp_path, root)
    other = tmp_path / "other"
    indexed = CliRunner().invoke(cli, ["index", str(root), "--config", str(cfg), "--data-dir", str(other)])
    assert indexed.exit_code == 0
    r = CliRunner().invoke(cli, ["status", "--json", "--data-dir", str(other), "-v", "--config", str(cfg)])
    assert r.exit_code == 0 and json.loads(r.stdout)["data_dir"] == str(other.resolve())


def test_hoisting_keeps_command_arguments_and_stops_at_double_dash() -> None:
    cmds = set(COMMANDS)
    assert hoist_global_options(["ask", "q?", "--json", "-vv", "--data-dir", "d"], cmds) == \
        ["-vv", "--data-dir", "d", "ask", "q?", "--json"]
    assert hoist_global_options(["ask", "--", "-v"], cmds) == ["ask", "--", "-v"]
    assert hoist_global_options(["--config", "status", "status"], cmds) == ["--config", "status", "status"]


def test_yaml_syntax_error_names_file_line_and_column(tmp_path: Path) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text("policies:\n  root: policies\n  include: [*.pdf\n")
    r = CliRunner().invoke(cli, ["--config", str(cfg), "status"])
    err = " ".join(r.stderr.split())
    assert r.exit_code == 2 and f"{cfg}:3:" in err and "<unicode string>" not in err


def test_wrongly_shaped_section_is_said_in_user_words(tmp_path: Path) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text("policies:\n  - root\nchunking: 256\n")
    r = CliRunner().invoke(cli, ["--config", str(cfg), "status"])
    err = " ".join(r.stderr.split())
    assert r.exit_code == 2 and "not a list" in err
    assert "section 'policies' must be a mapping of settings" in err
    assert "section 'chunking'" in err and "instance of" not in err
