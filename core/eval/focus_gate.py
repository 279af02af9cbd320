"""The focus gate, fitted by ``policybot eval --calibrate``: refuse an answer whose answering unit is
not about the asked-for thing — ``focus`` (lexical binding) **and** ``focus_sim`` (semantic binding)
both below their thresholds (:mod:`core.answer.focus`).

Fitting (a depth-two decision stump with a zero-false-refusal constraint, the rectangle that a
Neyman–Pearson classifier with no false-positive budget picks): among the samples the fixed gates let
through, every rectangle ``focus < t₁ ∧ focus_sim < t₂`` that holds **no answerable sample** is a
candidate; the one holding the most unanswerable samples wins (ties: the smaller rectangle). Each
threshold sits halfway between the last value it refuses and the next value, so it sits on no
sample. Out of fold (the same grouped folds as the model), each fold's rectangle is fitted on the
other folds: the out-of-fold refusals say what the gate does on documents it was not fitted on.
Whether the gate is used at all is decided in :func:`core.eval.calibrate.fit_answerability`: only when
it refuses more unanswerable samples out of fold within the same false-refusal budget.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

BINDING = ("focus", "focus_sim")
"""The signals the gate reads (both in [0, 1]; 1.0 = not checkable)."""


def fit_rectangle(x: np.ndarray, y: np.ndarray) -> tuple[float, float] | None:
    """``(t₁, t₂)`` of the rectangle (see the module doc) for ``x`` (n × 2: focus, focus_sim) and
    labels ``y`` (1 = answerable); ``None`` when no rectangle refuses an unanswerable sample."""
    best: tuple[int, float, float] | None = None
    for t1 in _cuts(x[:, 0]):
        strip = x[:, 0] < t1
        pos = x[strip & (y == 1), 1]
        t2 = _below(x[:, 1], float(pos.min())) if len(pos) else 1.0001
        caught = int(np.sum(strip & (x[:, 1] < t2) & (y == 0)))
        if caught and (best is None or (caught, -t1 - t2) > (best[0], -best[1] - best[2])):
            best = (caught, t1, t2)
    return None if best is None else (round(best[1], 4), round(best[2], 4))


def refused(x: np.ndarray, rect: tuple[float, float] | None) -> np.ndarray:
    """Which rows of ``x`` the rectangle ``rect`` refuses (none for ``None``)."""
    if rect is None:
        return np.zeros(len(x), dtype=bool)
    return (x[:, 0] < rect[0]) & (x[:, 1] < rect[1])


def out_of_fold(x: np.ndarray, y: np.ndarray, folds: Iterator[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The gate's out-of-fold refusals: each fold's rows judged by the rectangle fitted on the rest."""
    out = np.zeros(len(x), dtype=bool)
    for train, test in folds:
        out[test] = refused(x[test], fit_rectangle(x[train], y[train]))
    return out


def _cuts(values: np.ndarray) -> list[float]:
    """Thresholds between consecutive distinct values (each refuses the values below it)."""
    v = np.unique(values)
    return [float((a + b) / 2) for a, b in zip(v[:-1], v[1:], strict=True)] + [float(v[-1]) + 1e-4]


def _below(values: np.ndarray, limit: float) -> float:
    """Halfway between ``limit`` and the largest value under it (``limit`` itself when none)."""
    under = values[values < limit]
    return float((under.max() + limit) / 2) if len(under) else limit
