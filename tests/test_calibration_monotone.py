"""The sign-constrained answerability model (:mod:`core.eval.monotone`)."""

from __future__ import annotations

import numpy as np
from sklearn.linear_model import LogisticRegression

from core.eval.monotone import MonotoneLogistic


def _data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, size=(80, 2))
    y = (x[:, 0] + 0.1 * rng.normal(size=80) > 0.5).astype(int)
    x[:, 1] = 1 - x[:, 0] + 0.05 * rng.normal(size=80)  # evidence that, in this sample, argues against
    return x, y


def test_unconstrained_it_is_sklearns_logistic_regression() -> None:
    x, y = _data()
    ours = MonotoneLogistic(1.0, [False, False]).fit(x, y)
    ref = LogisticRegression(C=1.0).fit(x, y)
    assert np.allclose(ours.coef_, ref.coef_, atol=1e-3) and np.allclose(ours.intercept_, ref.intercept_,
                                                                         atol=1e-3)


def test_an_evidence_weight_is_never_negative() -> None:
    x, y = _data()
    assert LogisticRegression(C=1.0).fit(x, y).coef_[0][1] < 0
    model = MonotoneLogistic(1.0, [True, True]).fit(x, y)
    assert model.coef_[0][1] >= 0.0 and model.coef_[0][0] > 0.0


def test_probabilities_rise_with_evidence() -> None:
    x, y = _data()
    p = MonotoneLogistic(1.0, [True, True]).fit(x, y).predict_proba(np.asarray([[0.2, 0.5], [0.8, 0.5]]))
    assert p.shape == (2, 2) and p[1, 1] > p[0, 1] and np.allclose(p.sum(axis=1), 1.0)
