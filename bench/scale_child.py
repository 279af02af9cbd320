"""The measuring processes of bench/scale.py (one per figure set, so RSS and caches are the process's own).

    python bench/scale_child.py serve|recall|replace DATA_DIR CORPUS QUERIES_JSON

Every figure is printed as one JSON line (with the 1-minute load average) as soon as it is measured,
flushed, so a run stopped half way still leaves what it measured; the last line is all figures as one
JSON object.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.scale import grid, pct, rss_mb, settings_for  # noqa: E402

K = 20
"""recall@K of the Done-when (issue 13): the vector leg's top 20 against exact search."""


def emit(out: dict[str, object], key: str, value: object) -> None:
    """Record ``key`` in ``out`` and print it at once with the current 1-minute load average."""
    out[key] = value
    print(json.dumps({key: value, "load1": round(os.getloadavg()[0], 1)}), flush=True)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """``(fn(), milliseconds)``."""
    t0 = time.perf_counter()
    result = fn()
    return result, (time.perf_counter() - t0) * 1e3


def p50_p95(values: list[float]) -> dict[str, float]:
    """Nearest-rank p50 and p95 of ``values`` (ms), rounded to 0.1."""
    return {"p50_ms": round(pct(values, .5), 1), "p95_ms": round(pct(values, .95), 1)}


# ---- serve ------------------------------------------------------------------------------------------
def serve(data_dir: str, corpus: Path, questions: list[str]) -> dict[str, object]:
    """The serving process: the shipped retrieval path over ``questions`` (p50/p95 of the whole path
    and of its stages, CPU seconds per question), both legs run one after the other and concurrently
    (a ratio in one run), each leg alone, RSS, a 50-chunk file replaced until searchable, optimize.

    On local disk it works on a shallow clone of the tables (``WORK/serve-clone``, deleted afterwards:
    the replacement and the indexes the shipped ``ensure_indexes`` adds — the BTREE on ``path`` — land
    in the clone, never in the built dataset)."""
    import shutil

    from bench.scale_replace import clone_tables

    clone = None if "://" in data_dir else clone_tables(Path(data_dir), "serve-clone")
    try:
        return _serve(str(clone or data_dir), corpus, questions)
    finally:
        if clone is not None:
            shutil.rmtree(clone, ignore_errors=True)


def _serve(data_dir: str, corpus: Path, questions: list[str]) -> dict[str, object]:
    from core.retrieval import HybridRetriever
    from core.scoping import DocumentScoper
    from policybot.factory import App

    out: dict[str, object] = {}
    t0 = time.perf_counter()
    app = App(settings_for(data_dir, corpus))  # type: ignore[arg-type]
    s = app.settings
    created, ms = timed(app.store.ensure_indexes)  # what the indexer role does at the ANN threshold
    emit(out, "indexes_created", {"names": created, "seconds": round(ms / 1e3, 1)})
    prewarmed, ms = timed(app.store.prewarm)  # what App.warm_up does in a serving process
    emit(out, "indexes_prewarmed", {"names": prewarmed, "seconds": round(ms / 1e3, 1)})
    # document scoping (as shipped) builds its name catalog once, on the first (warm-up) question;
    # SCALE_SCOPER=0 measures retrieval without it
    scoper = DocumentScoper(app.store) if os.environ.get("SCALE_SCOPER", "1") == "1" else None
    retriever = HybridRetriever(app.store, app.embedder, s.retrieval, reranker=app.reranker, rerank=s.rerank,
                                scoper=scoper)
    emit(out, "chunks", app.store.count_chunks())
    for q in questions[:5]:  # warm-up: model load, index caches, the scoping catalog
        retriever.retrieve(q)
    emit(out, "open_and_warmup_s", round(time.perf_counter() - t0, 1))
    emit(out, "ann", {"nprobes": s.index.ann_nprobes, "ef": s.index.ann_ef,
                      "refine_factor": s.index.ann_refine_factor, "candidates": s.retrieval.candidates,
                      "query_threads": s.embedding.query_threads})
    retrieval_stages(out, retriever, questions)
    legs(out, app, questions)
    current, peak = rss_mb()
    emit(out, "rss_mb", {"current": round(current), "peak": round(peak)})
    retriever.close()
    replace_one_file(out, app)
    stats, ms = timed(app.store.optimize)
    emit(out, "optimize", {"seconds": round(ms / 1e3, 1), "reindexed": stats.get("reindexed")})
    return out


