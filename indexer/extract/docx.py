"""DOCX extraction with python-docx (https://python-docx.readthedocs.io), walking the body in document
order so tables sit between the paragraphs around them (``Document.paragraphs`` alone drops tables).

Heading styles ("Title", "Heading 1".."Heading 9") give each block its section path, e.g.
``"Travel > Meals"``. Tables become markdown blocks, split with a repeated header when larger than
``extraction.table_max_tokens``. Nested tables, text boxes, headers/footers and tracked changes are
the extraction-quality issue's work.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

from docx import Document
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table, _Cell
from docx.text.paragraph import Paragraph

from core.config import ExtractionSettings
from core.errors import ExtractionError
from core.types import Block, ExtractedDocument
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
    except (PackageNotFoundError, KeyError, ValueError, OSError) as exc:
        raise ExtractionError(f"not a readable .docx ({type(exc).__name__}); open it in Word and "
                              "save it as .docx again") from None
    blocks: list[Block] = []
    headings: list[tuple[int, str]] = []  # (level, text) stack
    for item in _body_items(doc):
        if isinstance(item, Table):
            blocks.extend(_table_blocks(item, rel, _section(headings), settings))
            continue
        text = nfkc(item.text).strip()
        if not text:
            continue
        level = heading_level(item)
        if level is not None:
            headings = [h for h in headings if h[0] < level] + [(level, text)]
            blocks.append(Block(path=rel, text=text, section=_section(headings), kind="heading"))
        else:
            blocks.append(Block(path=rel, text=text, section=_section(headings)))
    return ExtractedDocument(path=rel, blocks=blocks, pages=0)


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
    rows = clean_rows([[cell.text for cell in _unique_cells(row.cells)] for row in table.rows])
    if not rows:
        text = nfkc(" ".join(c.text for row in table.rows for c in row.cells)).strip()
        return [Block(path=rel, text=text, section=section)] if text else []
    parts = split_markdown_table(to_markdown(rows),
                                 within_tokens(settings.table_max_tokens))
    return [Block(path=rel, text=p, section=section, kind="table") for p in parts]


def _unique_cells(cells: list[_Cell]) -> list[_Cell]:
    """Cells of a row with horizontally merged cells (repeated by python-docx) kept once."""
    out: list[_Cell] = []
    for cell in cells:
        if not out or cell._tc is not out[-1]._tc:
            out.append(cell)
    return out
