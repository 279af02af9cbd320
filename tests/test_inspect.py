"""``policybot inspect FILE [--page N] [--json]``, the extraction report in ``status --json`` and the
documents row, and file names compared in NFC. Real LanceDB in tmp_path, fake embedder (the model is
not the subject)."""

from __future__ import annotations

import json
import shutil
import unicodedata
from pathlib import Path

from typer.testing import CliRunner

from core.config import Settings
from core.embedder import FakeEmbedder
from core.retrieval import in_scope
from core.store import Store
from indexer.pipeline import Indexer
from policybot.cli import cli
from policybot.status import collect

CASES = Path(__file__).resolve().parents[1].parent / "shared" / "cases"
REPORT_KEYS = {"ocr_pages", "needs_ocr_pages", "tables", "notes", "form_fields", "not_read",
               "hidden_removed", "furniture_lines", "encoding", "partial"}
TOP_KEYS = {"file", "path", "root", "indexed", "status", "error", "current", "page", "report", "blocks",
            "chunks", "extraction_error"}


def _setup(tmp_path: Path, files: dict[str, Path]) -> Path:
    root = tmp_path / "policies"
    for rel, src in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, root / rel)
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"data_dir: {tmp_path / 'data'}\npolicies:\n  root: {root}\nembedding:\n  provider: fake\n"
                   "rerank:\n  enabled: false\n", encoding="utf-8")
    return cfg


def _run(cfg: Path, *args: str) -> dict[str, object]:
    done = CliRunner().invoke(cli, ["--config", str(cfg), *args])
    assert done.exit_code == 0, done.output
    data: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return data


def test_inspect_json_shape_of_an_indexed_pdf(tmp_path: Path) -> None:
    cfg = _setup(tmp_path, {"hr/relocation.pdf": CASES / "pdf-sentence-across-page-break" /
                            "sentence_across_pages.pdf"})
    _run(cfg, "index", "--json")
    data = _run(cfg, "inspect", "hr/relocation.pdf", "--json")
    assert set(data) == TOP_KEYS
    assert (data["file"], data["indexed"], data["status"], data["current"]) == ("hr/relocation.pdf", True,
                                                                                  "indexed", True)
    report = data["report"]
    assert isinstance(report, dict) and set(report) == REPORT_KEYS and report["furniture_lines"] == 4
    blocks, chunks = data["blocks"], data["chunks"]
    assert isinstance(blocks, list) and isinstance(chunks, list) and chunks
    assert all(set(b) == {"page", "page_end", "section", "kind", "text"} for b in blocks)
    assert all(set(c) == {"ordinal", "page", "page_end", "section", "kind", "kinds", "text"} for c in chunks)
    assert [c["kind"] for c in chunks] == ["text"] * len(chunks)
    assert {b["kind"] for b in blocks} == {"heading", "text"}


def test_inspect_page_filter_keeps_what_covers_the_page(tmp_path: Path) -> None:
    cfg = _setup(tmp_path, {"relocation.pdf": CASES / "pdf-sentence-across-page-break" /
                            "sentence_across_pages.pdf"})
    _run(cfg, "index", "--json")
    data = _run(cfg, "inspect", "relocation.pdf", "--page", "2", "--json")
    pages = [(b["page"], b["page_end"]) for b in data["blocks"]]  # type: ignore[union-attr]
    assert pages == [(1, 2), (2, None)]
    assert all(c["page"] <= 2 <= (c["page_end"] or c["page"]) for c in data["chunks"])  # type: ignore[union-attr]


def test_inspect_of_a_table_and_a_not_indexed_file(tmp_path: Path) -> None:
    cfg = _setup(tmp_path, {"allowances.pdf": CASES / "pdf-table-merged-rows" / "rowspan_allowances.pdf"})
    data = _run(cfg, "inspect", "allowances.pdf", "--json")
    assert (data["indexed"], data["status"], data["current"], data["chunks"]) == (False, None, None, [])
    assert [b["kind"] for b in data["blocks"]] == ["text", "table", "text"]  # type: ignore[union-attr]
    _run(cfg, "index", "--json")
    data = _run(cfg, "inspect", "allowances.pdf", "--json")
    assert "table" in {k for c in data["chunks"] for k in c["kinds"]}  # type: ignore[union-attr]
    assert data["report"]["tables"] == 1  # type: ignore[index]


def test_inspect_text_output_names_kinds_and_sections(tmp_path: Path) -> None:
    cfg = _setup(tmp_path, {"policy.md": CASES / "md-html-comments" / "travel_policy.md"})
    _run(cfg, "index", "--json")
    done = CliRunner().invoke(cli, ["--config", str(cfg), "inspect", "policy.md"])
    assert done.exit_code == 0
    assert "policy.md · indexed (current)" in done.stdout
    assert "hidden_removed=2" in done.stdout and "text · Travel Policy > Per diem" in done.stdout


