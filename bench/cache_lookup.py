"""Benchmark: verified-answer cache lookup latency with 10,000 cached entries.

Builds a real LanceDB store in a temp dir: a chunks table (the cited chunks, for guard (c)) and an
``answer_cache`` table of N active entries whose questions come from templates (products × plans ×
topics × numbers, so many neighbours are near-misses the guards must reject). Then times
``AnswerCache.lookup`` for hits (exact and reworded cached questions: similarity + guards + chunk-hash
check + times-served update) and misses, with the question vector passed in (the answer service
embeds once for cache and retrieval) and, separately, the embedding itself. Also compares the
in-memory matrix search with LanceDB's own (flat) vector search on the same table, as a ratio.

Usage: ``python bench/cache_lookup.py [--entries 10000] [--queries 300] [--real]``
(``--real`` embeds with all-MiniLM-L6-v2 instead of the FakeEmbedder; slower to set up).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.cache import AnswerCache, CacheEntry, CacheTable, Miss, store_chunk_hashes, store_chunks_version
from core.cache.types import answer_key
from core.config import CacheSettings, EmbeddingSettings
from core.embedder import Embedder, FakeEmbedder, make_embedder
from core.store import Store
from core.types import Chunk, Citation

PRODUCTS = ["National Parivar Mediclaim Plus", "Arogya Sanjeevani", "Family Medicare", "Golden Shield",
            "Easy Health", "Global Health Care", "Northwind Health Plus", "Northwind Standard"]
PLANS = ["Plan A", "Plan B", "Plan C", "the Imperial Plan", "the Imperial Plus Plan"]
TOPICS = ["the waiting period for cataract surgery", "the room rent limit per day", "the ICU limit",
          "the grace period for premium payment", "the co-payment", "the ambulance cover",
          "the maternity benefit", "the health check-up benefit", "the no claim discount",
          "the cover for organ donors", "the AYUSH cover", "the hospital cash per day",
          "the pre-hospitalisation cover", "the post-hospitalisation cover", "the cover for dental treatment",
          "the limit for modern treatments", "the day care cover", "the cumulative bonus"]
FORMS = ["What is {t} under {p} of {d}?", "Under {p} of {d}, is {t} covered after {n} days?",
         "How much is {t} for {p} in {d} if I am {n}?", "Does {d} {p} pay {t} within {n} days?",
         "For {d}, what does {p} say about {t} after {n} months?"]
CHUNKS = 400


def questions(n: int) -> list[str]:
    """``n`` distinct template questions."""
    combos = itertools.product(FORMS, TOPICS, PLANS, PRODUCTS, (30, 60, 90, 24, 36, 48))
    out = [f.format(t=t, p=p, d=d, n=k) for f, t, p, d, k in combos]
    random.Random(7).shuffle(out)
    return list(dict.fromkeys(out))[:n]


def build(tmp: Path, embedder: Embedder, n: int) -> tuple[Store, CacheTable, list[str]]:
    """A store with CHUNKS chunks and ``n`` active cache entries citing them."""
    store = Store(tmp / "data")
    texts = [f"Clause {i}: benefit text number {i}." for i in range(CHUNKS)]
    chunks = [Chunk(hashlib.sha256(t.encode()).hexdigest()[:32], "insurance/p.pdf", t, 1, 1, "", i,
                    hashlib.sha256(t.encode()).hexdigest()) for i, t in enumerate(texts)]
    store.replace_chunks("insurance/p.pdf", chunks, np.eye(CHUNKS, embedder.dimension, dtype=np.float32))
    qs = questions(n)
    vectors = embedder.embed(qs)
    table = CacheTable(store.db, embedder.dimension)
    now = time.time()
    entries = []
    for i, (q, v) in enumerate(zip(qs, vectors, strict=True)):
        cites = [Citation(c.path, c.page, c.section, 0.9, c.chunk_id, c.text_hash)
                 for c in (chunks[i % CHUNKS], chunks[(i * 7 + 3) % CHUNKS])]
        entries.append(CacheEntry(f"e{i}", q, v, f"Answer {i}.", answer_key(f"Answer {i}."), cites,
                                  "**", "fp", "extractive", {"U1": "up"}, "active", "", now, now, now))
    for i in range(0, len(entries), 2000):
        table.put(entries[i:i + 2000])
    return store, table, qs


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    """Milliseconds of ``repeat`` calls."""
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def time_lookups(cache: AnswerCache, qs: Sequence[str], vecs: np.ndarray) -> list[float]:
    """Milliseconds of one lookup per question, vector given."""
    out = []
    for q, v in zip(qs, vecs, strict=True):
        t0 = time.perf_counter()
        cache.lookup(q, vector=v)
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def pct(xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``xs``."""
    return float(np.quantile(np.asarray(xs), q))


