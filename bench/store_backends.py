"""The index on local disk vs on a local S3 server (SeaweedFS), in one run: cold index of the corpus and
ask latency, as ratios (issue 13).

    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/store_backends.py [--corpus ../shared/corpus]
        [--order local,s3,s3,local]

For each target in ``--order`` (default local, s3, s3, local: each backend runs once early and once late,
so warm-up and host-load drift cancel in the ratio) a fresh ``App`` on a fresh data dir indexes the corpus
cold (real MiniLM, isolated extraction worker, empty embedding cache) and then answers every
non-follow-up question of ``qa_dev.yaml`` twice through ``App.service`` (the shipped config: hybrid
retrieval, reranker, extractive answer) after one warm-up question. Prints seconds and p50/p95 per target
and the S3/local ratios of the medians over the runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1)."""
    xs = sorted(values)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def one(data_dir: str | Path, corpus: Path, questions: list[str]) -> dict[str, float]:
    """Cold index + asks on ``data_dir``: {"index_s", "ask_p50_ms", "ask_p95_ms", "retrieval_p50_ms", ...}."""
    from core.config import load_config
    from policybot.factory import App

    app = App(load_config(REPO / "config.yaml", data_dir=data_dir, policy_root=corpus))
    t0 = time.perf_counter()
    summary = app.indexer.reconcile(corpus)
    index_s = time.perf_counter() - t0
    service = app.service
    service.ask("warm-up: what is the grace period?")
    total, retrieval = [], []
    for q in questions * 2:
        t = service.ask(q).timings_ms
        total.append(t["total"])
        retrieval.append(t.get("embed", 0.0) + t.get("retrieve", 0.0) + t.get("rerank", 0.0))
    app.close()
    return {"index_s": round(index_s, 1), "chunks": float(app.store.count_chunks()),
            "indexed": float(summary.indexed), "ask_p50_ms": round(pct(total, .5)),
            "ask_p95_ms": round(pct(total, .95)), "retrieval_p50_ms": round(pct(retrieval, .5)),
            "retrieval_p95_ms": round(pct(retrieval, .95))}


def main() -> None:
    """Run the targets in order and print the figures and the ratios."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from tests.s3_server import BUCKET, SeaweedS3

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--order", default="local,s3,s3,local")
    args = ap.parse_args()
    qa = yaml.safe_load((args.corpus / "qa_dev.yaml").read_text(encoding="utf-8"))
    questions = [it["question"] for it in qa if not it.get("follow_up_of")]
    tmp = Path(tempfile.mkdtemp(prefix="bench_backends_"))
    results: dict[str, list[dict[str, float]]] = {"local": [], "s3": []}
    print(f"load average at start: {os.getloadavg()}")
    try:
        with SeaweedS3(tmp / "seaweed") as server:
            os.environ.update(server.env())
            for i, target in enumerate(args.order.split(",")):
                where: str | Path = tmp / f"local{i}" if target == "local" else f"s3://{BUCKET}/b{uuid.uuid4().hex[:8]}"
                r = one(where, args.corpus, questions)
                results[target].append(r)
                print(f"{target:>5} run {i}: {r}  (load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for key in ("index_s", "ask_p50_ms", "ask_p95_ms", "retrieval_p50_ms", "retrieval_p95_ms"):
        loc = statistics.median(r[key] for r in results["local"])
        s3 = statistics.median(r[key] for r in results["s3"])
        print(f"{key:>17}: local {loc:8.1f}  s3 {s3:8.1f}  s3/local {s3 / loc:5.2f}")


if __name__ == "__main__":
    main()
