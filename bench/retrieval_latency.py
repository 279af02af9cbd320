"""Retrieve + rerank + generate latency at corpus scale, warm (issue 5 / issue 11: p95 ≤ 500 ms).

Over an existing index, with the config's answer path (extractive answerer; set ``rerank.provider:
offline`` in the config for the eval protocol of docs/eval.md):

1. the stored unit vectors are completed first (:class:`core.answer.unit_vectors.UnitVectorJob`, what
   the indexer role's ``unit-vectors`` job does; ``--no-fill`` skips it; ``--old-path`` answers
   without them: every unit embedded per question, as before);
2. a few warm-up questions unrelated to the QA set load the models;
3. every item of the QA set is asked through :func:`core.eval.run_eval` (follow-ups with their
   conversation, items in their channel scope from ``--context``), and per question the stages of
   ``Answer.timings_ms`` are collected: ``embed`` (the question, for retrieval), ``retrieve``,
   ``rerank``, ``generate`` and their sums; inside ``generate``, the time spent looking stored unit
   vectors up and in the embedder (the question, plus any unit not stored), and the units embedded.

Declined (unsafe) items never reach retrieval and are left out of the stage figures. Prints p50/p95,
the eval summary (a sanity check that the answers are the eval's), the load average before and after,
and the host's ``lscpu`` model and flags. Example::

    HF_HUB_OFFLINE=1 .venv/bin/python bench/retrieval_latency.py --config /tmp/pb/config.yaml \\
        --data-dir /tmp/pb/data --context docs/eval/qa_dev_context.yaml
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
WARM_UP = ("What is the dress code?", "Can I bring my cat to work?",
           "How do I reset my laptop password?")
"""Generic questions (no QA item's wording) that load the models before measuring."""
STAGES = ("embed", "retrieve", "rerank", "generate")
SUMS = {"retrieve+rerank+generate": ("retrieve", "rerank", "generate"),
        "embed+retrieve+rerank+generate": STAGES}


class Timed:
    """Wraps an object and adds the wall time of calls to ``method`` to ``sink[name]`` (ms); ``count``
    adds ``len(first argument)`` to ``sink[name + "_n"]``."""

    def __init__(self, inner: Any, method: str, sink: dict[str, float], name: str, count: bool = False):
        self._inner, self._method, self._sink, self._name, self._count = inner, method, sink, name, count

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._inner, attr)
        if attr != self._method:
            return value
        return self._timed(value)

    def _timed(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self._sink[self._name] = self._sink.get(self._name, 0.0) + (time.perf_counter() - t0) * 1e3
                if self._count and args:
                    self._sink[f"{self._name}_n"] = self._sink.get(f"{self._name}_n", 0.0) + len(args[0])
        return call


def pct(values: Sequence[float]) -> str:
    """``p50 / p95`` (linear interpolation, numpy's default) formatted in ms."""
    if not values:
        return "–"
    arr = np.asarray(values, dtype=float)
    return f"{np.percentile(arr, 50):,.0f} / {np.percentile(arr, 95):,.0f}"


def host() -> tuple[str, str]:
    """``lscpu``'s model name line and flags line ("" when lscpu is missing)."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    except OSError:
        return "", ""
    lines = {k.strip(): v.strip() for k, _, v in (ln.partition(":") for ln in out.splitlines())}
    return f"{lines.get('Model name', '?')}, {lines.get('CPU(s)', '?')} CPUs", lines.get("Flags", "")


def fill(app: Any) -> None:
    """Complete the stored unit vectors (as the ``unit-vectors`` job does) and print what it took."""
    from core.answer.unit_vectors import UnitVectorJob

    t0 = time.perf_counter()
    job = UnitVectorJob(app.unit_vectors, app.store, app.embedder, budget_s=float("inf"))
    result = job.run()
    print(f"unit vectors: {result.chunks} chunks / {result.units} units embedded in "
          f"{time.perf_counter() - t0:.1f} s; {app.unit_vectors.count()} rows stored", flush=True)


def report(rows: Sequence[Mapping[str, float]]) -> None:
    """Print p50 / p95 of every stage, sum and generate part over ``rows``."""
    print(f"| stage (n = {len(rows)} questions that reached retrieval) | p50 / p95 ms |")
    print("|---|---|")
    for stage in STAGES:
        print(f"| {stage} | {pct([r.get(stage, 0.0) for r in rows])} |")
    for name, parts in SUMS.items():
        print(f"| **{name}** | {pct([sum(r.get(p, 0.0) for p in parts) for r in rows])} |")
    print(f"| total (incl. condensing, scoping) | {pct([r['total'] for r in rows])} |")
    print(f"| generate: stored unit-vector lookup | {pct([r.get('lookup', 0.0) for r in rows])} |")
    embedder = pct([r.get("embedder", 0.0) for r in rows])
    print(f"| generate: embedder (question + units not stored) | {embedder} |")
    rest = [r.get("generate", 0.0) - r.get("lookup", 0.0) - r.get("embedder", 0.0) for r in rows]
    print(f"| generate: the rest (splitting, scoring, choosing, rendering) | {pct(rest)} |")
    texts = [r.get("embedder_n", 0.0) for r in rows]
    print(f"texts handed to the embedder per answer: mean {np.mean(texts):.1f}, max {max(texts):.0f} "
          "(1 = only the question, which may be a lookup of retrieval's vector)")


def main() -> None:
    """Fill, warm up, ask every QA item, print the figures."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from core.config import load_config
    from core.eval import load_context, load_qa, run_eval
    from policybot.factory import App

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--config", type=Path, default=REPO / "config.yaml")
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--root", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--qa", type=Path, default=REPO.parent / "shared" / "corpus" / "qa_dev.yaml")
    ap.add_argument("--context", type=Path, default=REPO / "docs" / "eval" / "qa_dev_context.yaml")
    ap.add_argument("--no-fill", action="store_true", help="do not complete the stored unit vectors")
    ap.add_argument("--old-path", action="store_true",
                    help="answer without stored unit vectors (every unit embedded per question, as before)")
    ap.add_argument("--eval-json", type=Path, help="also write the eval's JSON (as `policybot eval --json`)")
    args = ap.parse_args()
    model, flags = host()
    print(f"host: {model}; load average before: {os.getloadavg()}")
    app = App(load_config(args.config, data_dir=args.data_dir, policy_root=args.root))
    print(f"chunks in index: {app.store.count_chunks()}")
    if not (args.no_fill or args.old_path):
        fill(app)
    service, finder = app.service, app.extractive.finder
    if args.old_path:
        finder.stored = None
    for q in WARM_UP:
        service.ask(q)
    sink: dict[str, float] = {}
    if finder.stored is not None:
        finder.stored = Timed(finder.stored, "lookup", sink, "lookup")
    finder.embedder = Timed(finder.embedder, "embed", sink, "embedder", count=True)
    rows: list[dict[str, float]] = []

    def on_item(result: Any) -> None:
        timings = dict(result.answer.timings_ms) if result.answer is not None else {}
        if "retrieve" in timings:
            rows.append({**timings, **sink})
        sink.clear()

    items = load_qa(args.qa)
    result = run_eval(service, items, channels=load_context(args.context), on_item=on_item)
    summary = result.summary()
    print(f"eval: {len(items)} items; " + ", ".join(
        f"{k} {summary[k]:.3f}" for k in ("hit_at_5", "key_fact_recall", "refusal_accuracy")
        if summary.get(k) is not None))
    if args.eval_json is not None:
        from core.eval.report import to_json

        args.eval_json.write_text(json.dumps(to_json(result), ensure_ascii=False), encoding="utf-8")
    report(rows)
    print(f"load average after: {os.getloadavg()}")
    print(f"lscpu flags: {flags}")
    app.close()


if __name__ == "__main__":
    main()
