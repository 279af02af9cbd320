"""Writes tiny dictionaries in the dictd format (``.index`` + dictzip ``.dict.dz`` or plain ``.dict``)
for the cross-language retrieval tests, the way ``dictfmt`` and ``dictzip`` lay them out."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path

from core.clir.dictd import B64, sort_key


def b64(n: int) -> str:
    """dictd's base64 digits of ``n`` (``0`` → ``"A"``)."""
    out = ""
    while True:
        out = B64[n % 64] + out
        n //= 64
        if not n:
            return out


def write_dictd(base: Path, entries: Mapping[str, Sequence[str]], *, chunk: int = 64,
                compressed: bool = True) -> Path:
    """Write ``base.index`` and ``base.dict.dz`` (dictzip with ``chunk``-byte chunks, so entries span
    chunks) or ``base.dict``. ``entries``: headword → one translation line per sense; each sense is
    one entry "headword\\ntranslation\\n". Returns ``base``."""
    text = b""
    lines: list[tuple[str, str]] = []
    for word, senses in entries.items():
        for sense in senses:
            body = f"{word} /ipa/\n{sense}\n".encode()
            lines.append((word, f"{word}\t{b64(len(text))}\t{b64(len(body))}"))
            text += body
    index = "\n".join(line for _, line in sorted(lines, key=lambda x: sort_key(x[0]))) + "\n"
    base.with_name(base.name + ".index").write_text(index, encoding="utf-8")
    if compressed:
        base.with_name(base.name + ".dict.dz").write_bytes(dictzip(text, chunk))
    else:
        base.with_name(base.name + ".dict").write_bytes(text)
    return base


def dictzip(data: bytes, chunk: int) -> bytes:
    """``data`` as a dictzip file: gzip with an ``RA`` extra field and chunks compressed apart
    (a full flush after each, as ``dictzip(1)`` writes them)."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    pieces = [comp.compress(data[i:i + chunk]) + comp.flush(zlib.Z_FULL_FLUSH)
              for i in range(0, len(data), chunk)]
    tail = comp.flush()
    ra = struct.pack("<HHH", 1, chunk, len(pieces)) + struct.pack(f"<{len(pieces)}H", *map(len, pieces))
    extra = b"RA" + struct.pack("<H", len(ra)) + ra
    header = b"\x1f\x8b\x08\x04" + b"\x00" * 4 + b"\x02\x03" + struct.pack("<H", len(extra)) + extra
    trailer = struct.pack("<II", zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF)
    return header + b"".join(pieces) + tail + trailer
