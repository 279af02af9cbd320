"""``policybot inspect FILE [--page N] [--json]``: what the index holds for one policy file, so its owner
can see why the bot can or cannot answer from it.

The chunks (and their section, pages and kinds) and the extraction report come from the index: the
documents row and the chunks table. The blocks are the file extracted again now, in this process,
with the same settings (extraction is deterministic, so they are what the index was built from while
``current`` is true: the file's bytes still hash to the indexed version and the index was built
under the current config fingerprint). Loads no embedding model.

JSON shape (stable; new keys may be added, none renamed)::

    {"file": path relative to "root", "path": absolute path, "root": the policy folder used,
     "indexed": bool, "status": "indexed"|"failed"|null,
     "error": str, "current": bool|null, "page": N|null,
     "report": {"ocr_pages", "needs_ocr_pages", "tables", "notes", "form_fields", "not_read",
                "hidden_removed", "furniture_lines", "encoding", "partial"} | null,
     "blocks": [{"page", "page_end", "section", "kind", "text"}],
     "chunks": [{"ordinal", "page", "page_end", "section", "kind", "kinds", "text"}],
     "extraction_error": str}

``kind`` is one of ``text``, ``table``, ``heading``, ``note``, ``form_field``, ``ocr``; a chunk's
``kind`` is that of its first block after any heading (``kinds`` lists them all; null for chunks
indexed before kinds were recorded). ``report`` is the indexed one, or the fresh extraction's when
the file is not indexed. ``--page N`` keeps the blocks and chunks on page N (PDF).

``root`` is the folder the index holds (``policy_root`` of ``status --json``: the last reconcile's,
which may differ from ``policies.root`` when the config now names another folder), or
``policies.root`` when nothing was indexed yet; ``file`` is relative to it, and a relative FILE that is
not found from the working directory is looked up in it first, then in ``policies.root``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from core.config import Settings
from core.errors import ExtractionError, PolicybotError
from core.fingerprint import config_fingerprint
from core.store import Store, sql_str
from core.types import Block, ExtractedDocument
from indexer.extract import extract_file, relative_posix
from indexer.jobs import sha256_file
from indexer.names import disk_path, nfc
from indexer.walk import not_regular_reason

BLOCK_KEYS = ("page", "page_end", "section", "kind", "text")
CHUNK_KEYS = ("ordinal", "page", "page_end", "section", "kind", "kinds", "text")


def index_root(settings: Settings, store: Store | None) -> Path:
    """The policy folder the index holds (recorded by the last reconcile), else ``policies.root``;
    absolute."""
    recorded = store.state().root if store is not None else ""
    return Path(recorded) if recorded else settings.policies.root.resolve()


def resolve(settings: Settings, file: str, root: Path | None = None) -> Path:
    """The file named by ``file``: as given (absolute or from the working directory), else relative
    to ``root`` (the index's folder, :func:`index_root`), else relative to ``policies.root`` (in each
    folder also as ``status`` lists it: in Unicode NFC, where the name on disk may be decomposed,
    :func:`indexer.names.disk_path`).

    Raises:
        PolicybotError: no such file, a folder, or a named pipe, socket or device (never opened).
    """
    given = Path(file)
    folders = list(dict.fromkeys(f for f in (root, settings.policies.root) if f is not None))
    candidates = (given, *(c for folder in folders  # as status lists it (NFC)
                           for c in (folder / given, disk_path(folder, nfc(file)))))
    for candidate in candidates:
        if candidate.is_file():
            return Path(os.path.abspath(candidate))
    odd = next((r for r in map(not_regular_reason, candidates) if r), "")
    if odd:
        raise PolicybotError(f"{file}: {odd}")
    if any(c.is_dir() for c in candidates):
        raise PolicybotError(f"{file}: is a folder; pass one policy file in it (policybot status lists them)")
    raise PolicybotError(f"{file}: no such file (looked in the working directory and in "
                         f"{' and '.join(str(f) for f in folders)}); pass the policy file's path")


def inspect_file(settings: Settings, store: Store | None, file: str,
                 page: int | None = None) -> dict[str, Any]:
    """The inspection of ``file`` as a JSON-able dict (shape in the module doc).

    Raises:
        PolicybotError: no such file; ``page`` beyond the file's last page, or given for a file
            without pages (Markdown, text, Word).
    """
    root = index_root(settings, store)
    path = resolve(settings, file, root)
    rel = relative_posix(path, root)
    rec = store.documents().get(rel) if store is not None else None
    doc, error = _extract(path, root, settings)
    if page is not None:
        check_page(rel, page, doc.pages if doc is not None else None)
    stored = rec.report() if rec is not None else None
    report = stored if stored is not None else (doc.report.to_json() if doc is not None else None)
    stored_kinds = report.pop("chunk_kinds", None) if report is not None else None
    kinds = [str(k) for k in stored_kinds] if isinstance(stored_kinds, list) else []
    chunks = _chunks(store, rel, kinds) if rec is not None and store is not None else []
    blocks = [_block(b) for b in doc.blocks] if doc is not None else []
    if page is not None:
        blocks = [b for b in blocks if _on_page(b, page)]
        chunks = [c for c in chunks if _on_page(c, page)]
    current = None if rec is None else (rec.sha256 == sha256_file(path)
                                        and rec.fingerprint == config_fingerprint(settings))
    return {"file": rel, "path": str(path), "root": str(root),
            "indexed": rec is not None and rec.status == "indexed",
            "status": rec.status if rec is not None else None, "error": rec.error if rec is not None else "",
            "current": current, "page": page, "report": report, "blocks": blocks, "chunks": chunks,
            "extraction_error": error}


def check_page(rel: str, page: int, pages: int | None) -> None:
    """Refuse ``--page page`` for a file of ``pages`` pages (0: a file without pages, None: unknown
    because it cannot be extracted now).

    Raises:
        PolicybotError: the page is past the last one, or the file has no pages.
    """
    if pages is None:
        return
    if pages == 0:
        raise PolicybotError(f"{rel}: --page applies only to PDFs; this file has no pages (Markdown, text "
                             "and Word files are one flow of text); leave --page out to see all of it")
    if page > pages:
        raise PolicybotError(f"{rel}: page {page} is past the end; the file has {pages} page"
                             f"{'s' if pages != 1 else ''}: pass --page 1 to {pages}")


def _extract(path: Path, root: Path, settings: Settings) -> tuple[ExtractedDocument | None, str]:
    try:
        return extract_file(path, root, settings), ""
    except ExtractionError as exc:
        return None, str(exc)


def _block(b: Block) -> dict[str, Any]:
    return {"page": b.page, "page_end": b.page_end, "section": b.section, "kind": b.kind, "text": b.text}


def _chunks(store: Store, rel: str, kinds: list[str]) -> list[dict[str, Any]]:
    rows = store.chunk_rows(f"path = {sql_str(rel)}", ["ordinal", "page", "page_end", "section", "text"])
    out = []
    for row in sorted(rows, key=lambda r: r["ordinal"]):
        ordinal = int(row["ordinal"])
        found = kinds[ordinal].split("+") if ordinal < len(kinds) and kinds[ordinal] else None
        out.append({"ordinal": ordinal, "page": row["page"], "page_end": row["page_end"],
                    "section": row["section"], "kind": found[0] if found else None, "kinds": found,
                    "text": row["text"]})
    return out


def _on_page(item: dict[str, Any], page: int) -> bool:
    first = item.get("page")
    if first is None:
        return False
    last = item.get("page_end") or first
    return bool(first <= page <= last)


def render_inspection(console: Console, data: dict[str, Any]) -> None:
    """Print an inspection for a person: status, report, then blocks and chunks."""
    state = data["status"] or "not indexed"
    fresh = "" if data["current"] is None else " (current)" if data["current"] else \
        " (stale: the file or the config changed since it was indexed; run policybot index)"
    console.print(f"[bold]{escape(data['file'])}[/bold] · {state}{fresh}"
                  + (f" · {escape(data['error'])}" if data["error"] else ""))
    report = data["report"] or {}
    if report:
        console.print("report: " + escape(", ".join(f"{k}={v}" for k, v in report.items() if v not in
                                                    ("", [], 0, False, None))) or "report: nothing of note")
    if data["extraction_error"]:
        console.print(f"[red]extraction now fails:[/red] {escape(data['extraction_error'])}")
    for title, items in (("blocks (extracted now)", data["blocks"]),
                         ("chunks (in the index)", data["chunks"])):
        console.print(f"\n[bold]{title}: {len(items)}[/bold]")
        for item in items:
            console.print(f"[cyan]{escape(_where(item))}[/cyan]")
            console.print(escape(item["text"]), soft_wrap=True)


def _where(item: dict[str, Any]) -> str:
    """``#3 p4-5 · table · Benefits > Dental`` for a chunk or block."""
    pages = f"p{item['page']}" + (f"-{item['page_end']}" if item.get("page_end") else "") \
        if item.get("page") else "-"
    label = f"#{item['ordinal']} " if "ordinal" in item else ""
    return f"{label}{pages} · {item['kind'] or '?'} · {item['section'] or '(no section)'}"
