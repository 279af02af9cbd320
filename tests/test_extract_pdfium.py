"""PDF page text through PDFium: word gaps made by TJ offsets (0.12 em, as in the corpus; PDFium itself
puts a space only from ~0.15 em), font sizes set through the text matrix."""

from __future__ import annotations

from pathlib import Path

from core.config import Settings
from indexer.extract import extract_file


def _pdf(content: bytes) -> bytes:
    """A one-page PDF (Helvetica as /F1) whose page shows the content stream ``content``."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_tj_offset_between_words_reads_as_a_space(tmp_path: Path) -> None:
    f = tmp_path / "tight.pdf"
    f.write_bytes(_pdf(b"BT /F1 10 Tf 72 700 Td "
                       b"[(Renewal) -120 (means) -120 (the) -120 (terms) -20 (.)] TJ ET"))
    text = " ".join(b.text for b in extract_file(f, tmp_path, Settings()).blocks)
    assert "Renewal means the terms." in text


def test_font_scaled_by_the_text_matrix_starts_a_section(tmp_path: Path) -> None:
    lines = [b"Cancellation costs are covered up to the sum insured.",
             b"Notify the insurer as soon as the trip is cancelled.",
             b"Keep every receipt and booking confirmation for the claim."]
    body = b"".join(b"BT /F1 1 Tf 10 0 0 10 72 %d Tm (%s) Tj ET\n" % (680 - 14 * i, line)
                    for i, line in enumerate(lines))
    f = tmp_path / "scaled.pdf"
    f.write_bytes(_pdf(b"BT /F1 1 Tf 18 0 0 18 72 720 Tm (Trip cancellation) Tj ET\n" + body))
    blocks = extract_file(f, tmp_path, Settings()).blocks
    assert [(b.kind, b.section) for b in blocks] == [("heading", "Trip cancellation"),
                                                      ("text", "Trip cancellation")]
