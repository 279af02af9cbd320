"""Generated documents with every construct of issue 14 items 1–3, per format: every string a reader
sees is in the extracted text, and none that a reader never sees.

DOCX: python-docx plus raw WordprocessingML (lxml); PDF: fpdf2, with pypdf adding a filled AcroForm
field; text: bytes in each encoding."""

from __future__ import annotations

import codecs
import io
import random
import shutil
from pathlib import Path

import pytest
from docx import Document
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

from core.config import Settings
from core.types import ExtractedDocument
from indexer.extract import extract_file
from indexer.extract.ocr import FakeOcr

W = nsdecls("w", "r")
MC = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
DRAWING = ('xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
           'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
           'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
           'xmlns:v="urn:schemas-microsoft-com:vml"')


def text_of(doc: ExtractedDocument) -> str:
    return "\n".join(b.text for b in doc.blocks)


# ---- DOCX ---------------------------------------------------------------------------------------
TEXT_BOX = """<w:txbxContent><w:p><w:r><w:t xml:space="preserve">Text box: shuttle leaves at 7:40.</w:t></w:r>
  <w:r><w:rPr><w:vanish/></w:rPr><w:t>HIDDEN-IN-BOX-31</w:t></w:r></w:p></w:txbxContent>"""
DOCX_BODY = f"""<w:body {W} {MC} {DRAWING}>
  <w:sdt><w:sdtPr><w:alias w:val="Cover"/></w:sdtPr><w:sdtContent>
    <w:p><w:r><w:t>Block control: the plan starts on 1 March 2026.</w:t></w:r></w:p>
  </w:sdtContent></w:sdt>
  <w:p><w:r><w:t xml:space="preserve">Deadline: </w:t></w:r>
    <w:sdt><w:sdtPr><w:alias w:val="Date"/></w:sdtPr><w:sdtContent>
      <w:r><w:t>15 April</w:t></w:r></w:sdtContent></w:sdt>
    <w:r><w:t xml:space="preserve"> each year.</w:t></w:r>
    <w:r><w:endnoteReference w:id="3"/></w:r></w:p>
  <w:p><w:r><w:t xml:space="preserve">Anchor paragraph.</w:t></w:r>
    <w:r><mc:AlternateContent>
      <mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:extent cx="1" cy="1"/>
        <a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">
          <wps:wsp><wps:txbx>{TEXT_BOX}</wps:txbx></wps:wsp>
        </a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>
      <mc:Fallback><w:pict><v:shape><v:textbox>{TEXT_BOX}</v:textbox></v:shape></w:pict></mc:Fallback>
    </mc:AlternateContent></w:r></w:p>
  <w:p><w:r><w:t xml:space="preserve">Office days: 2</w:t><w:noBreakHyphen/><w:t>3 per week, reim</w:t>
    <w:softHyphen/><w:t xml:space="preserve">bursed monthly.</w:t><w:tab/><w:t>Tabbed</w:t>
    <w:br/>
    <w:t>After a break.</w:t></w:r></w:p>
  <w:p><w:r><w:t xml:space="preserve">Temperature above 38 </w:t></w:r>
    <w:r><w:sym w:font="Symbol" w:char="F0B0"/></w:r><w:r><w:t xml:space="preserve">C, approved </w:t></w:r>
    <w:r><w:sym w:font="Wingdings" w:char="F0FC"/></w:r></w:p>
  <w:p><w:r><w:t xml:space="preserve">Cap: </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>
    <w:r><w:instrText xml:space="preserve"> MERGEFIELD Secret_Code </w:instrText></w:r>
    <w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>EUR 750</w:t></w:r>
    <w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve"> a year.</w:t></w:r></w:p>
  <w:p><w:r><w:t xml:space="preserve">Visible start </w:t></w:r>
    <w:r><w:rPr><w:vanish/></w:rPr><w:t>HIDDEN-DRAFT-9999</w:t></w:r>
    <w:commentRangeStart w:id="0"/><w:r><w:t>commented words</w:t></w:r><w:commentRangeEnd w:id="0"/>
    <w:r><w:commentReference w:id="0"/></w:r>
    <w:r><w:t xml:space="preserve"> end.</w:t></w:r>
    <w:r><w:footnoteReference w:id="2"/></w:r></w:p>
  <w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>
    <w:tr><w:tc><w:p><w:r><w:t>Grade</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Rate</w:t></w:r></w:p></w:tc></w:tr>
    <w:sdt><w:sdtContent><w:tr>
      <w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>Grade A</w:t></w:r></w:p></w:tc>
      <w:sdt><w:sdtContent>
        <w:tc><w:p><w:r><w:t>Row control 41</w:t></w:r></w:p></w:tc>
      </w:sdtContent></w:sdt>
    </w:tr></w:sdtContent></w:sdt>
    <w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc>
      <w:tc><w:p><w:r><w:t>Merged 43</w:t></w:r></w:p></w:tc></w:tr>
  </w:tbl>
  <w:p><w:del w:id="5" w:author="a" w:date="2024-01-01T00:00:00Z">
    <w:r><w:delText>DELETED-OLD-55</w:delText></w:r></w:del>
    <w:ins w:id="6" w:author="a" w:date="2024-01-01T00:00:00Z">
      <w:r><w:t>Inserted 66.</w:t></w:r></w:ins></w:p>
  <w:p><w:r><w:t xml:space="preserve">Policy owner: </w:t></w:r>
    <w:fldSimple w:instr=" DOCPROPERTY OwnerCode \\* MERGEFORMAT "><w:r><w:t>HR Operations</w:t></w:r>
    </w:fldSimple>
    <w:r><w:t>.</w:t></w:r></w:p>
  <w:p><w:r><w:t>Locker rules</w:t><w:cr/><w:t>Lockers are emptied on Fridays.</w:t></w:r></w:p>
  <w:altChunk r:id="rIdAlt"/>
  <w:altChunk r:id="rIdAltTxt"/>
  <w:sectPr/>
</w:body>"""
FOOTNOTES = f"""<w:footnotes {W}>
  <w:footnote w:type="separator" w:id="0"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
  <w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r>
    <w:r><w:t xml:space="preserve"> Note text: claims within 90 days.</w:t></w:r>
  </w:p></w:footnote></w:footnotes>"""
