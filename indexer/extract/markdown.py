"""Markdown and plain-text extraction, heading-aware.

ATX headings (``#`` .. ``######``, CommonMark §4.2) set the section path; paragraphs are separated by
blank lines; consecutive ``|`` lines form a table block (GFM tables); fenced code is kept as text and
never read as headings. A .txt file is parsed the same way (it rarely contains ``#`` headings).
"""

from __future__ import annotations

import re
from pathlib import Path

from core.config import ExtractionSettings
from core.errors import ExtractionError
from core.types import Block, ExtractedDocument
from indexer.extract.normalize import nfkc
from indexer.extract.tables import split_markdown_table, within_tokens

_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^(```|~~~)")
_EMPHASIS = re.compile(r"(\*\*|__)(\S(?:.*?\S)?)\1")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def extract_markdown(path: Path, rel: str, settings: ExtractionSettings) -> ExtractedDocument:
    """Blocks of a Markdown/TXT file: headings, paragraphs and tables with their section path.

    Raises:
        ExtractionError: the file is not UTF-8 text (nor Latin-1 decodable without NULs).
    """
    return ExtractedDocument(path=rel, blocks=parse_markdown(_read_text(path), rel, settings))


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    if b"\x00" in data[:4096]:
        raise ExtractionError("binary data in a text/markdown file; save it as UTF-8 text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def parse_markdown(text: str, rel: str, settings: ExtractionSettings) -> list[Block]:
    """Split markdown ``text`` into blocks (see module doc)."""
    blocks: list[Block] = []
    headings: list[tuple[int, str]] = []
    para: list[str] = []
    in_fence = False

    def flush() -> None:
        if para:
            blocks.extend(_para_blocks(para, rel, _section(headings), settings))
            para.clear()

    for raw in nfkc(text).split("\n"):
        if _FENCE.match(raw):
            in_fence = not in_fence
        m = None if in_fence else _ATX.match(raw)
        if m:
            flush()
            level, title = len(m.group(1)), m.group(2)
            headings = [h for h in headings if h[0] < level] + [(level, title)]
            blocks.append(Block(path=rel, text=title, section=_section(headings), kind="heading"))
        elif not raw.strip() and not in_fence:
            flush()
        elif para and _is_table_line(raw) != _is_table_line(para[-1]):
            flush()
            para.append(raw)
        else:
            para.append(raw)
    flush()
    return blocks


def _is_table_line(line: str) -> bool:
    return line.lstrip().startswith("|")


def _para_blocks(lines: list[str], rel: str, section: str, settings: ExtractionSettings) -> list[Block]:
    text = plain_inline("\n".join(lines).strip())
    if not text:
        return []
    if _is_table_line(lines[0]) and len(lines) >= 3:
        parts = split_markdown_table(text, within_tokens(settings.table_max_tokens))
        return [Block(path=rel, text=p, section=section, kind="table") for p in parts]
    return [Block(path=rel, text=text, section=section)]


def plain_inline(text: str) -> str:
    """Drop bold markers (``**x**`` → ``x``) and turn links into ``text (url)``."""
    return _LINK.sub(r"\1 (\2)", _EMPHASIS.sub(r"\2", text))


def _section(headings: list[tuple[int, str]]) -> str:
    return " > ".join(title for _, title in headings)
