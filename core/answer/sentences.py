"""Split chunk text into answer units: sentences, list items and table rows.

Extracted policy text keeps the PDF's hard line breaks inside sentences, so lines are first re-joined
(markdown table rows with a single non-empty cell count as plain lines: layout-table detectors box
indented prose; the line after a table's last row starts a new block: a caption or title under a
table never runs on from its last cell),
except where a line starts a list item (``i.``, ``a)``, ``2.14``, ``•``), is a markdown table row, or
the previous line ends a clause (``:``/``;``) — but never after a line ending with a prepositive
abbreviation ("max.", "Art."; :mod:`core.answer.abbreviations`). Joined text is then split at
sentence ends (``. ! ?`` followed by a capital, digit or bracket) that do not end such an
abbreviation (Kiss & Strunk 2006; pySBD). Each list item remembers its *lead*: the nearest
earlier unit that is not an item of the same list (e.g. ``"iii. Two years waiting period"`` for
``"a. Cataract"``), so an answer quoting the item can show what it belongs to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.answer.abbreviations import ends_with_abbreviation, is_non_boundary

_ITEM = re.compile(
    r"^\s*(?:\(?(?P<roman>[ivxl]{1,5})[.)]|\(?(?P<alpha>[a-z])[.)]"
    r"|(?P<num>\d{1,2}(?:\.\d{1,2})*[.)]|\d{1,2}(?:\.\d{1,2})+|\d{1,2}(?=\s+(?-i:[A-Z(])))\s"
    r"|(?P<bullet>[•\-▪●◦]|\*(?=\s)))\s*",
    re.IGNORECASE,
)
"""A list-item marker at a line start. A bare number needs a capital after it ("3 Exclusions"; a wrapped
"30 days of …" continues its sentence) and ``*`` needs a space (``**24 hours**`` is bold, not a bullet)."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(\[]?[A-Z0-9])")
_INLINE_ITEM = re.compile(r"\s+(?=(?:[a-z]|[ivx]{1,4})[.)]\s+[A-Z(])|\s+(?=\.\s+[A-Z])")
"""Where a list was flattened into one line ("… period a. Cataract b. Hernia", "… . The organ …")."""
_LOST_MARKER = re.compile(r"^[.,;]\s+")
_SMALL_WORDS = "of|and|the|for|to|in|on|a|an|or|with|under|by|at|from|per|&"
_HEADING_LINE = re.compile(
    rf"^(?:\d{{1,2}}(?:\.\d{{1,2}}){{0,4}}\.?\s*)?(?:[A-Z][\w'’/()-]*|\d+)(?:\s+(?:[A-Z][\w'’/()-]*|\d+|{_SMALL_WORDS})){{0,8}}$")
"""A heading line: up to nine words, each capitalised (or a number or a small word), optionally after a
clause number ("3.1.8 Hospital Cash"), with no closing punctuation."""
_SUBCLAUSE = re.compile(r"^\d{1,2}(?:\.\d{1,2}){1,4}\.?\s")
"""A multi-level clause number: such a title line is a heading, where "4. Cataract" is a list item."""
"""A list marker lost in extraction leaves its dot; such a line becomes a bullet item."""
MAX_UNIT_CHARS = 600
SPLIT_VERSION = 2
"""Bump when :func:`split_units`, :func:`is_heading` or :func:`is_furniture` change which units a text
has or their text: stored unit vectors (:mod:`core.answer.unit_vectors`) are keyed by it, so the
maintenance job recomputes them (a forgotten bump costs only on-the-fly embedding: they are matched
by text)."""


@dataclass(frozen=True)
class Unit:
    """One answer unit of a chunk.

    Attributes:
        text: the sentence, list item or table row (whitespace collapsed).
        source: 1-based number of the source (chunk) it comes from.
        position: 0-based order within the source.
        lead: the lead-in of a list item, the header row of a table row, the heading line above a
            sentence (``""`` when none).
        kind: ``"sentence"``, ``"item"``, ``"row"`` or ``"heading"`` (a title line; the lead of the
            sentences under it, never quoted).
    """

    text: str
    source: int
    position: int
    lead: str = ""
    kind: str = "sentence"


def split_units(text: str, source: int) -> list[Unit]:
    """Answer units of one chunk's ``text``, in reading order (shapes: see :class:`Unit`)."""
    units: list[Unit] = []
    for block, kind in _blocks(text):
        pieces = [block] if kind in ("row", "heading") else _sentences(block)
        for piece in pieces:
            clean = " ".join(piece.split())
            if len(re.findall(r"[^\W_]", clean)) < 3:
                continue
            units.append(Unit(clean, source, len(units), "", kind))
    return _with_leads(units)


