"""PDF page text through PDFium: word gaps made by TJ offsets (0.12 em, as in the corpus; PDFium itself
puts a space only from ~0.15 em), font sizes set through the text matrix."""

from __future__ import annotations

from pathlib import Path

from core.config import Settings
from indexer.extract import extract_file


def _pdf(content: bytes, kids: bytes = b"3 0 R", count: int = 1) -> bytes:
    """A PDF (Helvetica as /F1) whose page tree lists ``kids`` (``count`` of them) and whose page
    (object 3) shows the content stream ``content``."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count),
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


_SENTENCE = b"BT /F1 12 Tf 72 700 Td (The heron policy allows remote work two days a week.) Tj ET"


def _text(path: Path) -> str:
    return " ".join(b.text for b in extract_file(path, path.parent, Settings()).blocks)


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


def test_letter_spaced_line_keeps_its_words(tmp_path: Path) -> None:
    # character spacing (Tc) of 0.125 em: every letter gap is wider than WORD_GAP, as on the
    # justified lines of a corpus insurance policy ("m a ki n g t h e m a cce s s i b l e")
    f = tmp_path / "tracked.pdf"
    f.write_bytes(_pdf(b"BT /F1 12 Tf 1.5 Tc 72 700 Td (Employee travel policy summary) Tj ET"))
    assert "Employee travel policy summary" in _text(f)


def test_page_pdfium_cannot_load_is_read_through_pypdf(tmp_path: Path) -> None:
    # a null kid in the page tree: pypdf skips it, PDFium counts it as page 1 and cannot load it
    f = tmp_path / "nullkid.pdf"
    f.write_bytes(_pdf(_SENTENCE, kids=b"null 3 0 R", count=2))
    assert "heron policy allows remote work" in _text(f)


def test_pdf_without_cross_reference_table_is_read_from_pdfiums_copy(tmp_path: Path) -> None:
    good = _pdf(_SENTENCE)
    f = tmp_path / "noxref.pdf"  # pypdf: "startxref not found"; PDFium rebuilds the table
    f.write_bytes(good[:good.index(b"xref\n")] + b"trailer\n<< /Root 1 0 R >>\n%%EOF\n")
    doc = extract_file(f, tmp_path, Settings())
    assert "heron policy allows remote work" in " ".join(b.text for b in doc.blocks)
    assert any("repaired by PDFium" in w for w in doc.warnings)


def test_control_characters_in_page_text_are_dropped(tmp_path: Path) -> None:
    f = tmp_path / "ctrl.pdf"
    f.write_bytes(_pdf(b"BT /F1 12 Tf 72 700 Td (Tea \x1b[31mis\x07 free\x01 for staff.) Tj ET"))
    text = _text(f)
    assert "Tea [31mis free for staff." in text and not any(c in text for c in "\x1b\x07\x01")


def test_pages_that_are_all_alike_keep_their_text(tmp_path: Path) -> None:
    # the same page listed three times: its lines repeat on every page, yet they are the content
    f = tmp_path / "same.pdf"
    f.write_bytes(_pdf(_SENTENCE, kids=b"3 0 R 3 0 R 3 0 R", count=3))
    assert "heron policy allows remote work" in _text(f)


def test_line_end_hyphen_match_never_starts_inside_a_word() -> None:
    from indexer.extract.normalize import _LINE_END_HYPHEN, join_hyphenated

    # anchored at word starts, a 20,000-letter line is scanned once instead of once per suffix
    assert _LINE_END_HYPHEN.search("insur-\nance", 1) is None
    assert join_hyphenated("x" * 20000 + " insur-\nance") == "x" * 20000 + " insurance"


def test_largest_pdf_page_renders_for_ocr_within_the_pixel_cap() -> None:
    import pypdfium2 as pdfium

    from indexer.extract.pdfium_page import MAX_RENDER_PIXELS, render

    pdoc = pdfium.PdfDocument.new()
    huge, letter = pdoc.new_page(14400, 14400), pdoc.new_page(612, 792)  # 200 inches: 1.6 G px at 200 dpi
    image = render(huge, 200)
    assert image.width * image.height <= MAX_RENDER_PIXELS and image.width > 7000
    assert render(letter, 200).size == (1700, 2200)  # ordinary pages keep the requested dpi


def test_text_pdfium_drops_is_read_through_pypdf(tmp_path: Path) -> None:
    # a text object without a font selection (no Tf): PDFium shows and extracts nothing, pypdf reads it
    f = tmp_path / "nofont.pdf"
    f.write_bytes(_pdf(_SENTENCE.replace(b"/F1 12 Tf ", b"")))
    assert "heron policy allows remote work" in _text(f)


def test_rules_in_an_uncompressed_content_stream_are_counted(tmp_path: Path) -> None:
    import pypdf

    from indexer.extract.pdf_objects import count_rules

    f = tmp_path / "rules.pdf"  # pypdf's decoded stream has an empty dictionary, which is falsy
    f.write_bytes(_pdf(b"\n".join(b"72 %d 400 0.5 re f" % (700 - 20 * i) for i in range(9))))
    assert count_rules(pypdf.PdfReader(f).pages[0]) == 9
