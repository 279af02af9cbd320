"""Decoding a text file's bytes, never dropping a character silently.

In this order (the first that applies wins):

1. a byte-order mark: UTF-32 LE/BE, UTF-8, UTF-16 LE/BE (Unicode §23.8; UTF-32 LE's mark starts
   like UTF-16 LE's, so it is tried first); the rest must decode strictly in that encoding;
2. strict UTF-8 (what every current editor writes);
3. UTF-16 without a mark, when NUL bytes sit at nearly every even (BE) or odd (LE) offset;
4. any other NUL byte: binary data, refused;
5. **cp1252** (Windows Western, a superset of ISO-8859-1's printable range: what Notepad wrote as
   "ANSI" on Western systems), strictly: its five undefined bytes fail it; and unless more than
   :data:`FOREIGN_SHARE` of the letters come out as accented Latin-1 letters, the mark of text from
   another code page (Cyrillic cp1251 reads as "Ñîòðóäíèêè");
6. charset detection by charset-normalizer (https://github.com/jawah/charset_normalizer) for what is
   left. It is not step 5 because on short Western text it prefers cp1250 and garbles "é" and "€".

Nothing is decoded with ``errors="replace"``: bytes no step accepts raise
:class:`~core.errors.ExtractionError`, and the encoding used is recorded in the extraction report.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from core.errors import ExtractionError

BOMS = [(codecs.BOM_UTF32_LE, "utf-32-le", "utf-32-le (BOM)"),
        (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32-be (BOM)"),
        (codecs.BOM_UTF8, "utf-8", "utf-8 (BOM)"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16-le (BOM)"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16-be (BOM)")]
UTF16_NUL_SHARE = 0.4
"""Share of the even (or odd) bytes that must be NUL to read BOM-less text as UTF-16 (ASCII-range
text in UTF-16 has a NUL in every other byte; other scripts fewer)."""
FOREIGN_SHARE = 0.5
"""Share of letters above U+00BF beyond which a cp1252 reading is taken for another code page."""


@dataclass(frozen=True)
class Decoded:
    """Text and how it was decoded (``"utf-8"``, ``"utf-16-le (BOM)"``, ``"cp1252"``,
    ``"cp1251 (detected)"``)."""

    text: str
    encoding: str


def decode_text(data: bytes, name: str = "") -> Decoded:
    """Decode a text file's ``data`` (see module doc). ``name``: only for messages, the part of a
    package the bytes come from (e.g. a Word document's ``afchunk.txt``); leave it empty for the file
    itself, whose failure is shown beside its path (``policybot status``), so the reason never repeats
    the file name.

    Raises:
        ExtractionError: binary data, or bytes that no encoding step reads without loss.
    """
    for bom, codec, label in BOMS:
        if data.startswith(bom):
            return Decoded(_strict(data[len(bom):], codec, label, name), label)
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    utf16 = _bomless_utf16(data)
    if utf16 is not None:
        return Decoded(_strict(data, utf16, utf16, name), f"{utf16} (no BOM)")
    if b"\x00" in data:
        raise ExtractionError(f"{_where(name)}binary data (NUL bytes) in a text file; save it as UTF-8 text")
    legacy = _cp1252(data)
    if legacy is not None:
        return Decoded(legacy, "cp1252")
    return _detected(data, name)


def _where(name: str) -> str:
    """``"name: "`` in front of a message about a part of a package; nothing for the file itself."""
    return f"{name}: " if name else ""


def _strict(data: bytes, codec: str, label: str, name: str) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        raise ExtractionError(f"{_where(name)}{label} text with an invalid byte at offset {exc.start}; "
                              "save it again as UTF-8") from None


def _bomless_utf16(data: bytes) -> str | None:
    if len(data) < 4 or len(data) % 2:
        return None
    even, odd = data[0::2], data[1::2]
    if even.count(0) >= UTF16_NUL_SHARE * len(even) and odd.count(0) < 0.1 * len(odd):
        return "utf-16-be"
    if odd.count(0) >= UTF16_NUL_SHARE * len(odd) and even.count(0) < 0.1 * len(even):
        return "utf-16-le"
    return None


def _cp1252(data: bytes) -> str | None:
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    letters = [c for c in text if c.isalpha()]
    high = sum(1 for c in letters if "\u00c0" <= c <= "\u00ff")
    return None if letters and high > FOREIGN_SHARE * len(letters) else text


def _detected(data: bytes, name: str) -> Decoded:
    import charset_normalizer

    best = charset_normalizer.from_bytes(data).best()
    if best is None:
        raise ExtractionError(f"{_where(name)}cannot tell the text encoding (not UTF-8, UTF-16 or a "
                              "known code page); save it as UTF-8")
    return Decoded(str(best), f"{best.encoding} (detected)")
