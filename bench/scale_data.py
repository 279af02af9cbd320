"""The 1M-chunk dataset of bench/scale.py: policy-like chunks with MiniLM-like vectors.

How it is made (deterministic for a seed, so the local and the S3 copies hold the same rows):

1. **Real chunks.** ``../shared/corpus`` is indexed once with the shipped config (real MiniLM) into
   ``WORK/corpus``; its chunk texts give a sentence pool and a vocabulary (policy language: premiums,
   claims, leave, travel, exclusions, ...).
2. **Real sample**: the corpus's own chunks (≈3,000 real texts with their real MiniLM vectors) plus
   ``--real`` (default 2,000) texts of 3–7 pool sentences embedded with the real model (cached in
   ``WORK/real_N.npz``).
3. **Perturbed copies** (the rest): row *i* blends two sample rows *a*, *b*: vector
   ``normalise((1−t)·v_a + t·v_b + N(0, σ²I))`` with ``t ~ U(0, 0.4)`` and σ = :data:`SIGMA` (cosine to
   ``v_a`` ≈ 0.85–0.95, so neighbourhoods are dense but not duplicates); text = ``1−t`` of a's sentences and
   ``t`` of b's, with :data:`SUBSTITUTE` of the words replaced by pool vocabulary and numbers redrawn,
   so BM25 sees realistic term statistics rather than repeated documents.

Rows are grouped 50 per file (``synthetic/deptNN/policy_NNNNN.pdf``), like a 17-page policy.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa

SIGMA = 0.02
"""Per-dimension noise of a perturbed copy (‖noise‖ ≈ σ·√384 ≈ 0.39)."""
SUBSTITUTE = 0.10
"""Share of a copy's words replaced by random pool vocabulary."""
CHUNKS_PER_FILE = 50
BATCH = 50_000
_SENT = re.compile(r"(?<=[.!?;:])\s+")
_NUM = re.compile(r"\d+")


def corpus_rows(work: Path, corpus: Path, repo: Path) -> tuple[list[str], np.ndarray]:
    """Texts and real MiniLM vectors of the corpus's chunks (indexed once into ``work/corpus``)."""
    from core.config import load_config
    from core.store import Store
    from policybot.factory import App

    data = work / "corpus"
    if not (data / "lancedb").is_dir():
        t0 = time.perf_counter()
        app = App(load_config(repo / "config.yaml", data_dir=data, policy_root=corpus))
        app.indexer.reconcile(corpus)
        app.close()
        print(f"indexed {corpus} for the sentence pool in {time.perf_counter() - t0:.0f} s")
    rows = Store(data).chunk_rows(columns=["text", "vector"])
    return [r["text"] for r in rows], np.asarray([r["vector"] for r in rows], dtype=np.float32)


def sentence_pool(texts: list[str]) -> tuple[list[str], list[str]]:
    """(sentences of 40–400 characters, vocabulary of words ≥ 4 letters) from ``texts``."""
    pieces = (s.strip() for t in texts for s in _SENT.split(t.replace("\n", " ")))
    sents = [s for s in pieces if 40 <= len(s) <= 400]
    vocab = sorted({w for s in sents for w in re.findall(r"[A-Za-z]{4,}", s)})
    return sents, vocab


def real_sample(work: Path, sents: list[str], n: int, embedder: object, seed: int = 7
                ) -> tuple[list[str], np.ndarray]:
    """``n`` recombined texts and their real vectors (cached in ``work/real.npz``)."""
    cache = work / f"real_{n}.npz"
    if cache.exists():
        z = np.load(cache, allow_pickle=False)
        return [str(t) for t in z["texts"]], z["vectors"]
    rng = np.random.default_rng(seed)
    texts = [" ".join(sents[j] for j in rng.integers(0, len(sents), rng.integers(3, 8))) for _ in range(n)]
    t0 = time.perf_counter()
    vecs = np.concatenate([embedder.embed(texts[i:i + 512]) for i in range(0, n, 512)])  # type: ignore[attr-defined]
    print(f"embedded the real sample ({n} texts) in {time.perf_counter() - t0:.0f} s")
    np.savez(cache, texts=np.asarray(texts), vectors=vecs.astype(np.float32))
    return texts, vecs.astype(np.float32)


def _perturb(text: str, vocab: list[str], rng: np.random.Generator) -> str:
    words = text.split(" ")
    for i in np.flatnonzero(rng.random(len(words)) < SUBSTITUTE):
        words[i] = vocab[int(rng.integers(0, len(vocab)))]
    return _NUM.sub(lambda m: str(int(rng.integers(1, 10 ** len(m.group())))), " ".join(words))


def batches(total: int, texts: list[str], vecs: np.ndarray, vocab: list[str], dim: int,
            seed: int = 11) -> Iterator[pa.Table]:
    """The dataset as chunks-table batches of :data:`BATCH` rows (rows 0..len(texts)-1 are the real
    sample itself; the rest are perturbed copies)."""
    from core.store import chunks_schema

    schema = chunks_schema(dim)
    split = [_SENT.split(t) for t in texts]
    for start in range(0, total, BATCH):
        rng = np.random.default_rng(seed + start)
        n = min(BATCH, total - start)
        idx = np.arange(start, start + n)
        a, b = idx % len(texts), rng.integers(0, len(texts), n)
        t = np.where(idx < len(texts), 0.0, rng.uniform(0.0, 0.4, n)).astype(np.float32)
        noise = np.where((idx < len(texts))[:, None], 0.0, rng.normal(0.0, SIGMA, (n, dim)))
        v = (1 - t)[:, None] * vecs[a] + t[:, None] * vecs[b] + noise
        v = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
        out_texts = []
        for i, ai, bi, ti in zip(idx, a, b, t, strict=True):
            if i < len(texts):
                out_texts.append(texts[ai])
                continue
            sa, sb = split[ai], split[bi]
            keep = sa[: max(1, round(len(sa) * (1 - ti)))] + sb[: round(len(sb) * ti)]
            out_texts.append(_perturb(" ".join(keep), vocab, rng))
        yield pa.table({
            "chunk_id": [f"s{i:07d}" for i in idx], "path": [file_of(int(i)) for i in idx],
            "page": pa.array((idx % CHUNKS_PER_FILE) // 3 + 1, pa.int32()),
            "page_end": pa.array((idx % CHUNKS_PER_FILE) // 3 + 1, pa.int32()),
            "section": [f"Section {(i % CHUNKS_PER_FILE) // 5 + 1}" for i in idx],
            "ordinal": pa.array(idx % CHUNKS_PER_FILE, pa.int32()), "text": out_texts,
            "text_hash": [hashlib.sha256(x.encode()).hexdigest() for x in out_texts],
            "vector": pa.FixedSizeListArray.from_arrays(pa.array(v.reshape(-1)), dim),
            # the columns of chunk schema versions 6-8 and of core/store_replace (no title/section
            # context: the BM25 index covers the text alone, as in the tables built before them)
            "context": [""] * n, "indexed_text": out_texts,
            "page_breaks": pa.nulls(n, schema.field("page_breaks").type),
            "retired": pa.nulls(n, pa.bool_()),
        }, schema=schema)


def file_of(row: int) -> str:
    """The synthetic file holding chunk ``row``."""
    f = row // CHUNKS_PER_FILE
    return f"synthetic/dept{f % 40:02d}/policy_{f:05d}.pdf"