def _moved_config(tmp_path: Path) -> tuple[Path, Path]:
    """An index of ``policies/`` (one Markdown file), then a config naming another folder ``other/``
    that holds a different file under the same name: (that config, the indexed folder)."""
    cfg = _setup(tmp_path, {"hr/policy.md": CASES / "md-html-comments" / "travel_policy.md"})
    _run(cfg, "index", "--json")
    other = tmp_path / "other"
    (other / "hr").mkdir(parents=True)
    (other / "hr" / "policy.md").write_text("# Other\n\nNot the indexed file.\n", encoding="utf-8")
    cfg.write_text(cfg.read_text(encoding="utf-8").replace(str(tmp_path / "policies"), str(other)),
                   encoding="utf-8")
    status = _run(cfg, "status", "--json")
    assert (status["policy_root"], status["configured_root"]) == (str(tmp_path / "policies"), str(other))
    return cfg, tmp_path / "policies"


def test_inspect_by_absolute_path_uses_the_index_root_when_config_names_another(tmp_path: Path) -> None:
    cfg, indexed = _moved_config(tmp_path)
    data = _run(cfg, "inspect", str(indexed / "hr" / "policy.md"), "--json")
    assert (data["file"], data["indexed"], data["current"]) == ("hr/policy.md", True, True)
    assert data["chunks"] and data["root"] == str(indexed)


def test_inspect_relative_path_resolves_in_the_index_root_not_the_configured_one(tmp_path: Path) -> None:
    cfg, indexed = _moved_config(tmp_path)
    data = _run(cfg, "inspect", "hr/policy.md", "--json")
    assert (data["path"], data["indexed"]) == (str(indexed / "hr" / "policy.md"), True)
    assert all("Not the indexed file" not in b["text"] for b in data["blocks"])  # type: ignore[union-attr]


def test_inspect_of_a_missing_file_is_a_user_error(tmp_path: Path) -> None:
    cfg = _setup(tmp_path, {})
    done = CliRunner().invoke(cli, ["--config", str(cfg), "inspect", "nope.pdf"])
    assert done.exit_code == 2 and "nope.pdf: no such file" in done.output


def test_status_json_carries_the_extraction_report_and_flags_partial_files(tmp_path: Path) -> None:
    from docx import Document
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    root = tmp_path / "policies"
    root.mkdir()
    doc = Document()
    doc.add_paragraph("Body text of the policy.")
    doc.element.body.insert(1, parse_xml(f'<w:altChunk {nsdecls("w", "r")} r:id="rIdRtf"/>'))
    part = Part(PackURI("/word/part1.rtf"), "application/rtf", b"{\\rtf1 x}", doc.part.package)
    doc.part.rels.add_relationship(RT.A_F_CHUNK, part, "rIdRtf")
    doc.save(str(root / "partial.docx"))
    shutil.copy2(CASES / "text-utf16" / "leave_austria_utf16.txt", root / "leave.txt")
    settings = Settings.model_validate({"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
                                        "embedding": {"provider": "fake"}, "rerank": {"enabled": False}})
    store = Store(settings.data_dir, settings.keyword, settings.index)
    Indexer(settings, store, FakeEmbedder).reconcile()
    data = collect(settings, store)
    files = {f["path"]: f for f in data["files"]}
    assert data["documents"]["partial"] == 1
    assert files["partial.docx"]["partial"] is True
    assert files["partial.docx"]["extraction"]["not_read"] == ["altChunk part1.rtf (application/rtf)"]
    assert files["leave.txt"]["partial"] is False
    assert set(files["leave.txt"]["extraction"]) == REPORT_KEYS
    assert files["leave.txt"]["extraction"]["encoding"] == "utf-16-le (BOM)"
    kinds = store.documents()["leave.txt"].report()["chunk_kinds"]  # type: ignore[index]
    assert kinds and all(k == "text" for k in kinds)


def test_decomposed_folder_names_are_stored_and_scoped_in_nfc(tmp_path: Path) -> None:
    folder = unicodedata.normalize("NFD", "Österreich")
    root = tmp_path / "policies"
    (root / folder).mkdir(parents=True)
    shutil.copy2(CASES / "md-html-comments" / "travel_policy.md", root / folder / "Reise.md")
    settings = Settings.model_validate({"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
                                        "embedding": {"provider": "fake"}, "rerank": {"enabled": False}})
    store = Store(settings.data_dir, settings.keyword, settings.index)
    indexer = Indexer(settings, store, FakeEmbedder)
    indexer.reconcile()
    nfc = unicodedata.normalize("NFC", "Österreich/Reise.md")
    assert list(store.documents()) == [nfc]
    assert {r["path"] for r in store.chunk_rows()} == {nfc}
    assert in_scope(nfc, [unicodedata.normalize("NFD", "Österreich/**")])
    assert indexer.index_path(root / folder / "Reise.md") == "unchanged"
    assert indexer.reconcile().removed == 0 and list(store.documents()) == [nfc]
    (root / folder / "Reise.md").rename(root / folder / "Reisen.md")
    assert indexer.move_path(root / folder / "Reise.md", root / folder / "Reisen.md") == "moved"
    assert list(store.documents()) == [unicodedata.normalize("NFC", "Österreich/Reisen.md")]