def _blocks(text: str) -> list[tuple[str, str]]:
    """Re-join wrapped lines into blocks: (text, kind) with kind ``row``, ``item`` or ``sentence``."""
    blocks: list[tuple[str, str]] = []
    in_table = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            blocks.append(("", "break"))
            continue
        if in_table and not line.startswith("|"):
            blocks.append(("", "break"))  # the table ended: the text after it starts afresh
        in_table = line.startswith("|")
        if in_table:
            cells = [c.strip() for c in line.strip("|").split("|") if c.strip()]
            if len(cells) > 1 and not re.fullmatch(r"[|:\-\s]+", line):
                blocks.append((" | ".join(cells), "row"))
                continue
            if len(cells) != 1:
                continue
            line = cells[0]  # a one-cell row is wrapped text that a layout table detector boxed in
        if is_furniture(Unit(line, 0, 0)):
            continue  # a page-number or letterhead line left by the header/footer filter
        for piece in _INLINE_ITEM.split(line):
            _add_line(blocks, _LOST_MARKER.sub("• ", piece.strip()))
    return [(b, k) for b, k in blocks if k != "break" and b]


def _add_line(blocks: list[tuple[str, str]], line: str) -> None:
    """Start a new block at a list item, after a clause end, at a heading line after a sentence end,
    and after a heading line when the next line starts a sentence; else (and always after a line
    ending with a prepositive abbreviation such as "max.") continue the previous block.
    (A block kept as ``heading`` becomes a unit of its own, which :func:`is_heading` leaves unquoted.)"""
    if not line:
        return
    prev = blocks[-1] if blocks else ("", "break")
    if prev[1] in ("sentence", "item") and ends_with_abbreviation(prev[0]) and \
            marker_kind(line) in ("", "num"):
        blocks[-1] = (f"{prev[0]} {line}", prev[1])  # "… bis max." then "3 Monate …": one sentence
        return
    starts = _ITEM.match(line) is not None
    fresh = prev[1] in ("break", "row", "heading") or prev[0].endswith((":", ";"))
    if prev[1] == "heading" and not re.match(r"[A-Z0-9\"“(•]", line):
        blocks[-1] = (f"{prev[0]} {line}", "sentence")  # a title-case line that wraps into a sentence
    elif _HEADING_LINE.match(line) and (not starts or _SUBCLAUSE.match(line)) and (
            fresh or prev[0].endswith((".", "?", "!"))):
        blocks.append((line, "heading"))
    elif starts or fresh:
        blocks.append((line, "item" if starts else "sentence"))
    else:
        blocks[-1] = (f"{prev[0]} {line}", prev[1])


def _sentences(block: str) -> list[str]:
    out: list[str] = []
    for sent in _merge_fragments(_SENTENCE_END.split(block)):
        while len(sent) > MAX_UNIT_CHARS:  # very long run-ons: cut at a clause boundary
            cut = max(sent.rfind("; ", 0, MAX_UNIT_CHARS), sent.rfind(", ", 0, MAX_UNIT_CHARS))
            cut = cut if cut > 100 else MAX_UNIT_CHARS
            out.append(sent[: cut + 1])
            sent = sent[cut + 1:].strip()
        out.append(sent)
    return out


def _merge_fragments(pieces: list[str]) -> list[str]:
    """Undo splits after prepositive abbreviations ("Co.", "max.", "Art."), day numbers before a month
    ("18. März"; :mod:`core.answer.abbreviations`) and bare list markers ("iii.")."""
    out: list[str] = []
    for piece in pieces:
        if out and (is_non_boundary(out[-1], piece) or len(re.findall(r"[^\W_]+", out[-1])) < 2):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def is_heading(unit: Unit) -> bool:
    """A heading or lead-in fragment: a heading line, under 5 words, or under 12 words ending with ``:``."""
    words = len(re.findall(r"[^\W_]+", unit.text))
    return unit.kind == "heading" or words < 5 or (words < 12 and unit.text.endswith(":"))


_PAGE_LINE = re.compile(r"^\W*(?:page\W{0,3}\d+(?:\s+of\s+\d+)?\b|(?:\d+\s*/\s*\d+|\d+|[ivxlc]+)\W*$)",
                        re.IGNORECASE)
_PAGE_OF = re.compile(r"\bpage\s+\d+\s+of\s+\d+\b", re.IGNORECASE)
_MARKERS = re.compile(
    r"\b(?:UIN|CIN|IRDAI?\s+Reg(?:n|istration)?\.?\s*No|Regd\.?\s+Office|Registered\s+Office|Corporate\s+Office|"
    r"Corporate\s+Identity\s+Number|All\s+rights\s+reserved|Copyright|©)\b", re.IGNORECASE)


_CODE_TOKEN = re.compile(r"^(?:(?=(?:.*?[a-z][A-Z]){2})[A-Za-z\d]{6,}"
                         r"|(?=(?:.*?(?:[A-Za-z]\d|\d[A-Za-z])){2})[A-Za-z\d]{7,})$")
