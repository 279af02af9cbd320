"""Eval outputs: the JSON object (``policybot eval --json``), the markdown report and the PNG chart."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from core.eval.metrics import first_relevant_rank
from core.eval.runner import EvalResult, ItemResult

METRICS = ("hit_at_1", "hit_at_3", "hit_at_5", "mrr", "ndcg_at_5", "key_fact_recall", "refusal_accuracy")


def _r(x: float | int | None) -> float | int | None:
    return round(x, 4) if isinstance(x, float) else x


def item_record(r: ItemResult) -> dict[str, Any]:
    """One item as JSON: id, kind, question, follow_up_of, found, provider, answer, facts found /
    missed, key_fact_recall, first_relevant_rank, hit@k, nDCG@5, refusal_correct, retrieved
    (file, page, score), citations (file, page, section), timings_ms, reranker, answerability,
    answer_type, signals, error."""
    a = r.answer
    return {
        "id": r.item.id, "kind": r.item.kind, "question": r.item.question,
        "follow_up_of": r.item.follow_up_of, "found": a.found if a else None,
        "provider": a.provider if a else None, "answer": a.answer if a else None,
        "key_facts_found": list(r.facts_found), "key_facts_missed": list(r.facts_missed),
        "key_fact_recall": _r(r.key_fact_recall),
        "first_relevant_rank": first_relevant_rank(r.relevant) if r.scores_retrieval else None,
        **{f"hit_at_{k}": (any(r.relevant[:k]) if r.scores_retrieval else None) for k in (1, 3, 5)},
        "ndcg_at_5": _r(r.ndcg_at_5) if r.scores_retrieval else None,
        "refusal_correct": r.refusal_correct,
        "retrieved": [{"file": c.file, "page": c.page, "score": round(c.score, 4)}
                      for c in (a.retrieved if a else [])],
        "citations": [{"file": c.file, "page": c.page, "section": c.section}
                      for c in (a.citations if a else [])],
        "timings_ms": {k: round(v, 1) for k, v in (a.timings_ms.items() if a else [])},
        "reranker": a.details.get("reranker") if a else None,
        "answerability": a.answerability if a else None,
        "answer_type": a.answer_type if a else None,
        "signals": {k: round(v, 4) for k, v in a.signals.items()} if a else {},
        "error": r.error,
    }


def to_json(result: EvalResult) -> dict[str, Any]:
    """Exactly ``hit_at_1, hit_at_3, hit_at_5, mrr, ndcg_at_5, key_fact_recall, refusal_accuracy,
    latency_ms ({stage: {p50, p95}}), per_kind ({kind: {n, metrics...}}), items`` (one record each)."""
    summary = {k: _r(v) for k, v in result.summary().items()}
    return {
        **summary,
        "latency_ms": {s: {q: round(v, 1) for q, v in pq.items()} for s, pq in result.latency_ms().items()},
        "per_kind": {k: {name: _r(v) for name, v in d.items()} for k, d in result.per_kind().items()},
        "items": [item_record(r) for r in result.items],
    }


def _fmt(x: object) -> str:
    if x is None:
        return "–"
    return f"{x:.3f}" if isinstance(x, float) else str(x)


def _table(header: list[str], rows: list[list[object]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_fmt(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return out


def render_report(result: EvalResult, chart_name: str | None = None) -> str:
    """The markdown report: setup, summary, per kind, latency, per item, failures.

    ``chart_name`` (a PNG next to the report) is embedded when given.
    """
    s = result.summary()
    lines = ["# policybot eval", "", *_setup(result), "", "## Summary", ""]
    lines += _table(["metric", "value"], [[k, s[k]] for k in METRICS])
    lines += ["", f"Answerable items declined (false refusals): "
              f"{sum(r.false_refusal for r in result.items)} of "
              f"{sum(not r.item.expects_refusal for r in result.items)}.", ""]
    if chart_name:
        lines += [f"![eval chart]({chart_name})", ""]
    lines += ["## Per kind", ""]
    lines += _table(["kind", "n", *METRICS], [[k, d["n"], *(d[m] for m in METRICS)]
                                               for k, d in result.per_kind().items()])
    lines += ["", "## Latency (ms)", ""]
    lat = result.latency_ms()
    lines += _table(["stage", "p50", "p95"],
                    [[st, f"{v['p50']:.1f}", f"{v['p95']:.1f}"] for st, v in lat.items()])
    lines += ["", "## Items", ""]
    lines += _table(["id", "kind", "first relevant rank", "key facts", "missing", "refusal ok", "provider"],
                    [_item_row(r) for r in result.items])
    failed = [r for r in result.items if r.error]
    if failed:
        lines += ["", "## Failures", "", *[f"- `{r.item.id}`: {r.error}" for r in failed]]
    return "\n".join(lines) + "\n"


def _setup(result: EvalResult) -> list[str]:
    answers = [r.answer for r in result.items if r.answer is not None]
    providers = sorted({a.provider for a in answers})
    rerankers = sorted({a.details.get("reranker", "") for a in answers} - {""})
    fallbacks = sorted({a.details.get("reranker_fallback", "") for a in answers} - {""})
    out = [f"- QA set: `{result.qa_path or '(in memory)'}` — {len(result.items)} items",
           f"- providers: {', '.join(providers) or '–'}",
           f"- reranker: {', '.join(rerankers) or 'none reported'}",
           "- gold paths are relative to the QA set's corpus folder; the index's `policies.root` "
           "must be that folder for citations to match"]
    out += [f"- reranker fallback: {f}" for f in fallbacks]
    out += [f"- note: {n}" for n in result.notes]
    return out


def _item_row(r: ItemResult) -> list[object]:
    rank = first_relevant_rank(r.relevant) if r.scores_retrieval else None
    rank_txt = ("miss" if rank is None else rank) if r.scores_retrieval else None
    n = len(r.facts_found) + len(r.facts_missed)
    facts = f"{len(r.facts_found)}/{n}" if n else None
    provider = r.answer.provider if r.answer else "error"
    return [r.item.id, r.item.kind, rank_txt, facts, ", ".join(r.facts_missed) or None,
            r.refusal_correct, provider]


def write_report(result: EvalResult, md_path: Path) -> tuple[Path, Path]:
    """Write the markdown report to ``md_path`` and its chart beside it (same name, ``.png``).

    Returns ``(md_path, png_path)``. Raises OSError when the folder cannot be written.
    """
    png_path = md_path.with_suffix(".png")
    write_chart(result, png_path)
    md_path.write_text(render_report(result, chart_name=png_path.name), encoding="utf-8")
    return md_path, png_path


def write_chart(result: EvalResult, png_path: Path) -> Path:
    """Draw per-kind hit@5 / key-fact recall / refusal accuracy bars and per-stage latency p50/p95
    bars into ``png_path`` (matplotlib's Agg canvas; no display or global backend needed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 4.2), dpi=110)
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    kinds = {"all": {**result.summary()}, **result.per_kind()}
    _grouped_bars(ax1, list(kinds), {m: [kinds[k][m] for k in kinds] for m in
                                    ("hit_at_5", "key_fact_recall", "refusal_accuracy")})
    ax1.set_ylim(0, 1.05)
    ax1.set_title("quality per kind (missing bar: not applicable)")
    lat = result.latency_ms()
    _grouped_bars(ax2, list(lat), {q: [lat[s][q] for s in lat] for q in ("p50", "p95")})
    ax2.set_ylabel("ms")
    ax2.set_title("latency per stage")
    fig.tight_layout()
    png_path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png_path)
    return png_path


def _grouped_bars(ax: Any, labels: list[str], series: Mapping[str, list[Any]]) -> None:
    width = 0.8 / max(len(series), 1)
    for j, (name, values) in enumerate(series.items()):
        xs = [i + j * width for i in range(len(labels))]
        ax.bar(xs, [v if v is not None else 0.0 for v in values], width, label=name)
        for x, v in zip(xs, values, strict=True):
            if v == 0:  # applicable but zero: label it so it differs from "not applicable"
                ax.annotate("0", (x, 0), ha="center", va="bottom", fontsize=7)
    ax.set_xticks([i + width * (len(series) - 1) / 2 for i in range(len(labels))])
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.legend(fontsize=8)
