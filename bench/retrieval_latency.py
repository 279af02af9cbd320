"""Retrieval + rerank latency at corpus scale (issue 5: goal p95 ≤ 500 ms).

Asks every non-follow-up question of a QA set twice through the real answer service (extractive
answerer, offline reranker) over an existing index and prints p50/p95 per stage from
``Answer.timings_ms``. Build the index first, e.g.::

    policybot --data-dir /tmp/pb index ../shared/corpus
    HF_HUB_OFFLINE=1 .venv/bin/python bench/retrieval_latency.py --data-dir /tmp/pb
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import yaml


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile of ``values`` (q in 0..1)."""
    xs = sorted(values)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> None:
    """Print p50/p95 of embed, retrieve+rerank, both, and total per question."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from core.config import load_config
    from policybot.factory import App

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--root", type=Path, default=Path("../shared/corpus"))
    ap.add_argument("--qa", type=Path, default=Path("../shared/corpus/qa_dev.yaml"))
    args = ap.parse_args()
    app = App(load_config(Path("config.yaml"), data_dir=args.data_dir, policy_root=args.root))
    service = app.service
    questions = [it["question"] for it in yaml.safe_load(args.qa.read_text()) if not it.get("follow_up_of")]
    service.ask("warm-up: what is the grace period?")
    stages: dict[str, list[float]] = {"embed": [], "retrieve+rerank": [], "embed+retrieve+rerank": [],
                                      "total": []}
    for q in questions * 2:
        t = service.ask(q).timings_ms
        rr = t.get("retrieve", 0.0) + t.get("rerank", 0.0)
        for name, value in (("embed", t.get("embed", 0.0)), ("retrieve+rerank", rr),
                            ("embed+retrieve+rerank", rr + t.get("embed", 0.0)), ("total", t["total"])):
            stages[name].append(value)
    print(f"chunks in index: {app.store.count_chunks()}")
    for name, values in stages.items():
        print(f"{name:>22}: p50 {percentile(values, .5):6.0f} ms   p95 {percentile(values, .95):6.0f} ms"
              f"   (n={len(values)})")
    app.close()


if __name__ == "__main__":
    main()
