"""DOCX extraction: the body walked in document order as Word renders it, with python-docx
(https://python-docx.readthedocs.io) for the package, styles and relationships and lxml for the rest.

- Content controls (``w:sdt``) and custom XML at block, row, cell and run level are looked through
  (:mod:`indexer.extract.docx_parts`); their text is ordinary text.
- Heading styles ("Title", "Heading 1".."Heading 9", or a style with an outline level) give each
  block its section path, e.g. ``"Travel > Meals"``.
- Tables become markdown blocks, split with a repeated header when larger than
  ``extraction.table_max_tokens``; a cell merged down repeats its text in each row it spans; a
  nested table's text stays in its outer cell.
- Run text as Word shows it (:mod:`indexer.extract.docx_text`): non-breaking and soft hyphens,
  symbols, tabs and breaks, field results (not codes), tracked insertions in and deletions out;
  hidden text (``w:vanish``) and comments left out and counted in the report.
- Footnotes and endnotes follow the paragraph (or table) that references them as ``note`` blocks
  ("Footnote 1: …"); text boxes follow the paragraph they are anchored in; list paragraphs carry
  their rendered label ("2.", "a)", "•").
- ``w:altChunk`` parts (HTML, plain text, Word) are read in place; others (RTF, MHT) and embedded
  OLE objects are listed in the report's ``not_read`` (the file counts as partly read).
- Each distinct header and footer is added once at the end (section "Header" / "Footer").
"""

from __future__ import annotations

import logging
import re
import zipfile
from pathlib import Path
from typing import Any

from docx import Document
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.text.paragraph import Paragraph

from core.config import ExtractionSettings
from core.errors import ExtractionError
from core.types import Block, BlockKind, ExtractedDocument, ExtractionReport
from indexer.extract.docx_numbering import Numbering
from indexer.extract.docx_parts import Notes, alt_chunk, comment_count, table_rows
from indexer.extract.docx_text import (
    W_P,
    TextState,
    cell_paragraphs,
    hidden_styles,
    paragraph_text,
    textbox_paragraphs,
)
from indexer.extract.normalize import nfkc
from indexer.extract.tables import clean_rows, split_markdown_table, to_markdown, within_tokens

log = logging.getLogger(__name__)

_HEADING = re.compile(r"^(?:heading\s*(\d)|title)$", re.I)
_CONTAINERS = {qn("w:customXml"), qn("w:ins"), qn("w:moveTo")}


def extract_docx(path: Path, rel: str, settings: ExtractionSettings) -> ExtractedDocument:
    """Blocks of a .docx in body order; headings update the section path.

    Raises:
        ExtractionError: not a valid Office Open XML package (zip) or unreadable.
    """
    try:
        doc = Document(str(path))
        walker = _Walker(doc, rel, settings)
        return walker.run()
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError, AttributeError,
            TypeError, IndexError) as exc:  # a zip that is not a Word package, or a package missing its parts
        detail = " ".join(str(exc).split())[:120]
        raise ExtractionError(f"not a valid Word document ({type(exc).__name__}"
                              f"{': ' + detail if detail else ''}); open it in Word and save it as "
                              ".docx again") from None


