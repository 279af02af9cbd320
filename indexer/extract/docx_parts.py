"""Parts of a Word package around the body: footnotes and endnotes, alternative-format chunks
(``w:altChunk``), tables walked through content controls, and comments.

References are to ECMA-376 Part 1, 5th ed.: notes §17.11, ``w:altChunk`` §17.17.2.1 (an
``aFChunk`` relationship to an HTML, text, RTF, MHT or Word part imported as Word renders it),
tables §17.4 (``w:gridSpan`` §17.4.17 merges cells across columns, ``w:vMerge`` §17.4.85 down rows;
rows and cells may sit in content controls ``w:sdt`` or custom XML ``w:customXml``).
"""

from __future__ import annotations

import html.parser
import io
import logging
from collections.abc import Callable, Iterator
from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import parse_xml
from docx.oxml.ns import qn

from indexer.extract.docx_text import W_P, TextState, paragraph_text
from indexer.extract.normalize import nfkc

log = logging.getLogger(__name__)

_WRAPPERS = {qn("w:sdt"), qn("w:customXml"), qn("w:ins"), qn("w:moveTo")}
_NOTE_SKIP = {"separator", "continuationSeparator", "continuationNotice"}
HTML_TYPES = {"text/html", "application/xhtml+xml"}
TEXT_TYPES = {"text/plain"}
DOCX_TYPES = {"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
              "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
              "application/vnd.ms-word.document.macroEnabled.main+xml"}


def children(element: Any, tag: str) -> Iterator[Any]:
    """Children of ``element`` named ``tag``, looking through content controls (``w:sdt`` →
    ``w:sdtContent``), custom XML and tracked-insertion wrappers at any depth."""
    for child in element.iterchildren():
        if child.tag == tag:
            yield child
        elif child.tag in _WRAPPERS:
            content = child.find(qn("w:sdtContent")) if child.tag == qn("w:sdt") else child
            if content is not None:
                yield from children(content, tag)


def table_rows(tbl: Any, cell_text: Callable[[Any], str]) -> list[list[str]]:
    """The rows of ``w:tbl`` as cell texts, each cell once; a cell merged down (``w:vMerge``
    continue) repeats the text of the cell that starts the merge, so every row reads whole. Deleted
    rows (tracked ``w:del`` in ``w:trPr``) are skipped."""
    above: dict[int, str] = {}
    rows: list[list[str]] = []
    for tr in children(tbl, qn("w:tr")):
        if tr.find(f"{qn('w:trPr')}/{qn('w:del')}") is not None:
            continue
        col = _int(tr.find(f"{qn('w:trPr')}/{qn('w:gridBefore')}"), 0)
        row: list[str] = []
        for tc in children(tr, qn("w:tc")):
            tcpr = tc.find(qn("w:tcPr"))
            span = _int(tcpr.find(qn("w:gridSpan")) if tcpr is not None else None, 1)
            merge = tcpr.find(qn("w:vMerge")) if tcpr is not None else None
            if merge is not None and merge.get(qn("w:val"), "continue") == "continue":
                text = above.get(col, "")
            else:
                text = cell_text(tc)
                above[col] = text
            row.append(text)
            col += max(span, 1)
        rows.append(row)
    return rows


def _int(element: Any, default: int) -> int:
    try:
        return int(element.get(qn("w:val"))) if element is not None else default
    except (TypeError, ValueError):
        return default


class Notes:
    """The footnotes and endnotes of a document, numbered in the order they are referenced."""

    def __init__(self, document: Any, state: TextState) -> None:
        self.parts: dict[str, dict[str, Any]] = {"footnote": {}, "endnote": {}}
        self.state = state
        self.count: dict[str, int] = {"footnote": 0, "endnote": 0}
        for kind, reltype in (("footnote", RT.FOOTNOTES), ("endnote", RT.ENDNOTES)):
            root = _related_xml(document.part, reltype)
            for note in root.iter(qn(f"w:{kind}")) if root is not None else []:
                if note.get(qn("w:type")) not in _NOTE_SKIP:
                    self.parts[kind][note.get(qn("w:id")) or ""] = note

    def texts(self, refs: list[tuple[str, str]]) -> list[str]:
        """``"Footnote N: text"`` for each reference (kind, id) in ``refs``, in order."""
        out = []
        for kind, note_id in refs:
            note = self.parts[kind].get(note_id)
            if note is None:
                continue
            state = TextState(hidden_styles=self.state.hidden_styles)
            text = " ".join(t for t in (nfkc(paragraph_text(p, state)).strip() for p in note.iter(W_P)) if t)
            self.state.hidden_removed += state.hidden_removed
            if text:
                self.count[kind] += 1
                out.append(f"{kind.capitalize()} {self.count[kind]}: {text}")
        return out


def _related_xml(part: Any, reltype: str) -> Any | None:
    """The parsed XML of the first part related to ``part`` by ``reltype``, or None."""
    for rel in part.rels.values():
        if rel.reltype == reltype and not rel.is_external:
            target = rel.target_part
            element = getattr(target, "element", None)
            return element if element is not None else parse_xml(target.blob)
    return None


def comment_count(document: Any) -> int:
    """Comments in the package (never indexed: they are not policy text)."""
    root = _related_xml(document.part, RT.COMMENTS)
    return 0 if root is None else sum(1 for _ in root.iter(qn("w:comment")))


def alt_chunk(document: Any, element: Any) -> tuple[str | None, list[Any], str]:
    """The content of one ``w:altChunk``: (plain text or None, paragraphs-and-tables of an embedded
    Word document (its body element's children) or [], a description for the report when it cannot be
    read: ``""`` when read)."""
    rid = element.get(qn("r:id")) or ""
    rel = document.part.rels.get(rid)
    if rel is None or rel.is_external:
        return None, [], f"altChunk {rid} (missing part)"
    part = rel.target_part
    ctype = (part.content_type or "").split(";")[0].strip().lower()
    name = str(part.partname).rsplit("/", 1)[-1]
    if ctype in HTML_TYPES:
        return html_text(part.blob), [], ""
    if ctype in TEXT_TYPES:
        from indexer.extract.textcodec import decode_text

        return decode_text(part.blob, name).text, [], ""
    if ctype in DOCX_TYPES:
        try:
            from docx import Document

            inner = Document(io.BytesIO(part.blob))
            return None, list(inner.element.body.iterchildren()), ""
        except Exception as exc:  # not a package (a bare main part) or damaged: report it
            log.debug("altChunk %s: %s", name, exc)
    return None, [], f"altChunk {name} ({ctype or 'unknown type'})"


_BLOCK_TAGS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol",
               "section", "article", "header", "footer", "blockquote", "pre", "dt", "dd"}


class _HtmlText(html.parser.HTMLParser):
    """Visible text of an HTML document: script, style, head and comments out; block tags break lines;
    table cells separated by " | "."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head", "title"):
            self.skip += 1
        elif tag in _BLOCK_TAGS:
            self.out.append("\n")
        elif tag in ("td", "th"):
            self.out.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head", "title"):
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCK_TAGS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.out.append(data)


def html_text(blob: bytes) -> str:
    """The visible text of an HTML part (UTF-8, or the charset its BOM names)."""
    from indexer.extract.textcodec import decode_text

    parser = _HtmlText()
    parser.feed(decode_text(blob, "altChunk.html").text)
    parser.close()
    lines = (" ".join(line.split()).strip(" |") for line in "".join(parser.out).split("\n"))
    return "\n".join(line for line in lines if line)