ENDNOTES = f"""<w:endnotes {W}>
  <w:endnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:endnote>
  <w:endnote w:id="3"><w:p><w:r><w:endnoteRef/></w:r>
    <w:r><w:t xml:space="preserve"> Endnote text: late claims are refused.</w:t></w:r>
  </w:p></w:endnote></w:endnotes>"""
COMMENTS = f"""<w:comments {W}><w:comment w:id="0" w:author="a"><w:p><w:r><w:t>COMMENT-SECRET-77</w:t></w:r>
  </w:p></w:comment></w:comments>"""
ALT_TEXT = "Imported text: the locker deposit is 10 €.\r\nIt is refunded on leaving.\r\n".encode()
ALT_HTML = b"<html><head><title>TITLE-HIDDEN</title></head><body><p>Imported HTML: parking costs EUR 5.</p>" \
           b"<!-- HTML-COMMENT-HIDDEN --></body></html>"


def _add_part(doc: object, name: str, content_type: str, blob: bytes, reltype: str, rid: str = "") -> None:
    part = Part(PackURI(name), content_type, blob, doc.part.package)  # type: ignore[attr-defined]
    if rid:
        doc.part.rels.add_relationship(reltype, part, rid)  # type: ignore[attr-defined]
    else:
        doc.part.relate_to(part, reltype)  # type: ignore[attr-defined]


def build_docx(path: Path) -> None:
    doc = Document()
    body = doc.element.body
    for child in list(body):
        body.remove(child)
    for child in parse_xml(DOCX_BODY):
        body.append(child)
    wml = "application/vnd.openxmlformats-officedocument.wordprocessingml"
    _add_part(doc, "/word/footnotes.xml", f"{wml}.footnotes+xml", FOOTNOTES.encode(), RT.FOOTNOTES)
    _add_part(doc, "/word/endnotes.xml", f"{wml}.endnotes+xml", ENDNOTES.encode(), RT.ENDNOTES)
    _add_part(doc, "/word/comments.xml", f"{wml}.comments+xml", COMMENTS.encode(), RT.COMMENTS)
    _add_part(doc, "/word/afchunk.html", "text/html", ALT_HTML, RT.A_F_CHUNK, "rIdAlt")
    _add_part(doc, "/word/afchunk2.txt", "text/plain", ALT_TEXT, RT.A_F_CHUNK, "rIdAltTxt")
    section = doc.sections[0]
    section.different_first_page_header_footer = True  # the same text on the first page: indexed once
    for header in (section.header, section.first_page_header):
        header.paragraphs[0].text = "Header line once"
    section.footer.paragraphs[0].text = "Footer line once"
    doc.save(str(path))


