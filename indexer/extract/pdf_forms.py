"""Filled AcroForm fields of a PDF page (PDF 32000-1:2008 §12.7), as "label: value" lines.

A field's value lives in the form (``/V`` of the field, its widget annotation's appearance), not in the
page's text, so page text readers never see it. Each widget annotation (``/Subtype /Widget``) of the
page with a value is read with pypdf, its field's attributes inherited from its parents (§12.7.3.1:
``/FT``, ``/V`` and the names sit on the parent of a radio group's widgets). The label is what a
reader sees beside the field: the page text left of the widget on its line (PDFium, up to
:data:`LABEL_REACH` points), else the text just above it, else the field's tooltip name ``/TU``,
else its partial name ``/T``. Check boxes and radio buttons count when on (a value other than
``/Off``), and read "Yes" or their export value; empty fields and push buttons are skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

LABEL_REACH = 220.0
"""Points left of a field searched for its label on the same line."""
ABOVE_REACH = 16.0
"""Points above a field searched for its label when nothing stands left of it."""
_INHERITED = ("/FT", "/V", "/T", "/TU", "/Ff")


def page_fields(page: Any, pdfium_page: Callable[[], Any | None]) -> list[str]:
    """``"label: value"`` for each filled field widget of pypdf page ``page`` in reading order (top
    to bottom, left to right); ``pdfium_page()`` loads the PDFium page that supplies the labels from
    the page text (called only when a filled field is found; None: the field names are used)."""
    try:
        annots = page.get("/Annots")
        widgets = [a.get_object() for a in (annots.get_object() if annots is not None else [])]
    except Exception as exc:  # odd annotation arrays: the page text still counts
        log.debug("annotations unreadable: %s", exc)
        return []
    found = []
    for widget in widgets:
        if widget.get("/Subtype") != "/Widget":
            continue
        attrs = _inherited(widget)
        value = _value(attrs, widget)
        rect = widget.get("/Rect")
        if value and rect is not None and len(rect) == 4:
            box = [float(v) for v in rect]
            found.append((box, attrs, value))
    found.sort(key=lambda item: (-max(item[0][1], item[0][3]), min(item[0][0], item[0][2])))
    loaded = pdfium_page() if found else None
    textpage = loaded.get_textpage() if loaded is not None else None
    try:
        return [f"{_label(textpage, box, attrs)}: {value}" for box, attrs, value in found]
    finally:
        if textpage is not None:
            textpage.close()


def _inherited(widget: Any) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    node, depth = widget, 0
    while node is not None and depth < 10:
        for key in _INHERITED:
            if key not in attrs and key in node:
                attrs[key] = node[key]
        parent = node.get("/Parent")
        node, depth = (parent.get_object() if parent is not None else None), depth + 1
    return attrs


def _value(attrs: dict[str, Any], widget: Any) -> str:
    kind = attrs.get("/FT")
    value = attrs.get("/V")
    if kind == "/Btn":
        if int(attrs.get("/Ff", 0)) & (1 << 16):  # push button: no value
            return ""
        state = str(widget.get("/AS") or value or "/Off")
        if state == "/Off":
            return ""
        return "Yes" if state in ("/Yes", "/On", "/1") else state.lstrip("/")
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value if str(v).strip())
    return " ".join(str(value).split())


def _label(textpage: Any | None, box: list[float], attrs: dict[str, Any]) -> str:
    x0, y0, x1, y1 = min(box[0], box[2]), min(box[1], box[3]), max(box[0], box[2]), max(box[1], box[3])
    if textpage is not None:
        left = _clean(textpage.get_text_bounded(max(0.0, x0 - LABEL_REACH), y0, x0, y1))
        if left:
            return left
        above = _clean(textpage.get_text_bounded(x0, y1, x1, y1 + ABOVE_REACH))
        if above:
            return above
    name = str(attrs.get("/TU") or attrs.get("/T") or "field")
    return _clean(name.replace("_", " ")) or "field"


def _clean(text: str) -> str:
    """The last line of ``text``, without the fill-in underscores, dots and colon around it."""
    lines = [ln for ln in text.replace("\r", "\n").split("\n") if ln.strip()]
    line = " ".join(lines[-1].split()) if lines else ""
    return line.strip(" _.:…\t")
