"""Rich rendering of answers, index summaries and status for the terminal (no logic, only display)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from core.types import Answer


def answer(console: Console, ans: Answer, *, show_text: bool = True) -> None:
    """Print the answer text (unless already streamed), its sources table and the provider line."""
    if show_text:
        console.print(ans.answer)
    if ans.citations:
        table = Table("#", "file", "page", "section", "score", title="Sources", title_justify="left")
        for i, c in enumerate(ans.citations, start=1):
            table.add_row(str(i), c.file, "" if c.page is None else str(c.page), c.section,
                          f"{c.score:.3f}")
        console.print(table)
    total = ans.timings_ms.get("total", 0.0)
    console.print(f"[dim]{ans.provider}{' (cached)' if ans.cached else ''} · {total:.0f} ms[/dim]")


def index_summary(console: Console, summary: Any) -> None:
    """Print an ``IndexSummary``: counts, then one row per failed file with its reason."""
    table = Table("indexed", "unchanged", "failed", "removed", "pages", "chunks embedded", "seconds")
    table.add_row(*(str(getattr(summary, f)) for f in
                    ("indexed", "unchanged", "failed", "removed", "pages", "chunks_embedded")),
                  f"{summary.seconds:.1f}")
    console.print(table)
    failures: Sequence[Any] = getattr(summary, "failures", ())
    if failures:
        ft = Table("failed file", "reason", title="Failures", title_justify="left")
        for f in failures:
            file, reason = (f["file"], f["reason"]) if isinstance(f, Mapping) else (f.file, f.reason)
            ft.add_row(file, reason)
        console.print(ft)


def status(console: Console, data: Mapping[str, Any]) -> None:
    """Print the ``status`` report (see :func:`policybot.status.collect`)."""
    docs = data["documents"]
    console.print(f"data dir: {data['data_dir']}\npolicy root: {data['policy_root']}")
    console.print(f"documents: {docs['indexed']} indexed, {docs['failed']} failed · chunks: {data['chunks']}"
                  f" · stale (other fingerprint): {docs['stale']}")
    console.print(f"fingerprint: {data['fingerprint']}")
    ix = data.get("index") or {}
    if ix:
        note = " · [yellow]rebuild pending (config changed)[/yellow]" if ix.get("rebuild_pending") else ""
        if ix.get("building") is not None:
            note += f" · shadow rebuild in progress (generation {ix['building']})"
        console.print(f"index generation: {ix.get('generation')}{note}")
    console.print(f"answers: {data['provider']} · reranker: {data['reranker']}")
    if data.get("reranker_fallback"):
        console.print(f"[yellow]reranker fallback:[/yellow] {data['reranker_fallback']}")
    if data.get("last_indexed_at"):
        console.print(f"last indexed: {_time(data['last_indexed_at'])}")
    failed = [d for d in data["files"] if d["status"] == "failed"]
    if failed:
        table = Table("failed file", "reason", "when", title="Failures", title_justify="left")
        for d in failed:
            table.add_row(d["path"], d["error"], _time(d["indexed_at"]))
        console.print(table)


def _time(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts).isoformat(sep=" ", timespec="seconds") if ts else ""
