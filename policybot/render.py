"""Rich rendering of answers, index summaries and status for the terminal (no logic, only display)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from core.notices import stale_text
from core.types import Answer, StaleSource


def answer(console: Console, ans: Answer, *, show_text: bool = True) -> None:
    """Print the answer text (unless already streamed), its sources table, stale-source notices and the
    provider line."""
    answer_json(console, ans.to_json(), show_text=show_text)


def answer_json(console: Console, data: Mapping[str, Any], *, show_text: bool = True) -> None:
    """:func:`answer` from ``Answer.to_json()`` (what a running process sends to ``policybot ask``)."""
    if show_text:
        console.print(data["answer"], markup=False)  # policy text may hold "[/b]": not rich markup
    if data.get("citations"):
        table = Table("#", "file", "page", "section", "score", title="Sources", title_justify="left")
        for i, c in enumerate(data["citations"], start=1):
            table.add_row(str(i), escape(c["file"]), "" if c["page"] is None else str(c["page"]),
                          escape(c["section"]), f"{c['score']:.3f}")
        console.print(table)
    for s in data.get("stale_sources") or []:
        note = stale_text(StaleSource(s["file"], float(s["changed_at"]), s["reason"]))
        console.print(f"[yellow]note:[/yellow] {escape(note)}")
    total = (data.get("timings_ms") or {}).get("total", 0.0)
    console.print(f"[dim]{escape(data['provider'])}{' (cached)' if data.get('cached') else ''} · "
                  f"{total:.0f} ms[/dim]")


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
            ft.add_row(escape(file), escape(reason))
        console.print(ft)


def status(console: Console, data: Mapping[str, Any]) -> None:
    """Print the ``status`` report (see :func:`policybot.status.collect`)."""
    docs = data["documents"]
    console.print(f"data dir: {escape(data['data_dir'])}\npolicy root: {escape(data['policy_root'])}")
    if data.get("root_exists") is False:
        console.print(f"[yellow]policy folder missing:[/yellow] {escape(data['policy_root'])} is not a "
                      "folder on this machine (moved, deleted or not mounted); the index keeps its "
                      "documents, and index, watch and run fail until it is back or policies.root names "
                      "another folder (with --switch-root)", soft_wrap=True)
    if data.get("root_matches") is False:
        console.print("[yellow]config policies.root is another folder:[/yellow] "
                      f"{escape(data['configured_root'])} "
                      "(index, watch and run refuse it without --switch-root)")
    console.print(f"documents: {docs['indexed']} indexed, {docs['failed']} failed, "
                  f"{docs.get('pending', 0)} pending, {docs.get('needs_ocr', 0)} needing OCR · "
                  f"chunks: {data['chunks']} · stale (other fingerprint): {docs['stale']}")
    fps = data.get("fingerprints") or {}
    state = fps.get("state", "")
    note = f" · [yellow]{state}[/yellow]" if state not in ("", "current") else ""
    console.print(f"fingerprint: {data['fingerprint']}{note}")
    if fps.get("live") and fps.get("live") != data["fingerprint"]:
        console.print(f"live index fingerprint: {fps['live']}")
    ix = data.get("index") or {}
    if ix:
        building = f" · shadow rebuild in progress (generation {ix['building']})" if ix.get("building") \
            is not None else ""
        console.print(f"index generation: {ix.get('generation')}{building}")
    held = data.get("held_removals")
    if held:
        console.print(f"[red]removals held:[/red] {held['count']} of {held['indexed']} documents kept at "
                      f"{_time(held['at'])}: {escape(held['reason'])}", soft_wrap=True)
    _watch_lines(console, data)
    console.print(f"embedding: {data.get('embedding_model', '')} · answers: {data['provider']} · "
                  f"reranker: {data['reranker']}")
    if data.get("reranker_fallback"):
        console.print(f"[yellow]reranker fallback:[/yellow] {data['reranker_fallback']}")
    if data.get("last_indexed_at"):
        console.print(f"last indexed: {_time(data['last_indexed_at'])}")
    failures = data.get("failures") or []
    if failures:
        table = Table("failed file", "reason", "when", title="Failures", title_justify="left")
        for f in failures:
            table.add_row(escape(f["path"]), escape(f["reason"]), _time(f["at"]))
        console.print(table)
    ocr = data.get("needs_ocr") or {}
    if ocr.get("files"):
        pages = ocr.get("pages") or {}
        listed = [f"{f} (pages {', '.join(map(str, pages[f]))})" if pages.get(f) else f for f in ocr["files"]]
        console.print(f"needing OCR: {escape(', '.join(listed))}")
    partial = [f for f in data.get("files") or [] if f.get("partial")]
    if partial:
        notes = [f"{f['path']} ({', '.join(_not_read(f))})" for f in partial]
        console.print(f"[yellow]partly read:[/yellow] {escape('; '.join(notes))} (policybot inspect FILE)")


def _not_read(file: Mapping[str, Any]) -> list[str]:
    report = file.get("extraction") or {}
    pages = report.get("needs_ocr_pages") or []
    return list(report.get("not_read") or []) + ([f"pages {pages} need OCR"] if pages else []) \
        or ["pages needing OCR"]


def _waits(file: Mapping[str, Any]) -> str:
    """Why a pending file waits, in words: "looks incomplete: ...; still being written? retried until
    <time>, then recorded as failed" when the gate gives up on it at some time."""
    reason = str(file.get("reason") or "waiting")
    if file.get("gives_up_at"):
        until = _time(file["gives_up_at"])
        return (f"looks incomplete: {reason}; still being written? retried until {until}, then recorded as "
                "failed if still incomplete")
    return f"{reason}; looked at again {_time(file['retry_at'])}" if file.get("retry_at") else reason


def _watch_lines(console: Console, data: Mapping[str, Any]) -> None:
    obs, pending = data.get("observer") or {}, data.get("pending") or {}
    running = (data.get("watcher") or {}).get("running")
    kind = f"{obs.get('kind')} ({obs.get('reason')})" if obs.get("kind") else "none"
    console.print(f"watcher: {'running' if running else 'not running'} · observer: {kind} · "
                  f"index lag: {data.get('index_lag_s', 0.0):.1f} s"
                  + ("" if pending.get("source") == "watcher" else f" · {pending.get('source', '')}"))
    for f in pending.get("files") or []:
        console.print(f"pending: {escape(str(f.get('path')))}: {escape(_waits(f))}")
    rec = data.get("last_reconcile")
    if rec:
        errors = f", {rec['errors']} errors (last: {rec['last_error']})" if rec.get("errors") else ""
        runs = f"{rec['runs']} runs by the watcher{errors}" if rec.get("runs") else errors.lstrip(", ")
        console.print(f"last reconcile: {_time(rec['at']) or 'not yet'}" + (f" ({runs})" if runs else ""))
    for p in data.get("job_problems") or []:
        since = " (it has run since)" if p.get("ran_since") else ""
        console.print(f"[red]job {escape(p['job'])} {escape(p['kind'])}[/red] at {_time(p['at'])}{since}: "
                      f"{escape(p['reason'])}")
    lead = data.get("leader")
    if lead:
        state = "until" if lead.get("live") else "[yellow]expired[/yellow]"
        console.print(f"indexer leader: pid {lead['pid']} on {escape(str(lead['host']))} since "
                      f"{_time(lead['since'])} · lease {state} {_time(lead['expires_at']) or '(released)'}")


def _time(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts).isoformat(sep=" ", timespec="seconds") if ts else ""