def retrieval_stages(out: dict[str, object], retriever: Any, questions: list[str]) -> None:
    """p50/p95 of ``retrieve`` (embed + both legs + fusion + offline rerank) and of each stage
    (``scope_other``: the rest of the path — glossary, document scoping, the allowed paths), and the
    process's CPU seconds per question (less load-dependent than wall time on a shared host)."""
    stages: dict[str, list[float]] = {"embed": [], "retrieve": [], "rerank": [], "all": [], "other": []}
    cpu0 = time.process_time()
    for i, q in enumerate(questions, 1):
        result, ms = timed(lambda q=q: retriever.retrieve(q))
        stages["all"].append(ms)
        for k in ("embed", "retrieve", "rerank"):
            stages[k].append(result.timings_ms[k])
        stages["other"].append(ms - sum(result.timings_ms[k] for k in ("embed", "retrieve", "rerank")))
        if i % 50 == 0:
            print(json.dumps({"progress": f"{i}/{len(questions)} questions",
                              "all_p95_ms_so_far": round(pct(stages["all"], .95), 1),
                              "load1": round(os.getloadavg()[0], 1)}), flush=True)
    emit(out, "cpu_ms_per_question", round((time.process_time() - cpu0) / len(questions) * 1e3, 1))
    names = {"all": "retrieval_full", "embed": "embed", "retrieve": "retrieval_hybrid_legs_fusion",
             "rerank": "rerank", "other": "scope_other"}
    for key, name in names.items():
        emit(out, name, p50_p95(stages[key]))


def legs(out: dict[str, object], app: Any, questions: list[str]) -> None:
    """Each leg alone as the retriever calls it (``retrieval.candidates`` rows, shipped ANN settings):
    the vector leg over pre-embedded questions, the BM25 leg over their keywords; then both legs one
    after the other and concurrently on two threads, alternating per question (ratio in one run)."""
    from concurrent.futures import ThreadPoolExecutor

    from core.text import tokenize

    store, n = app.store, app.settings.retrieval.candidates
    vectors = app.embedder.embed(questions)
    keywords = [" ".join(tokenize(q)) for q in questions]
    vec = [timed(lambda v=v: store.vector_search(v, n))[1] for v in vectors]
    emit(out, "vector_leg", p50_p95(vec))
    kw = [timed(lambda q=q: store.keyword_search(q, n))[1] for q in keywords]
    emit(out, "keyword_leg", p50_p95(kw))
    both: dict[str, list[float]] = {"sequential": [], "concurrent": []}
    with ThreadPoolExecutor(2) as pool:
        for v, q in zip(vectors, keywords, strict=True):
            both["sequential"].append(timed(lambda v=v, q=q: (store.vector_search(v, n),
                                                              store.keyword_search(q, n)))[1])
            both["concurrent"].append(timed(lambda v=v, q=q: [f.result() for f in (
                pool.submit(store.vector_search, v, n), pool.submit(store.keyword_search, q, n))])[1])
    for name, values in both.items():
        emit(out, f"both_legs_{name}", p50_p95(values))
    emit(out, "both_legs_concurrent_over_sequential_p50",
         round(pct(both["concurrent"], .5) / pct(both["sequential"], .5), 2))


def replace_one_file(out: dict[str, object], app: Any) -> None:
    """Replace the chunks of one 50-chunk file with new text (``Store.replace_chunks``, as the indexer
    does) and poll until both legs find the new text and the old chunks are gone: seconds from the
    start of the commit (and, separately, the embedding of the 50 new chunks)."""
    from bench.scale_data import file_of
    from core.types import Chunk

    store, embedder = app.store, app.embedder
    path = file_of(123 * 50)
    marker = f"zq{uuid.uuid4().hex[:10]}"
    texts = [f"{marker} revised clause {i}: the reimbursement limit for item {i} is {100 + i} euros per "
             f"claim, subject to prior approval by the line manager." for i in range(50)]
    vectors, embed_ms = timed(lambda: embedder.embed(texts))
    chunks = [Chunk(chunk_id=f"{path}#{marker}-{i}", path=path, text=t, page=i // 3 + 1, page_end=i // 3 + 1,
                    section="Revised", ordinal=i, text_hash=uuid.uuid4().hex) for i, t in enumerate(texts)]
    t0 = time.perf_counter()
    replace_chunks(out, store, path, chunks, vectors)
    commit_s = time.perf_counter() - t0
    while not _searchable(store, path, marker, chunks[7].chunk_id, vectors[7]):
        if time.perf_counter() - t0 > 120:
            raise SystemExit("the replaced file never became searchable")
    searchable_s = time.perf_counter() - t0
    emit(out, "replace_50_chunks", {
        "commit_s": round(commit_s, 2), "searchable_s": round(searchable_s, 2),
        "embed_s": round(embed_ms / 1e3, 2), "with_embedding_s": round(searchable_s + embed_ms / 1e3, 2),
        "file_chunks_after": store.chunk_counts()[path]})


