"""``policybot eval QA --calibrate``: fit the offline reranker's Platt scaling and the answerability
model, choose the answerability threshold, and write them (``core/calibration.json``, the
``answer.min_answerability`` default in ``config.yaml`` and ``core/config.py``) with a report of the
refusal precision/recall curve (``docs/eval/calibration.md`` + PNG).

Method (Platt 1999; Niculescu-Mizil & Caruana, ICML 2005; scikit-learn's ``LogisticRegression``):

1. **Reranker.** Every reranked candidate (``rerank.candidates`` per question) of the QA set's
   answerable items is labelled relevant when it covers a gold source page
   (:func:`core.eval.metrics.relevance`); a one-feature logistic regression on the raw weighted sum
   (``scores["rerank_raw"]``) maps it to P(relevant). Monotone: rankings do not change.
2. **Answerability samples.** Every item is asked as in ``policybot eval`` (follow-ups in their
   thread); answerable items are positives, ``not_found`` items negatives (``unsafe`` ones are
   declined before retrieval and carry no signals). *Counterfactual negatives*: every answerable item
   that is not a follow-up and not scoped to one document by its channel is asked again with its gold
   files removed from the scope — the same wording, but the answer is no longer in the corpus
   (the construction of unanswerable questions in SQuAD 2.0, Rajpurkar et al. 2018); one whose answer
   still holds every key fact is dropped (another document answers it).
3. **Model.** L2-regularised logistic regression (C = 1) on :data:`~core.answer.answerability.FEATURES`,
   fitted on the samples the gates let through (a question needing a value whose answering unit
   holds none has answerability 0 and is refused whatever the model says), evaluated by 5-fold
   cross-validation **grouped by document** (``StratifiedGroupKFold``: every sample of one gold
   document — its items, their follow-ups and counterfactuals — is in the same fold, so the
   out-of-fold probabilities say how the model does on documents it was not fitted on, not on
   rewordings of questions it has seen); the out-of-fold probabilities (0 for gated samples) give the
   refusal precision/recall curve (refusal = the positive class, score = 1 − answerability). Two
   models are cross-validated: one whose evidence weights are constrained to be ≥ 0
   (:mod:`core.eval.monotone`: more relevance, support, coverage or binding never argues against an
   answer) and the unconstrained one; with step 4 that makes four variants, and the one whose
   out-of-fold curve refuses the most unanswerable samples within the budget of step 5 is kept
   (ties: monotone first, then without the focus gate).
4. **Focus gate or not** (:mod:`core.eval.focus_gate`). The gate "``focus`` and ``focus_sim`` both
   low" is fitted per fold on the other folds (the same grouped folds) and its out-of-fold refusals
   are added to the fixed gates'; it is kept only when, within the same false-refusal budget, that
   curve refuses more unanswerable samples than the curve without it (then refitted on all samples
   the fixed gates let through and written to ``core/calibration.json`` as ``focus_gate``).
5. **Threshold.** The largest threshold whose out-of-fold false-refusal rate on answerable items is at
   most ``max_false_refusal`` (default 5 %; or the gates' own rate when they alone exceed it, so the
   model adds no false refusal): as many refusals as possible while answering ≥ 95 % of answerable
   questions (a Neyman–Pearson operating point). The final model is refitted on all gated-in samples.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.answer.answerability import FEATURES, fixed_gate
from core.answering import to_citation
from core.calibration import Calibration, Logistic, save_calibration
from core.eval import focus_gate as fg
from core.eval import metrics as m
from core.eval.dataset import QAItem
from core.eval.runner import ItemResult, channel_scope, run_eval
from core.retrieval import HybridRetriever
from core.service import AnswerService

log = logging.getLogger(__name__)

FOLDS = 5
SEED = 0


@dataclass(frozen=True)
class Sample:
    """One answerability sample: ``label`` 1 = the corpus answers it, 0 = it does not."""

    item_id: str
    kind: str
    label: int
    signals: Mapping[str, float]
    counterfactual: bool = False
    group: str = ""
    """The cross-validation group: the item's first gold document (a counterfactual keeps its item's),
    or the item id when it has no gold source."""


@dataclass
class Fit:
    """A fitted answerability model with its out-of-fold evidence.

    ``focus_gate`` is the fitted focus-gate rectangle (:mod:`core.eval.focus_gate`) when the curve
    chose it, else ``None``; ``gated_oof`` marks the samples refused before the model out of fold
    (fixed gates, and the focus gate when chosen); ``alternative`` is the recall and false-refusal
    rate of the chosen model with / without the focus gate (the other way), ``variant`` the chosen
    variant's name ("monotone", "plain + focus gate" …), for the report."""

    model: Logistic
    threshold: float
    samples: list[Sample]
    oof: np.ndarray
    curve: list[dict[str, float]] = field(default_factory=list)
    focus_gate: tuple[float, float] | None = None
    gated_oof: np.ndarray | None = None
    alternative: dict[str, float] = field(default_factory=dict)
    variant: str = "plain"
    variants: dict[str, dict[str, float]] = field(default_factory=dict)
    """Every variant tried (model, focus gate) → its out-of-fold curve row within the budget
    (``{}``: no row within it)."""


