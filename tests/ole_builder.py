"""Minimal Compound File Binary ([MS-CFB]) writer for tests: a legacy Word 97-2003 ``.doc``
([MS-DOC]: a FIB, one text piece in a piece table) and an encrypted-OOXML shell
(``EncryptionInfo`` + ``EncryptedPackage``, [MS-OFFCRYPTO] §2.3.4) without writing Office.

olefile (the reader the extractor uses) and antiword read what this writes. Every stream is
padded with NUL bytes to at least 4096 bytes (the mini-stream cutoff, §2.6.3), so none goes to a
mini stream; the directory is one 512-byte sector of up to four entries, the root's children chained
through right siblings in name order (§2.6.4).
"""

from __future__ import annotations

import struct
from pathlib import Path

SECTOR = 512
END, FREE, FATSECT, NOSTREAM = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFF


def _entry(name: str, kind: int, start: int, size: int, right: int = NOSTREAM,
           child: int = NOSTREAM) -> bytes:
    raw = name.encode("utf-16-le") + b"\x00\x00"
    return (raw.ljust(64, b"\x00") + struct.pack("<HBB", len(raw), kind, 1)
            + struct.pack("<III", NOSTREAM, right, child) + b"\x00" * 16 + b"\x00" * 4 + b"\x00" * 16
            + struct.pack("<IQ", start, size))


def _order(name: str) -> tuple[int, str]:
    return len(name), name.upper()


def write_cfb(path: Path, streams: dict[str, bytes]) -> None:
    """Write ``streams`` (at most 3, each ≤ 100 KB) as a compound file at ``path``."""
    names = sorted(streams, key=_order)
    padded = [streams[n].ljust(max(4096, -(-len(streams[n]) // SECTOR) * SECTOR), b"\x00") for n in names]
    fat = [FATSECT, END]  # sector 0: FAT, sector 1: directory
    starts = []
    for data in padded:
        count = len(data) // SECTOR
        first = len(fat)
        starts.append(first)
        fat += [first + i + 1 for i in range(count - 1)] + [END]
    fat += [FREE] * (SECTOR // 4 - len(fat))
    entries = [_entry("Root Entry", 5, END, 0, child=1)]
    for i, name in enumerate(names):
        right = i + 2 if i + 1 < len(names) else NOSTREAM
        entries.append(_entry(name, 2, starts[i], len(padded[i]), right=right))
    directory = b"".join(entries).ljust(SECTOR, b"\x00")
    header = (bytes.fromhex("D0CF11E0A1B11AE1") + b"\x00" * 16
              + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6) + b"\x00" * 6
              + struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, END, 0, END, 0)
              + struct.pack("<I", 0) + struct.pack("<I", FREE) * 108)
    path.write_bytes(header + struct.pack("<128I", *fat) + directory + b"".join(padded))


def write_doc(path: Path, paragraphs: list[str]) -> None:
    """A Word 97-2003 document holding ``paragraphs`` (cp1252 text, one piece): a FIB ([MS-DOC]
    §2.5.1) pointing at the piece table (``fcClx``, §2.9.38) and an empty stylesheet (``fcStshf``,
    §2.9.271; antiword reads past the end of the table stream without one) in the ``1Table`` stream."""
    text = "".join(p + "\r" for p in paragraphs).encode("cp1252")
    text_fc = 1024
    fib = bytearray(text_fc)
    struct.pack_into("<HHHHHHH", fib, 0, 0xA5EC, 0x00C1, 0, 0x0409, 0, 0x1200, 0x00BF)  # fWhichTblStm
    struct.pack_into("<II", fib, 0x18, text_fc, text_fc + len(text))  # fcMin, fcMac (pre-97 readers)
    struct.pack_into("<H", fib, 32, 14)  # csw
    struct.pack_into("<H", fib, 62, 22)  # cslw
    struct.pack_into("<I", fib, 64, text_fc + len(text))  # cbMac
    struct.pack_into("<I", fib, 64 + 3 * 4, len(text))  # ccpText
    struct.pack_into("<H", fib, 152, 0x5D)  # cbRgFcLcb
    clx = struct.pack("<BI", 2, 16) + struct.pack("<II", 0, len(text)) + struct.pack(
        "<HIH", 0, (text_fc * 2) | 0x40000000, 0)  # one compressed (cp1252) piece
    stsh = struct.pack("<H", 18) + struct.pack("<9H", 0, 10, 1, 0x5B, 0, 0, 0, 0, 0)
    struct.pack_into("<II", fib, 154 + 33 * 8, 0, len(clx))  # fcClx, lcbClx
    struct.pack_into("<II", fib, 154 + 1 * 8, len(clx), len(stsh))  # fcStshf, lcbStshf
    write_cfb(path, {"WordDocument": bytes(fib) + text, "1Table": clx + stsh})


def write_encrypted_ooxml(path: Path, rights_managed: bool = False) -> None:
    """The OLE shell Office writes around a password-encrypted (or, with ``rights_managed``, an
    IRM/DRM-protected) .docx: ``EncryptionInfo`` and ``EncryptedPackage`` streams (contents are
    placeholders: nothing here decrypts)."""
    streams = {"EncryptionInfo": struct.pack("<HHI", 4, 4, 0x40), "EncryptedPackage": b"\x00" * 64}
    if rights_managed:
        streams["DRMEncryptedDataSpace"] = "DRMEncryptedTransform".encode("utf-16-le")
    write_cfb(path, streams)
