"""Grouping questions by meaning: agglomerative clustering of their embeddings at a similarity threshold.

Average linkage (UPGMA; Sokal & Michener 1958) on cosine distance, cut at distance
``1 - threshold``: two groups merge while the *average* cosine similarity between their questions is
≥ ``threshold``. Average linkage does not chain unrelated questions together through one in-between
question the way single linkage does, and it needs no number of groups in advance. Implementation:
``scipy.cluster.hierarchy.linkage(method="average", metric="cosine")`` and ``fcluster(criterion=
"distance")`` (https://docs.scipy.org/doc/scipy/reference/cluster.hierarchy.html). The threshold is
calibrated on labelled paraphrase groups by :mod:`core.gaps.calibration` (docs/gaps.md).
"""

from __future__ import annotations

import numpy as np


def cluster(vectors: np.ndarray, threshold: float) -> list[list[int]]:
    """Row indices of ``vectors`` (shape ``(n, dim)``, any norm) grouped by meaning.

    Returns the groups largest first (ties: the group holding the lowest row first), each group's rows
    ascending; every row is in exactly one group. ``threshold`` is an average cosine similarity in
    (0, 1]. A zero vector is its own group.
    """
    n = len(vectors)
    if n == 0:
        return []
    if n == 1:
        return [[0]]
    from scipy.cluster.hierarchy import fcluster, linkage

    norms = np.linalg.norm(vectors, axis=1)
    live = np.flatnonzero(norms > 0)
    groups: dict[int, list[int]] = {}
    if len(live) > 1:
        z = linkage(np.asarray(vectors[live], dtype=np.float64), method="average", metric="cosine")
        labels = fcluster(z, t=max(0.0, 1.0 - threshold), criterion="distance")
        for row, label in zip(live.tolist(), labels.tolist(), strict=True):
            groups.setdefault(int(label), []).append(row)
    out = list(groups.values()) + [[int(r)] for r in np.flatnonzero(norms == 0)]
    if len(live) == 1:
        out.append([int(live[0])])
    return sorted((sorted(g) for g in out), key=lambda g: (-len(g), g[0]))