# Headers and footers are what every printed page of the policy shows (issue 14 item 1: "headers/footers
# once"), so their text is indexed, once per distinct text, unlike PDF page furniture that is removed.
DOCX_VISIBLE = ["Block control: the plan starts on 1 March 2026.", "Deadline: 15 April each year.",
                "Endnote 1: Endnote text: late claims are refused.", "Anchor paragraph.",
                "Text box: shuttle leaves at 7:40.", "Footer line once",
                "Office days: 2-3 per week, reimbursed monthly.",
                "Tabbed", "After a break.", "38 °C, approved ✓", "Cap: EUR 750 a year.",
                "Visible start commented words end.", "Footnote 1: Note text: claims within 90 days.",
                "| Grade A | Row control 41 |", "| Grade A | Merged 43 |", "Inserted 66.",
                "Imported HTML: parking costs EUR 5.", "Header line once", "Policy owner: HR Operations.",
                "Locker rules", "Lockers are emptied on Fridays.",
                "Imported text: the locker deposit is 10 €.", "It is refunded on leaving."]
DOCX_HIDDEN = ["HIDDEN-DRAFT-9999", "HIDDEN-IN-BOX-31", "COMMENT-SECRET-77", "Secret_Code", "MERGEFIELD",
               "OwnerCode", "DOCPROPERTY", "\r",
               "DELETED-OLD-55",
               "TITLE-HIDDEN", "HTML-COMMENT-HIDDEN", "\u00ad"]


def _docx(tmp_path: Path) -> ExtractedDocument:
    build_docx(tmp_path / "policy.docx")
    return extract_file(tmp_path / "policy.docx", tmp_path, Settings())


def test_docx_every_visible_string_in_no_hidden_one(tmp_path: Path) -> None:
    doc = _docx(tmp_path)
    text = text_of(doc)
    missing = [s for s in DOCX_VISIBLE if s not in text]
    leaked = [s for s in DOCX_HIDDEN if s in text]
    assert not missing and not leaked, (missing, leaked, text)
    assert doc.report.tables == 1 and doc.report.hidden_removed == 3
    assert not doc.report.partial


def test_docx_text_box_control_header_and_footer_are_read_once(tmp_path: Path) -> None:
    text = text_of(_docx(tmp_path))
    counts = {s: text.count(s) for s in ("Text box: shuttle", "15 April", "Header line once",
                                         "Footer line once")}
    assert set(counts.values()) == {1}, counts


def test_docx_simple_field_carriage_return_and_plain_text_altchunk_read_in_place(tmp_path: Path) -> None:
    """``w:fldSimple`` shows its result where it stands, ``w:cr`` breaks the line, and an altChunk of type
    text/plain is read as text (CRLF line ends normalised), after the HTML one as in the body."""
    texts = [b.text for b in _docx(tmp_path).blocks]
    assert "Policy owner: HR Operations." in texts
    assert "Locker rules\nLockers are emptied on Fridays." in texts
    html = texts.index("Imported HTML: parking costs EUR 5.")
    assert texts[html + 1] == "Imported text: the locker deposit is 10 €.\nIt is refunded on leaving."


def test_docx_footnotes_and_endnotes_follow_their_paragraph_as_notes(tmp_path: Path) -> None:
    doc = _docx(tmp_path)
    texts = [(b.kind, b.text) for b in doc.blocks]
    for anchor, note in (("Deadline: 15 April each year.",
                          "Endnote 1: Endnote text: late claims are refused."),
                         ("Visible start commented words end.",
                          "Footnote 1: Note text: claims within 90 days.")):
        assert texts[texts.index(("text", anchor)) + 1] == ("note", note)
    assert doc.report.notes == 2


def test_docx_altchunk_in_rtf_is_reported_not_read(tmp_path: Path) -> None:
    doc = Document()
    doc.add_paragraph("Body.")
    doc.element.body.insert(1, parse_xml(f'<w:altChunk {W} r:id="rIdRtf"/>'))
    _add_part(doc, "/word/part1.rtf", "application/rtf", b"{\\rtf1 RTF text}", RT.A_F_CHUNK, "rIdRtf")
    doc.save(str(tmp_path / "alt.docx"))
    report = extract_file(tmp_path / "alt.docx", tmp_path, Settings()).report
    assert report.not_read == ["altChunk part1.rtf (application/rtf)"] and report.partial


