"""Read-only access to dictionaries in the dictd format (FreeDict, Debian's ``dict-freedict-*``).

A dictd dictionary is two files (``dictfmt(1)``, RFC 2229 servers read the same):

- ``NAME.index``: one line per headword, ``headword TAB offset TAB length``, offset and length in
  dictd's base64 digits (``A``–``Z``, ``a``–``z``, ``0``–``9``, ``+``, ``/``), sorted by the headword
  folded to lowercase letters, digits and spaces (``dictfmt --allchars -f``); a headword may repeat
  (one line per sense).
- ``NAME.dict.dz`` (or an uncompressed ``NAME.dict``): the entries' text. The ``.dz`` is a *dictzip*
  file: a gzip member whose header carries an ``RA`` extra field listing the compressed size of each
  fixed-size chunk of the text (``dictzip(1)``), so one chunk can be inflated without the others.

Lookups binary-search the memory-mapped index (no load step, no cache file) and inflate the one or
two chunks an entry spans (kept in a small LRU), so the first lookup costs milliseconds.
"""

from __future__ import annotations

import mmap
import struct
import zlib
from pathlib import Path

from core.errors import PolicybotError
from core.lru import LockedLRU

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64 = {c: i for i, c in enumerate(B64)}
CHUNK_CACHE = 64
"""Inflated dictzip chunks kept (each ~58 KB of text)."""


class DictionaryError(PolicybotError):
    """A dictionary file is missing, unreadable or not in the dictd format."""


def b64_number(digits: str) -> int:
    """The value of dictd's base64 number ``digits`` (``"B"`` → 1, ``"BA"`` → 64)."""
    value = 0
    for c in digits:
        value = value * 64 + _B64[c]
    return value


def sort_key(headword: str) -> str:
    """dictd's index order: lowercase, only letters, digits and spaces kept."""
    return "".join(c for c in headword.lower() if c.isalnum() or c == " ")