def run(entries: int, queries: int, real: bool) -> None:
    """Build, time, print a markdown table."""
    embedder: Embedder = make_embedder(EmbeddingSettings()) if real else FakeEmbedder(dimension=384)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store, table, qs = build(Path(tmp), embedder, entries)
        setup_s = time.perf_counter() - t0
        cache = AnswerCache(table, embedder, CacheSettings(similarity_threshold=0.9), fingerprint="fp",
                            chunk_hashes=store_chunk_hashes(store),
                            chunks_version=store_chunks_version(store))
        t0 = time.perf_counter()
        cache.lookup("warm up")  # first call loads the mirror (as after a restart)
        load_ms = (time.perf_counter() - t0) * 1e3
        rng = random.Random(3)
        hit_qs = rng.sample(qs, queries)
        miss_qs = [f"Can I bring my pet {i} to the office on Friday?" for i in range(queries)]
        hit_vecs, miss_vecs = embedder.embed(hit_qs), embedder.embed(miss_qs)
        hits = time_lookups(cache, hit_qs, hit_vecs)
        results = [cache.lookup(q, vector=v) for q, v in zip(hit_qs[:50], hit_vecs[:50], strict=True)]
        served = sum(not isinstance(r, Miss) for r in results)
        misses = time_lookups(cache, miss_qs, miss_vecs)
        embed_ms = timed(lambda: embedder.embed([rng.choice(hit_qs)]), min(queries, 100))
        ids, matrix = table.active_matrix("fp")
        tbl: Any = store.db.open_table("answer_cache")
        vec = hit_vecs[0]
        mem = timed(lambda: np.argpartition(-np.einsum("ij,j->i", matrix, vec), 5)[:5], 200)
        blas = timed(lambda: np.argpartition(-(matrix @ vec), 5)[:5], 200)
        lance = timed(lambda: tbl.search(vec.tolist()).distance_type("cosine").where("status = 'active'")
                      .limit(5).to_list(), 50)
    both = hits + misses
    print(f"## Verified-answer cache\n\nentries={entries} queries={queries}×2 embedder={embedder.model_id} "
          f"setup={setup_s:.1f}s served={served}/50 exact-question hits\n")
    print("| measure | p50 ms | p95 ms |\n|---|---|---|")
    for name, xs in (("lookup, hit (vector given)", hits), ("lookup, miss (vector given)", misses),
                     ("lookup, all (vector given)", both), ("question embedding", embed_ms),
                     ("nearest search: in-memory matrix, einsum (used)", mem),
                     ("nearest search: in-memory matrix, BLAS matmul", blas),
                     ("nearest search: LanceDB flat", lance)):
        print(f"| {name} | {statistics.median(xs):.2f} | {pct(xs, 0.95):.2f} |")
    print(f"| mirror load after restart (once) | {load_ms:.0f} | – |")
    med = statistics.median
    print(f"\np50 ratios vs einsum search: BLAS matmul {med(blas) / med(mem):.1f}×, "
          f"LanceDB flat {med(lance) / med(mem):.1f}×")


def main() -> None:
    """Parse arguments and run."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--real", action="store_true", help="embed with all-MiniLM-L6-v2")
    args = ap.parse_args()
    run(args.entries, args.queries, args.real)


if __name__ == "__main__":
    main()