class _Walker:
    """One pass over a document's body, collecting blocks and the extraction report."""

    def __init__(self, doc: Any, rel: str, settings: ExtractionSettings) -> None:
        self.doc, self.rel, self.settings = doc, rel, settings
        self.state = TextState(hidden_styles=hidden_styles(doc.styles.element))
        self.numbering = Numbering(doc)
        self.notes = Notes(doc, self.state)
        self.blocks: list[Block] = []
        self.headings: list[tuple[int, str]] = []
        self.report = ExtractionReport()

    def run(self) -> ExtractedDocument:
        self.walk(self.doc.element.body)
        self.blocks.extend(self.header_footer_blocks())
        self.report.hidden_removed = self.state.hidden_removed + comment_count(self.doc)
        self.report.notes = sum(self.notes.count.values())
        if self.state.objects:
            self.report.not_read.append(f"{self.state.objects} embedded object(s) (OLE)")
        return ExtractedDocument(path=self.rel, blocks=self.blocks, pages=0, report=self.report,
                                 metadata_title=" ".join((self.doc.core_properties.title or "").split()))

    @property
    def section(self) -> str:
        return " > ".join(text for _, text in self.headings)

    def add(self, text: str, kind: BlockKind = "text") -> None:
        self.blocks.append(Block(path=self.rel, text=text, section=self.section, kind=kind))

    def walk(self, container: Any) -> None:
        """Block-level content of ``container`` (body, content control, custom XML) in order."""
        for child in container.iterchildren():
            tag = child.tag
            if tag == W_P:
                self.paragraph(child)
            elif tag == qn("w:tbl"):
                self.table(child)
            elif tag == qn("w:sdt"):
                content = child.find(qn("w:sdtContent"))
                if content is not None:
                    self.walk(content)
            elif tag in _CONTAINERS:
                self.walk(child)
            elif tag == qn("w:altChunk"):
                self.alt_chunk(child)

    def paragraph(self, p: Any) -> None:
        para = Paragraph(p, self.doc)
        style = para.style.element if para.style is not None else None
        hidden = style is not None and style.get(qn("w:styleId")) in self.state.hidden_styles
        text = nfkc(paragraph_text(p, self.state, hidden)).strip()
        if text:
            label = self.numbering.label(p, style)
            text = f"{label} {text}" if label else text
            level = heading_level(para)
            if level is not None:
                self.headings = [h for h in self.headings if h[0] < level] + [(level, text)]
            self.add(text, "heading" if level is not None else "text")
        for q in textbox_paragraphs(p, self.state):
            boxed = nfkc(paragraph_text(q, self.state)).strip()
            if boxed:
                self.add(boxed)
        self.flush_notes()

    def flush_notes(self) -> None:
        refs, self.state.notes = self.state.notes, []
        for note in self.notes.texts(refs):
            self.add(note, "note")

    def table(self, tbl: Any) -> None:
        raw = table_rows(tbl, self.cell_text)  # once: reading a cell records its note references
        rows = clean_rows(raw)
        if not rows:
            text = " ".join(c for row in raw for c in row if c).strip()
            if text:
                self.add(text)
        else:
            self.report.tables += 1
            fits = within_tokens(self.settings.table_max_tokens)
            for part in split_markdown_table(to_markdown(rows), fits):
                self.add(part, "table")
        self.flush_notes()

    def cell_text(self, tc: Any) -> str:
        """All text of a cell, nested tables and text boxes included, one paragraph per line."""
        texts = (nfkc(paragraph_text(p, self.state)).strip() for p in cell_paragraphs(tc, self.state))
        return "\n".join(t for t in texts if t)

    def alt_chunk(self, element: Any) -> None:
        text, body, missing = alt_chunk(self.doc, element)
        if missing:
            self.report.not_read.append(missing)
            log.info("%s: %s not read", self.rel, missing)
        for para in (nfkc(text).split("\n\n") if text else []):
            if para.strip():
                self.add(para.strip())
        for child in body:
            if child.tag == W_P:
                inner = nfkc(paragraph_text(child, self.state)).strip()
                if inner:
                    self.add(inner)
            elif child.tag == qn("w:tbl"):
                self.table(child)

    def header_footer_blocks(self) -> list[Block]:
        """Text of each distinct header and footer (default, first-page, even-page) of every
        section, once, in section order; section label "Header" or "Footer"."""
        seen: set[str] = set()
        blocks: list[Block] = []
        for sect in self.doc.sections:
            for label, parts in (("Header", (sect.header, sect.first_page_header, sect.even_page_header)),
                                 ("Footer", (sect.footer, sect.first_page_footer, sect.even_page_footer))):
                for part in parts:
                    if part.is_linked_to_previous:
                        continue
                    state = TextState(hidden_styles=self.state.hidden_styles)
                    text = "\n".join(t for t in (nfkc(paragraph_text(p, state)).strip()
                                                 for p in cell_paragraphs(part._element, state)) if t)
                    if text and text not in seen:
                        seen.add(text)
                        blocks.append(Block(path=self.rel, text=text, section=label))
        return blocks


def heading_level(paragraph: Paragraph) -> int | None:
    """1–9 for "Heading N" styles (or a style with outline level N-1), 0 for "Title", None for body
    text."""
    style = paragraph.style
    m = _HEADING.match(style.name or "") if style is not None else None
    if m is not None:
        return int(m.group(1)) if m.group(1) else 0
    outline = paragraph._p.find(f"{qn('w:pPr')}/{qn('w:outlineLvl')}")
    if outline is None and style is not None:
        outline = style.element.find(f"{qn('w:pPr')}/{qn('w:outlineLvl')}")
    try:
        level = int(outline.get(qn("w:val"))) if outline is not None else 9
    except (TypeError, ValueError):
        return None
    return level + 1 if level < 9 else None