"""A token that is no word: small letters and capitals switching twice or more ("PiMdiliPlPli"; a
CamelCase name such as "FlexPerks" switches once), or letters and digits switching twice
("ABCHLIP12345V012345", "AB12CD34EF") — what a PDF's letterhead or stamp extracts as."""


def is_furniture(unit: Unit) -> bool:
    """Page furniture the header/footer filter let through: a page-number line ("Page | 25 …", "3/25"),
    a short line (under 25 words) with a registration code, registered-office or copyright marker, a
    line under 60 words with two or more such markers (a letterhead), or a unit where more than one
    with three or more code-like non-words, or one and a "Page N of M" (a stamp or letterhead
    extracted as gibberish)."""
    tokens = re.findall(r"[^\W_]+", unit.text)
    words = len(tokens)
    markers = len(_MARKERS.findall(unit.text))
    codes = sum(_CODE_TOKEN.match(t) is not None for t in tokens)
    return words < 25 and (_PAGE_LINE.search(unit.text) is not None or markers > 0) or (
        words < 60 and markers >= 2) or codes >= 3 or (codes >= 1 and _PAGE_OF.search(unit.text) is not None)


def quotable(units: list[Unit]) -> list[Unit]:
    """The units that may be quoted: headings (unless an item or row with a lead) and page furniture
    are left out."""
    return [u for u in units if not is_furniture(u) and (not is_heading(u) or (u.kind in ("item", "row")
                                                                             and u.lead))]


def embedded_text(unit: Unit) -> str:
    """What is embedded for ``unit``: its lead-in (list lead-in, table header, heading) and text."""
    return f"{unit.lead} {unit.text}".strip()


def unit_offset(text: str, unit: Unit) -> int | None:
    """Where ``unit`` starts in its chunk's ``text`` (its first words, whatever whitespace and table
    pipes lie between them), ``None`` when it cannot be found."""
    words = re.findall(r"[^\W_]+", unit.text)[:6]
    if not words:
        return None
    m = re.search(r"[\W_]+".join(map(re.escape, words)), text)
    return m.start() if m else None


def list_items(units: list[Unit], intro: Unit, limit: int = 8) -> list[Unit]:
    """The list items right after ``intro`` (an intro ending with ``:``) whose lead is ``intro``."""
    items: list[Unit] = []
    for u in units[intro.position + 1:]:
        if u.source != intro.source or u.lead != intro.text or len(items) >= limit:
            break
        items.append(u)
    return items


def marker_kind(text: str) -> str:
    """The list-marker style of ``text``: ``roman``, ``alpha``, ``num``, ``bullet`` or ``""``."""
    m = _ITEM.match(text)
    if m is None:
        return ""
    return next((k for k in ("roman", "alpha", "num", "bullet") if m.group(k)), "")


def _colon_lead(before: list[Unit]) -> str:
    """The lead-in of a numbered item: the unit right before its run of numbered items (and their
    later sentences), when that unit ends with ``:`` ("… in respect of:" then "1. …", "2. …").
    Numbered lines without such a lead-in are clauses of their own ("2.22 Hospital means …")."""
    for prev in reversed(before):
        if marker_kind(prev.text) == "num" or (_continues_item(prev) and not prev.text.endswith(":")):
            continue
        return prev.text if prev.text.endswith(":") and prev.kind != "row" else ""
    return ""


def _continues_item(unit: Unit) -> bool:
    """A later sentence of a list item's block (it has the item's kind but no marker of its own)."""
    return unit.kind == "item" and not marker_kind(unit.text)


def _with_leads(units: list[Unit]) -> list[Unit]:
    out: list[Unit] = []
    heading = ""
    for i, u in enumerate(units):
        if u.kind == "heading":  # the lead of the sentences under it (scored with them, never quoted)
            heading = u.text
            out.append(u)
            continue
        kind = "" if u.kind == "row" else marker_kind(u.text)
        lead = ""
        if u.kind == "row":  # a table row's lead is the table's header row
            j = i
            while j > 0 and units[j - 1].kind == "row":
                j -= 1
            header = units[j].text
            lead = header if j < i and header.count(" | ") >= 1 else ""
        elif kind in ("roman", "alpha", "bullet"):
            for prev in reversed(units[:i]):
                if marker_kind(prev.text) != kind:
                    lead = prev.text
                    break
        elif kind == "num":
            lead = _colon_lead(units[:i])
        elif _continues_item(u) and out:  # "However, …" after "2. Delivery within …": same item
            lead = out[-1].lead
        else:
            lead = heading
        out.append(Unit(u.text, u.source, u.position, lead, "item" if kind else u.kind))
    return out
