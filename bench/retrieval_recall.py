"""Retrieval-only recall of a QA set: hit@1/3/5 and MRR per kind, without the answerer.

The same retrieval ``policybot eval`` measures (condensed follow-ups, channel scopes from
``--context``, retrieval + rerank through the configured reranker), minus answer generation, so a
retrieval change can be measured in a fraction of an eval's time. Also prints, per item, the rank of
the first relevant chunk among the reranker's candidates ("pool"), which tells a recall miss (not in
the pool) from a ranking miss. Follow-ups are condensed from their parent's question only (the
deterministic merge reads user turns; with an LLM rewriter the parent's answer would matter too).

    HF_HUB_OFFLINE=1 .venv/bin/python bench/retrieval_recall.py --config CFG \\
        ../shared/corpus/qa_dev.yaml --context docs/eval/qa_dev_context.yaml [--json out.json]

Item ids group the report too: the prefix before the last ``-`` (``ho-de-01`` → ``ho-de``).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any


def main() -> None:
    """Print hit@k per kind and id group, and the misses with their pool rank."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("qa", type=Path)
    ap.add_argument("--config", type=Path, default=Path("config.yaml"))
    ap.add_argument("--context", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None, help="write per-item results here")
    ap.add_argument("--ablate", action="append", default=[], choices=sorted(ABLATIONS),
                    help="turn one issue-11 recall mechanism off (for before/after tables)")
    args = ap.parse_args()
    for name in args.ablate:
        ABLATIONS[name]()
    rows = run(args.config, args.qa, args.context)
    report(rows)
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1))


def _no_fused() -> None:
    """The offline reranker without retrieval's score as a feature (the issue-5 weights)."""
    import core.rerank.offline as offline

    offline.WEIGHTS = {"rerank_vec": 0.40, "rerank_bm25": 0.15, "rerank_unit": 0.20, "rerank_kw": 0.15,
                       "rerank_exact": 0.10, "rerank_fused": 0.0}


def _keep_names() -> None:
    """A confined search's reranker and exact boost read the document names too."""
    import core.retrieval as retrieval

    retrieval.without_words = lambda text, folded: text  # type: ignore[assignment]


ABLATIONS = {"fused-feature": _no_fused, "name-strip": _keep_names}


def run(config: Path, qa: Path, context: Path | None) -> list[dict[str, Any]]:
    """Per item: id, kind, group, first relevant rank in the top 5 and in the reranker's pool."""
    from core.answering import to_citation
    from core.config import load_config
    from core.eval import load_context, load_qa
    from core.eval.metrics import first_relevant_rank, relevance
    from core.eval.runner import retrieval_items
    from policybot.factory import App

    app = App(load_config(config))
    service, retriever = app.service, app.service.retriever
    pools: list[list[Any]] = []
    inner = retriever._rerank

    def spy(question: str, fused: list[Any], *a: Any, **kw: Any) -> Any:
        pools.append(fused[: max(retriever.rerank_settings.candidates, 5)])
        return inner(question, fused, *a, **kw)

    retriever._rerank = spy  # type: ignore[method-assign]
    channels = load_context(context) if context is not None else {}
    rows: list[dict[str, Any]] = []
    for item, history, scope in retrieval_items(load_qa(qa), channels):
        t0 = time.perf_counter()
        found = retriever.retrieve(service.standalone(item.question, history), scope)
        ms = (time.perf_counter() - t0) * 1e3
        flags = relevance([to_citation(c) for c in found.chunks], item.sources)
        pool = relevance([to_citation(c) for c in pools[-1]], item.sources) if pools else []
        rows.append({"id": item.id, "kind": item.kind, "group": item.id.rsplit("-", 1)[0],
                     "rank": first_relevant_rank(flags[:5]), "pool_rank": first_relevant_rank(pool),
                     "ms": round(ms), "top": [f"{c.chunk.path}:{c.chunk.page}" for c in found.chunks[:5]]})
    app.close()
    return rows


def report(rows: list[dict[str, Any]]) -> None:
    """Print hit@1/3/5 and MRR overall, per kind and per id group, then the misses."""
    def line(name: str, sub: list[dict[str, Any]]) -> str:
        ranks = [r["rank"] for r in sub]
        hit = {k: sum(1 for x in ranks if x and x <= k) / len(sub) for k in (1, 3, 5)}
        mrr = sum(1 / x for x in ranks if x) / len(sub)
        return (f"{name:>16} n={len(sub):3d}  hit@1 {hit[1]:.3f}  hit@3 {hit[3]:.3f}  "
                f"hit@5 {hit[5]:.3f}  MRR {mrr:.3f}")

    print(line("all", rows))
    for key in ("kind", "group"):
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            groups[r[key]].append(r)
        for name, sub in sorted(groups.items()):
            print(line(name, sub))
    for r in rows:
        if not r["rank"]:
            print(f"miss {r['id']:>12} ({r['kind']}): pool rank {r['pool_rank']}; top {r['top']}")
    ms = sorted(r["ms"] for r in rows)
    print(f"retrieve+rerank wall p50 {ms[len(ms) // 2]} ms, p95 {ms[int(0.95 * (len(ms) - 1))]} ms")


if __name__ == "__main__":
    main()