def test_docx_hidden_paragraph_style_hides_text_in_cells_and_headers_too(tmp_path: Path) -> None:
    from docx.enum.style import WD_STYLE_TYPE

    doc = Document()
    hidden = doc.styles.add_style("DraftNote", WD_STYLE_TYPE.PARAGRAPH)
    hidden.font.hidden = True
    doc.add_paragraph("Body visible.")
    doc.add_paragraph("HIDDEN-BODY-1", style=hidden)
    table = doc.add_table(rows=2, cols=2)
    for cell, text in zip(table._cells, ("Grade", "Rate", "A", "EUR 41"), strict=True):
        cell.text = text
    table.cell(1, 1).add_paragraph("HIDDEN-CELL-2", style=hidden)
    doc.sections[0].header.paragraphs[0].text = "Header visible"
    doc.sections[0].header.add_paragraph("HIDDEN-HEADER-3", style=hidden)
    doc.save(str(tmp_path / "styled.docx"))
    extracted = extract_file(tmp_path / "styled.docx", tmp_path, Settings())
    text = text_of(extracted)
    assert "| A | EUR 41 |" in text and "Header visible" in text
    assert [h for h in ("HIDDEN-BODY-1", "HIDDEN-CELL-2", "HIDDEN-HEADER-3") if h in text] == []


def test_docx_note_referenced_in_a_one_cell_layout_table_is_indexed_once(tmp_path: Path) -> None:
    doc = Document()
    doc.element.body.insert(0, parse_xml(
        f"<w:tbl {W}><w:tblGrid><w:gridCol/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>Callout: see note.</w:t>"
        '</w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p></w:tc></w:tr></w:tbl>'))
    wml = "application/vnd.openxmlformats-officedocument.wordprocessingml"
    _add_part(doc, "/word/footnotes.xml", f"{wml}.footnotes+xml", FOOTNOTES.encode(), RT.FOOTNOTES)
    doc.save(str(tmp_path / "callout.docx"))
    extracted = extract_file(tmp_path / "callout.docx", tmp_path, Settings())
    assert [(b.kind, b.text) for b in extracted.blocks] == [
        ("text", "Callout: see note."), ("note", "Footnote 1: Note text: claims within 90 days.")]
    assert extracted.report.notes == 1


def _boxed(text: str, run_props: str = "") -> str:
    return (f"<w:r>{run_props}<w:drawing><wp:anchor><a:graphic><a:graphicData uri=\"x\"><wps:wsp><wps:txbx>"
            f"<w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent>"
            "</wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>")


def test_docx_text_box_in_a_deleted_or_hidden_run_is_not_indexed(tmp_path: Path) -> None:
    tracked = 'w:id="9" w:author="a" w:date="2024-01-01T00:00:00Z"'
    anchors = (f"<w:r><w:t>Kept.</w:t></w:r>{_boxed('Shown box 12.')}"
               f"<w:del {tracked}>{_boxed('DELETED-BOX-1')}</w:del>"
               f"<w:moveFrom {tracked}>{_boxed('MOVED-AWAY-BOX-2')}</w:moveFrom>"
               f"{_boxed('HIDDEN-BOX-3', '<w:rPr><w:vanish/></w:rPr>')}")
    doc = Document()
    body = doc.element.body
    body.insert(0, parse_xml(f"<w:p {W} {DRAWING}>{anchors}</w:p>"))
    body.insert(1, parse_xml(f"<w:tbl {W} {DRAWING}><w:tblGrid><w:gridCol/></w:tblGrid><w:tr><w:tc>"
                             f"<w:p>{anchors.replace('box', 'cell box')}</w:p></w:tc></w:tr></w:tbl>"))
    doc.save(str(tmp_path / "boxes.docx"))
    extracted = extract_file(tmp_path / "boxes.docx", tmp_path, Settings())
    text = text_of(extracted)
    assert text.count("Shown box 12.") == 1 and text.count("Shown cell box 12.") == 1, text
    assert [h for h in ("DELETED", "MOVED-AWAY", "HIDDEN") if h in text] == [], text
    assert extracted.report.hidden_removed == 2


