"""Build a decompression-bomb PDF for the isolation tests: one page whose content stream is the
FlateDecode (zlib, RFC 1950) compression of one text-drawing operator followed by ``inflated_mb``
MiB of spaces (PDF whitespace), so a parser that inflates it whole needs that much memory. zlib at
level 9 compresses runs of one byte about 1030:1, so ~1 GiB inflates from ~1 MiB on disk.
PDF 1.7 (ISO 32000-1) §7.3.8 (stream objects), §7.4.4 (FlateDecode)."""

from __future__ import annotations

import zlib
from pathlib import Path

_TEXT = b"BT /F1 12 Tf 72 720 Td (bomb) Tj ET\n"


def write_bomb(path: Path, inflated_mb: int = 1024) -> Path:
    """Write the bomb to ``path`` and return it (size on disk is about ``inflated_mb`` KiB)."""
    stream = _inflating_stream(inflated_mb)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" /Filter /FlateDecode >>\nstream\n" + stream
        + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


def _inflating_stream(inflated_mb: int) -> bytes:
    """zlib stream of the text operator + ``inflated_mb`` MiB of spaces, built in milliseconds: after
    a Z_FULL_FLUSH the deflate state is reset, so every 1 MiB block compresses to the same bytes and
    is compressed once; the zlib header and Adler-32 trailer (RFC 1950) are added by hand."""
    block = b" " * (1024 * 1024)
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = comp.compress(_TEXT) + comp.flush(zlib.Z_FULL_FLUSH)
    body = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)
    adler = zlib.adler32(_TEXT)
    for _ in range(inflated_mb):
        adler = zlib.adler32(block, adler)
    return b"\x78\xda" + head + body * inflated_mb + comp.flush() + adler.to_bytes(4, "big")
