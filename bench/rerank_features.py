"""Dump the offline reranker's pool of every answerable item of a QA set, with each candidate's
features and whether it covers a gold source (for ranking diagnosis and the weight fit of
:mod:`bench.rerank_fit`).

The same retrieval ``policybot eval`` runs (condensed follow-ups, channel scopes from ``--context``);
the reranker is wrapped so that, besides its normal call, the whole pool is scored once more with
``keep = len(pool)``: every candidate's ``rerank_*`` features and its raw score are recorded. Per
item the JSON holds ``id``, ``kind``, ``group`` (the first gold document: the unit of grouped
cross-validation), ``question`` (what the reranker read), ``rank`` (first relevant rank in the final
top 5, after diversity and reference following) and ``pool``: one record per candidate in the
first stage's order with ``path``, ``page``, ``section``, ``context``, ``text``, ``fused`` (retrieval's
score), the features, ``raw`` and ``gold``::

    HF_HUB_OFFLINE=1 .venv/bin/python bench/rerank_features.py --config CFG \\
        ../shared/corpus/qa_dev.yaml --context docs/eval/qa_dev_context.yaml --out pools.json
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any


def main() -> None:
    """Write the pools of ``qa`` to ``--out``; print the ranking misses with the gold's features."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("qa", type=Path)
    ap.add_argument("--config", type=Path, default=Path("config.yaml"))
    ap.add_argument("--context", type=Path, default=None)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    rows = run(args.config, args.qa, args.context)
    args.out.write_text(json.dumps(rows, indent=1))
    for r in rows:
        if r["rank"] is None or r["rank"] > 5:
            print_miss(r)


def print_miss(row: dict[str, Any]) -> None:
    """The reranker's order down to the first gold candidate, with every feature."""
    order = sorted(row["pool"], key=lambda c: -c["raw"])
    print(f"\n{row['id']} ({row['kind']}) final rank {row['rank']}: {row['question'][:100]}")
    for i, c in enumerate(order, 1):
        feats = " ".join(f"{k[7:]}={v:.2f}" for k, v in c.items() if k.startswith("rerank_"))
        print(f"  {i:2d}{'*' if c['gold'] else ' '} raw={c['raw']:.3f} {feats} "
              f"{c['path'][:40]}:{c['page']} §{c['section'][:50]}")
        if c["gold"]:
            break


def run(config: Path, qa: Path, context: Path | None) -> list[dict[str, Any]]:
    """One record per answerable item (module doc)."""
    from core.answering import to_citation
    from core.config import load_config
    from core.eval import load_context, load_qa
    from core.eval.metrics import first_relevant_rank, relevance
    from core.eval.runner import retrieval_items
    from policybot.factory import App

    app = App(load_config(config))
    service, retriever = app.service, app.service.retriever
    reranker = retriever.reranker
    assert reranker is not None, "configure rerank.provider: offline"
    seen: list[tuple[str, list[Any]]] = []
    inner = reranker.rerank

    def spy(question: str, candidates: list[Any], keep: int) -> Any:
        seen.append((question, inner(question, candidates, keep=len(candidates))))
        return inner(question, candidates, keep=keep)

    reranker.rerank = spy  # type: ignore[method-assign]
    channels = load_context(context) if context is not None else {}
    rows: list[dict[str, Any]] = []
    for item, history, scope in retrieval_items(load_qa(qa), channels):
        seen.clear()
        found = retriever.retrieve(service.standalone(item.question, history), scope)
        flags = relevance([to_citation(c) for c in found.chunks], item.sources)
        question, scored = seen[-1] if seen else ("", [])
        gold = relevance([to_citation(c) for c in scored], item.sources)
        pool = [{"path": c.chunk.path, "page": c.chunk.page, "section": c.chunk.section,
                 "context": c.chunk.context, "text": c.chunk.text, "ordinal": c.chunk.ordinal,
                 "fused": c.scores.get("retrieval", 0.0), "raw": c.scores.get("rerank_raw", c.score),
                 "gold": bool(g),
                 **{k: v for k, v in c.scores.items() if k.startswith("rerank_") and k != "rerank_raw"}}
                for c, g in zip(scored, gold, strict=True)]
        pool.sort(key=lambda c: -c["fused"])
        rows.append({"id": item.id, "kind": item.kind, "group": item.sources[0].file,
                     "question": question, "rank": first_relevant_rank(flags[:5]), "pool": pool})
    app.close()
    return rows


if __name__ == "__main__":
    main()