def reranker_samples(retriever: HybridRetriever, items: Sequence[QAItem],
                     channels: Mapping[str, Sequence[str]], depth: int) -> list[tuple[float, int]]:
    """``(raw offline score, relevant)`` for the best ``depth`` reranked candidates of every answerable,
    non-follow-up item with gold sources (``retriever`` must keep ``depth`` candidates)."""
    out: list[tuple[float, int]] = []
    for item in items:
        if item.expects_refusal or item.follow_up_of or not item.sources:
            continue
        found = retriever.retrieve(item.question, channel_scope(item.id, channels, ("**",)), top_k=depth)
        flags = m.relevance([to_citation(sc) for sc in found.chunks], item.sources)
        out += [(sc.scores.get("rerank_raw", sc.score), int(f))
                for sc, f in zip(found.chunks, flags, strict=True)]
    return out


def fit_platt(samples: Sequence[tuple[float, int]]) -> Logistic:
    """One-feature logistic regression ``σ(a·raw + b)`` (Platt scaling)."""
    from sklearn.linear_model import LogisticRegression

    x = np.asarray([[s] for s, _ in samples], dtype=float)
    y = np.asarray([label for _, label in samples], dtype=int)
    lr = LogisticRegression(C=100.0).fit(x, y)
    return Logistic({"raw": float(lr.coef_[0][0])}, float(lr.intercept_[0]))


def answerability_samples(service: AnswerService, items: Sequence[QAItem],
                          channels: Mapping[str, Sequence[str]], indexed: Sequence[str],
                          on_item: Callable[[ItemResult], None] | None = None) -> list[Sample]:
    """Samples from the QA set and its counterfactual negatives (see the module doc)."""
    result = run_eval(service, items, channels=channels, on_item=on_item)
    out = [Sample(r.item.id, r.item.kind, int(not r.item.expects_refusal), dict(r.answer.signals),
                  group=group_of(r.item))
           for r in result.items if r.answer is not None and r.answer.signals and r.item.kind != "unsafe"]
    scoped = scoped_ids(items, channels)
    for item in items:
        if item.expects_refusal or item.follow_up_of or not item.sources or item.id in scoped:
            continue
        gold = {s.file for s in item.sources}
        scope = [p for p in indexed if p not in gold]
        answer = service.ask(item.question, scope=scope)
        still = answer.found and all(m.fact_found(f, answer.answer) for f in item.key_facts)
        if not answer.signals or still:
            continue
        out.append(Sample(f"{item.id}~", item.kind, 0, dict(answer.signals), counterfactual=True,
                          group=group_of(item)))
    return out


def group_of(item: QAItem) -> str:
    """The cross-validation group of ``item``: its first gold document, else its id."""
    return item.sources[0].file if item.sources else item.id


def fit_answerability(samples: Sequence[Sample], max_false_refusal: float = 0.05) -> Fit:
    """Cross-validated logistic regression on the signals — with or without monotone constraints
    (:mod:`core.eval.monotone`), with or without the focus gate —, the threshold (module doc).

    Each of the four variants gets its out-of-fold refusal curve on the same grouped folds; the one
    refusing the most unanswerable samples within the false-refusal budget is kept (ties: the
    monotone model, then no focus gate: fewer free directions first).

    Raises:
        ValueError: fewer than :data:`FOLDS` samples of either label.
    """
    from sklearn.model_selection import StratifiedGroupKFold, cross_val_predict

    open_ = np.asarray([fixed_gate(s.signals) for s in samples])
    x = np.asarray([[s.signals.get(f, 0.0) for f in FEATURES] for s in samples], dtype=float)
    y = np.asarray([s.label for s in samples], dtype=int)
    xo, yo = x[open_], y[open_]
    if min(int(yo.sum()), int(len(yo) - yo.sum())) < FOLDS:
        raise ValueError(f"need at least {FOLDS} answerable and {FOLDS} unanswerable samples that the type "
                         f"gate lets through, got {int(yo.sum())} and {int(len(yo) - yo.sum())}")
    groups = np.asarray([s.group or s.item_id for s in samples])[open_]
    folds = list(StratifiedGroupKFold(FOLDS, shuffle=True, random_state=SEED).split(xo, yo, groups))
    xb = np.asarray([[s.signals.get(f, 1.0) for f in fg.BINDING] for s in samples], dtype=float)
    gate_oof = np.zeros(len(samples), dtype=bool)
    gate_oof[open_] = fg.out_of_fold(xb[open_], yo, iter(folds))
    budget = max(max_false_refusal, refusal_curve(np.ones(len(samples)), y, ~open_)[0]["false_refusal"])
    tried = []
    for name, estimator in _estimators():
        oof = np.zeros(len(samples))
        oof[open_] = cross_val_predict(estimator, xo, yo, cv=folds, method="predict_proba")[:, 1]
        for gated in (False, True):
            curve = refusal_curve(oof, y, ~open_ | (gate_oof if gated else False))
            tried.append((f"{name}{' + focus gate' if gated else ''}", estimator, gated, oof, curve,
                          _row(curve, budget)))
    best = max(tried, key=lambda t: -1.0 if t[5] is None else t[5]["recall"])  # first of equals wins
    label, estimator, use_gate, oof, curve, _ = best
    other = next((t[5] for t in tried if t[1] is estimator and t[2] != use_gate), None) or {}
    estimator.fit(xo, yo)
    model = Logistic({f: float(w) for f, w in zip(FEATURES, estimator.coef_[0], strict=True)},
                     float(estimator.intercept_[0]))
    rect = fg.fit_rectangle(xb[open_], yo) if use_gate else None
    log.info("answerability: %s chosen", label)
    return Fit(model, choose_threshold(curve, budget), list(samples), oof, curve, rect,
               ~open_ | (gate_oof if use_gate else False), dict(other), label,
               {t[0]: dict(t[5] or {}) for t in tried})


