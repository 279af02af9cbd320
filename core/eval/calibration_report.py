"""The calibration report: ``docs/eval/calibration.md`` and its chart (refusal precision/recall curve,
false-refusal rate by threshold, the chosen threshold), written by ``policybot eval --calibrate``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.answer.answerability import FEATURES, SIGNALS, fixed_gate
from core.calibration import Logistic
from core.eval.calibrate import Fit


def render(fit: Fit, platt: Logistic, rerank_samples: Sequence[tuple[float, int]], qa: str,
           chart_name: str) -> str:
    """The markdown report (see the module doc)."""
    y = np.asarray([s.label for s in fit.samples])
    gated = fit.gated_oof if fit.gated_oof is not None else np.asarray([not fixed_gate(s.signals)
                                                                        for s in fit.samples])
    refuse = (fit.oof < fit.threshold) | gated
    n_pos, n_neg = int(y.sum()), int(len(y) - y.sum())
    tp, fp = int(np.sum(refuse & (y == 0))), int(np.sum(refuse & (y == 1)))
    lines = [
        "# Answerability calibration", "",
        f"Written by `policybot eval {qa} --calibrate` (method: `core/eval/calibrate.py`). Do not edit by "
        "hand; re-run the command after changing the answer path.", "",
        f"![refusal precision/recall]({chart_name})", "",
        "## Offline reranker (Platt scaling)", "",
        f"{len(rerank_samples)} reranked candidates, {sum(lbl for _, lbl in rerank_samples)} covering a gold "
        f"page: P(relevant) = σ({platt.weights['raw']:.3f} · raw + {platt.bias:.3f}).", "",
        "## Answerability model", "",
        f"{len(fit.samples)} samples: {n_pos} answerable, {n_neg} unanswerable "
        f"({sum(s.counterfactual for s in fit.samples)} of them counterfactual: answerable questions asked "
        "without their gold documents); the gates (a question needing a value none of the units holds, "
        "naming an identifier no source has, or naming a document the answering unit does not come from) "
        f"refuse {sum(not fixed_gate(s.signals) for s in fit.samples)} of "
        "them before the model. "
        f"Logistic regression (C = 1; variant chosen: **{fit.variant}**) on the others, 5-fold "
        "cross-validation grouped by gold document "
        f"({len({s.group or s.item_id for s in fit.samples})} groups; `StratifiedGroupKFold`: no document "
        "is in both the fitting and the scored fold).",
        "", "| signal | weight |", "|---|---|",
        *[f"| `{f}` | {fit.model.weights[f]:+.3f} |" for f in FEATURES],
        f"| (bias) | {fit.model.bias:+.3f} |", "",
        *_variants(fit),
        *_focus_gate(fit),
        "## Threshold", "",
        f"Chosen: **{fit.threshold}** (`answer.min_answerability`) — the largest threshold whose out-of-fold "
        "false-refusal rate on answerable samples is ≤ 5 % (or ≤ the gates' own rate when the gates alone "
        "exceed 5 %).", "",
        f"Out of fold at {fit.threshold}: refusals {tp + fp} (correct {tp} of {n_neg} unanswerable: "
        f"recall {tp / max(1, n_neg):.2f}, precision {tp / max(1, tp + fp):.2f}); answerable refused "
        f"{fp} of {n_pos} ({fp / max(1, n_pos):.1%}).", "",
        "| threshold | refusal precision | refusal recall | false-refusal rate |", "|---|---|---|---|",
        *[f"| {r['threshold']:.3f} | {r['precision']:.2f} | {r['recall']:.2f} | {r['false_refusal']:.2f} |"
          for r in _thin(fit.curve)],
        "", "## Samples (out-of-fold answerability)", "",
        "`~` marks a counterfactual (the item asked without its gold documents).", "",
        "| item | kind | label | p | " + " | ".join(SIGNALS) + " |", "|---" * (4 + len(SIGNALS)) + "|",
        *[f"| {s.item_id} | {s.kind} | {s.label} | {p:.3f} | "
          + " | ".join(f"{s.signals.get(f, 0.0):.2f}" for f in SIGNALS) + " |"
          for s, p in sorted(zip(fit.samples, fit.oof, strict=True), key=lambda sp: sp[1])],
    ]
    return "\n".join(lines) + "\n"


def _variants(fit: Fit) -> list[str]:
    """The variants tried (model × focus gate) with their out-of-fold result within the budget."""
    if not fit.variants:
        return []
    rows = [f"| {name} | {r['recall']:.2f} | {r['false_refusal']:.2f} |" if r else f"| {name} | – | – |"
            for name, r in fit.variants.items()]
    return ["Variants (out of fold, at the largest threshold within the false-refusal budget; "
            "`monotone`: evidence weights ≥ 0, `core/eval/monotone.py`):", "",
            "| variant | refusal recall | false-refusal rate |", "|---|---|---|", *rows, ""]


def _focus_gate(fit: Fit) -> list[str]:
    """The focus-gate section: the fitted rectangle, or why there is none, and the variant not chosen."""
    alt = fit.alternative
    other = (f"recall {alt['recall']:.2f} at false-refusal rate {alt['false_refusal']:.2f}" if alt
             else "over the false-refusal budget")
    if fit.focus_gate:
        head = (f"Chosen: refuse when `focus` < {fit.focus_gate[0]} and `focus_sim` < {fit.focus_gate[1]} "
                f"(`core/eval/focus_gate.py`). Without the gate, out of fold: {other}.")
    else:
        head = (f"Not used: out of fold, the gate (`core/eval/focus_gate.py`) did not refuse more "
                f"unanswerable samples within the false-refusal budget (with it: {other}). `focus` and "
                "`focus_sim` stay model inputs.")
    return ["## Focus gate", "", head, ""]


def write(fit: Fit, platt: Logistic, rerank_samples: Sequence[tuple[float, int]], qa: str,
          md_path: Path) -> tuple[Path, Path]:
    """Write the report and its chart (same name, ``.png``); returns both paths. Raises OSError."""
    png = md_path.with_suffix(".png")
    chart(fit, png)
    md_path.write_text(render(fit, platt, rerank_samples, qa, png.name), encoding="utf-8")
    return md_path, png


def chart(fit: Fit, png: Path) -> Path:
    """Refusal precision and recall, and the false-refusal rate, against the threshold (Agg canvas)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 4), dpi=110)
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2)
    rec = [r["recall"] for r in fit.curve]
    ax1.plot(rec, [r["precision"] for r in fit.curve], marker=".")
    ax1.set_xlabel("refusal recall")
    ax1.set_ylabel("refusal precision")
    ax1.set_title("refusals: precision vs recall (out of fold)")
    ts = [r["threshold"] for r in fit.curve]
    for key in ("precision", "recall", "false_refusal"):
        ax2.plot(ts, [r[key] for r in fit.curve], label=key.replace("_", " "))
    ax2.axvline(fit.threshold, color="grey", linestyle="--", label=f"threshold {fit.threshold}")
    ax2.set_xlabel("answerability threshold")
    ax2.set_xlim(0, 1)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png)
    return png


def _thin(curve: Sequence[dict[str, float]], rows: int = 25) -> list[dict[str, float]]:
    step = max(1, len(curve) // rows)
    return [r for i, r in enumerate(curve) if i % step == 0 or i == len(curve) - 1]
