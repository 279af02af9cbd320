"""Question embedding: PyTorch threads and dtype for a batch of one (``embedding.query_threads``).

    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/embed_threads.py [--questions 60] [--rounds 2]

MiniLM (the shipped ``embedding.model``) loaded twice, float32 and bfloat16; the policy-like
questions of bench/scale.py (``/tmp/pb-scale/queries.json`` when present, else generated) embedded one
at a time with 1 and with 2 torch threads, alternating in one run: wall and CPU milliseconds per
question (CPU time shows threads spinning at PyTorch's barrier while the other core is busy), and the
smallest cosine between the float32 and bfloat16 vectors. Prints one JSON object per setting.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def questions(n: int) -> list[str]:
    """The bench/scale.py questions when built, else simple policy-like ones."""
    path = Path("/tmp/pb-scale/queries.json")
    if path.exists():
        return list(json.loads(path.read_text()))[:n]
    topics = ["annual leave", "travel expenses", "hospital cash", "notice period", "maternity cover"]
    return [f"What does the policy say about {topics[i % len(topics)]} number {i}?" for i in range(n)]


def main() -> None:
    """Measure and print."""
    import torch
    from sentence_transformers import SentenceTransformer

    from core.embedder import resolve_model_path

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--questions", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    qs = questions(args.questions)
    path = resolve_model_path("all-MiniLM-L6-v2")
    bf16 = {"torch_dtype": torch.bfloat16}
    models = {"float32": SentenceTransformer(path, device="cpu"),
              "bfloat16": SentenceTransformer(path, device="cpu", model_kwargs=bf16)}
    print(json.dumps({"start_load1": round(os.getloadavg()[0], 1), "cpus": os.cpu_count()}), flush=True)
    for rnd in range(args.rounds):
        for threads in (1, 2):
            torch.set_num_threads(threads)
            for name, model in models.items():
                model.encode(qs[:1])
                c0, t0 = time.process_time(), time.perf_counter()
                for q in qs:
                    model.encode([q], normalize_embeddings=True)
                wall, cpu = (time.perf_counter() - t0) / len(qs), (time.process_time() - c0) / len(qs)
                print(json.dumps({"round": rnd + 1, "dtype": name, "threads": threads,
                                  "wall_ms": round(wall * 1e3, 1), "cpu_ms": round(cpu * 1e3, 1),
                                  "load1": round(os.getloadavg()[0], 1)}), flush=True)
    a, b = (m.encode(qs, normalize_embeddings=True) for m in models.values())
    print(json.dumps({"min_cosine_float32_bfloat16": round(float(np.min(np.sum(a * b, axis=1))), 4)}))


if __name__ == "__main__":
    main()
