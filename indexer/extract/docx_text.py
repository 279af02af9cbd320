"""WordprocessingML text the python-docx API leaves out: tracked changes, text boxes, list numbers.

References are to ECMA-376 Part 1 (Office Open XML), 5th ed.:

- ``w:ins`` (§17.13.5.18) wraps runs inserted with change tracking on: they are current text and
  are kept; ``w:del`` (§17.13.5.14) and ``w:delText`` hold deleted text and are skipped.
- ``w:txbxContent`` (§17.17.1.1) holds a text box's paragraphs; Word writes each text box twice
  (``mc:Choice`` DrawingML and ``mc:Fallback`` VML, Part 3 §10.2.1), so ``mc:Fallback`` is skipped.
- ``w:numPr`` (§17.3.1.19) puts a paragraph in a list; ``numbering.xml`` (§17.9) gives each level a
  format (``w:numFmt``: decimal, lowerLetter, bullet, …) and a label template (``w:lvlText``, e.g.
  ``"%1."`` or ``"%2)"``). :class:`Numbering` replays the counters to render the label.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docx.oxml.ns import qn

W_T, W_TAB, W_BR, W_CR = qn("w:t"), qn("w:tab"), qn("w:br"), qn("w:cr")
W_P, W_DEL, W_TXBX = qn("w:p"), qn("w:del"), qn("w:txbxContent")
W_VAL = qn("w:val")
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_SKIP = {W_DEL, W_TXBX, _FALLBACK}
BULLET = "•"


def paragraph_text(p: Any) -> str:
    """Text of one ``w:p`` element: runs, including tracked insertions and hyperlinks; without
    deleted text and without the paragraphs of text boxes anchored in it."""
    out: list[str] = []
    _collect(p, out)
    return "".join(out)


def _collect(element: Any, out: list[str]) -> None:
    for child in element:
        tag = child.tag
        if tag in _SKIP:
            continue
        if tag == W_T:
            out.append(child.text or "")
        elif tag == W_TAB:
            out.append("\t")
        elif tag in (W_BR, W_CR):
            out.append("\n")
        else:
            _collect(child, out)


def textbox_paragraphs(p: Any) -> Iterator[Any]:
    """``w:p`` elements inside the text boxes anchored in paragraph ``p`` (DrawingML copy only)."""
    for box in p.iter(W_TXBX):
        if not any(a.tag == _FALLBACK for a in box.iterancestors()):
            yield from box.iter(W_P)


def cell_paragraphs(tc: Any) -> Iterator[Any]:
    """Every ``w:p`` of a table cell in document order, nested tables included (text-box copies in
    ``mc:Fallback`` excluded)."""
    for p in tc.iter(W_P):
        if not any(a.tag == _FALLBACK for a in p.iterancestors()):
            yield p


_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
          (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]


def format_number(n: int, fmt: str) -> str:
    """``n`` in a ``w:numFmt`` format (§17.18.59); unknown formats fall back to decimal."""
    if fmt in ("lowerLetter", "upperLetter"):
        s = ""
        while n > 0:
            n, r = divmod(n - 1, 26)
            s = chr(ord("a") + r) + s
        return s.upper() if fmt == "upperLetter" else s
    if fmt in ("lowerRoman", "upperRoman"):
        s = ""
        for value, sym in _ROMAN:
            while n >= value:
                s, n = s + sym, n - value
        return s.upper() if fmt == "upperRoman" else s
    return str(n)


class Numbering:
    """List labels of a document, rendered in reading order (call :meth:`label` once per paragraph)."""

    def __init__(self, document: Any) -> None:
        self.levels: dict[tuple[str, int], tuple[str, str, int]] = {}  # (numId, ilvl) -> fmt, text, start
        self.counters: dict[str, list[int]] = {}
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        abstract = {a.get(qn("w:abstractNumId")): a for a in root.iter(qn("w:abstractNum"))}
        for num in root.iter(qn("w:num")):
            ref = num.find(qn("w:abstractNumId"))
            definition = abstract.get(ref.get(W_VAL)) if ref is not None else None
            for lvl in definition.iter(qn("w:lvl")) if definition is not None else []:
                self.levels[(num.get(qn("w:numId")), int(lvl.get(qn("w:ilvl"), "0")))] = (
                    _val(lvl, "w:numFmt", "decimal"), _val(lvl, "w:lvlText", "%1."),
                    int(_val(lvl, "w:start", "1")))

    def label(self, p: Any, style: Any = None) -> str:
        """The list label of ``w:p`` element ``p`` ("3.", "b)", "•"), or ``""`` when not in a list.
        ``style`` is the paragraph style's ``w:style`` element (list styles carry ``w:numPr``)."""
        path = f"{qn('w:pPr')}/{qn('w:numPr')}"
        num_pr = p.find(path)
        if num_pr is None and style is not None:
            num_pr = style.find(path)
        if num_pr is None:
            return ""
        num_id = _val(num_pr, "w:numId", "0")
        ilvl = int(_val(num_pr, "w:ilvl", "0"))
        spec = self.levels.get((num_id, ilvl))
        if spec is None or num_id == "0":
            return ""
        fmt, text, start = spec
        if fmt == "bullet":
            return BULLET
        counts = self.counters.setdefault(num_id, [0] * 9)
        counts[ilvl] = counts[ilvl] + 1 if counts[ilvl] else start
        counts[ilvl + 1:] = [0] * (8 - ilvl)
        for level in range(9):
            lvl_fmt = self.levels.get((num_id, level), ("decimal", "", 1))[0]
            text = text.replace(f"%{level + 1}", format_number(counts[level] or 1, lvl_fmt))
        return text


def _val(element: Any, tag: str, default: str) -> str:
    child = element.find(qn(tag))
    value = child.get(W_VAL) if child is not None else None
    return value if value is not None else default
