"""Logistic regression with monotone (sign) constraints, for the answerability model.

Every answerability input but one is *evidence*: a more relevant best passage, a better supported,
more similar, better covering, better bound answering unit, more agreement between the retrieval
legs — none of them should ever lower the probability that the policies answer the question. An
unconstrained fit on ~100 samples does not know that: main's refit gave ``lead_share`` a weight of
−0.75 (a lead unit as strong as the best quoted one counted *against* answering), which is noise of
the sample, not a property of answers, and a noisy weight moves the out-of-fold scores of the
weakest answerable items. Constraining such weights to be ≥ 0 is the linear case of monotone
calibration (Gupta et al., "Monotonic Calibrated Interpolated Look-up Tables", JMLR 17, 2016; the
same prior knowledge as the monotone constraints of gradient-boosting libraries): it removes the
wrong-signed directions without another parameter.

Fitted by L-BFGS-B (Byrd et al. 1995; ``scipy.optimize.minimize`` with bounds) on scikit-learn's
objective for ``LogisticRegression(C)``: ``½‖w‖² + C·Σ log-loss``, intercept not penalised. A
scikit-learn estimator (``fit``, ``predict_proba``, ``coef_``, ``intercept_``), so it runs in the
same grouped cross-validation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

EVIDENCE = frozenset({"rerank", "support", "lead_share", "similarity", "coverage", "focus", "focus_sim",
                      "legs"})
"""Inputs whose weight must be ≥ 0 (more of it is never evidence against an answer); the others
(``needs_value``: a prior shift for value questions) are free."""


class MonotoneLogistic(ClassifierMixin, BaseEstimator):
    """L2-regularised logistic regression whose weights of ``nonnegative`` columns are ≥ 0.

    Args:
        C: inverse regularisation strength (scikit-learn's meaning).
        nonnegative: per column of ``x``, whether its weight is constrained to ≥ 0.
    """

    def __init__(self, C: float = 1.0, nonnegative: Sequence[bool] = ()) -> None:  # noqa: N803
        self.C = C
        self.nonnegative = nonnegative

    def fit(self, x: np.ndarray, y: np.ndarray) -> MonotoneLogistic:
        """Fit on ``x`` (n × d) and labels ``y`` in {0, 1}; returns ``self``."""
        from scipy.optimize import minimize

        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        d = x.shape[1]
        signs = list(self.nonnegative) or [False] * d
        bounds = [(0.0, None) if s else (None, None) for s in signs] + [(None, None)]
        res = minimize(_loss, np.zeros(d + 1), args=(x, y, self.C), jac=True, method="L-BFGS-B",
                       bounds=bounds)
        self.coef_ = np.asarray([res.x[:d]])
        self.intercept_ = np.asarray([res.x[d]])
        self.classes_ = np.asarray([0, 1])
        return self

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        """``[[P(0), P(1)], …]`` for the rows of ``x``."""
        p = _sigmoid(np.asarray(x, dtype=float) @ self.coef_[0] + self.intercept_[0])
        return np.column_stack([1 - p, p])

    def predict(self, x: np.ndarray) -> np.ndarray:
        """1 where P(1) ≥ 0.5."""
        return (self.predict_proba(x)[:, 1] >= 0.5).astype(int)


def _loss(theta: np.ndarray, x: np.ndarray, y: np.ndarray, c: float) -> tuple[float, Any]:
    """scikit-learn's L2 logistic objective and its gradient (module doc)."""
    w, b = theta[:-1], theta[-1]
    z = x @ w + b
    loss = 0.5 * float(w @ w) + c * float(np.sum(np.logaddexp(0.0, z) - y * z))
    r = c * (_sigmoid(z) - y)
    return loss, np.concatenate([w + x.T @ r, [float(np.sum(r))]])


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * z)))
