"""List labels of WordprocessingML paragraphs ("3.", "b)", "•").

References are to ECMA-376 Part 1 (Office Open XML), 5th ed.: ``w:numPr`` (§17.3.1.19) puts a
paragraph in a list; ``numbering.xml`` (§17.9) gives each level a format (``w:numFmt``, §17.18.59)
and a label template; :class:`Numbering` replays the counters to render the label.
"""

from __future__ import annotations

from typing import Any

from docx.oxml.ns import qn

W_VAL = qn("w:val")
BULLET = "•"

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
