"""Fitted calibration parameters, read from ``core/calibration.json`` (written by ``policybot eval
--calibrate``; see docs/eval/calibration.md).

Two logistic models (Platt, "Probabilistic Outputs for Support Vector Machines", 1999; Niculescu-Mizil
& Caruana, "Predicting Good Probabilities with Supervised Learning", ICML 2005):

* ``reranker`` — Platt scaling of the offline reranker's weighted feature sum: its score becomes the
  probability that a candidate passage holds the answer (monotone, so the ranking is unchanged).
* ``answerability`` — the probability that the policies answer the question, from the answer's
  evidence signals (:mod:`core.answer.answerability`).

Both are ``σ(bias + Σ wᵢ·xᵢ)``; feature names are the keys of ``weights``. A feature missing from the
input counts as 0. Beside them, ``focus_gate``: the thresholds ``{"focus": t₁, "focus_sim": t₂}`` of the
fitted focus gate (:mod:`core.eval.focus_gate`; absent when the calibration chose no gate).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

CALIBRATION_PATH = Path(__file__).with_name("calibration.json")


def sigmoid(x: float) -> float:
    """Logistic function 1 / (1 + e^-x), overflow-safe."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


@dataclass(frozen=True)
class Logistic:
    """``σ(bias + Σ weights[f] · x[f])``; ``weights`` maps feature name → coefficient."""

    weights: Mapping[str, float]
    bias: float

    def probability(self, features: Mapping[str, float]) -> float:
        """The model's probability in (0, 1) for ``features`` (missing features count as 0)."""
        return sigmoid(self.bias + sum(w * float(features.get(f, 0.0)) for f, w in self.weights.items()))

    def to_json(self) -> dict[str, Any]:
        """``{"weights": {...}, "bias": b}`` (rounded to 6 decimals)."""
        return {"weights": {k: round(v, 6) for k, v in self.weights.items()}, "bias": round(self.bias, 6)}


@dataclass(frozen=True)
class Calibration:
    """The fitted models; ``None`` when not fitted (the reranker then keeps its raw 0–1 sum).

    ``meta`` records how they were fitted (data set, folds, date) for the docs."""

    reranker: Logistic | None = None
    answerability: Logistic | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    focus_gate: Mapping[str, float] = field(default_factory=dict)
    """Signal → threshold: an answer with every one of these signals below its threshold is refused
    (empty: no focus gate)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON document :func:`load_calibration` reads."""
        return {"reranker": self.reranker.to_json() if self.reranker else None,
                "answerability": self.answerability.to_json() if self.answerability else None,
                "focus_gate": {k: round(v, 4) for k, v in self.focus_gate.items()} or None,
                "meta": dict(self.meta)}


def _logistic(raw: Any) -> Logistic | None:
    if not isinstance(raw, dict):
        return None
    return Logistic({str(k): float(v) for k, v in dict(raw.get("weights") or {}).items()},
                    float(raw.get("bias", 0.0)))


@lru_cache(maxsize=4)
def load_calibration(path: Path = CALIBRATION_PATH) -> Calibration:
    """The calibration in ``path``; an empty :class:`Calibration` (logged as a WARNING) when the file
    is missing or unreadable, so answering never fails for want of it."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        log.warning("no calibration at %s (%s): run `policybot eval --calibrate`", path, exc)
        return Calibration()
    gate = raw.get("focus_gate")
    return Calibration(_logistic(raw.get("reranker")), _logistic(raw.get("answerability")),
                       dict(raw.get("meta") or {}),
                       {str(k): float(v) for k, v in gate.items()} if isinstance(gate, dict) else {})


def save_calibration(calibration: Calibration, path: Path = CALIBRATION_PATH) -> Path:
    """Write ``calibration`` as JSON to ``path`` and forget the cached copy. Raises OSError."""
    path.write_text(json.dumps(calibration.to_json(), indent=2) + "\n", encoding="utf-8")
    load_calibration.cache_clear()
    return path
