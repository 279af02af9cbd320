"""Reranker cost on real policy text, in one run: embedding the 20 whole passages once (the same
word-piece load as one MiniLM-L6 cross-encoder pass over 20 (question, passage) pairs, whose weights
cannot be fetched here); the former offline reranker's work (embedding every sentence / table row of
the 20 candidates at query time, cold cache); and the feature-based offline reranker with the
stored-embedding cosines retrieval hands it (no model call but the question) and without them.

Run: ``HF_HUB_OFFLINE=1 .venv/bin/python bench/rerank.py [--candidates 20] [--repeat 3]``.
Candidates are consecutive ~230-token windows of ``../shared/corpus/policy.pdf`` (pypdf text).
Prints medians in ms and the ratios within this run; the machine is shared, so compare ratios.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from core.config import EmbeddingSettings
from core.embedder import make_embedder
from core.rerank.offline import OfflineReranker, sentences
from core.types import Chunk, ScoredChunk

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
QUESTIONS = ["What is the grace period for premium payment?",
             "Are there any sub-limits on room rent and ICU charges for Plan A?",
             "What is the waiting period for cataract surgery?"]


def candidates(n: int, words_per_chunk: int = 170) -> list[ScoredChunk]:
    """``n`` chunks of policy.pdf text (~170 words ≈ 230 word pieces each)."""
    from pypdf import PdfReader

    words = " ".join(p.extract_text() or "" for p in PdfReader(CORPUS / "policy.pdf").pages).split()
    out = []
    for i in range(n):
        text = " ".join(words[i * words_per_chunk:(i + 1) * words_per_chunk]).replace(". ", ".\n")
        h = hashlib.sha256(text.encode()).hexdigest()
        chunk = Chunk(f"c{i}", "policy.pdf", text, i + 1, i + 1, "", i, h)
        out.append(ScoredChunk(chunk, 1.0 / (i + 1)))
    return out


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn()`` in ms over ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(runs)


def main() -> None:
    """Print cold / warm offline rerank and whole-passage embedding times, and their ratios."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--candidates", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    emb = make_embedder(EmbeddingSettings())
    pool = candidates(args.candidates)
    emb.embed(["warm up"])
    texts = [c.chunk.text for c in pool]
    vectors = emb.embed(texts)
    passages = timed(lambda: emb.embed(texts), args.repeat)
    units = [u for t in texts for u in sentences(t)]
    maxsim = timed(lambda: emb.embed([QUESTIONS[0], *units]), args.repeat)
    q = emb.embed([QUESTIONS[0]])[0]
    with_cos = [ScoredChunk(c.chunk, c.score, {"vector": float(v @ q)})
                for c, v in zip(pool, vectors, strict=True)]
    features = timed(lambda: (emb.embed([QUESTIONS[0]]),
                              OfflineReranker(emb).rerank(QUESTIONS[0], with_cos, 5)), args.repeat)
    cold = timed(lambda: OfflineReranker(emb).rerank(QUESTIONS[0], pool, 5), args.repeat)
    print(f"load average {os.getloadavg()[0]:.1f}; {args.candidates} candidates; medians of {args.repeat}")
    print(f"embed 20 whole passages (≈ one cross-encoder pass):   {passages:8.0f} ms  1.00×")
    print(f"former offline reranker, {len(units)} sentences: {maxsim:8.0f} ms  {maxsim / passages:.2f}×")
    print(f"feature reranker + question embedding (shipped):  {features:8.0f} ms  {features / passages:.3f}×")
    print(f"feature reranker, no stored cosines (embeds 20):  {cold:8.0f} ms  {cold / passages:.2f}×")


if __name__ == "__main__":
    main()
