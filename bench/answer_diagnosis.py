"""Why key facts are missing: per item of a QA set, where each missed key fact was lost.

Asks every item through the real answer service (as ``policybot eval`` does, follow-ups in their
thread, channels from ``--context``), records what retrieval passed to the answerer, and classifies
each key fact the answer misses:

=====================  ===========================================================================
``refused``            the answer declined (the fact is in the sources: ``refused (in sources)``)
``not retrieved``      no kept source passage holds the fact
``in a table row``     a kept table row holds it, the answer does not quote that row
``other passage``      a kept passage holds it, the answer quotes other passages only
``same passage``       a passage the answer quotes holds it in a sentence the answer leaves out
``split``              the fact is in a kept passage but in no single unit (a sentence break inside)
=====================  ===========================================================================

plus ``follow-up`` when the item continues a thread (the standalone question is printed). Prints a
markdown table (one row per item with a missed fact) and, with ``--json``, writes every record::

    .venv/bin/python bench/answer_diagnosis.py --config .policybot-eval/config.yaml \\
        ../shared/corpus/qa_dev.yaml --context docs/eval/qa_dev_context.yaml [--json diag.json] \\
        [--eval-json eval.json]
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Record:
    """What one item's answer was built from."""

    standalone: str = ""
    sources: tuple[Any, ...] = ()


def classify_fact(fact: str, answer: Any, sources: Sequence[Any]) -> str:
    """The loss class of ``fact`` (module doc table)."""
    from core.answer.sentences import split_units
    from core.eval.metrics import fact_found

    in_chunks = [i for i, sc in enumerate(sources, start=1) if fact_found(fact, sc.chunk.text)]
    if not answer.found:
        return "refused (in sources)" if in_chunks else "refused"
    if not in_chunks:
        return "not retrieved"
    cited = {c.chunk_id for c in answer.citations}
    for i in in_chunks:
        units = [u for u in split_units(sources[i - 1].chunk.text, i)
                 if fact_found(fact, f"{u.lead} {u.text}")]
        if not units:
            continue
        if sources[i - 1].chunk.chunk_id in cited:
            return "same passage"
        if any(u.kind == "row" for u in units):
            return "in a table row"
        return "other passage"
    return "split"


def main() -> None:
    """Run the items, print the diagnosis table, optionally write JSON."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from core.config import load_config
    from core.eval import load_context, load_qa, run_eval
    from policybot.factory import App

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("qa", type=Path)
    ap.add_argument("--config", type=Path, required=True)
    ap.add_argument("--context", type=Path)
    ap.add_argument("--json", type=Path, help="write the per-item diagnosis records here")
    ap.add_argument("--eval-json", type=Path, help="write the `policybot eval --json` object here")
    args = ap.parse_args()
    app = App(load_config(args.config))
    service = app.service
    records: dict[str, Record] = {}
    current = Record()
    retrieve = service.retriever.retrieve

    def recording(question: str, *a: Any, **kw: Any) -> Any:
        found = retrieve(question, *a, **kw)
        current.standalone, current.sources = question, tuple(found.chunks)
        return found

    service.retriever.retrieve = recording  # type: ignore[method-assign]

    def on_item(r: Any) -> None:
        records[r.item.id] = Record(current.standalone, current.sources)

    channels = load_context(args.context) if args.context else {}
    result = run_eval(service, load_qa(args.qa), channels=channels, on_item=on_item)
    rows = []
    print("| item | kind | found | answerability | missed fact → where lost |")
    print("|---|---|---|---|---|")
    for r in result.items:
        rec = records.get(r.item.id, Record())
        a = r.answer
        losses = {f: classify_fact(f, a, rec.sources) for f in r.facts_missed} if a else {}
        rows.append({"id": r.item.id, "kind": r.item.kind, "found": a.found if a else None,
                     "answerability": a.answerability if a else None, "question": r.item.question,
                     "standalone": rec.standalone, "answer": a.answer if a else None, "losses": losses,
                     "facts_found": list(r.facts_found),
                     "sources": [f"{sc.chunk.path} p{sc.chunk.page} {sc.score:.2f}" for sc in rec.sources],
                     "refusal_correct": r.refusal_correct})
        if losses:
            where = "; ".join(f"{f!r} → {w}" for f, w in losses.items())
            fu = " (follow-up)" if r.item.follow_up_of else ""
            print(f"| {r.item.id} | {r.item.kind}{fu} | {a.found if a else '–'} | "
                  f"{(a.answerability or 0) if a else 0:.2f} | {where} |")
    wrong = [r.item.id for r in result.items if r.refusal_correct is False]
    print(f"\nrefusals missed: {wrong}")
    print(f"false refusals: {[r.item.id for r in result.items if r.false_refusal]}")
    print(json.dumps({k: v for k, v in result.summary().items()}))
    if args.eval_json:
        from core.eval.report import to_json

        args.eval_json.write_text(json.dumps(to_json(result), ensure_ascii=False), encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    app.close()


if __name__ == "__main__":
    main()