# ---- PDF ----------------------------------------------------------------------------------------
class _Policy(FPDF):
    """Pages with a running header and a footer whose page number changes."""

    def header(self) -> None:
        self.set_font("helvetica", size=9)
        self.cell(0, 8, "Acme Insurance - Member Handbook", new_x="LMARGIN", new_y="NEXT")

    def footer(self) -> None:
        self.set_y(-15)
        self.set_font("helvetica", size=9)
        self.cell(0, 8, f"Confidential - page {self.page_no()} of {{nb}}")


FILLER = ("member receipt claim portal keeps every submits within days approved manager travel booking "
          "hotel meals taxi rail flight economy receipts original copies scanned reviewed finance team")
ZONES = ("", "northern cities", "coastal towns", "mountain resorts")


def build_pdf(path: Path, pages: int) -> None:
    pdf = _Policy()
    pdf.set_auto_page_break(True, margin=25)
    pdf.add_page()
    pdf.set_font("helvetica", "B", 16)
    pdf.cell(0, 10, "Travel Benefits", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", size=11)
    with pdf.table(col_widths=(30, 60, 60), text_align="LEFT") as table:
        table.row(["Grade", "City", "Allowance"])
        row = table.row()
        row.cell("A", rowspan=2)
        row.cell("Lyon")
        row.cell("EUR 41")
        row = table.row()
        row.cell("Nice")
        row.cell("EUR 47")
    words = random.Random(7).choices(FILLER.split(), k=4000)
    for n in range(1, pages):
        while pdf.get_y() < 250:
            sentence, words = " ".join(words[:30]).capitalize() + ".", words[30:]
            pdf.multi_cell(0, 6, sentence, new_x="LMARGIN", new_y="NEXT")
        pdf.multi_cell(0, 6, f"Hotel costs in {ZONES[n]} are reimbursed up to", new_x="LMARGIN", new_y="NEXT")
        pdf.add_page()
        pdf.multi_cell(0, 6, f"the {ZONES[n]} rate per night, provided that the booking was made in time.",
                       new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


@pytest.mark.parametrize("pages", [2, 3])
def test_pdf_table_furniture_and_sentence_across_pages(tmp_path: Path, pages: int) -> None:
    build_pdf(tmp_path / "handbook.pdf", pages)
    doc = extract_file(tmp_path / "handbook.pdf", tmp_path, Settings())
    text = text_of(doc)
    assert "| A | Nice | EUR 47 |" in text and "| A | Lyon | EUR 41 |" in text
    for n in range(1, pages):
        zone = ZONES[n]
        assert f"Hotel costs in {zone} are reimbursed up to\nthe {zone} rate per night, provided" in text
    assert "Acme Insurance - Member Handbook" not in text and "Confidential - page" not in text
    assert doc.report.furniture_lines == 2 * pages


def test_pdf_filled_form_field_is_indexed_beside_its_label(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, TextStringObject

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.text(20, 30, "Approved budget:")
    buf = io.BytesIO(pdf.output())
    writer = PdfWriter(clone_from=PdfReader(buf))
    page = writer.pages[0]
    top = float(page.mediabox.height) - 30 * 72 / 25.4
    field = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Widget"),
        NameObject("/FT"): NameObject("/Tx"), NameObject("/T"): TextStringObject("budget"),
        NameObject("/V"): TextStringObject("EUR 12,500"),
        NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (200, top - 4, 350, top + 12)])})
    ref = writer._add_object(field)
    page[NameObject("/Annots")] = ArrayObject([ref])
    form = DictionaryObject({NameObject("/Fields"): ArrayObject([ref])})
    writer._root_object[NameObject("/AcroForm")] = form
    writer.write(str(tmp_path / "form.pdf"))
    doc = extract_file(tmp_path / "form.pdf", tmp_path, Settings())
    assert [(b.kind, b.text) for b in doc.blocks if b.kind == "form_field"] == [
        ("form_field", "Approved budget: EUR 12,500")]
    assert doc.report.form_fields == 1


def _scan(path: Path, angle: int) -> None:
    image = Image.new("L", (1240, 1754), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=40)
    lines = ["TRAVEL SAFETY POLICY", "Employees travelling abroad register",
             "their trip with the security desk", "at least five days before departure.",
             "The desk answers within two working days."]
    for i, line in enumerate(lines):
        draw.text((120, 200 + 80 * i), line, fill=0, font=font)
    image = image.rotate(angle, expand=True)
    image.save(path.with_suffix(".png"))
    pdf = FPDF(unit="pt", format=(image.width * 0.48, image.height * 0.48))
    pdf.add_page()
    pdf.image(str(path.with_suffix(".png")), x=0, y=0, w=image.width * 0.48, h=image.height * 0.48)
    pdf.output(str(path))


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract (make system-deps)")
def test_pdf_scan_on_its_side_is_read_upright(tmp_path: Path) -> None:
    _scan(tmp_path / "scan.pdf", 90)
    doc = extract_file(tmp_path / "scan.pdf", tmp_path, Settings())
    assert "at least five days before departure" in text_of(doc)
    assert doc.report.ocr_pages == [1] and not doc.needs_ocr_pages


