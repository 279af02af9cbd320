"""Extraction CPU per file, two code trees compared in one run: the files of ../shared/corpus are
extracted by each tree in turn (A B A B ..., ``--rounds`` times, each in a fresh subprocess whose
``PYTHONPATH`` is that tree), and the CPU seconds per file are summed: the process's own
(``time.process_time``) and, separately, its children's (tesseract and antiword run as subprocesses;
``resource.getrusage(RUSAGE_CHILDREN)``).

    git archive <old commit> | tar -x -C /tmp/base       # the "before" tree
    .venv/bin/python bench/extraction_ab.py --base /tmp/base [--rounds 2]

Prints per file the median own CPU of each tree and the ratio new/base, then the totals (own, children)
and their ratios. CPU time, not wall time: the ratio holds on a loaded machine better than wall time,
but the host's load still shifts it by a few per cent (say so when quoting it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
CHILD = """
import json, resource, sys, time, warnings
from pathlib import Path
warnings.simplefilter("ignore")
from core.config import Settings
from core.errors import ExtractionError
from indexer.extract import extract_file
from indexer.patterns import is_indexable
corpus, settings, out = Path(sys.argv[1]), Settings(), {}
for path in sorted(p for p in corpus.rglob("*") if p.is_file()):
    rel = path.relative_to(corpus).as_posix()
    if not is_indexable(rel, settings):
        continue
    t0, c0 = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        extract_file(path, corpus, settings)
    except ExtractionError:
        pass
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out[rel] = [time.process_time() - t0, (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)]
print(json.dumps(out))
"""


def run(tree: Path) -> dict[str, list[float]]:
    """Per file [own CPU s, children CPU s] when ``tree``'s code extracts the corpus."""
    env = {**os.environ, "PYTHONPATH": str(tree), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(CORPUS)], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    result: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    """Alternate the two trees, print per-file medians and total ratios."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", type=Path, required=True, help="the 'before' code tree")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    runs: dict[str, list[dict[str, list[float]]]] = {"base": [], "new": []}
    for _ in range(args.rounds):
        runs["base"].append(run(args.base.resolve()))
        runs["new"].append(run(REPO))
    files = sorted(set(runs["base"][0]) | set(runs["new"][0]))
    totals = {k: [0.0, 0.0] for k in runs}
    print(f"{'file':58s} {'base s':>7s} {'new s':>7s} {'ratio':>6s}")
    for rel in files:
        med = {k: [statistics.median(r.get(rel, [0.0, 0.0])[i] for r in runs[k]) for i in (0, 1)]
               for k in runs}
        for k in runs:
            totals[k] = [totals[k][i] + med[k][i] for i in (0, 1)]
        ratio = med["new"][0] / med["base"][0] if med["base"][0] > 0.01 else float("nan")
        print(f"{rel[:58]:58s} {med['base'][0]:7.2f} {med['new'][0]:7.2f} {ratio:6.2f}")
    for i, name in ((0, "own CPU"), (1, "children CPU (tesseract, antiword)")):
        b, n = totals["base"][i], totals["new"][i]
        print(f"total {name}: base {b:.1f} s, new {n:.1f} s, new/base {n / b if b else float('nan'):.3f}")


if __name__ == "__main__":
    main()
