"""The text of WordprocessingML paragraphs as Word shows it (python-docx's ``Paragraph.text`` drops
content controls, symbols, non-breaking hyphens, fields' results and tracked insertions, and keeps
hidden text).

References are to ECMA-376 Part 1 (Office Open XML), 5th ed.:

- ``w:ins`` (§17.13.5.18) and ``w:moveTo`` wrap current text: kept; ``w:del`` (§17.13.5.14),
  ``w:moveFrom`` and ``w:delText`` hold deleted text: skipped.
- ``w:txbxContent`` (§17.17.1.1) holds a text box's paragraphs, read after the paragraph that anchors
  it (:func:`textbox_paragraphs`); Word writes each text box twice (``mc:Choice`` DrawingML and
  ``mc:Fallback`` VML, Part 3 §10.2.1), so ``mc:Fallback`` is skipped; a box anchored in a deleted
  or hidden run is not shown either.
- ``w:sdt`` (§17.5.2) content controls at run level: their ``w:sdtContent`` is ordinary text.
- ``w:noBreakHyphen`` (§17.3.3.18) shows "-", ``w:softHyphen`` (§17.3.3.29) shows nothing unless a
  line breaks there; ``w:tab``/``w:ptab`` are tabs, ``w:br``/``w:cr`` line breaks; ``w:sym``
  (§17.3.3.30) is a character of a symbol font (:data:`SYMBOL_FONTS`).
- Complex fields (§17.16.18): between ``w:fldChar begin`` and ``separate`` lies the field code
  (``w:instrText``, possibly nested fields), between ``separate`` and ``end`` the result Word shows.
  Only the result is text. ``w:fldSimple`` holds its result as runs.
- Hidden text (``w:vanish``, §17.3.2.41) on the run, its character style or its paragraph's style
  is not shown and not indexed; comments live in ``comments.xml`` and are never read.
- ``w:footnoteReference``/``w:endnoteReference`` (§17.11) are recorded so the caller places the
  notes after the paragraph.
- List labels (``w:numPr``, ``numbering.xml``) are rendered by :mod:`indexer.extract.docx_numbering`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from docx.oxml.ns import qn

W_T, W_TAB, W_BR, W_CR, W_PTAB = qn("w:t"), qn("w:tab"), qn("w:br"), qn("w:cr"), qn("w:ptab")
W_P, W_R, W_DEL, W_TXBX = qn("w:p"), qn("w:r"), qn("w:del"), qn("w:txbxContent")
W_VAL = qn("w:val")
W_NBH, W_SOFT, W_SYM, W_FLD = qn("w:noBreakHyphen"), qn("w:softHyphen"), qn("w:sym"), qn("w:fldChar")
W_FOOTREF, W_ENDREF = qn("w:footnoteReference"), qn("w:endnoteReference")
W_OBJECT = qn("w:object")
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_SKIP = {W_DEL, qn("w:moveFrom"), W_TXBX, _FALLBACK, qn("w:pPr"), qn("w:rPr"), qn("w:sdtPr"),
         qn("w:sdtEndPr"), qn("w:instrText"), qn("w:delInstrText"), qn("w:customXmlPr"),
         qn("w:smartTagPr"), qn("w:fldData")}
_GONE = {_FALLBACK, W_DEL, qn("w:moveFrom")}
_OFF = {"0", "false", "off"}

SYMBOL_FONTS: dict[str, dict[int, str]] = {
    "symbol": {0x22: "∀", 0x24: "∃", 0x27: "∋", 0x2A: "∗", 0x2D: "−", 0x40: "≅", 0x5C: "∴",
               0x5E: "⊥", 0x61: "α", 0x62: "β", 0x63: "χ", 0x64: "δ", 0x65: "ε", 0x66: "φ",
               0x67: "γ", 0x68: "η", 0x69: "ι", 0x6B: "κ", 0x6C: "λ", 0x6D: "μ", 0x6E: "ν",
               0x70: "π", 0x71: "θ", 0x72: "ρ", 0x73: "σ", 0x74: "τ", 0x75: "υ", 0x77: "ω",
               0x78: "ξ", 0x79: "ψ", 0x7A: "ζ", 0x44: "Δ", 0x46: "Φ", 0x47: "Γ", 0x4C: "Λ",
               0x50: "Π", 0x53: "Σ", 0x57: "Ω", 0xA3: "≤", 0xA5: "∞", 0xB0: "°", 0xB1: "±",
               0xB3: "≥", 0xB4: "×", 0xB7: "•", 0xB8: "÷", 0xB9: "≠", 0xBA: "≡", 0xBB: "≈",
               0xAB: "↔", 0xAC: "←", 0xAD: "↑", 0xAE: "→", 0xAF: "↓", 0xD6: "√", 0xE2: "®",
               0xE3: "©", 0xE4: "™", 0xD7: "·", 0xA2: "′", 0xB2: "″", 0xBC: "…"},
    "wingdings": {0xFC: "✓", 0xFB: "✗", 0xFD: "☒", 0xFE: "☑", 0x6F: "☐", 0xA8: "☐", 0x6C: "●",
                  0x6E: "■", 0xA7: "▪", 0x9F: "•", 0x77: "◆", 0xD8: "➢", 0xE0: "→", 0xE8: "➔",
                  0x4A: "☺", 0x28: "☎", 0x2A: "✉", 0x3A: "💻"},
}
"""Characters of the symbol fonts Word inserts with Insert › Symbol, by code (the ``w:char`` value
minus the U+F000 private-use offset): Adobe's Symbol encoding (Greek letters, maths) and the common
Wingdings check marks, boxes and bullets. A code of another font is taken as its Unicode character."""


@dataclass
class TextState:
    """What the walker carries across paragraphs and reports: the open complex fields (one entry
    per ``begin``: True once its ``separate`` was seen), the hidden character styles, and counts."""

    hidden_styles: frozenset[str] = frozenset()
    fields: list[bool] = field(default_factory=list)
    hidden_removed: int = 0
    objects: int = 0
    notes: list[tuple[str, str]] = field(default_factory=list)
    """(``"footnote"``|``"endnote"``, id) referenced since the caller last took them."""


def paragraph_text(p: Any, state: TextState | None = None, para_hidden: bool = False) -> str:
    """Text of one ``w:p`` element as Word shows it (see module doc); text boxes anchored in it are
    left to :func:`textbox_paragraphs`. ``para_hidden``: the paragraph's style hides its runs (also
    found here from its ``w:pStyle``, so paragraphs in cells, headers, notes and text boxes obey it)."""
    state = state if state is not None else TextState()
    out: list[str] = []
    _collect(p, out, state, para_hidden or style_hides(p, state))
    state.fields = [f for f in state.fields if f]  # a field code never runs on past its paragraph
    return "".join(out)


def _collect(element: Any, out: list[str], state: TextState, para_hidden: bool) -> None:
    for child in element:
        tag = child.tag
        if tag in _SKIP:
            continue
        if tag == W_R:
            if _hidden(child, state, para_hidden):
                notes = len(state.notes)
                state.hidden_removed += bool(_run_chars(child, state, []))
                del state.notes[notes:]  # a hidden note reference hides its note
                continue
            _run_chars(child, state, out)
        else:
            _collect(child, out, state, para_hidden)


def _run_chars(run: Any, state: TextState, out: list[str]) -> bool:
    """Append what run ``run`` shows to ``out``; True when it holds any text."""
    found = False
    for child in run:
        tag = child.tag
        if tag == W_FLD:
            _field_char(child, state)
            continue
        shown = all(state.fields)
        if tag == W_T:
            text = child.text or ""
            found = found or bool(text.strip())
            if shown:
                out.append(text)
        elif not shown or tag in _SKIP:
            continue
        elif tag in (W_TAB, W_PTAB):
            out.append("\t")
        elif tag in (W_BR, W_CR):
            out.append("\n")
        elif tag == W_NBH:
            out.append("-")
        elif tag == W_SYM:
            out.append(symbol_char(child.get(qn("w:font")) or "", child.get(qn("w:char")) or ""))
        elif tag in (W_FOOTREF, W_ENDREF):
            state.notes.append(("footnote" if tag == W_FOOTREF else "endnote", child.get(qn("w:id")) or ""))
        elif tag == W_OBJECT:
            state.objects += 1
        elif tag != W_SOFT:
            _collect(child, out, state, False)  # run-level content controls, ruby, ...
    return found


def _field_char(fld: Any, state: TextState) -> None:
    kind = fld.get(qn("w:fldCharType"))
    if kind == "begin":
        state.fields.append(False)
    elif kind == "separate" and state.fields:
        state.fields[-1] = True
    elif kind == "end" and state.fields:
        state.fields.pop()


def style_hides(p: Any, state: TextState) -> bool:
    """Whether the paragraph style named in ``w:p`` element ``p``'s ``w:pStyle`` hides its text."""
    style = p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}")
    return style is not None and style.get(W_VAL) in state.hidden_styles


