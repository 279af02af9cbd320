"""The gap report as JSON (the ``policybot gaps --json`` contract) and as markdown (``--report``).

Pure functions. JSON shape (times are unix seconds; ``page`` null outside PDFs)::

    {"generated_at", "since", "until", "questions", "flagged", "similarity_threshold", "notes": [str],
     "groups": [{"id", "count", "examples": [str],
                 "signals": {"declined", "low_answerability", "downvoted", "reasked"},
                 "reasons": [str], "documents": [{"file", "section", "page", "score"}],
                 "cited": [file], "owners": [slack id], "first_asked_at", "last_asked_at"}]}

Group ids are ``g1``, ``g2``, … in report order (largest group first); they name a group within one
report only.
"""

from __future__ import annotations

import time
from typing import Any

from core.gaps.report import DocRef, GapGroup, GapReport
from core.gaps.signals import SIGNALS

SIGNAL_LABELS = {"declined": "declined", "low_answerability": "low answerability",
                 "downvoted": "👎", "reasked": "asked again"}


def to_json(report: GapReport) -> dict[str, Any]:
    """The report as a JSON-able dict (shape in the module docstring)."""
    return {
        "generated_at": report.generated_at, "since": report.since, "until": report.until,
        "questions": report.questions, "flagged": report.flagged,
        "similarity_threshold": report.similarity_threshold, "notes": list(report.notes),
        "groups": [_group_json(f"g{i}", g) for i, g in enumerate(report.groups, 1)],
    }


def _group_json(gid: str, g: GapGroup) -> dict[str, Any]:
    return {
        "id": gid, "count": g.count, "examples": list(g.examples),
        "signals": {s: int(g.signals.get(s, 0)) for s in SIGNALS}, "reasons": list(g.reasons),
        "documents": [{"file": d.file, "section": d.section, "page": d.page,
                       "score": round(d.score, 4)} for d in g.documents],
        "cited": list(g.cited), "owners": list(g.owners),
        "first_asked_at": g.first_asked_at, "last_asked_at": g.last_asked_at,
    }


def from_json(data: dict[str, Any]) -> GapReport:
    """The inverse of :func:`to_json` (for a report stored as JSON). Raises KeyError/TypeError on
    another shape."""
    groups = tuple(GapGroup(
        count=int(g["count"]), examples=tuple(g["examples"]), signals=dict(g["signals"]),
        reasons=tuple(g["reasons"]),
        documents=tuple(DocRef(d["file"], d["section"], d["page"], float(d["score"]))
                        for d in g["documents"]),
        cited=tuple(g["cited"]), owners=tuple(g["owners"]), first_asked_at=float(g["first_asked_at"]),
        last_asked_at=float(g["last_asked_at"])) for g in data["groups"])
    return GapReport(float(data["generated_at"]), float(data["since"]), float(data["until"]),
                     int(data["questions"]), int(data["flagged"]), float(data["similarity_threshold"]),
                     groups, tuple(data.get("notes") or ()))


def day(t: float) -> str:
    """``YYYY-MM-DD`` (UTC) of unix time ``t``."""
    return time.strftime("%Y-%m-%d", time.gmtime(t))


def signal_summary(g: GapGroup) -> str:
    """``3 declined · 2 👎`` (signals with a non-zero count)."""
    return " · ".join(f"{n} {SIGNAL_LABELS[s]}" for s in SIGNALS if (n := int(g.signals.get(s, 0))))


def doc_line(d: DocRef) -> str:
    """``file — p. 3 — Section (0.61)``."""
    parts = [d.file] + ([f"p. {d.page}"] if d.page is not None else []) + ([d.section] if d.section else [])
    return " — ".join(parts) + f" ({d.score:.2f})"


def render_markdown(report: GapReport) -> str:
    """The report as a markdown document (one section per group)."""
    lines = [f"# Knowledge gaps {day(report.since)} – {day(report.until)}", "",
             f"{report.questions} questions asked, {report.flagged} flagged (declined, low answerability, "
             f"👎 or asked again), in {len(report.groups)} groups (similarity ≥ "
             f"{report.similarity_threshold:.2f}).", ""]
    lines += [f"> {n}" for n in report.notes] + ([""] if report.notes else [])
    if not report.questions:
        lines.append("Nothing to report: no question was asked in this window.")
    elif not report.groups:
        lines.append("Nothing to report: every question in this window was answered without a signal.")
    for i, g in enumerate(report.groups, 1):
        lines += [f"## g{i}. {_md(g.examples[0]) if g.examples else '(no text)'}", "",
                  f"- **{g.count} questions**: {signal_summary(g)}; asked {day(g.first_asked_at)} – "
                  f"{day(g.last_asked_at)}"]
        lines += ["- Examples:"] + [f"  - {_md(e)}" for e in g.examples]
        if g.documents:
            lines += ["- Nearest documents:"] + [f"  - {_md(doc_line(d))}" for d in g.documents]
        if g.cited:
            lines.append("- Cited by the answers: " + ", ".join(_md(c) for c in g.cited))
        if g.reasons:
            lines += ["- 👎 reasons:"] + [f"  - “{_md(r)}”" for r in g.reasons]
        if g.owners:
            lines.append("- Owners: " + ", ".join(g.owners))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _md(text: str) -> str:
    """Text from users or documents made inert in markdown (no HTML, no links, no emphasis)."""
    out = text.replace("\\", "\\\\").replace("<", "&lt;").replace(">", "&gt;")
    for ch in "*_`[]#|":
        out = out.replace(ch, "\\" + ch)
    return " ".join(out.split())
