"""The stability gate on real files; time is passed in (monotonic seconds), so no test sleeps."""

from __future__ import annotations

import io
from pathlib import Path

from docx import Document
from fpdf import FPDF

from indexer.stability import StabilityGate


def pdf_bytes() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    pdf.multi_cell(0, 6, "Expenses must be filed within 30 days.")
    return bytes(pdf.output())


def docx_bytes() -> bytes:
    doc = Document()
    doc.add_paragraph("Expenses must be filed within 30 days.")
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def test_a_file_is_never_ready_at_first_sight_even_with_an_old_mtime(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("# A\n")
    gate = StabilityGate(stable_s=2.0)
    first = gate.check(path, now=100.0)
    assert first.state == "wait" and first.retry_at == 102.0
    assert gate.check(path, now=101.0).state == "wait"
    assert gate.check(path, now=102.0).state == "ready"


def test_a_growing_file_restarts_the_stability_window(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("# A\n")
    gate = StabilityGate(stable_s=2.0)
    gate.check(path, now=100.0)
    with path.open("a") as fh:
        fh.write("more text\n")
    grown = gate.check(path, now=102.5)
    assert grown.state == "wait" and grown.retry_at == 104.5
    assert gate.check(path, now=104.5).state == "ready"


def test_pdf_without_eof_marker_waits_with_capped_backoff_until_complete(tmp_path: Path) -> None:
    data = pdf_bytes()
    path = tmp_path / "p.pdf"
    path.write_bytes(data[: len(data) // 2])
    gate = StabilityGate(stable_s=1.0, retry_max_s=8.0, incomplete_timeout_s=10_000)
    now = 0.0
    gate.check(path, now)
    delays: list[float] = []
    for _ in range(8):
        now += 1.0 if not delays else delays[-1]
        verdict = gate.check(path, now)
        assert verdict.state == "wait" and "%%EOF" in verdict.reason
        delays.append(verdict.retry_at - now)
    assert delays[:3] == [2.0, 4.0, 8.0] and max(delays) == 8.0
    path.write_bytes(data)
    gate.check(path, now + 1)
    assert gate.check(path, now + 2).state == "ready"


def test_docx_without_zip_directory_waits(tmp_path: Path) -> None:
    data = docx_bytes()
    path = tmp_path / "d.docx"
    path.write_bytes(data[:-30])
    gate = StabilityGate(stable_s=1.0)
    gate.check(path, 0.0)
    assert gate.check(path, 1.0).state == "wait"
    path.write_bytes(data)
    gate.check(path, 2.0)
    assert gate.check(path, 3.0).state == "ready"


def test_an_incomplete_file_unchanged_for_long_is_handed_on_with_its_reason(tmp_path: Path) -> None:
    path = tmp_path / "p.pdf"
    path.write_bytes(pdf_bytes()[:500])
    gate = StabilityGate(stable_s=1.0, retry_max_s=5.0, incomplete_timeout_s=60.0)
    gate.check(path, 0.0)
    assert gate.check(path, 30.0).state == "wait"
    late = gate.check(path, 61.0)
    assert late.state == "ready" and "incomplete PDF" in late.reason


def test_a_vanished_file_is_gone(tmp_path: Path) -> None:
    gate = StabilityGate(stable_s=1.0)
    assert gate.check(tmp_path / "nope.md", 0.0).state == "gone"
    assert gate.check(tmp_path, 0.0).state == "gone"  # a folder is not a file to index