class DictzipText:
    """Random access to the text of a dictzip (``.dict.dz``) or plain (``.dict``) file.

    Raises:
        DictionaryError: the file cannot be read, or a ``.dz`` file has no dictzip chunk table.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            with path.open("rb") as fh:
                mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as exc:
            raise DictionaryError(f"cannot read dictionary text {path}: {exc}") from None
        self._data = mapped if path.suffix == ".dz" else None
        self._plain = None if path.suffix == ".dz" else mapped
        self._chunks: LockedLRU[int, bytes] = LockedLRU(CHUNK_CACHE)
        if self._data is not None:
            self._chunk_len, self._starts = _chunk_table(self._data, path)

    def read(self, offset: int, length: int) -> str:
        """``length`` bytes of the text from ``offset``, decoded as UTF-8 (bad bytes replaced)."""
        if self._plain is not None:
            return self._plain[offset:offset + length].decode("utf-8", "replace")
        first, last = offset // self._chunk_len, (offset + length - 1) // self._chunk_len
        raw = b"".join(self._chunk(i) for i in range(first, last + 1))
        start = offset - first * self._chunk_len
        return raw[start:start + length].decode("utf-8", "replace")

    def _chunk(self, i: int) -> bytes:
        return self._chunks.get_or_compute(i, lambda: self._inflate(i))

    def _inflate(self, i: int) -> bytes:
        assert self._data is not None
        if i + 1 >= len(self._starts):
            return b""
        piece = self._data[self._starts[i]:self._starts[i + 1]]
        return zlib.decompressobj(-15).decompress(piece)


def _chunk_table(data: mmap.mmap, path: Path) -> tuple[int, list[int]]:
    """(chunk length, compressed start offset of each chunk plus the end) from the gzip header's
    ``RA`` field (RFC 1952 §2.3.1.1 extra field; layout per ``dictzip(1)``)."""
    if len(data) < 12 or data[:2] != b"\x1f\x8b" or not data[3] & 0x04:
        raise DictionaryError(f"{path} is not a dictzip file (no gzip extra field); "
                              "recompress it with dictzip or unpack it to a .dict file")
    flags = data[3]
    xlen = struct.unpack_from("<H", data, 10)[0]
    extra, pos = data[12:12 + xlen], 12 + xlen
    chunk_len, sizes = 0, []
    i = 0
    while i + 4 <= len(extra):
        sub, size = extra[i:i + 2], struct.unpack_from("<H", extra, i + 2)[0]
        if sub == b"RA":
            _ver, chunk_len, count = struct.unpack_from("<HHH", extra, i + 4)
            sizes = list(struct.unpack_from(f"<{count}H", extra, i + 10))
        i += 4 + size
    if not chunk_len:
        raise DictionaryError(f"{path} has no dictzip chunk table (RA field)")
    for flag in (0x08, 0x10):  # FNAME, FCOMMENT: zero-terminated strings
        if flags & flag:
            end = data.find(b"\x00", pos)
            if end < 0:
                raise DictionaryError(f"{path}: gzip header ends inside its file name or comment")
            pos = end + 1
    if flags & 0x02:  # FHCRC
        pos += 2
    starts = [pos]
    for s in sizes:
        starts.append(starts[-1] + s)
    return chunk_len, starts


class DictdDictionary:
    """A dictd dictionary: ``lookup(headword)`` → the text of each of its entries.

    Args:
        base: the files' common path without suffix, e.g. ``/usr/share/dictd/freedict-eng-deu``
            (``base.index`` and ``base.dict.dz`` or ``base.dict``).

    Raises:
        DictionaryError: a file is missing or unreadable.
    """

    def __init__(self, base: Path) -> None:
        index = base.with_name(base.name + ".index")
        text = next((p for p in (base.with_name(base.name + ".dict.dz"), base.with_name(base.name + ".dict"))
                     if p.is_file()), None)
        if not index.is_file() or text is None:
            raise DictionaryError(f"dictionary {base}: {index.name} or {base.name}.dict(.dz) not found")
        with index.open("rb") as fh:
            self._index = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) if index.stat().st_size else b""
        self._text = DictzipText(text)
        self.name = base.name

    def lookup(self, headword: str) -> list[str]:
        """The entries whose headword is ``headword`` (case-insensitive), in file order; ``[]`` when none."""
        key = sort_key(headword)
        if not key.strip():
            return []
        out = []
        for line in self._lines_from(key):
            word, _, rest = line.partition("\t")
            if sort_key(word) != key:
                break
            off, _, length = rest.partition("\t")
            if word.lower() == headword.lower():
                out.append(self._text.read(b64_number(off), b64_number(length.strip())))
        return out

    def contains(self, headword: str) -> bool:
        """Whether ``headword`` (case-insensitive) has an entry; reads the index only."""
        key = sort_key(headword)
        return bool(key.strip()) and any(
            line.partition("\t")[0].lower() == headword.lower() for line in self._lines_from(key))

    def _lines_from(self, key: str) -> list[str]:
        """The index lines from the first one whose key is ≥ ``key`` (binary search over line starts)."""
        data = self._index
        lo, hi = 0, len(data)
        while lo < hi:
            mid = (lo + hi) // 2
            start = data.rfind(b"\n", 0, mid) + 1
            end = data.find(b"\n", start)
            end = len(data) if end < 0 else end
            word = data[start:end].split(b"\t", 1)[0].decode("utf-8", "replace")
            if sort_key(word) < key:
                lo = end + 1
            else:
                hi = start
        lines: list[str] = []
        pos = lo
        while pos < len(data) and len(lines) < 64:
            end = data.find(b"\n", pos)
            end = len(data) if end < 0 else end
            line = data[pos:end].decode("utf-8", "replace")
            if sort_key(line.split("\t", 1)[0]) != key:
                break
            lines.append(line)
            pos = end + 1
        return lines