def _estimators() -> list[tuple[str, Any]]:
    """The model variants, preferred first: sign-constrained (:mod:`core.eval.monotone`), then plain
    L2 logistic regression (C = 1 both)."""
    from sklearn.linear_model import LogisticRegression

    from core.eval.monotone import EVIDENCE, MonotoneLogistic

    return [("monotone", MonotoneLogistic(1.0, [f in EVIDENCE for f in FEATURES])),
            ("plain", LogisticRegression(C=1.0, max_iter=1000))]


def _row(curve: Sequence[Mapping[str, float]], budget: float) -> dict[str, float] | None:
    """The curve row :func:`choose_threshold` picks within ``budget``; ``None`` when no row is within."""
    ok = [row for row in curve if row["false_refusal"] <= budget]
    return dict(ok[-1]) if ok else None


def refusal_curve(p: np.ndarray, y: np.ndarray, gated: np.ndarray | None = None) -> list[dict[str, float]]:
    """Per threshold t (each distinct probability, ascending): refuse when a gate closed or p < t;
    refusal precision, refusal recall and the false-refusal rate on answerable samples."""
    closed = np.zeros(len(p), dtype=bool) if gated is None else gated
    rows = []
    for t in sorted({0.0, *np.round(p, 4).tolist(), 1.0001}):
        refuse = closed | (p < t)
        tp = int(np.sum(refuse & (y == 0)))
        fp = int(np.sum(refuse & (y == 1)))
        rows.append({"threshold": float(t), "precision": tp / (tp + fp) if tp + fp else 1.0,
                     "recall": tp / max(1, int(np.sum(y == 0))),
                     "false_refusal": fp / max(1, int(np.sum(y == 1)))})
    return rows


def choose_threshold(curve: Sequence[Mapping[str, float]], max_false_refusal: float) -> float:
    """The largest threshold whose false-refusal rate is ≤ ``max_false_refusal`` — or, when the gates
    alone refuse more answerable samples than that, ≤ the gates' rate (the model adds none) —, rounded
    to 3 places. Row ``i`` of the curve refuses ``p < threshold_i``, so every threshold in
    ``(threshold_{i-1}, threshold_i]`` refuses the same samples: the one returned is halfway between the
    two (it does not sit on a sample, and the sample at ``threshold_i`` is still answered)."""
    if not curve:
        return 0.0
    budget = max(max_false_refusal, curve[0]["false_refusal"])
    ok = [i for i, row in enumerate(curve) if row["false_refusal"] <= budget]
    i = max(ok) if ok else 0
    lo = curve[i - 1]["threshold"] if i > 0 else curve[i]["threshold"]
    return round(min(1.0, (lo + curve[i]["threshold"]) / 2), 3)


def save(fit: Fit, platt: Logistic, meta: Mapping[str, Any], config_files: Sequence[Path]) -> None:
    """Write ``core/calibration.json`` and the threshold into each of ``config_files``
    (``config.yaml``: the ``min_answerability:`` line; ``core/config.py``: the Field default)."""
    info = {**meta, "date": dt.date.today().isoformat(), "folds": FOLDS, "threshold": fit.threshold,
            "samples": len(fit.samples), "counterfactual": sum(s.counterfactual for s in fit.samples)}
    gate = dict(zip(fg.BINDING, fit.focus_gate, strict=True)) if fit.focus_gate else {}
    save_calibration(Calibration(platt, fit.model, info, gate))
    for path in config_files:
        text = path.read_text(encoding="utf-8")
        new = re.sub(r"(min_answerability:\s*)[0-9.]+", rf"\g<1>{fit.threshold}", text, count=1)
        new = re.sub(r"(min_answerability: float = Field\()[0-9.]+", rf"\g<1>{fit.threshold}", new, count=1)
        path.write_text(new, encoding="utf-8")


def scoped_ids(items: Sequence[QAItem], channels: Mapping[str, Sequence[str]]) -> set[str]:
    """Ids of items whose channel confines them to named documents (not the whole index)."""
    return {it.id for it in items if tuple(channel_scope(it.id, channels, ("**",))) != ("**",)}
