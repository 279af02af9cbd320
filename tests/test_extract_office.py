"""Office files that aren't what their name says: rights-protected and password-encrypted OOXML
packages, legacy Word 97-2003 documents (converted with antiword when installed, else reported), other
OLE files. Test files are written by tests/ole_builder.py (a minimal [MS-CFB] writer)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.config import Settings
from core.errors import ExtractionError
from indexer.extract import extract_file
from indexer.extract.office import doc_converter
from tests.ole_builder import write_cfb, write_doc, write_encrypted_ooxml

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
LEAVE = ["Annual Leave Policy", "Employees receive 25 days of paid annual leave per year.",
         "Carry-over is limited to five days."]


def reason(path: Path) -> str:
    with pytest.raises(ExtractionError) as err:
        extract_file(path, path.parent, Settings())
    return str(err.value)


def test_corpus_irm_package_fails_naming_protection_not_a_legacy_format() -> None:
    text = reason(CORPUS / "broken" / "Zava_Claims_Insurance_Policies.docx")
    assert text.startswith("rights-protected Office document")
    assert "legacy" not in text and "97-2003" not in text


def test_password_encrypted_package_names_the_password(tmp_path: Path) -> None:
    write_encrypted_ooxml(tmp_path / "locked.docx")
    assert reason(tmp_path / "locked.docx").startswith("password-protected Office document")


def test_other_ole_file_is_named_by_its_streams(tmp_path: Path) -> None:
    write_cfb(tmp_path / "budget.docx", {"Workbook": b"\x09\x08" * 10})
    text = reason(tmp_path / "budget.docx")
    assert "an Excel 97-2003 workbook" in text and "save the policy as .docx or PDF" in text


@pytest.mark.skipif(shutil.which("antiword") is None, reason="needs antiword (make system-deps)")
@pytest.mark.parametrize("name", ["leave.doc", "leave_saved_as.docx"])
def test_legacy_doc_is_converted_with_antiword(tmp_path: Path, name: str) -> None:
    write_doc(tmp_path / name, LEAVE)
    doc = extract_file(tmp_path / name, tmp_path, Settings())
    assert [b.text for b in doc.blocks] == LEAVE
    assert doc.warnings == ["legacy Word 97-2003 document converted with antiword"]


def test_legacy_doc_without_a_converter_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_doc(tmp_path / "leave.doc", LEAVE)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    assert doc_converter() is None
    text = reason(tmp_path / "leave.doc")
    assert text.startswith("legacy Word 97-2003 document (.doc) and no converter is installed")
    assert "make system-deps" in text


def test_password_protected_doc_is_not_sent_to_the_converter(tmp_path: Path) -> None:
    write_doc(tmp_path / "leave.doc", LEAVE)
    data = bytearray((tmp_path / "leave.doc").read_bytes())
    start = data.index(bytes.fromhex("ECA5C100"))  # the FIB in the WordDocument stream
    data[start + 11] |= 0x01  # fEncrypted (bit 8 of the flags word)
    (tmp_path / "leave.doc").write_bytes(bytes(data))
    assert reason(tmp_path / "leave.doc").startswith("password-protected Word 97-2003 document")


def test_rtf_named_doc_says_so(tmp_path: Path) -> None:
    (tmp_path / "memo.doc").write_bytes(b"{\\rtf1\\ansi Hello}")
    assert reason(tmp_path / "memo.doc").startswith("an RTF document named .doc")


def test_doc_files_are_indexed_by_default() -> None:
    assert "*.doc" in Settings().policies.include
