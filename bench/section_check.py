"""Counts citations whose section is not the nearest heading above the quoted text (issue 11, item 9).

Reads the ``--json`` output of ``policybot eval`` runs (qa_dev, held-out, ...) and, for every quote of
every found answer, extracts the cited file (from ``--config``'s ``policies.root``, with its
extraction options) and checks it with :func:`tests.section_check.section_problem`: the cited
section's innermost heading is the last heading block at or before the block holding the quote.
Prints one line per wrong citation and the counts; exits 1 when any is wrong. (Cited pages are
checked by ``tests/test_citations.py``; the eval JSON carries no ``page_end``.)

    PYTHONPATH=. .venv/bin/python bench/section_check.py --config cfg.yaml dev.json heldout.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def item_problems(item: dict[str, Any], settings: Any, docs: dict[str, Any]) -> tuple[int, list[str]]:
    """``(quotes checked, one line per wrong section)`` of one eval item's JSON; ``docs`` caches the
    extracted documents by path."""
    from core.types import Answer, Citation
    from indexer.extract import extract_file
    from tests.citation_check import quotes
    from tests.section_check import section_problem

    if not item.get("found") or not item.get("answer"):
        return 0, []
    root = Path(settings.policies.root)
    cites = [Citation(c["file"], c["page"], c["section"], 0.0) for c in item["citations"]]
    found = quotes(Answer(item["answer"], cites, "extractive"), settings.retrieval.glossary)
    out = []
    for q in found:
        if q.citation.file not in docs:
            docs[q.citation.file] = extract_file(root / q.citation.file, root, settings)
        problem = section_problem(docs[q.citation.file], q)
        if problem is not None:
            out.append(f"{item['id']} {q.citation.file} p{q.citation.page}: {problem}")
    return len(found), out


def main() -> int:
    """Parse arguments, check every quote of every found answer, print; 0 when all are right."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", type=Path, required=True, help="config.yaml of the evals' index")
    parser.add_argument("results", type=Path, nargs="+", help="JSON written by `policybot eval --json`")
    args = parser.parse_args()

    from core.config import load_config

    settings = load_config(args.config)
    docs: dict[str, Any] = {}
    total, wrong = 0, 0
    for path in args.results:
        for item in json.loads(path.read_text())["items"]:
            checked, problems = item_problems(item, settings, docs)
            total, wrong = total + checked, wrong + len(problems)
            print("\n".join(f"{path.stem} {p}" for p in problems), end="\n" if problems else "")
    print(f"quotes: {total}; section not the nearest heading above the quote: {wrong}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
