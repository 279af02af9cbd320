"""Watcher, editor saves and partial copies, with real watchdog observers (native inotify and polling)
on temp folders, real LanceDB and the FakeEmbedder. Each test ends with the index matching the folder:
no lock or temp file indexed, no duplicate chunk rows."""

from __future__ import annotations

import io
import os
import random
import time
from pathlib import Path

import pytest
from docx import Document
from fpdf import FPDF
from pypdf import PdfWriter

from tests.watcher_helpers import assert_index_matches_folder, indexed, settle, texts, watching

OBSERVERS = ["native", "polling"]


def docx_bytes(text: str) -> bytes:
    doc = Document()
    doc.add_heading("Travel policy", level=1)
    doc.add_paragraph(text)
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


@pytest.fixture(scope="module")
def big_pdf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A valid 6-page text PDF padded to ~20 MB with an embedded (incompressible) attachment."""
    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    topics = ["Hotel nights", "Meals abroad", "Rail travel", "Taxi rides", "Conference fees", "Visa costs"]
    for page, topic in enumerate(topics, 1):
        pdf.add_page()
        pdf.multi_cell(0, 6, f"{topic}. Employees travelling on company business may claim {topic.lower()} "
                             f"up to {100 + page} euros per day when their manager approved the trip.")
    writer = PdfWriter(clone_from=io.BytesIO(bytes(pdf.output())))
    writer.add_attachment("scan-archive.bin", random.Random(7).randbytes(20 << 20))
    buf = io.BytesIO()
    writer.write(buf)
    data = buf.getvalue()
    assert len(data) > 20 << 20 and data.rstrip().endswith(b"%%EOF")
    return data


@pytest.mark.parametrize("observer", OBSERVERS)
def test_office_save_via_lock_and_temp_file_reindexes_only_the_target(tmp_path: Path, observer: str) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "travel.docx").write_bytes(docx_bytes("Version one: economy class only."))
    with watching(tmp_path, observer) as w:
        settle(w, lambda: "Version one" in texts(w, "travel.docx"))
        lock, tmp_new, tmp_old = root / "~$travel.docx", root / "~WRL0001.tmp", root / "~WRL0002.tmp"
        lock.write_bytes(b"\x05alice" + b"\x00" * 150)
        tmp_new.write_bytes(docx_bytes("Version two: business class above six hours."))
        os.rename(root / "travel.docx", tmp_old)
        os.rename(tmp_new, root / "travel.docx")
        tmp_old.unlink()
        lock.unlink()
        settle(w, lambda: "Version two" in texts(w, "travel.docx"))
        assert "Version one" not in texts(w, "travel.docx")
        assert_index_matches_folder(w)
        assert {c.rel for c in w.indexer.calls} == {"travel.docx"}


@pytest.mark.parametrize("observer", OBSERVERS)
def test_vim_save_with_swap_backup_and_probe_files(tmp_path: Path, observer: str) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "leave.md").write_text("# Leave\n\nYou get 20 days of annual leave.\n")
    with watching(tmp_path, observer) as w:
        settle(w, lambda: "20 days" in texts(w, "leave.md"))
        swap = root / ".leave.md.swp"
        swap.write_bytes(b"b0VIM 9.0" + b"\x00" * 4000)
        probe = root / "4913"
        probe.write_bytes(b"")
        probe.unlink()
        os.rename(root / "leave.md", root / "leave.md~")
        (root / "leave.md").write_text("# Leave\n\nYou get 25 days of annual leave.\n")
        (root / "leave.md~").unlink()
        swap.unlink()
        settle(w, lambda: "25 days" in texts(w, "leave.md"))
        assert "20 days" not in texts(w, "leave.md")
        assert_index_matches_folder(w)


@pytest.mark.parametrize("observer", OBSERVERS)
def test_pdf_copied_slowly_is_indexed_once_complete_never_while_partial(
        tmp_path: Path, observer: str, big_pdf: bytes) -> None:
    with watching(tmp_path, observer) as w:
        settle(w, lambda: w.watcher.scheduler.history["reconcile"].runs == 1)
        target = w.root / "hotel.pdf"
        pieces = 6
        step = len(big_pdf) // pieces + 1
        with target.open("wb") as fh:
            for start in range(0, len(big_pdf), step):
                fh.write(big_pdf[start:start + step])
                fh.flush()
                os.fsync(fh.fileno())
                time.sleep(0.6)  # a stalled SMB copy: longer than stable_s, so the %%EOF check must hold
                assert "hotel.pdf" not in w.store.documents() or target.stat().st_size == len(big_pdf)
        settle(w, lambda: "hotel.pdf" in indexed(w))
        assert "may claim visa costs up to 106 euros" in texts(w, "hotel.pdf")
        pdf_calls = [c for c in w.indexer.calls if c.rel == "hotel.pdf"]
        assert pdf_calls and all(c.size == len(big_pdf) for c in pdf_calls)
        assert w.store.documents()["hotel.pdf"].pages == 6
        assert_index_matches_folder(w)


IGNORED = ["~$budget.docx", ".~lock.budget.docx#", "budget.docx.tmp", "report.pdf.part",
           "report.pdf.crdownload", ".budget.md.swp", ".DS_Store", "Thumbs.db", "desktop.ini",
           ".hidden.md", "@eaDir/budget.md", "__MACOSX/budget.md", "notes.md~"]


@pytest.mark.parametrize("observer", OBSERVERS)
def test_lock_temp_and_os_litter_files_are_never_indexed(tmp_path: Path, observer: str) -> None:
    with watching(tmp_path, observer) as w:
        for name in IGNORED:
            path = w.root / name
            path.parent.mkdir(exist_ok=True)
            path.write_text("# Budget\n\nThe travel budget is 5000 euros.\n")
        (w.root / "budget.md").write_text("# Budget\n\nThe travel budget is 4000 euros.\n")
        settle(w, lambda: "budget.md" in indexed(w))
        assert set(w.store.documents()) == {"budget.md"}
        assert {c.rel for c in w.indexer.calls} == {"budget.md"}
        assert_index_matches_folder(w)
