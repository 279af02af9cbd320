"""The file-size cap (indexer.file_size): a file above ``index.max_text_file_mb`` (Markdown, text) or
``index.max_file_mb`` (PDF, Word, ...) is recorded as failed with a reason naming its size, the limit and
the key to raise, is shown by ``status``, never stops the other files, keeps the chunks of its last good
version, and is indexed once the limit is raised. Real LanceDB in tmp_path, the fake embedder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.config import Settings
from core.embedder import FakeEmbedder
from core.errors import ConfigError
from core.store import Store
from indexer.file_size import oversize_reason
from indexer.pipeline import Indexer
from policybot.status import collect
from tests.cli_helpers import LEAVE, REPO, TRAVEL, policy_folder, write_config

BIG = "# Acme handbook\n\n" + "".join(  # ~26 KB
    f"## Rule {n}\n\nGlobex staff rule {n} says desks are cleared daily.\n\n" for n in range(400))


def _settings(tmp_path: Path, root: Path, **index: object) -> Settings:
    return Settings.model_validate({"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
                                    "embedding": {"provider": "fake"}, "index": index})


def _reconcile(settings: Settings, store: Store) -> None:
    Indexer(settings, store, FakeEmbedder).reconcile()


def test_a_big_text_file_fails_with_size_limit_and_key_and_the_others_index(tmp_path: Path) -> None:
    files = {"hr/leave.md": LEAVE, "hr/big.md": BIG, "hr/travel.md": TRAVEL}
    root = policy_folder(tmp_path / "policies", files)
    settings = _settings(tmp_path, root, max_text_file_mb=0.01)  # 10 KB
    store = Store(settings.data_dir)
    summary = Indexer(settings, store, FakeEmbedder).reconcile()
    assert (summary.indexed, summary.failed) == (2, 1)
    docs = store.documents()
    assert docs["hr/big.md"].status == "failed" and docs["hr/big.md"].chunk_count == 0
    [failure] = collect(settings, store)["failures"]
    assert failure["path"] == "hr/big.md"
    size_mb = (root / "hr/big.md").stat().st_size / 1_000_000
    assert f"is {size_mb:.3g} MB" in failure["reason"] and "index.max_text_file_mb" in failure["reason"]
    assert "larger than the size limit of 0.01 MB" in failure["reason"]

    summary = Indexer(settings, store, FakeEmbedder).reconcile()  # unchanged: still failed, not re-read
    assert (summary.indexed, summary.failed, summary.unchanged) == (0, 1, 2)
    raised = _settings(tmp_path, root, max_text_file_mb=1)
    summary = Indexer(raised, store, FakeEmbedder).reconcile()  # the limit was raised: indexed now
    assert (summary.indexed, summary.failed) == (1, 0) and store.documents()["hr/big.md"].status == "indexed"


def test_a_file_grown_past_the_limit_keeps_its_last_good_chunks(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE, "hr/travel.md": TRAVEL})
    settings = _settings(tmp_path, root, max_text_file_mb=0.01)
    store = Store(settings.data_dir)
    _reconcile(settings, store)
    chunks = store.documents()["hr/leave.md"].chunk_count
    (root / "hr/leave.md").write_text(LEAVE + BIG)
    _reconcile(settings, store)
    rec = store.documents()["hr/leave.md"]
    assert rec.status == "failed" and rec.chunk_count == chunks and "index.max_text_file_mb" in rec.error


def test_a_pdf_above_max_file_mb_fails_while_text_files_index(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"hr/leave.md": LEAVE})
    pdf = next((REPO / "policies").rglob("*.pdf"))
    shutil.copy(pdf, root / "hr" / "plan.pdf")
    limit = pdf.stat().st_size / 2 / 1_000_000
    settings = _settings(tmp_path, root, max_file_mb=limit)
    store = Store(settings.data_dir)
    summary = Indexer(settings, store, FakeEmbedder).reconcile()
    assert (summary.indexed, summary.failed) == (1, 1)
    assert "index.max_file_mb" in store.documents()["hr/plan.pdf"].error


def test_limits_by_file_type() -> None:
    index = Settings().index
    assert oversize_reason("a/b.MD", 5_000_001, index) is not None
    assert oversize_reason("a/b.md", 5_000_000, index) is None
    assert oversize_reason("a/b.pdf", 50_000_000, index) is None
    reason = oversize_reason("a/b.docx", 150_000_000, index)
    assert reason is not None and "is 150 MB" in reason and "100 MB (index.max_file_mb)" in reason


@pytest.mark.parametrize("value", [0, -1, ".inf"])
def test_a_limit_must_be_positive(tmp_path: Path, value: object) -> None:
    from core.config import load_config

    cfg = write_config(tmp_path, tmp_path, index={"max_file_mb": value})
    with pytest.raises(ConfigError, match="max_file_mb"):
        load_config(cfg)
