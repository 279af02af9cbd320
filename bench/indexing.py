"""Incremental-indexing benchmarks (issue 3); figures recorded in docs/benchmarks.md, "Indexing".

    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/indexing.py [--part a|b|c|d ...] [--quick] [--fake]
        [--bulk-setup]

(a) cold indexing of ../shared/corpus through the Indexer (isolated extraction worker, real MiniLM
    embedder): pages/s, and the pipeline's chunk throughput as a ratio of raw embedding throughput on
    the same chunk texts in the same run (goal ≥ 0.8; raw = the faster of :data:`RAW_REPEATS` passes
    embedding all texts in one call, after the pipeline);
(b) a no-op reconcile of 10,000 small Markdown files (first indexed through the Indexer with the fake
    embedder, 1,000 per reconcile with a compaction after each, as the scheduled job would; the timed
    part is the following reconcile: scan, stat, drift check) (goal ≤ 5 s);
(c) one changed 25-page PDF in a 100k-chunk index (seed chunks with random vectors of the real
    dimension written through ``Store.replace_chunks`` in 1,000-chunk batches, then compacted and
    indexed: BM25 + ANN): seconds from the file closing to its new text being found by keyword
    search, and the embedding part of it (goal ≤ 5 s plus embedding);
(d) a one-paragraph edit in a 100-page PDF: chunks re-embedded (goal ≤ 3), counted both by
    ``IndexSummary.chunks_embedded`` and by the texts the embedder received.

``--quick``: small sizes (1,000 files, 10k chunks) and the fake embedder, to check the plumbing.
``--fake``: the fake embedder at full sizes (not for the record). ``--bulk-setup``: (b) writes the rows
the Indexer would write in one commit per table instead of indexing 10,000 files one by one (~45 min
on a loaded 2-core host); the timed reconcile is the same.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path


def main() -> None:
    from indexing_parts import FULL, PARTS, QUICK, part_b  # heavy: see indexing_parts

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--part", action="append", choices=sorted(PARTS),
                    help="run only this part (repeatable; default: b, d, c, then a)")
    ap.add_argument("--quick", action="store_true", help="small sizes and the fake embedder (plumbing)")
    ap.add_argument("--fake", action="store_true", help="fake embedder at full sizes (not for the record)")
    ap.add_argument("--bulk-setup", action="store_true",
                    help="(b): write the Indexer's rows in one commit per table instead of indexing file by "
                         "file (same tables; ~3 commits per file take ~0.2-0.4 s on a loaded 2-core host)")
    args = ap.parse_args()
    sizes = QUICK if args.quick else FULL
    tmp = Path(tempfile.mkdtemp(prefix="bench_indexing_"))
    try:
        for part in args.part or ["b", "d", "c", "a"]:
            if part == "b":
                part_b(tmp, sizes, True, bulk=args.bulk_setup)
            else:
                PARTS[part](tmp, sizes, args.fake or args.quick)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
