"""The measuring processes of bench/scale.py (one per figure set, so RSS and caches are the process's own).

    python bench/scale_child.py serve|recall DATA_DIR CORPUS QUERIES_JSON

Prints one JSON line last.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.scale import GRID, pct, rss_mb, settings_for  # noqa: E402


def serve(data_dir: str, corpus: Path, questions: list[str]) -> dict[str, object]:
    """Retrieval p50/p95 through the shipped path, a 50-chunk file replaced until searchable, optimize,
    RSS."""
    from core.retrieval import HybridRetriever
    from core.scoping import DocumentScoper
    from policybot.factory import App

    settings = settings_for(data_dir, corpus)
    app = App(settings)  # type: ignore[arg-type]
    s = app.settings
    # document scoping (as shipped) builds its name catalog once, on the first (warm-up) question;
    # SCALE_SCOPER=0 measures retrieval without it
    scoper = DocumentScoper(app.store) if os.environ.get("SCALE_SCOPER", "1") == "1" else None
    retriever = HybridRetriever(app.store, app.embedder, s.retrieval, reranker=app.reranker, rerank=s.rerank,
                                scoper=scoper)
    for q in questions[:5]:  # warm-up: model load, index caches
        retriever.retrieve(q)
    stages: dict[str, list[float]] = {"embed": [], "retrieve": [], "rerank": [], "all": []}
    for q in questions:
        t0 = time.perf_counter()
        t = retriever.retrieve(q).timings_ms
        stages["all"].append((time.perf_counter() - t0) * 1e3)
        for k in ("embed", "retrieve", "rerank"):
            stages[k].append(t[k])
    out: dict[str, object] = {f"{k}_p50_ms": round(pct(v, .5), 1) for k, v in stages.items()}
    out |= {f"{k}_p95_ms": round(pct(v, .95), 1) for k, v in stages.items()}
    out["rss_mb"], out["rss_peak_mb"] = (round(x) for x in rss_mb())
    out |= replace_one_file(app)
    out["chunks"] = app.store.count_chunks()
    print(json.dumps(out), flush=True)  # before optimize, which can take as long as an index build
    t0 = time.perf_counter()
    app.store.optimize()
    out["optimize_s"] = round(time.perf_counter() - t0, 1)
    return out


def replace_one_file(app: object) -> dict[str, object]:
    """Replace the chunks of one 50-chunk file with new text; seconds until both legs find it."""
    from bench.scale_data import file_of
    from core.types import Chunk

    store, embedder = app.store, app.embedder  # type: ignore[attr-defined]
    path = file_of(123 * 50)
    marker = f"zq{uuid.uuid4().hex[:10]}"
    texts = [f"{marker} revised clause {i}: the reimbursement limit for item {i} is {100 + i} euros per "
             f"claim, subject to prior approval by the line manager." for i in range(50)]
    t0 = time.perf_counter()
    vectors = embedder.embed(texts)
    embed_s = time.perf_counter() - t0
    chunks = [Chunk(chunk_id=f"{path}#r{i}", path=path, text=t, page=i // 3 + 1, page_end=i // 3 + 1,
                    section="Revised", ordinal=i, text_hash=uuid.uuid4().hex) for i, t in enumerate(texts)]
    t0 = time.perf_counter()
    store.replace_chunks(path, chunks, vectors)
    commit_s = time.perf_counter() - t0
    while True:
        kw = [c.path for c, _ in store.keyword_search(marker, 5)]
        vec = [c.chunk_id for c, _ in store.vector_search(vectors[7], 5)]
        if path in kw and chunks[7].chunk_id in vec:
            break
        if time.perf_counter() - t0 > 120:
            raise SystemExit("the replaced file never became searchable")
    searchable_s = time.perf_counter() - t0
    left = store.chunk_counts()[path]
    return {"replace_embed_s": round(embed_s, 2), "replace_commit_s": round(commit_s, 2),
            "replace_searchable_s": round(searchable_s, 2), "replaced_file_chunks": left}


def recall(data_dir: str, corpus: Path, questions: list[str]) -> dict[str, object]:
    """recall@20 and p50/p95 of the vector leg for each GRID setting, against exact numpy search."""
    from core.embedder import make_embedder
    from core.store import Store

    settings = settings_for(data_dir, corpus)
    store = Store(data_dir)
    tbl = store._chunks()
    data = tbl.search().select(["chunk_id", "vector"]).limit(None).to_arrow()
    ids = np.asarray(data.column("chunk_id").to_pylist())
    dim = data.schema.field("vector").type.list_size
    matrix = data.column("vector").combine_chunks().flatten().to_numpy().reshape(-1, dim)
    qv = make_embedder(settings.embedding).embed(questions)  # type: ignore[attr-defined]
    exact = [set(ids[np.argpartition(-(matrix @ q), 20)[:20]]) for q in qv]
    del matrix
    out: dict[str, object] = {"queries": len(questions)}
    t0 = time.perf_counter()
    for q in qv[:3]:
        tbl.search(q.tolist()).distance_type("cosine").bypass_vector_index().limit(20).to_list()
    out["flat_ms"] = round((time.perf_counter() - t0) / 3 * 1e3)
    for nprobes, ef, refine in GRID:
        lat, hits = [], 0
        for q, truth in zip(qv, exact, strict=True):
            t0 = time.perf_counter()
            rows = (tbl.search(q.tolist()).distance_type("cosine").limit(20).nprobes(nprobes).ef(ef)
                    .refine_factor(refine).select(["chunk_id"]).to_list())
            lat.append((time.perf_counter() - t0) * 1e3)
            hits += len({r["chunk_id"] for r in rows} & truth)
        out[f"np{nprobes}_ef{ef}_rf{refine}"] = {
            "recall20": round(hits / (20 * len(qv)), 3), "p50_ms": round(pct(lat, .5), 1),
            "p95_ms": round(pct(lat, .95), 1)}
    return out


if __name__ == "__main__":
    kind, data_dir, corpus, qfile = sys.argv[1:5]
    qs = json.loads(Path(qfile).read_text())
    result = (serve if kind == "serve" else recall)(data_dir, Path(corpus), qs)
    print(json.dumps(result))