def _hidden(run: Any, state: TextState, para_hidden: bool) -> bool:
    """Whether run ``run`` is hidden: ``w:vanish`` on the run, else on its character style, else on
    its paragraph's style (``para_hidden``)."""
    rpr = run.find(qn("w:rPr"))
    vanish = rpr.find(qn("w:vanish")) if rpr is not None else None
    if vanish is not None:
        return (vanish.get(W_VAL) or "true").lower() not in _OFF
    style = rpr.find(qn("w:rStyle")) if rpr is not None else None
    if style is not None and style.get(W_VAL) in state.hidden_styles:
        return True
    return para_hidden


def hidden_styles(styles_root: Any | None) -> frozenset[str]:
    """Ids of the styles whose character properties hide text (``w:vanish``), following
    ``w:basedOn`` (§17.7.4.3)."""
    if styles_root is None:
        return frozenset()
    own: dict[str, bool | None] = {}
    based: dict[str, str] = {}
    for style in styles_root.iter(qn("w:style")):
        sid = style.get(qn("w:styleId")) or ""
        vanish = style.find(f"{qn('w:rPr')}/{qn('w:vanish')}")
        own[sid] = None if vanish is None else (vanish.get(W_VAL) or "true").lower() not in _OFF
        parent = style.find(qn("w:basedOn"))
        if parent is not None:
            based[sid] = parent.get(W_VAL) or ""

    def hides(sid: str, depth: int = 0) -> bool:
        value = own.get(sid)
        if value is not None or depth > 20 or sid not in based:
            return bool(value)
        return hides(based[sid], depth + 1)

    return frozenset(sid for sid in own if hides(sid))


