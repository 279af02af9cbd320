"""DOCX text the python-docx API leaves out reaches the index: nested tables, text boxes, headers,
footers, list numbers, tracked insertions (and not deletions)."""

from __future__ import annotations

from pathlib import Path

from docx import Document
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from core.config import Settings
from core.types import ExtractedDocument
from indexer.extract import extract_file

W = nsdecls("w")
TEXTBOX = f"""<w:r {W} xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"
  xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
  xmlns:v="urn:schemas-microsoft-com:vml">
  <mc:AlternateContent>
    <mc:Choice Requires="wps"><w:drawing><wps:wsp><wps:txbx><w:txbxContent>
      <w:p><w:r><w:t>Call the hotline on 555-0100.</w:t></w:r></w:p>
    </w:txbxContent></wps:txbx></wps:wsp></w:drawing></mc:Choice>
    <mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>
      <w:p><w:r><w:t>Call the hotline on 555-0100.</w:t></w:r></w:p>
    </w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>
  </mc:AlternateContent></w:r>"""
TRACKED = f"""<w:p {W}>
  <w:r><w:t xml:space="preserve">Meals are capped at </w:t></w:r>
  <w:del w:id="1" w:author="HR" w:date="2024-01-01T00:00:00Z"><w:r><w:delText>$40</w:delText></w:r></w:del>
  <w:ins w:id="2" w:author="HR" w:date="2024-01-01T00:00:00Z"><w:r><w:t>$55</w:t></w:r></w:ins>
  <w:r><w:t xml:space="preserve"> per day.</w:t></w:r></w:p>"""


def extract(doc: object, tmp_path: Path) -> ExtractedDocument:
    f = tmp_path / "policy.docx"
    doc.save(str(f))  # type: ignore[attr-defined]
    return extract_file(f, tmp_path, Settings())


def texts(doc: ExtractedDocument) -> list[str]:
    return [b.text for b in doc.blocks]


def test_nested_table_text_is_indexed(tmp_path: Path) -> None:
    doc = Document()
    outer = doc.add_table(rows=2, cols=2)
    outer.cell(0, 0).text, outer.cell(0, 1).text = "Item", "Limit"
    outer.cell(1, 0).text = "Hotel"
    inner = outer.cell(1, 1).add_table(rows=2, cols=2)
    inner.cell(0, 0).text, inner.cell(0, 1).text = "London", "GBP 250"
    inner.cell(1, 0).text, inner.cell(1, 1).text = "Paris", "EUR 220"
    body = "\n".join(texts(extract(doc, tmp_path)))
    assert "GBP 250" in body and "EUR 220" in body


def test_text_box_is_indexed_once(tmp_path: Path) -> None:
    doc = Document()
    para = doc.add_paragraph("Report misconduct.")
    para._p.append(parse_xml(TEXTBOX))
    found = texts(extract(doc, tmp_path))
    assert found.count("Call the hotline on 555-0100.") == 1
    assert found.index("Report misconduct.") < found.index("Call the hotline on 555-0100.")


def test_header_and_footer_are_indexed(tmp_path: Path) -> None:
    doc = Document()
    doc.add_paragraph("Body text.")
    doc.sections[0].header.paragraphs[0].text = "Contoso Travel Policy v3"
    doc.sections[0].footer.paragraphs[0].text = "Owner: hr@contoso.example"
    blocks = extract(doc, tmp_path).blocks
    assert ("Header", "Contoso Travel Policy v3") in [(b.section, b.text) for b in blocks]
    assert ("Footer", "Owner: hr@contoso.example") in [(b.section, b.text) for b in blocks]


def test_numbered_and_bulleted_lists_carry_labels(tmp_path: Path) -> None:
    doc = Document()
    doc.add_paragraph("Book through the portal.", style="List Number")
    doc.add_paragraph("Keep the receipts.", style="List Number")
    doc.add_paragraph("Economy class only.", style="List Bullet")
    found = texts(extract(doc, tmp_path))
    assert found == ["1. Book through the portal.", "2. Keep the receipts.", "• Economy class only."]


def test_letter_numbering_from_paragraph_properties(tmp_path: Path) -> None:
    doc = Document()
    numbering = doc.part.numbering_part.element
    numbering.append(parse_xml(
        f'<w:abstractNum {W} w:abstractNumId="90"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
        '<w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%1)"/></w:lvl></w:abstractNum>'))
    numbering.append(parse_xml(f'<w:num {W} w:numId="90"><w:abstractNumId w:val="90"/></w:num>'))
    for text in ("Flights", "Hotels"):
        para = doc.add_paragraph(text)
        para._p.get_or_add_pPr().append(parse_xml(
            f'<w:numPr {W}><w:ilvl w:val="0"/><w:numId w:val="90"/></w:numPr>'))
    assert texts(extract(doc, tmp_path)) == ["a) Flights", "b) Hotels"]


def test_tracked_insertion_kept_and_deletion_dropped(tmp_path: Path) -> None:
    doc = Document()
    doc.element.body.insert(0, parse_xml(TRACKED))
    found = texts(extract(doc, tmp_path))
    assert found == ["Meals are capped at $55 per day."]
