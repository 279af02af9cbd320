"""Markdown and plain-text extraction, heading-aware.

The bytes are decoded by :func:`indexer.extract.textcodec.decode_text` (byte-order mark, UTF-8, then
documented legacy fallbacks; never with characters dropped). In Markdown, text a reader of the
rendered page never sees is removed first: HTML comments (``<!-- … -->``, CommonMark §4.6 type 2,
also inline and over several lines; not inside fenced code or code spans) and a front-matter block
(YAML between ``---`` lines, or TOML between ``+++`` lines, at the very start); both are counted in the
report's ``hidden_removed``. ATX headings (``#`` .. ``######``, CommonMark §4.2) set the section
path; paragraphs are separated by blank lines; consecutive ``|`` lines form a table block (GFM
tables); fenced code is kept as text and never read as headings. A .txt file is decoded the same way
and parsed as Markdown (it rarely contains ``#`` headings) but keeps ``<!--`` text: in plain text it
is visible.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.config import ExtractionSettings
from core.errors import ExtractionError
from core.types import Block, ExtractedDocument, ExtractionReport
from indexer.extract.normalize import nfkc
from indexer.extract.tables import split_markdown_table, within_tokens
from indexer.extract.textcodec import decode_text

_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^(```|~~~)")
_EMPHASIS = re.compile(r"(\*\*|__)(\S(?:.*?\S)?)\1")
_LINK = re.compile(r"\[([^\[\]]+)\]\(([^)\s]+)\)")
"""``[text](url)``; the text holds no ``[`` (else a line of unclosed brackets rescans to its end from
each one: quadratic, a 1 MB line outlived extraction.timeout_s)."""
_HIDDEN = re.compile(r"(?P<fence>^(?:```|~~~)[^\n]*\n.*?(?:^(?:```|~~~)[ \t]*$|\Z))|(?P<code>`[^`\n]+`)"
                     r"|(?P<comment><!--.*?(?:-->|\Z))", re.S | re.M)
"""Fenced code and code spans (kept as they are) or an HTML comment (removed; an unclosed one runs
to the end of the file, as CommonMark renders it)."""
_FRONT_MATTER = re.compile(r"\A(?:---[ \t]*\n.*?\n(?:---|\.\.\.)|\+\+\+[ \t]*\n.*?\n\+\+\+)[ \t]*(?:\n|\Z)",
                          re.S)


def extract_markdown(path: Path, rel: str, settings: ExtractionSettings) -> ExtractedDocument:
    """Blocks of a Markdown/TXT file: headings, paragraphs and tables with their section path.

    Raises:
        ExtractionError: unreadable, binary, or in no encoding :func:`decode_text` accepts.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ExtractionError(f"cannot read the file ({exc.strerror})") from None
    decoded = decode_text(data)  # a failure is shown beside the path: not named again
    report = ExtractionReport(encoding=decoded.encoding)
    text = decoded.text.replace("\r\n", "\n").replace("\r", "\n")  # Windows and old Mac line ends
    title = ""
    if path.suffix.lower() != ".txt":
        title = front_matter_title(text)
        text, report.hidden_removed = strip_hidden(text)
    return ExtractedDocument(path=rel, blocks=parse_markdown(text, rel, settings), report=report,
                             metadata_title=title)


def front_matter_title(text: str) -> str:
    """The ``title:`` of a YAML front matter block at the top of ``text`` (``""`` when none)."""
    front = _FRONT_MATTER.match(text)
    m = re.search(r"(?m)^title:\s*(.+?)\s*$", front.group(0)) if front is not None else None
    return m.group(1).strip("'\"") if m is not None else ""


def strip_hidden(text: str) -> tuple[str, int]:
    """``text`` without its front matter and HTML comments, and how many were removed. A comment
    that fills whole lines leaves a blank line (it ends a paragraph, as rendered); one inside a line
    leaves nothing."""
    removed = 0
    front = _FRONT_MATTER.match(text)
    if front is not None:
        text, removed = text[front.end():], 1

    def repl(m: re.Match[str]) -> str:
        nonlocal removed
        if m.group("comment") is None:
            return m.group(0)
        removed += 1
        return "\n\n" if "\n" in m.group(0) else ""

    return _HIDDEN.sub(repl, text), removed


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
