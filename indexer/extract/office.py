"""Office files that are OLE compound files ([MS-CFB]) rather than Office Open XML packages, told apart
by their streams (read with olefile, https://olefile.readthedocs.io):

- ``EncryptedPackage`` ([MS-OFFCRYPTO] §2.3.4.4): an encrypted OOXML package. With a
  ``DRMEncrypted…`` data space (§2.2.6, IRM / Azure Information Protection) it is rights-protected,
  else password-protected. Neither can be read without the key: the reason says which and what to do.
- ``WordDocument`` ([MS-DOC] §2.1): a legacy Word 97-2003 document. Its FIB's ``fEncrypted`` bit
  (§2.5.2) marks a password-protected one. Otherwise it is converted when a converter is on PATH —
  antiword (plain text, fast) or else LibreOffice (``soffice --headless --convert-to docx``, then
  read as .docx) — and reported with what to do when none is installed (``make system-deps``).
- anything else (an Excel or PowerPoint 97-2003 file, an Outlook message): named by its streams.
"""

from __future__ import annotations

import logging
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

from core.config import ExtractionSettings
from core.errors import ExtractionError
from core.types import ExtractedDocument, ExtractionReport

log = logging.getLogger(__name__)

FIB_ENCRYPTED = 0x0100
"""``fEncrypted`` in the FIB's flags word at offset 0x0A ([MS-DOC] §2.5.2)."""
_APPS = (("Workbook", "an Excel 97-2003 workbook"), ("Book", "an Excel 5 workbook"),
         ("PowerPoint Document", "a PowerPoint 97-2003 presentation"),
         ("__substg1.0_", "an Outlook message"), ("VisioDocument", "a Visio drawing"))


def extract_ole(path: Path, rel: str, settings: ExtractionSettings) -> ExtractedDocument:
    """Extract (or refuse, with the reason) an OLE compound file named .doc or .docx.

    Raises:
        ExtractionError: encrypted or rights-protected package, password-protected or unconvertible
            .doc, or an OLE file that is not a Word document; the message says what to do.
    """
    import olefile

    try:
        with olefile.OleFileIO(str(path)) as ole:
            names = ["/".join(entry) for entry in ole.listdir(streams=True, storages=True)]
            fib = ole.openstream("WordDocument").read(12) if ole.exists("WordDocument") else b""
    except OSError as exc:  # olefile raises OSError for a damaged compound file
        raise ExtractionError(f"damaged Office 97-2003 file ({exc}); save it again as .docx") from None
    if "EncryptedPackage" in names:
        raise ExtractionError(_protected_reason(names))
    if fib:
        if len(fib) >= 12 and struct.unpack_from("<H", fib, 10)[0] & FIB_ENCRYPTED:
            raise ExtractionError("password-protected Word 97-2003 document (.doc); remove the password "
                                  "in Word and save it as .docx")
        return convert_doc(path, rel, settings)
    raise ExtractionError(f"not a Word document: an OLE file that looks like {_guess(names)} "
                          f"(streams: {', '.join(sorted(names)[:4])}); save the policy as .docx or PDF")


def _protected_reason(names: list[str]) -> str:
    if any("DRMEncrypted" in n for n in names):
        return ("rights-protected Office document (IRM / sensitivity label: an encrypted package only "
                "permitted users can open); ask its owner for a copy without restricted access, or "
                "remove the protection in Word (File > Info > Protect Document) and save it again")
    return ("password-protected Office document (encrypted package); remove the password in Word "
            "(File > Info > Protect Document > Encrypt with Password) and save it again")


def _guess(names: list[str]) -> str:
    for stream, app in _APPS:
        if any(n.startswith(stream) for n in names):
            return app
    return "an unknown Office 97-2003 format"


def doc_converter() -> tuple[str, str] | None:
    """The converter on PATH: ("antiword", path) first, else ("libreoffice", soffice path), else None."""
    candidates = (("antiword", "antiword"), ("libreoffice", "soffice"), ("libreoffice", "libreoffice"))
    for name, binary in candidates:
        found = shutil.which(binary)
        if found is not None:
            return name, found
    return None


def convert_doc(path: Path, rel: str, settings: ExtractionSettings) -> ExtractedDocument:
    """Read a legacy Word 97-2003 document through antiword or LibreOffice.

    Raises:
        ExtractionError: no converter is installed, or it failed on the file.
    """
    converter = doc_converter()
    if converter is None:
        raise ExtractionError("legacy Word 97-2003 document (.doc) and no converter is installed: "
                              "install antiword or LibreOffice (make system-deps), or open it in Word "
                              "and save it as .docx")
    name, binary = converter
    doc = _antiword(path, rel, settings, binary) if name == "antiword" else \
        _libreoffice(path, rel, settings, binary)
    doc.warnings.append(f"legacy Word 97-2003 document converted with {name}")
    return doc


def _run(cmd: list[str], timeout: float) -> subprocess.CompletedProcess[bytes]:
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise ExtractionError(f"{Path(cmd[0]).name} took longer than {timeout:.0f} s on this .doc; "
                              "save it as .docx") from None
    if done.returncode != 0:
        detail = " ".join(done.stderr.decode("utf-8", "replace").split())[:160]
        raise ExtractionError(f"{Path(cmd[0]).name} could not read this .doc (exit {done.returncode}: "
                              f"{detail or 'no message'}); open it in Word and save it as .docx")
    return done


def _antiword(path: Path, rel: str, settings: ExtractionSettings, binary: str) -> ExtractedDocument:
    """antiword's text (``-w 0``: a paragraph per line; ``-m UTF-8.txt``), read as Markdown with a blank
    line between paragraphs (its table rows, ``|``-separated lines, stay together)."""
    from indexer.extract.markdown import parse_markdown

    done = _run([binary, "-w", "0", "-m", "UTF-8.txt", str(path)], settings.timeout_s)
    lines = done.stdout.decode("utf-8", "replace").replace("\r", "").split("\n")
    out: list[str] = []
    for line in lines:
        table = line.lstrip().startswith("|")
        if out and not (table and out[-1].lstrip().startswith("|")):
            out.append("")
        out.append(line)
    blocks = parse_markdown("\n".join(out), rel, settings)
    return ExtractedDocument(path=rel, blocks=blocks, report=ExtractionReport())


def _libreoffice(path: Path, rel: str, settings: ExtractionSettings, binary: str) -> ExtractedDocument:
    """LibreOffice's .docx conversion of ``path``, read as a .docx."""
    from indexer.extract.docx import extract_docx

    with tempfile.TemporaryDirectory(prefix="policybot-doc-") as tmp:
        source = Path(tmp) / "in.doc"
        shutil.copyfile(path, source)
        _run([binary, "--headless", f"-env:UserInstallation=file://{tmp}/profile", "--convert-to", "docx",
              "--outdir", tmp, str(source)], settings.timeout_s)
        return extract_docx(Path(tmp) / "in.docx", rel, settings)
