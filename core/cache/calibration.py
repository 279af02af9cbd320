"""Calibrating the cache's similarity threshold on labelled question pairs.

Pairs are a cached question and an asked one, labelled ``same`` (a paraphrase: serving the cached
answer is right) or ``different`` (a near-miss: it would be wrong). The threshold is calibrated on
invented pairs (tests/data/cache_pairs_invented.yaml, :data:`DEFAULT_PAIRS`); the pairs derived from
the dev questions (tests/data/cache_pairs.yaml, :data:`HELD_OUT_PAIRS`) are only a held-out check, so
the threshold is not tuned to the dev set.
A pair is *served* at threshold t when cosine similarity ≥ t and every guard passes. Precision =
served same / served; recall = served same / all same. The calibrated threshold is the smallest t on a
0.01 grid from which precision stays ≥ the target (0.99) for every higher t — so one noisy grid point
cannot pick it. Similarity-only precision (guards off) is reported beside it.

Run ``python -m core.cache.calibration [pairs.yaml [held_out.yaml ...]]`` to print the report
recorded in docs/cache-calibration.md (loads the real embedding model from config defaults).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from core.cache.guards import failed_guard, scope_key, signature
from core.embedder import Embedder, embed_queries

_DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
DEFAULT_PAIRS = _DATA / "cache_pairs_invented.yaml"
"""The calibration pairs: invented policy questions, not derived from the dev questions."""
HELD_OUT_PAIRS = _DATA / "cache_pairs.yaml"
"""The held-out check: pairs derived from the dev questions and corpus facts (never calibrated on)."""
GRID = tuple(round(0.5 + 0.01 * i, 2) for i in range(50))
"""Candidate thresholds 0.50 … 0.99."""


@dataclass(frozen=True)
class Pair:
    """A labelled pair: ``cached`` (in ``cached_scope``) vs ``asked`` (in ``asked_scope``)."""

    cached: str
    asked: str
    same: bool
    kind: str
    source: str
    cached_scope: tuple[str, ...] = ("**",)
    asked_scope: tuple[str, ...] = ("**",)


@dataclass(frozen=True)
class ScoredPair:
    """A pair with its cosine similarity and the first guard it fails (None: all pass)."""

    pair: Pair
    similarity: float
    guard: str | None


def load_pairs(path: Path = DEFAULT_PAIRS) -> list[Pair]:
    """Expand the grouped YAML (``groups: [{question, scope?, same: [...], different: [{kind, text,
    scope?}]}]``) into pairs. Raises ValueError naming the file and group on a malformed group."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    pairs: list[Pair] = []
    for n, g in enumerate(data["groups"]):
        try:
            pairs.extend(_group_pairs(g))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{path}: group {n} ({g.get('source', '?')}) is malformed: {exc}") from None
    return pairs


def _group_pairs(g: Mapping[str, Any]) -> list[Pair]:
    q, src = g["question"], g["source"]
    scope = tuple(g.get("scope", ("**",)))
    out = [Pair(q, s, True, "paraphrase", src, scope, scope) for s in g.get("same", [])]
    for d in g.get("different", []):
        out.append(Pair(q, d["text"], False, d["kind"], src, scope, tuple(d.get("scope", scope))))
    return out


def score_pairs(pairs: Sequence[Pair], embedder: Embedder,
                glossary: Mapping[str, str] | None = None) -> list[ScoredPair]:
    """Cosine similarity of each pair (one batched embedding call) and its failed guard."""
    texts = sorted({t for p in pairs for t in (p.cached, p.asked)})
    vecs = embed_queries(embedder, texts)  # questions: the query prompt, as the cache embeds them
    vecs = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    index = {t: i for i, t in enumerate(texts)}
    out = []
    for p in pairs:
        sim = float(vecs[index[p.cached]] @ vecs[index[p.asked]])
        if scope_key(p.cached_scope) != scope_key(p.asked_scope):
            guard: str | None = "scope"
        else:
            guard = failed_guard(signature(p.cached, glossary), signature(p.asked, glossary))
        out.append(ScoredPair(p, sim, guard))
    return out


@dataclass(frozen=True)
class Point:
    """Precision / recall at one threshold, with guards (``served``) and similarity only (``sim``)."""

    threshold: float
    precision: float
    recall: float
    false_hits: int
    sim_precision: float
    sim_recall: float
    sim_false_hits: int


def evaluate(scored: Sequence[ScoredPair], threshold: float) -> Point:
    """Precision / recall at ``threshold`` (precision 1.0 when nothing is served)."""
    n_same = sum(s.pair.same for s in scored) or 1
    above = [s for s in scored if s.similarity >= threshold]
    served = [s for s in above if s.guard is None]

    def pr(rows: list[ScoredPair]) -> tuple[float, float, int]:
        tp = sum(s.pair.same for s in rows)
        return (tp / len(rows) if rows else 1.0), tp / n_same, len(rows) - tp

    p, r, f = pr(served)
    sp, sr, sf = pr(above)
    return Point(threshold, p, r, f, sp, sr, sf)


