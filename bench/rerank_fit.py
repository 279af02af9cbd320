"""Fit the offline reranker's feature weights by pairwise learning to rank, with cross-validation
grouped by document; check the fit on held-out pools without tuning on them.

Input: pools written by ``bench/rerank_features.py`` (every answerable item's reranker pool with each
candidate's ``rerank_*`` features and gold flag). Model: a linear scorer ``s = Σ w_f · f``, fitted by
the pairwise logistic loss (RankNet with a linear scorer: Burges et al., ICML 2005; the logistic form
of Ranking SVM, Herbrich et al. 2000 / Joachims, KDD 2002) over every (gold, non-gold) pair of one
item's pool, each item's pairs weighted ``1 / pairs`` so that every question counts once (the
query-level normalisation of Cao et al., "Adapting Ranking SVM to Document Retrieval", SIGIR 2006),
with an L2 penalty ``λ/2 · |w|² / items`` and ``w_f ≥ floor_f ≥ 0`` (each feature is built as evidence
*for* relevance, so a negative weight would only be an artefact of correlated features). Solved by
L-BFGS-B (scipy).

Cross-validation: 5 folds grouped by the item's first gold document (scikit-learn ``GroupKFold``), so
the out-of-fold ranks say how the weights do on documents they were not fitted on. ``λ`` is chosen
from :data:`LAMBDAS` by out-of-fold hit@5, then MRR@5, then the largest λ (most regularised). The
printed weights are the fit on all items, scaled to sum 1 (a positive scaling ranks the same, and keeps
the raw score in [0, 1])::

    .venv/bin/python bench/rerank_fit.py /tmp/dev_pools.json --check /tmp/heldout_pools.json \\
        [--floor rerank_exact=0.3]

The ranking of a pool is simulated by sorting it on the score (the reranker's top 5 for a question
that is not a comparison; ``bench/retrieval_recall.py`` measures the real pipeline afterwards).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

FEATURES = ("rerank_vec", "rerank_bm25", "rerank_unit", "rerank_kw", "rerank_exact", "rerank_fused")
LAMBDAS = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
FOLDS = 5
Row = dict[str, Any]


def main() -> None:
    """Print the out-of-fold sweep, the chosen weights and their check on held-out pools."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pools", type=Path)
    ap.add_argument("--check", type=Path, action="append", default=[],
                    help="held-out pools (never fitted on)")
    ap.add_argument("--floor", action="append", default=[], help="FEATURE=W: a lower bound on one weight")
    args = ap.parse_args()
    floors = {k: float(v) for k, v in (f.split("=", 1) for f in args.floor)}
    rows = json.loads(args.pools.read_text())
    print(summary(ranks(rows, lambda c: c["raw"]), "current weights"))
    best: tuple[float, float, float] | None = None
    for lam in LAMBDAS:
        oof = cross_validate(rows, lam, floors)
        print(summary(oof, f"out of fold, λ={lam}"))
        key = (hit_at(oof, 5), mrr(oof), lam)
        best = key if best is None or key >= best else best
    assert best is not None
    weights = fit(rows, best[2], floors)
    total = sum(weights.values())
    scaled = {f: round(w / total, 3) for f, w in weights.items()}
    print(f"chosen λ={best[2]}; weights (sum 1): {scaled}")
    for path in args.check:
        held = json.loads(path.read_text())
        print(summary(ranks(held, lambda c: c["raw"]), f"{path.name} current"))
        print(summary(ranks(held, scorer(weights)), f"{path.name} fitted"))


def scorer(weights: Mapping[str, float]) -> Callable[[Row], float]:
    """The linear score ``Σ w_f · candidate[f]``."""
    return lambda c: sum(w * c[f] for f, w in weights.items())