def symbol_char(font: str, code: str) -> str:
    """The character a ``w:sym`` shows (:data:`SYMBOL_FONTS`); ``""`` for an unreadable code."""
    try:
        value = int(code, 16)
    except ValueError:
        return ""
    if 0xF000 <= value <= 0xF0FF:
        value -= 0xF000
    table = SYMBOL_FONTS.get(font.lower().split()[0] if font else "")
    if table is not None:
        return table.get(value, "")
    return chr(value) if value >= 0x20 else ""


def textbox_paragraphs(p: Any, state: TextState | None = None) -> Iterator[Any]:
    """``w:p`` elements inside the text boxes anchored in paragraph ``p`` that Word shows
    (:func:`_shown`: the DrawingML copy, not in a deleted or hidden run)."""
    state = state if state is not None else TextState()
    para_hidden = style_hides(p, state)
    for q in p.iter(W_P):
        if q is not p and _shown(q, state, para_hidden):
            yield q


def cell_paragraphs(tc: Any, state: TextState | None = None) -> Iterator[Any]:
    """Every ``w:p`` of a table cell (or header, footer) in document order that Word shows, nested
    tables, content controls and text boxes included (:func:`_shown`)."""
    state = state if state is not None else TextState()
    for p in tc.iter(W_P):
        if _shown(p, state, False):
            yield p


def _shown(p: Any, state: TextState, para_hidden: bool) -> bool:
    """False for a paragraph in the ``mc:Fallback`` (VML) copy of a text box, in a tracked deletion
    (``w:del``, ``w:moveFrom``), or in a text box whose anchoring run is hidden (``w:vanish`` on the
    run, its character style, or ``para_hidden``: its paragraph's style); the hidden ones that hold
    text are counted in ``state.hidden_removed``."""
    for ancestor in p.iterancestors():
        if ancestor.tag in _GONE:
            return False
        if ancestor.tag == W_R and _hidden(ancestor, state, para_hidden):
            state.hidden_removed += any((t.text or "").strip() for t in p.iter(W_T))
            return False
    return True