def calibrate(scored: Sequence[ScoredPair], target: float = 0.99,
              grid: Sequence[float] = GRID) -> tuple[float, list[Point]]:
    """The smallest grid threshold from which guarded precision stays ≥ ``target``; and the curve."""
    curve = [evaluate(scored, t) for t in grid]
    best = grid[-1]
    for point in reversed(curve):
        if point.precision < target:
            break
        best = point.threshold
    return best, curve


def cross_validate(scored: Sequence[ScoredPair], target: float = 0.99) -> Point:
    """Leave-one-group-out: calibrate without a cached question's pairs, then serve its pairs at that
    threshold; pooled over all groups. Estimates how the threshold does on unseen questions."""
    groups = sorted({s.pair.cached for s in scored})
    served_same = served_diff = 0
    for g in groups:
        threshold, _ = calibrate([s for s in scored if s.pair.cached != g], target)
        held = [s for s in scored if s.pair.cached == g and s.similarity >= threshold and s.guard is None]
        served_same += sum(s.pair.same for s in held)
        served_diff += sum(not s.pair.same for s in held)
    n_same = sum(s.pair.same for s in scored) or 1
    served = served_same + served_diff
    precision = served_same / served if served else 1.0
    return Point(float("nan"), precision, served_same / n_same, served_diff, float("nan"), float("nan"), 0)


def report(scored: Sequence[ScoredPair], threshold: float, curve: Sequence[Point]) -> str:
    """Markdown: the chosen point, the curve, and the pairs nearest the threshold."""
    lines = ["| threshold | precision (guards) | recall (guards) | false hits | precision (sim only) "
             "| recall (sim only) | false hits (sim only) |", "|---|---|---|---|---|---|---|"]
    for p in curve:
        if p.threshold >= 0.6 and round(p.threshold * 100) % 5 == 0 or p.threshold == threshold:
            mark = " **(chosen)**" if p.threshold == threshold else ""
            lines.append(f"| {p.threshold:.2f}{mark} | {p.precision:.3f} | {p.recall:.3f} | {p.false_hits} "
                         f"| {p.sim_precision:.3f} | {p.sim_recall:.3f} | {p.sim_false_hits} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Calibrate on the pairs file argv[0] (default :data:`DEFAULT_PAIRS`) with the default (real)
    embedder, print the report, then each held-out file (argv[1:], default :data:`HELD_OUT_PAIRS`)
    at the chosen threshold and at the configured one."""
    from core.config import load_config
    from core.embedder import make_embedder

    args = list(sys.argv[1:] if argv is None else argv)
    path = Path(args[0]) if args else DEFAULT_PAIRS
    held_out = [Path(a) for a in args[1:]] or ([HELD_OUT_PAIRS] if path != HELD_OUT_PAIRS else [])
    settings = load_config()  # ./config.yaml when present (its retrieval.glossary), else defaults
    embedder = make_embedder(settings.embedding)
    glossary = settings.retrieval.glossary
    scored = score_pairs(load_pairs(path), embedder, glossary)
    threshold, curve = calibrate(scored)
    configured = settings.cache.similarity_threshold
    print(f"calibration pairs: {path.name} model={embedder.model_id}")
    print(_summary(scored, threshold, "calibrated"))
    print(_summary(scored, configured, "configured"))
    cv = cross_validate(scored)
    print(f"leave-one-group-out: precision={cv.precision:.3f} recall={cv.recall:.3f} "
          f"false hits={cv.false_hits}")
    print(report(scored, threshold, curve))
    for other in held_out:
        held = score_pairs(load_pairs(other), embedder, glossary)
        print(f"held out: {other.name}\n{_summary(held, threshold, 'calibrated')}\n"
              f"{_summary(held, configured, 'configured')}")
    print("\n".join(_pair_lines(scored)))
    return 0


def _pair_lines(scored: Sequence[ScoredPair]) -> list[str]:
    """Every pair, most similar first: similarity, label, failed guard, the two questions."""
    out = []
    for s in sorted(scored, key=lambda s: -s.similarity):
        flag = "SAME" if s.pair.same else f"DIFF/{s.pair.kind}"
        out.append(f"{s.similarity:.3f} {flag:14} guard={s.guard!s:9} {s.pair.cached[:60]!r} ~ "
                   f"{s.pair.asked[:60]!r}")
    return out


def _summary(scored: Sequence[ScoredPair], threshold: float, label: str) -> str:
    """One line: pair counts and precision / recall / false hits at ``threshold``."""
    n_same = sum(s.pair.same for s in scored)
    p = evaluate(scored, threshold)
    return (f"  {label} {threshold:.2f}: pairs={len(scored)} same={n_same} different={len(scored) - n_same} "
            f"precision={p.precision:.3f} recall={p.recall:.3f} served={round(p.recall * n_same)} "
            f"false hits={p.false_hits}")


if __name__ == "__main__":
    raise SystemExit(main())
