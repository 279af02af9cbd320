"""The qa_dev eval for each retrieval stage, one run each over the SAME index, printed as a table.

Stages (each adds one thing to the previous; config switches in parentheses):

1. keyword only (``retrieval.legs: [keyword]``, no reranker, no document scope, no exact boost,
   no follow-up condensation)
2. vector only (``retrieval.legs: [vector]``)
3. hybrid (both legs, reciprocal rank fusion)
4. + rerank (``rerank.provider: offline``: the fallback when no cross-encoder weights load)
5. + policy-aware retrieval (``retrieval.document_scope: true``, ``retrieval.exact_weight: 0.1``)
6. + follow-up condensation (``answer.condense: true``) = the shipped config

Extractive answerer throughout. Index once (``policybot --config CFG index``, or the eval's
``policies.root`` layout), then::

    HF_HUB_OFFLINE=1 .venv/bin/python bench/eval_stages.py --data-dir /tmp/evalidx/data \\
        --root /tmp/evalidx/policies --context docs/eval/qa_dev_context.yaml

``retrieve+rerank`` is the ``embed`` + ``retrieve`` + ``rerank`` stage time per question (p50/p95 ms).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from core.answer.extractive import ExtractiveAnswerer
from core.answering import PolicyAnswerService
from core.config import Settings, load_config
from core.eval import EvalResult, load_context, load_qa, run_eval
from core.eval.metrics import percentiles
from core.rerank.offline import OfflineReranker
from core.retrieval import HybridRetriever
from core.scoping import DocumentScoper
from policybot.factory import App

REPO = Path(__file__).resolve().parents[1]
OFF: dict[str, dict[str, Any]] = {
    "retrieval": {"document_scope": False, "exact_weight": 0.0}, "rerank": {"enabled": False},
    "answer": {"condense": False}}
STAGES: list[tuple[str, dict[str, dict[str, Any]]]] = [
    ("keyword only", {"retrieval": {"legs": ("keyword",)}}),
    ("vector only", {"retrieval": {"legs": ("vector",)}}),
    ("hybrid (RRF)", {}),
    ("+ rerank (offline)", {"rerank": {"enabled": True}}),
    ("+ policy-aware retrieval", {"rerank": {"enabled": True},
                                  "retrieval": {"document_scope": True, "exact_weight": 0.1}}),
    ("+ follow-up condensation", {"rerank": {"enabled": True}, "answer": {"condense": True},
                                  "retrieval": {"document_scope": True, "exact_weight": 0.1}}),
]


def stage_settings(base: Settings, change: Mapping[str, Mapping[str, Any]]) -> Settings:
    """``base`` with everything of :data:`OFF` switched off, then ``change`` applied (per section)."""
    out = base
    for section in ("retrieval", "rerank", "answer"):
        values = {**OFF.get(section, {}), **change.get(section, {})}
        out = out.model_copy(update={section: getattr(out, section).model_copy(update=values)})
    return out


def service_for(app: App, s: Settings) -> PolicyAnswerService:
    """An answer service on ``app``'s store and embedder (no model reload) configured by ``s``."""
    reranker = OfflineReranker(app.embedder) if s.rerank.enabled else None
    scoper = DocumentScoper(app.store) if s.retrieval.document_scope else None
    retriever = HybridRetriever(app.store, app.embedder, s.retrieval, reranker=reranker, rerank=s.rerank,
                                scoper=scoper)
    return PolicyAnswerService(retriever, ExtractiveAnswerer(s.answer, app.embedder, s.retrieval.glossary),
                               condense_follow_ups=s.answer.condense)


def row(name: str, result: EvalResult) -> str:
    """One markdown table row: quality metrics and the retrieve+rerank p50/p95."""
    m = result.summary()
    refusals = [r.refusal_correct for r in result.items if r.refusal_correct is not None]
    stage_ms = [sum(r.answer.timings_ms.get(k, 0.0) for k in ("embed", "retrieve", "rerank"))
                for r in result.items if r.answer is not None]
    p = percentiles(stage_ms)
    cells = [f"{m[k]:.3f}" if m[k] is not None else "–" for k in
             ("hit_at_1", "hit_at_3", "hit_at_5", "mrr", "ndcg_at_5", "key_fact_recall")]
    return (f"| {name} | {' | '.join(cells)} | {sum(refusals)}/{len(refusals)} | "
            f"{p['p50']:.0f} / {p['p95']:.0f} |")


def main() -> None:
    """Run every stage and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qa", type=Path, default=REPO.parent / "shared" / "corpus" / "qa_dev.yaml")
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--context", type=Path, default=REPO / "docs" / "eval" / "qa_dev_context.yaml")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    base = load_config(REPO / "config.yaml", data_dir=args.data_dir, policy_root=args.root)
    app = App(base)
    items, channels = load_qa(args.qa), load_context(args.context)
    print(f"{app.store.count_chunks()} chunks, {len(app.store.documents())} documents, {len(items)} items")
    print("| stage | hit@1 | hit@3 | hit@5 | MRR | nDCG@5 | key-fact recall | refusals "
          "| retrieve+rerank p50 / p95 ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, change in STAGES:
        print(row(name, run_eval(service_for(app, stage_settings(base, change)), items, channels=channels)),
              flush=True)


if __name__ == "__main__":
    main()
