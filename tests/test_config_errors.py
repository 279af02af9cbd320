"""A config file that does not load says, in plain words, the file, the key path, what is wrong and
what to do (core.config_errors); duplicate keys and an empty policy folder are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.config import load_config
from core.errors import ConfigError
from policybot.cli import cli


def _error(tmp_path: Path, text: str) -> str:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(cfg)
    return str(caught.value)


def test_a_value_out_of_range_names_the_range_from_the_field(tmp_path: Path) -> None:
    msg = _error(tmp_path, "answer:\n  min_answerability: 3\n")
    assert msg == f"{tmp_path / 'config.yaml'}: answer.min_answerability must be between 0 and 1 (got 3)"


def test_a_value_below_a_one_sided_bound_says_the_bound(tmp_path: Path) -> None:
    assert "retrieval.rrf_k must be at least 1 (got 0)" in _error(tmp_path, "retrieval:\n  rrf_k: 0\n")


def test_a_value_that_is_not_one_of_the_choices_lists_them(tmp_path: Path) -> None:
    msg = _error(tmp_path, "retrieval:\n  fusion: average\n")
    assert "retrieval.fusion must be 'rrf' or 'convex' (got 'average')" in msg


def test_a_value_of_the_wrong_type_says_what_it_must_be(tmp_path: Path) -> None:
    msg = _error(tmp_path, "retrieval:\n  top_k: many\n")
    assert "retrieval.top_k must be a whole number (got 'many')" in msg


def test_a_missing_key_of_a_list_item_names_its_index(tmp_path: Path) -> None:
    msg = _error(tmp_path, "llm:\n  providers:\n    - model: m\n")
    assert "llm.providers[0].kind is required" in msg


def test_a_misspelt_key_suggests_the_close_one(tmp_path: Path) -> None:
    msg = _error(tmp_path, "retrieval:\n  topk: 3\n")
    assert "unknown key 'retrieval.topk' (did you mean 'top_k'?)" in msg


def test_no_message_repeats_pydantic_wording(tmp_path: Path) -> None:
    msg = _error(tmp_path, "answer:\n  min_answerability: 3\nretrieval:\n  top_k: x\n  fusion: y\n")
    assert "Input should" not in msg and "Field required" not in msg


@pytest.mark.parametrize("value", ['""', "''", "'  '", ""])
def test_an_empty_policy_folder_is_refused(tmp_path: Path, value: str) -> None:
    msg = _error(tmp_path, f"policies:\n  root: {value}\n")
    assert "policies.root" in msg and "name the folder that holds the policy files" in msg


def test_a_duplicate_section_is_refused_with_its_line(tmp_path: Path) -> None:
    msg = _error(tmp_path, "answer:\n  max_sentences: 3\nretrieval:\n  top_k: 4\n"
                           "answer:\n  max_sentences: 4\n")
    assert msg.startswith(f"{tmp_path / 'config.yaml'}:5: key 'answer' appears twice (first on line 1)")


def test_a_duplicate_nested_key_is_refused_with_its_path(tmp_path: Path) -> None:
    msg = _error(tmp_path, "retrieval:\n  top_k: 4\n  candidates: 9\n  top_k: 5\n")
    assert ":4: key 'retrieval.top_k' appears twice (first on line 2)" in msg


def test_the_same_key_in_two_sections_is_not_a_duplicate(tmp_path: Path) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text("rerank:\n  candidates: 10\nretrieval:\n  candidates: 40\n", encoding="utf-8")
    assert load_config(cfg).retrieval.candidates == 40


def test_the_cli_prints_the_plain_message_as_one_error_line(tmp_path: Path) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text("answer:\n  min_answerability: 3\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["--config", str(cfg), "status"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert "answer.min_answerability must be between 0 and 1 (got 3)" in r.stderr
