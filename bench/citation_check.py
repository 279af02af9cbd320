"""The citation check of ``tests/test_citations.py`` over an index built elsewhere (issue 11, item 9).

Runs the issue-11 eval (:func:`tests.conftest.run_qa_eval`: every ``qa_dev.yaml`` item, offline
reranker, extractive answerer) on the index of ``--config``'s ``data_dir`` — read only, nothing is
indexed or reconciled — and checks every quote of every found answer with
:func:`tests.citation_check.check_eval` (the cited page holds the quote, the cited section is a
heading of the document). Prints one line per wrong citation and the count of right checks; exits 1
when any check fails. The index must have been built from the same corpus (``../shared/corpus``)
with the same chunking code for the result to match the test's.

    PYTHONPATH=. .venv/bin/python bench/citation_check.py --config /tmp/some-index/config.yaml
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    """Parse arguments, run the eval and the check, print the result; 0 when every check is right."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", type=Path, required=True,
                        help="config.yaml of an existing whole-corpus index (its data_dir is read)")
    args = parser.parse_args()

    from core.config import load_config
    from policybot.factory import App
    from tests.citation_check import check_eval
    from tests.conftest import CORPUS, run_qa_eval

    settings = load_config(REPO / "config.yaml", data_dir=load_config(args.config).data_dir,
                           policy_root=CORPUS)
    settings = settings.model_copy(update={"rerank": settings.rerank.model_copy(update={"enabled": False})})
    app = App(settings)
    try:
        problems, checks = check_eval(run_qa_eval(app, settings), settings)
    finally:
        app.close()
    print("\n".join(problems))
    print(f"citation checks: {checks - len(problems)} of {checks} right")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
