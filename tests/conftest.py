"""Session-wide fixtures shared by test modules.

``qa_index``: the gold files of ``../shared/corpus/qa_dev.yaml`` plus two distractors, copied into a
temporary policy root and indexed ONCE per session with the REAL embedding model (so retrieval and
answer-quality floors measure the real thing). The corpus itself is never copied into the repo.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from core.config import Settings, load_config
from policybot.factory import App

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
QA_DEV = CORPUS / "qa_dev.yaml"

QA_GOLD_FILES = (
    "policy.pdf",
    "hard/EDLHLGA23009V012223_restricted.pdf",
    "insurance/BAJHLIP23020V012223.pdf",
    "insurance/ICIHLIP22012V012223.pdf",
    "hr/Contoso_Benefit_Options.pdf",
    "hard/PerksPlus_scanned.pdf",
    "nonenglish/CSS_Reiseversicherung_AVB_2016_de.pdf",
    "arogya_sanjeevani.pdf",
    "hr/Contoso_Expenses_Policy.docx",
    "hr/Contoso_Employee_Handbook.pdf",
)
"""Every gold file of qa_dev.yaml (all kinds: the eval floors of tests/test_eval_floors.py need them)."""
QA_DISTRACTORS = ("hr/37signals_benefits_and_perks.md",)
"""Near misses: the 37signals handbook mentions pets (pet insurance) but not pets at the office."""


@dataclass(frozen=True)
class QAIndex:
    """The indexed gold subset: the app built on it and the reconcile summary."""

    app: App
    settings: Settings
    summary: object


@pytest.fixture(scope="session")
def qa_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[QAIndex]:
    """Index the qa_dev gold files + distractors once (real embedder, config.yaml, reranker off)."""
    if not QA_DEV.is_file():
        pytest.fail(f"{QA_DEV} is missing: the shared corpus must sit next to the repo")
    base = tmp_path_factory.mktemp("qa_index")
    root = base / "policies"
    for rel in QA_GOLD_FILES + QA_DISTRACTORS:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(CORPUS / rel, root / rel)
    settings = load_config(REPO / "config.yaml", data_dir=base / "data", policy_root=root)
    # Issue 2's floors measure hybrid retrieval + the extractive answerer; rerank is measured by eval.
    settings = settings.model_copy(update={"rerank": settings.rerank.model_copy(update={"enabled": False})})
    app = App(settings)
    summary = app.indexer.reconcile(root)
    try:
        yield QAIndex(app, settings, summary)
    finally:
        app.close()
