"""Calibrating ``gaps.similarity_threshold`` on labelled paraphrase groups.

Data: ``tests/data/gap_calibration.yaml`` — meanings, each worded 3–4 ways (``groups: [{meaning,
near?, questions: [...]}]``), some on close topics of others. Every question is embedded with the real
embedder and the whole set is clustered (:func:`core.gaps.cluster.cluster`) at each threshold of a
0.01 grid. Over all question pairs: *precision* = pairs put in one group that share a meaning /
pairs put in one group; *recall* = pairs sharing a meaning that were put in one group / pairs sharing
a meaning (pair-counting, Rand 1971 / Manning et al., *Introduction to Information Retrieval* §16.3).
The calibrated threshold maximises F1 (ties: the higher threshold, fewer wrong merges).

The re-ask threshold (``gaps.reask_similarity``) decides on one pair of questions by one user minutes
apart, where the likely alternative is a follow-up on a close topic. It is the smallest grid threshold
at which at most :data:`NEAR_FALSE_RATE` of the *near-topic* pairs (questions of two meanings marked
``near``) reach it; the share of paraphrase pairs reaching it is reported beside it. A second,
independent check scores the verified-answer cache's pairs (``tests/data/cache_pairs.yaml``):
paraphrases (``same``) at or above the threshold, and ``topic`` near-misses (a different question on
a close topic) wrongly at or above it.

Run ``python -m core.gaps.calibration [groups.yaml]`` for the markdown recorded in docs/gaps.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import yaml

from core.embedder import Embedder
from core.gaps.cluster import cluster

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
DEFAULT_GROUPS = DATA / "gap_calibration.yaml"
CACHE_PAIRS = DATA / "cache_pairs.yaml"
GRID = tuple(round(0.30 + 0.01 * i, 2) for i in range(61))
"""Candidate thresholds 0.30 … 0.90."""
NEAR_FALSE_RATE = 0.10
"""Largest share of near-topic pairs a re-ask threshold may take for re-asks."""


@dataclass(frozen=True)
class Point:
    """Pairwise precision / recall / F1 of the clustering at one threshold, and its group count."""

    threshold: float
    precision: float
    recall: float
    f1: float
    groups: int


def load_groups(path: Path = DEFAULT_GROUPS) -> tuple[list[str], list[str]]:
    """``(questions, meanings)`` row for row. Raises ValueError naming the file and group when a group
    lacks ``meaning`` or has fewer than two questions."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    texts: list[str] = []
    labels: list[str] = []
    for n, g in enumerate(data["groups"]):
        qs = g.get("questions") or []
        if not g.get("meaning") or len(qs) < 2:
            raise ValueError(f"{path}: group {n} needs a meaning and at least two questions")
        texts += qs
        labels += [g["meaning"]] * len(qs)
    return texts, labels


def pair_scores(labels: Sequence[str], groups: Sequence[Sequence[int]], threshold: float) -> Point:
    """Pair-counting precision / recall / F1 of ``groups`` (row indices) against ``labels``."""
    cluster_of = {row: k for k, g in enumerate(groups) for row in g}
    tp = fp = fn = 0
    for i, j in combinations(range(len(labels)), 2):
        same, together = labels[i] == labels[j], cluster_of[i] == cluster_of[j]
        tp += same and together
        fp += together and not same
        fn += same and not together
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return Point(threshold, p, r, 2 * p * r / (p + r) if p + r else 0.0, len(groups))


def calibrate(vectors: np.ndarray, labels: Sequence[str],
              grid: Sequence[float] = GRID) -> tuple[float, list[Point]]:
    """The F1-maximising grid threshold (ties: the higher) and the whole curve."""
    curve = [pair_scores(labels, cluster(vectors, t), t) for t in grid]
    best = max(curve, key=lambda p: (round(p.f1, 6), p.threshold))
    return best.threshold, curve


def near_pairs(path: Path = DEFAULT_GROUPS) -> set[frozenset[str]]:
    """Pairs of meanings marked ``near`` each other in the groups file."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {frozenset((g["meaning"], g["near"])) for g in data["groups"] if g.get("near")}


def reask_threshold(vectors: np.ndarray, labels: Sequence[str], near: set[frozenset[str]],
                    grid: Sequence[float] = GRID) -> tuple[float, float, float]:
    """``(threshold, paraphrase pairs ≥ it, near-topic pairs ≥ it)`` — the smallest grid threshold
    taking at most :data:`NEAR_FALSE_RATE` of the near-topic pairs (shares in [0, 1])."""
    sims = vectors @ vectors.T
    same, close = [], []
    for i, j in combinations(range(len(labels)), 2):
        if labels[i] == labels[j]:
            same.append(sims[i, j])
        elif frozenset((labels[i], labels[j])) in near:
            close.append(sims[i, j])
    s, c = np.asarray(same), np.asarray(close)
    for t in grid:
        if c.size == 0 or float(np.mean(c >= t)) <= NEAR_FALSE_RATE:
            return t, float(np.mean(s >= t)), float(np.mean(c >= t)) if c.size else 0.0
    return grid[-1], float(np.mean(s >= grid[-1])), float(np.mean(c >= grid[-1]))


def cache_pair_check(embedder: Embedder, threshold: float,
                     path: Path = CACHE_PAIRS) -> tuple[int, int, int, int]:
    """``(same ≥ t, same, topic ≥ t, topic)`` over the cache's labelled pairs at ``threshold``."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    same = [(g["question"], s) for g in data["groups"] for s in g.get("same", [])]
    topic = [(g["question"], d["text"]) for g in data["groups"] for d in g.get("different", [])
             if d.get("kind") == "topic"]
    texts = sorted({t for pair in same + topic for t in pair})
    vecs = unit(embedder.embed(texts))
    at = {t: i for i, t in enumerate(texts)}

    def above(pairs: list[tuple[str, str]]) -> int:
        return sum(float(vecs[at[a]] @ vecs[at[b]]) >= threshold for a, b in pairs)

    return above(same), len(same), above(topic), len(topic)


def unit(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (zero rows stay zero)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.asarray(vectors / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the calibration (curve, chosen threshold, cache-pair check) with the configured embedder."""
    from core.config import load_config
    from core.embedder import make_embedder

    args = list(sys.argv[1:] if argv is None else argv)
    path = Path(args[0]) if args else DEFAULT_GROUPS
    texts, labels = load_groups(path)
    embedder = make_embedder(load_config().embedding)
    vectors = unit(embedder.embed(texts))
    threshold, curve = calibrate(vectors, labels)
    print(f"questions={len(texts)} meanings={len(set(labels))} model={embedder.model_id}")
    print("| threshold | precision | recall | F1 | groups |\n|---|---|---|---|---|")
    for p in curve:
        if round(p.threshold * 100) % 5 == 0 or p.threshold == threshold:
            mark = " **(chosen)**" if p.threshold == threshold else ""
            print(f"| {p.threshold:.2f}{mark} | {p.precision:.3f} | {p.recall:.3f} | {p.f1:.3f} "
                  f"| {p.groups} |")
    reask, same_share, near_share = reask_threshold(vectors, labels, near_pairs(path))
    print(f"re-ask threshold {reask:.2f}: paraphrase pairs at or above {same_share:.3f}, "
          f"near-topic pairs at or above {near_share:.3f}")
    s_hit, s_all, t_hit, t_all = cache_pair_check(embedder, threshold)
    print(f"cache pairs at {threshold:.2f}: paraphrases {s_hit}/{s_all} at or above, "
          f"topic near-misses {t_hit}/{t_all} at or above")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
