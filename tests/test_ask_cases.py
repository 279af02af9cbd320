"""The text-loss cases of ../shared/cases/ answered end to end: each case folder alone indexed with
the real embedding model (config.yaml), then asked through the answer service ``policybot ask`` calls,
in extractive mode."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import load_config
from policybot.factory import App

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
CASES = REPO.parent / "shared" / "cases"
FOLDERS = ("docx-content-controls", "docx-nonbreaking-hyphen", "pdf-table-merged-rows")


@pytest.fixture(scope="module")
def apps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, App]]:
    """Each case folder's input files (not its README) indexed into a data dir of its own, with the
    app ``policybot ask`` builds on it (config.yaml: real embedding model, extractive answerer)."""
    out: dict[str, App] = {}
    try:
        for folder in FOLDERS:
            base = tmp_path_factory.mktemp(folder)
            root = base / "policies"
            root.mkdir()
            for f in (CASES / folder).iterdir():
                if f.name != "README.md":
                    shutil.copy2(f, root / f.name)
            app = App(load_config(REPO / "config.yaml", data_dir=base / "data", policy_root=root))
            out[folder] = app
            assert app.indexer.reconcile(root).failed == 0
        yield out
    finally:
        for app in out.values():
            app.close()


def ask(app: App, question: str) -> dict[str, object]:
    """The ``policybot ask --json`` object for ``question``."""
    answer = app.service.ask(question).to_json()
    assert answer["found"] is True and answer["provider"] == "extractive"
    return answer


def test_remote_days_of_support_agents_come_from_a_content_control_table(apps: dict[str, App]) -> None:
    answer = ask(apps["docx-content-controls"], "How many remote days per week do support agents get?")
    assert "Support agent | 1" in str(answer["answer"])


def test_effective_date_in_a_content_control_is_retrieved(apps: dict[str, App]) -> None:
    answer = ask(apps["docx-content-controls"], "When does the remote work policy take effect?")
    citations = answer["citations"]
    assert isinstance(citations, list) and citations
    assert "RW-3" in str(citations[0]["section"])  # the cover page's chunk answers


def test_effective_date_in_a_content_control_is_answered(apps: dict[str, App]) -> None:
    answer = ask(apps["docx-content-controls"], "When does the remote work policy take effect?")
    assert "1 July 2025" in str(answer["answer"])


def test_non_breaking_hyphen_range_is_answered_whole(apps: dict[str, App]) -> None:
    answer = ask(apps["docx-nonbreaking-hyphen"],
                 "How many days per week do hybrid employees work from the office?")
    assert "2-3 days per week" in str(answer["answer"])
    assert "23 days" not in str(answer["answer"])


def test_notice_period_of_grades_1_to_4_is_answered(apps: dict[str, App]) -> None:
    answer = ask(apps["docx-nonbreaking-hyphen"], "What is the notice period for job grades 1-4?")
    assert "grades 1-4 is one month" in str(answer["answer"])


@pytest.mark.parametrize(("question", "row"), [
    ("What is the daily allowance for grade A in Munich?", "A | Munich | 45"),
    ("What is the daily allowance for grade B in Hamburg?", "B | Hamburg | 32"),
])
def test_merged_table_cell_row_is_answered(apps: dict[str, App], question: str, row: str) -> None:
    answer = ask(apps["pdf-table-merged-rows"], question)
    assert row in str(answer["answer"])