def test_pdf_scan_whose_ocr_is_not_words_needs_ocr(tmp_path: Path) -> None:
    _scan(tmp_path / "scan.pdf", 0)
    noise = " ".join(["qxv", "Jzk", "lpw", "vvx", "rrt", "mzq", "bbk", "xqj"] * 3)
    doc = extract_file(tmp_path / "scan.pdf", tmp_path, Settings(), ocr=FakeOcr([noise], 55.0, rotate=None))
    assert doc.needs_ocr_pages == [1] and "qxv" not in text_of(doc)


# ---- text ---------------------------------------------------------------------------------------
TEXT = "Zuschläge für Überstunden: 25 % – café, naïve, €\n"


@pytest.mark.parametrize(("data", "encoding"), [
    (codecs.BOM_UTF8 + TEXT.encode("utf-8"), "utf-8 (BOM)"),
    (codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"), "utf-16-le (BOM)"),
    (codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"), "utf-16-be (BOM)"),
    (codecs.BOM_UTF32_LE + TEXT.encode("utf-32-le"), "utf-32-le (BOM)"),
    (codecs.BOM_UTF32_BE + TEXT.encode("utf-32-be"), "utf-32-be (BOM)"),
    (TEXT.encode("utf-8"), "utf-8"),
    (TEXT.encode("utf-16-le"), "utf-16-le (no BOM)"),
    (TEXT.encode("cp1252"), "cp1252"),
])
def test_text_file_in_each_encoding_keeps_every_character(tmp_path: Path, data: bytes, encoding: str) -> None:
    (tmp_path / "policy.txt").write_bytes(data)
    doc = extract_file(tmp_path / "policy.txt", tmp_path, Settings())
    assert text_of(doc) == TEXT.strip() and doc.report.encoding == encoding


def test_text_in_another_code_page_is_detected(tmp_path: Path) -> None:
    text = "Сотрудники получают 28 дней оплачиваемого отпуска в год. Заявление подаётся заранее."
    (tmp_path / "policy.txt").write_bytes(text.encode("cp1251"))
    doc = extract_file(tmp_path / "policy.txt", tmp_path, Settings())
    assert text_of(doc) == text and doc.report.encoding.endswith("(detected)")


MARKDOWN = """---
title: FRONT-MATTER-HIDDEN
---
# Leave

Visible rule: 26 days.<!-- INLINE-HIDDEN --> Still visible.

<!--
## Old rule
OLD-RULE-HIDDEN 30 days.
-->

```
<!-- code stays: FENCED-VISIBLE -->
```
Use `<!-- SPAN-VISIBLE -->` literally.
"""


def test_markdown_front_matter_and_comments_are_removed(tmp_path: Path) -> None:
    (tmp_path / "leave.md").write_text(MARKDOWN, encoding="utf-8")
    doc = extract_file(tmp_path / "leave.md", tmp_path, Settings())
    text = text_of(doc)
    for visible in ("Visible rule: 26 days.", "Still visible.", "FENCED-VISIBLE", "SPAN-VISIBLE"):
        assert visible in text
    for hidden in ("FRONT-MATTER-HIDDEN", "INLINE-HIDDEN", "OLD-RULE-HIDDEN", "Old rule"):
        assert hidden not in text
    assert doc.report.hidden_removed == 3


def test_markdown_with_windows_line_endings_loses_front_matter_and_comments_too(tmp_path: Path) -> None:
    (tmp_path / "leave.md").write_bytes(MARKDOWN.replace("\n", "\r\n").encode("utf-8"))
    doc = extract_file(tmp_path / "leave.md", tmp_path, Settings())
    text = text_of(doc)
    assert "Visible rule: 26 days." in text and "FENCED-VISIBLE" in text
    assert [h for h in ("FRONT-MATTER-HIDDEN", "INLINE-HIDDEN", "OLD-RULE-HIDDEN") if h in text] == [], text
    assert doc.report.hidden_removed == 3
