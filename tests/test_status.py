"""``policybot status``: counts, failures with reason and time, files needing OCR, pending changes and
index lag from the watcher, last reconcile, fingerprints, observer kind, models.

Every index is a real LanceDB in tmp_path built through the Indexer with the fake embedder; the
watcher is a real polling watchdog observer on a temp folder.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from fpdf import FPDF
from PIL import Image, ImageDraw
from typer.testing import CliRunner

from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import Store
from indexer.pipeline import Indexer
from indexer.watch_state import write_watch_state
from policybot.cli import cli
from policybot.status import NEEDS_OCR_FROM_FIELD, collect
from tests.watcher_helpers import wait_for, watching

OLD_KEYS = {"data_dir", "policy_root", "fingerprint", "chunks", "last_indexed_at", "documents", "files",
            "index", "reranker", "reranker_fallback", "provider"}


def settings_for(tmp_path: Path, **extra: Any) -> Settings:
    return Settings.model_validate(raw_settings(tmp_path, **extra))


def raw_settings(tmp_path: Path, **extra: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"data_dir": str(tmp_path / "data"),
                           "policies": {"root": str(tmp_path / "policies")},
                           "embedding": {"provider": "fake"}, "rerank": {"enabled": False},
                           "chunking": {"max_tokens": 96, "overlap_tokens": 0}}
    raw.update(extra)
    return raw


def indexed(tmp_path: Path, files: dict[str, bytes], **extra: Any) -> tuple[Settings, Store]:
    """Write ``files`` into ``tmp_path/policies`` and reconcile them into a fresh store."""
    settings = settings_for(tmp_path, **extra)
    for rel, data in files.items():
        path = settings.policies.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    store = Store(settings.data_dir, settings.keyword, settings.index)
    Indexer(settings, store, FakeEmbedder).reconcile()
    return settings, store


def scanned_pdf(text_page: str | None = None) -> bytes:
    """A PDF whose (last) page's only content is a picture of text (no text layer); with
    ``text_page``, a first page with that text as a real text layer comes before it."""
    img = Image.new("L", (800, 300), 255)
    ImageDraw.Draw(img).text((20, 20), "Perks are paid up to 1000 dollars a year.", fill=0)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    pdf = FPDF()
    if text_page is not None:
        pdf.add_page()
        pdf.set_font("Helvetica", size=12)
        pdf.multi_cell(0, 8, text_page)
    pdf.add_page()
    pdf.image(buf, x=10, y=10, w=180)
    return bytes(pdf.output())


GOOD = b"# Leave\n\nEmployees get twenty days of paid leave a year, approved by their manager.\n"


def test_json_keeps_the_old_keys(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    assert set(collect(settings, store)) >= OLD_KEYS


def test_counts_indexed_failed_and_chunks(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD, "broken.pdf": b"this is not a pdf"})
    data = collect(settings, store)
    assert data["documents"]["indexed"] == 1 and data["documents"]["failed"] == 1
    assert data["chunks"] == store.count_chunks() >= 1


def test_failed_file_is_listed_with_reason_and_time(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD, "broken.pdf": b"this is not a pdf"})
    [failure] = collect(settings, store)["failures"]
    assert failure["path"] == "broken.pdf" and failure["reason"] and failure["at"] > 0


def test_scanned_pdf_without_ocr_is_listed_as_needing_ocr(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD, "scan.pdf": scanned_pdf()},
                              extraction={"ocr": "never"})
    data = collect(settings, store)
    assert data["needs_ocr"]["files"] == ["scan.pdf"] and data["documents"]["needs_ocr"] == 1
    assert data["needs_ocr"]["pages"] == {"scan.pdf": [1]}
    assert data["needs_ocr"]["source"] == NEEDS_OCR_FROM_FIELD


def test_partly_scanned_pdf_is_indexed_and_its_scanned_page_listed(tmp_path: Path) -> None:
    text = "Travel. Employees book trains in second class and hotels up to 120 euros a night. " * 3
    settings, store = indexed(tmp_path, {"travel.pdf": scanned_pdf(text_page=text)},
                              extraction={"ocr": "never"})
    data = collect(settings, store)
    assert data["documents"]["indexed"] == 1 and data["documents"]["failed"] == 0
    assert data["needs_ocr"]["pages"] == {"travel.pdf": [2]}


def test_broken_file_is_not_counted_as_needing_ocr(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"broken.pdf": b"this is not a pdf"})
    assert collect(settings, store)["needs_ocr"]["files"] == []


def test_pending_and_index_lag_come_from_a_running_watcher(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    write_watch_state(store.blobs, {"pid": os.getpid(), "running": True, "observer_kind": "native",
                                          "observer_reason": "inotify", "pending": 3,
                                          "oldest_pending_at": 1000.0, "jobs": {}})
    data = collect(settings, store, now=1012.5)
    assert data["documents"]["pending"] == 3 and data["pending"]["source"] == "watcher"
    assert data["index_lag_s"] == 12.5


def test_index_lag_is_zero_when_nothing_is_pending(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    write_watch_state(store.blobs, {"pid": os.getpid(), "running": True, "pending": 0,
                                          "oldest_pending_at": 0.0, "jobs": {}})
    assert collect(settings, store, now=5000.0)["index_lag_s"] == 0.0


def test_state_of_a_dead_watcher_reports_nothing_pending(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()  # killed watchers leave running=true behind; the pid tells
    write_watch_state(store.blobs, {"pid": proc.pid, "running": True, "pending": 4,
                                          "oldest_pending_at": 1000.0, "jobs": {}})
    data = collect(settings, store, now=2000.0)
    assert data["watcher"]["running"] is False
    assert data["documents"]["pending"] == 0 and data["index_lag_s"] == 0.0
    assert "no watcher running" in data["pending"]["source"]


def test_polling_watcher_reports_observer_and_last_reconcile(tmp_path: Path) -> None:
    with watching(tmp_path, "polling") as w:
        def reconciled() -> bool:
            rec = collect(w.settings, w.store)["last_reconcile"]
            return rec is not None and rec["runs"] >= 1

        assert wait_for(reconciled)
        data = collect(w.settings, w.store)
        assert data["observer"]["kind"] == "polling" and data["observer"]["reason"]
        assert data["watcher"]["running"] is True and data["last_reconcile"]["at"] > 0
        assert data["jobs"]["reconcile"]["runs"] >= 1


def test_without_a_watcher_the_observer_is_empty(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    data = collect(settings, store)
    assert data["observer"]["kind"] is None
    assert data["observer"]["configured"] == "auto"


def test_a_plain_index_run_records_the_last_reconcile(tmp_path: Path) -> None:
    before = time.time()
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    rec = collect(settings, store)["last_reconcile"]
    assert rec is not None and rec["at"] >= before and rec["runs"] == 0


def test_fingerprint_is_current_after_indexing(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    fps = collect(settings, store)["fingerprints"]
    assert fps["state"] == "current" and fps["live"] == fps["config"]


def test_changed_chunk_size_says_rebuild_pending(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    changed = settings_for(tmp_path, chunking={"max_tokens": 128, "overlap_tokens": 0})
    data = collect(changed, store)
    assert data["fingerprints"]["state"] == "rebuild pending"
    assert data["fingerprints"]["live"] != data["fingerprints"]["config"] == data["fingerprint"]
    assert data["index"]["rebuild_pending"] is True and data["documents"]["stale"] == 1


def test_fusion_weight_change_keeps_the_fingerprint_current(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    changed = settings_for(tmp_path, retrieval={"fusion": "convex"})
    assert collect(changed, store)["fingerprints"]["state"] == "current"


def test_missing_cross_encoder_shows_the_reranker_fallback(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    missing = str(tmp_path / "no-such-model")
    ce = settings_for(tmp_path, rerank={"provider": "cross-encoder", "model": missing})
    data = collect(ce, store)
    assert data["reranker"] == f"cross-encoder:{missing}"
    assert data["reranker_fallback"] and "offline reranker" in data["reranker_fallback"]


def test_embedding_model_is_named_without_loading_it(tmp_path: Path) -> None:
    settings, store = indexed(tmp_path, {"leave.md": GOOD})
    real = settings_for(tmp_path, embedding={"provider": "sentence-transformers",
                                             "model": "all-MiniLM-L6-v2"})
    assert collect(settings, store)["embedding_model"] == "fake"
    assert collect(real, store)["embedding_model"] == "sentence-transformers:all-MiniLM-L6-v2"


def test_cli_status_prints_the_new_fields(tmp_path: Path) -> None:
    ocr_off = {"ocr": "never"}
    indexed(tmp_path, {"leave.md": GOOD, "scan.pdf": scanned_pdf()}, extraction=ocr_off)
    cfg = tmp_path / "config.yaml"
    cfg.write_text(json.dumps(raw_settings(tmp_path, extraction=ocr_off)))  # YAML reads JSON
    result = CliRunner().invoke(cli, ["--config", str(cfg), "status"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "1 needing OCR" in result.stdout and "scan.pdf" in result.stdout
    assert "watcher: not running" in result.stdout and "index lag: 0.0 s" in result.stdout
