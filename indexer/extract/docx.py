"""DOCX extraction with python-docx (https://python-docx.readthedocs.io), walking the body in document
order so tables sit between the paragraphs around them (``Document.paragraphs`` alone drops tables).

Heading styles ("Title", "Heading 1".."Heading 9") give each block its section path, e.g.
``"Travel > Meals"``. Tables become markdown blocks, split with a repeated header when larger than
``extraction.table_max_tokens``; a nested table's text stays in its outer cell. Text boxes follow the
paragraph they are anchored in, list paragraphs carry their rendered label ("2.", "a)", "•"), tracked
insertions are kept and deletions dropped (:mod:`indexer.extract.docx_text`), and each distinct
header and footer is added once at the end (section "Header" / "Footer").
"""

from __future__ import annotations

import logging
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docx import Document
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table, _Cell
from docx.text.paragraph import Paragraph

from core.config import ExtractionSettings
from core.errors import ExtractionError
from core.types import Block, ExtractedDocument
from indexer.extract.docx_text import (
    W_P,
    Numbering,
    cell_paragraphs,
    paragraph_text,
    textbox_paragraphs,
)
from indexer.extract.normalize import nfkc
from indexer.extract.tables import clean_rows, split_markdown_table, to_markdown, within_tokens

log = logging.getLogger(__name__)

_HEADING = re.compile(r"^(?:heading\s*(\d)|title)$", re.I)


def extract_docx(path: Path, rel: str, settings: ExtractionSettings) -> ExtractedDocument:
    """Blocks of a .docx in body order; headings update the section path.

    Raises:
        ExtractionError: not a valid Office Open XML package (zip) or unreadable.
    """
    try:
        doc = Document(str(path))
        return ExtractedDocument(path=rel, blocks=_blocks(doc, rel, settings), pages=0)
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError, AttributeError,
            TypeError, IndexError) as exc:  # a zip that is not a Word package, or a package missing its parts
        detail = " ".join(str(exc).split())[:120]
        raise ExtractionError(f"not a valid Word document ({type(exc).__name__}"
                              f"{': ' + detail if detail else ''}); open it in Word and save it as "
                              ".docx again") from None


def _blocks(doc: Any, rel: str, settings: ExtractionSettings) -> list[Block]:
    numbering = Numbering(doc)
    blocks: list[Block] = []
    headings: list[tuple[int, str]] = []  # (level, text) stack
    for item in _body_items(doc):
        if isinstance(item, Table):
            blocks.extend(_table_blocks(item, rel, _section(headings), settings))
            continue
        text = _labelled_text(item, numbering)
        level = heading_level(item) if text else None
        if level is not None:
            headings = [h for h in headings if h[0] < level] + [(level, text)]
            blocks.append(Block(path=rel, text=text, section=_section(headings), kind="heading"))
        elif text:
            blocks.append(Block(path=rel, text=text, section=_section(headings)))
        blocks.extend(Block(path=rel, text=t, section=_section(headings))
                      for t in _textbox_texts(item._p))
    blocks.extend(_header_footer_blocks(doc, rel))
    return blocks


def _labelled_text(paragraph: Paragraph, numbering: Numbering) -> str:
    """Paragraph text with its list label ("2.", "a)", "•") in front; tracked insertions in,
    deletions out."""
    text = nfkc(paragraph_text(paragraph._p)).strip()
    if not text:
        return ""
    style = paragraph.style.element if paragraph.style is not None else None
    label = numbering.label(paragraph._p, style)
    return f"{label} {text}" if label else text


def _textbox_texts(p: object) -> list[str]:
    texts = [nfkc(paragraph_text(q)).strip() for q in textbox_paragraphs(p)]
    return [t for t in texts if t]


def _header_footer_blocks(doc: object, rel: str) -> list[Block]:
    """Text of each distinct header and footer (default, first-page, even-page) of every section,
    once, in section order; section label "Header" or "Footer"."""
    seen: set[str] = set()
    blocks: list[Block] = []
    for sect in doc.sections:  # type: ignore[attr-defined]
        for label, parts in (("Header", (sect.header, sect.first_page_header, sect.even_page_header)),
                             ("Footer", (sect.footer, sect.first_page_footer, sect.even_page_footer))):
            for part in parts:
                if part.is_linked_to_previous:
                    continue
                text = "\n".join(t for t in (nfkc(paragraph_text(p)).strip()
                                             for p in part._element.iter(W_P)) if t)
                if text and text not in seen:
                    seen.add(text)
                    blocks.append(Block(path=rel, text=text, section=label))
    return blocks


def _body_items(doc: object) -> Iterator[Paragraph | Table]:
    """Top-level paragraphs and tables of the body, in document order."""
    body = doc.element.body  # type: ignore[attr-defined]
    for child in body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            yield Paragraph(child, doc)  # type: ignore[arg-type]
        elif tag == "tbl":
            yield Table(child, doc)  # type: ignore[arg-type]


def heading_level(paragraph: Paragraph) -> int | None:
    """1–9 for "Heading N" styles, 0 for "Title", None for body text."""
    name = paragraph.style.name if paragraph.style is not None else ""
    m = _HEADING.match(name or "")
    if m is None:
        return None
    return int(m.group(1)) if m.group(1) else 0


def _section(headings: list[tuple[int, str]]) -> str:
    return " > ".join(text for _, text in headings)


def _table_blocks(table: Table, rel: str, section: str, settings: ExtractionSettings) -> list[Block]:
    rows = clean_rows([[_cell_text(cell) for cell in _unique_cells(row.cells)] for row in table.rows])
    if not rows:
        text = " ".join(_cell_text(c) for row in table.rows for c in _unique_cells(row.cells)).strip()
        return [Block(path=rel, text=text, section=section)] if text else []
    parts = split_markdown_table(to_markdown(rows),
                                 within_tokens(settings.table_max_tokens))
    return [Block(path=rel, text=p, section=section, kind="table") for p in parts]


def _cell_text(cell: _Cell) -> str:
    """All text of a cell, nested tables and text boxes included, one paragraph per line."""
    texts = (nfkc(paragraph_text(p)).strip() for p in cell_paragraphs(cell._tc))
    return "\n".join(t for t in texts if t)


def _unique_cells(cells: list[_Cell]) -> list[_Cell]:
    """Cells of a row with horizontally merged cells (repeated by python-docx) kept once."""
    out: list[_Cell] = []
    for cell in cells:
        if not out or cell._tc is not out[-1]._tc:
            out.append(cell)
    return out