def pair_matrix(rows: Sequence[Row]) -> tuple[np.ndarray, np.ndarray, int]:
    """``(X, weights, items)``: one row ``f(gold) − f(non-gold)`` per pair of one item's pool, weighted
    ``1 / pairs of that item``; items with no gold or no non-gold candidate give no pairs."""
    xs, ws = [], []
    for r in rows:
        gold = [c for c in r["pool"] if c["gold"]]
        other = [c for c in r["pool"] if not c["gold"]]
        if gold and other:
            x = np.array([[g[f] - n[f] for f in FEATURES] for g in gold for n in other])
            xs.append(x)
            ws.append(np.full(len(x), 1.0 / len(x)))
    if not xs:
        raise ValueError("no item has both a gold and a non-gold candidate in its pool")
    return np.vstack(xs), np.concatenate(ws), len(xs)


def fit(rows: Sequence[Row], lam: float, floors: Mapping[str, float]) -> dict[str, float]:
    """Pairwise logistic fit (module doc); ``{feature: weight}``, every weight ≥ its floor (default 0)."""
    from scipy.optimize import minimize

    x, w, n = pair_matrix(rows)

    def loss(v: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ v
        grad = -(x.T @ (w / (1.0 + np.exp(z)))) + lam * v / n
        return float(np.sum(w * np.logaddexp(0.0, -z)) + 0.5 * lam * float(v @ v) / n), grad

    bounds = [(floors.get(f, 0.0), None) for f in FEATURES]
    start = np.array([max(0.1, lo) for lo, _ in bounds])
    res = minimize(loss, start, jac=True, bounds=bounds, method="L-BFGS-B")
    return {f: float(v) for f, v in zip(FEATURES, res.x, strict=True)}


Ranks = dict[str, tuple[str, int | None]]


def cross_validate(rows: Sequence[Row], lam: float, floors: Mapping[str, float]) -> Ranks:
    """Out-of-fold first-gold rank of every item (folds grouped by ``group``: the first gold document)."""
    from sklearn.model_selection import GroupKFold

    out: dict[str, tuple[str, int | None]] = {}
    groups = [r["group"] for r in rows]
    for train, test in GroupKFold(FOLDS).split(rows, groups=groups):
        weights = fit([rows[i] for i in train], lam, floors)
        out.update(ranks([rows[i] for i in test], scorer(weights)))
    return out


def ranks(rows: Sequence[Row], score: Callable[[Row], float]) -> dict[str, tuple[str, int | None]]:
    """``{id: (kind, 1-based rank of the first gold candidate when the pool is sorted by score)}``."""
    out: dict[str, tuple[str, int | None]] = {}
    for r in rows:
        order = sorted(range(len(r["pool"])), key=lambda i: -score(r["pool"][i]))
        out[r["id"]] = (r["kind"], next((n + 1 for n, i in enumerate(order) if r["pool"][i]["gold"]), None))
    return out


def hit_at(res: Mapping[str, tuple[str, int | None]], k: int) -> float:
    """Share of items whose first gold candidate is in the top ``k``."""
    return sum(1 for _, r in res.values() if r is not None and r <= k) / max(len(res), 1)


def mrr(res: Mapping[str, tuple[str, int | None]], k: int = 5) -> float:
    """Mean reciprocal rank, cut at ``k``."""
    return sum(1 / r for _, r in res.values() if r is not None and r <= k) / max(len(res), 1)


def summary(res: Mapping[str, tuple[str, int | None]], name: str) -> str:
    """One line: hit@1, hit@5, MRR@5 overall and hit@5 per kind."""
    kinds: dict[str, dict[str, tuple[str, int | None]]] = defaultdict(dict)
    for item, v in res.items():
        kinds[v[0]][item] = v
    per_kind = " ".join(f"{k} {hit_at(sub, 5):.2f}" for k, sub in sorted(kinds.items()))
    return (f"{name:>32}: hit@1 {hit_at(res, 1):.3f} hit@5 {hit_at(res, 5):.3f} "
            f"MRR@5 {mrr(res):.3f} | {per_kind}")


if __name__ == "__main__":
    main()