def replace_chunks(out: dict[str, object], store: Any, path: str, chunks: list[Any],
                   vectors: np.ndarray) -> None:
    """``Store.replace_chunks``; on a table written before the current chunk schema (the 1M dataset was
    built before schema versions 6–8 added ``context``/``indexed_text``/``page_breaks``, and a real
    index would be shadow-rebuilt), ``Store.replace_rows`` — the same two commits — with the rows cut to
    the table's columns. Either adds the all-null ``retired`` column to a table that lacks it (once,
    in place: a metadata-only change, core/store_replace.py)."""
    import pyarrow as pa

    from core.store_replace import RETIRED
    from core.store_schema import chunk_row, chunks_schema

    tbl = store._chunks()
    schema = chunks_schema(int(vectors.shape[1]))
    if set(tbl.schema.names) | {RETIRED} >= set(schema.names):
        store.replace_chunks(path, chunks, vectors)
        return
    if "note" not in out:
        emit(out, "note", "table predates the current chunk schema: replacement cut to the table's columns")
    rows = [chunk_row(c, v) for c, v in zip(chunks, vectors, strict=True)]
    keep = [n for n in schema.names if n in tbl.schema.names or n == RETIRED]
    store.replace_rows([path], pa.Table.from_pylist(rows, schema=schema).select(keep))


def _searchable(store: Any, path: str, marker: str, chunk_id: str, vector: np.ndarray) -> bool:
    kw = [c.chunk_id for c, _ in store.keyword_search(marker, 60)]
    vec = [c.chunk_id for c, _ in store.vector_search(vector, 5)]
    return chunk_id in vec and len(kw) == 50 and all(marker in c for c in kw)


# ---- recall -----------------------------------------------------------------------------------------
def recall(data_dir: str, corpus: Path, questions: list[str]) -> dict[str, object]:
    """recall@20 of the vector leg against exact search (numpy over every stored vector): first with
    the shipped ``index.ann_*`` settings through ``Store.vector_search``, then for each sweep setting;
    with the vector search's p50/p95 for each."""
    from core.embedder import make_embedder
    from core.store import Store

    settings = settings_for(data_dir, corpus)
    out: dict[str, object] = {"queries": len(questions)}
    store = Store(data_dir, settings.keyword, settings.index)  # type: ignore[attr-defined]
    qv = make_embedder(settings.embedding).embed(questions)  # type: ignore[attr-defined]
    exact, ms = timed(lambda: exact_top(store, qv))
    emit(out, "exact_search_all_queries_s", round(ms / 1e3, 1))
    ix = settings.index  # type: ignore[attr-defined]
    shipped = sweep_point(lambda q: [c.chunk_id for c, _ in store.vector_search(q, K)], qv, exact)
    emit(out, "shipped", {"nprobes": ix.ann_nprobes, "ef": ix.ann_ef, "refine_factor": ix.ann_refine_factor,
                          **shipped})
    tbl = store._chunks()
    flat = [timed(lambda q=q: tbl.search(q.tolist()).distance_type("cosine").bypass_vector_index()
                  .limit(K).to_list())[1] for q in qv[:3]]
    emit(out, "flat_ms", round(float(np.mean(flat))))
    for nprobes, ef, refine in grid():
        def search(q: np.ndarray, nprobes: int = nprobes, ef: int = ef, refine: int = refine) -> list[str]:
            rows = (tbl.search(q.tolist()).distance_type("cosine").limit(K).nprobes(nprobes).ef(ef)
                    .refine_factor(refine).select(["chunk_id"]).to_list())
            return [r["chunk_id"] for r in rows]
        emit(out, f"np{nprobes}_ef{ef}_rf{refine}", sweep_point(search, qv, exact))
    return out


def exact_top(store: Any, qv: np.ndarray) -> list[set[str]]:
    """The exact top-K chunk ids per question (cosine = dot product: every stored vector is unit length)."""
    data = store._chunks().search().select(["chunk_id", "vector"]).limit(None).to_arrow()
    ids = np.asarray(data.column("chunk_id").to_pylist())
    dim = data.schema.field("vector").type.list_size
    matrix = data.column("vector").combine_chunks().flatten().to_numpy().reshape(-1, dim)
    return [set(ids[np.argpartition(-(matrix @ q), K)[:K]]) for q in qv]


def sweep_point(search: Callable[[np.ndarray], list[str]], qv: np.ndarray,
                exact: list[set[str]]) -> dict[str, float]:
    """recall@K and p50/p95 (ms) of ``search`` over the questions."""
    lat, hits = [], 0
    for q, truth in zip(qv, exact, strict=True):
        found, ms = timed(lambda q=q: search(q))
        lat.append(ms)
        hits += len(set(found) & truth)
    return {"recall20": round(hits / (K * len(qv)), 3), **p50_p95(lat)}


if __name__ == "__main__":
    kind, data_dir, corpus, qfile = sys.argv[1:5]
    qs = json.loads(Path(qfile).read_text())
    from bench.scale_replace import replace

    result = {"serve": serve, "recall": recall, "replace": replace}[kind](data_dir, Path(corpus), qs)
    print(json.dumps(result), flush=True)
