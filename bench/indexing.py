"""Incremental-indexing benchmarks (issue 3).

    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/indexing.py [--parts a,b,c,d] [--fake]

(a) cold indexing of ../shared/corpus (isolated extraction worker, real embedder): pages/s, and the
    pipeline's chunk throughput as a ratio of raw embedding throughput on the same chunks, same run;
(b) a no-op reconcile of 10,000 small files (index rows seeded in bulk; the timed part is the
    reconcile: scan, stat, drift check);
(c) one changed 25-page PDF in a 100k-chunk index (seeded, with the ANN index): seconds from the file
    closing to its new text being searchable, and the embedding part of it;
(d) a one-paragraph edit in a 100-page PDF: chunks re-embedded.
Prints one line per figure. ``--fake`` uses the FakeEmbedder (plumbing only, not for the record).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa

from core.config import Settings
from core.embedder import Embedder, FakeEmbedder, make_embedder
from core.fingerprint import config_fingerprint
from core.store import DOCUMENTS_SCHEMA, Store, chunks_schema
from core.store_state import IndexState
from indexer.pipeline import Indexer, sha256_file

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


class Timed:
    """Wraps an embedder, adding up the seconds spent embedding."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.seconds, self.texts = inner, 0.0, 0
        self.model_id, self.dimension, self.max_tokens = inner.model_id, inner.dimension, inner.max_tokens

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        t0 = time.perf_counter()
        out = self.inner.embed(texts)
        self.seconds += time.perf_counter() - t0
        self.texts += len(texts)
        return out


def settings_for(data: Path, root: Path, fake: bool, **extra: object) -> Settings:
    raw: dict[str, object] = {"data_dir": str(data), "policies": {"root": str(root)}, "log_level": "WARNING"}
    if fake:
        raw["embedding"] = {"provider": "fake"}
    raw.update(extra)
    return Settings.model_validate(raw)


def embedder_for(settings: Settings, fake: bool) -> Embedder:
    return FakeEmbedder(dimension=384) if fake else make_embedder(settings.embedding)


def part_a(tmp: Path, fake: bool) -> None:
    settings = settings_for(tmp / "a", CORPUS, fake)
    timed = Timed(embedder_for(settings, fake))
    timed.embed(["warm up"])
    timed.seconds, timed.texts = 0.0, 0
    with Indexer(settings, Store(settings.data_dir), lambda: timed, isolate=True) as ix:
        s = ix.reconcile()
    texts = [r["text"] for r in Store(settings.data_dir).chunk_rows(columns=["text"])]
    t0 = time.perf_counter()
    timed.inner.embed(texts)
    raw = time.perf_counter() - t0
    print(f"(a) cold corpus: {s.indexed} files, {s.failed} failed, {s.pages} pages, {len(texts)} chunks in "
          f"{s.seconds:.1f} s = {s.pages / s.seconds:.2f} pages/s; embedding inside the pipeline "
          f"{timed.seconds:.1f} s; raw embedding of the same chunks {raw:.1f} s "
          f"({len(texts) / raw:.1f} chunks/s); pipeline/raw throughput ratio {raw / s.seconds:.2f}")


def seed(store: Store, settings: Settings, files: dict[str, Path], dim: int, chunks_per_file: int) -> None:
    """Bulk-write documents rows matching ``files`` and ``chunks_per_file`` random chunks each."""
    fp = config_fingerprint(settings)
    rng = np.random.default_rng(0)
    docs, rows = [], []
    for rel, path in files.items():
        st = path.stat()
        docs.append({"path": rel, "sha256": sha256_file(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns,
                     "fingerprint": fp, "status": "indexed", "error": "", "chunk_count": chunks_per_file,
                     "pages": 1, "indexed_at": time.time()})
        for i in range(chunks_per_file):
            text = f"seeded chunk {i} of {rel} about benefit {i % 97} and rule {hash(rel) % 1000}"
            rows.append({"chunk_id": hashlib.sha256(f"{rel}{i}".encode()).hexdigest()[:32], "path": rel,
                         "page": 1, "page_end": 1, "section": "", "ordinal": i, "text": text,
                         "text_hash": hashlib.sha256(text.encode()).hexdigest(), "vector": None})
    vecs = rng.standard_normal((len(rows), dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    for r, v in zip(rows, vecs, strict=True):
        r["vector"] = v.tolist()
    store.db.create_table("documents", data=pa.Table.from_pylist(docs, schema=DOCUMENTS_SCHEMA))
    store.db.create_table("chunks", data=pa.Table.from_pylist(rows, schema=chunks_schema(dim)))
    store.set_state(IndexState(generation=0, fingerprint=fp))


def part_b(tmp: Path, fake: bool) -> None:
    root = tmp / "b_files"
    files = {}
    for i in range(10_000):
        p = root / f"d{i % 50}" / f"f{i}.md"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"# Policy {i}\n\nRule {i} applies to team {i % 7}.\n")
        files[p.relative_to(root).as_posix()] = p
    settings = settings_for(tmp / "b", root, True)
    store = Store(settings.data_dir)
    seed(store, settings, files, 64, 1)
    ix = Indexer(settings, store, FakeEmbedder)
    s = ix.reconcile()
    print(f"(b) no-op reconcile of {len(files)} files: unchanged={s.unchanged} indexed={s.indexed} "
          f"in {s.seconds:.2f} s")


VOCAB = ("employee", "manager", "approval", "receipt", "hotel", "flight", "meal", "allowance", "premium",
         "deductible", "claim", "benefit", "leave", "contractor", "reimbursement", "travel", "insurance",
         "dependent", "coverage", "hospital", "pharmacy", "network", "limit", "annual", "quarterly")


def prose(n: int, marker: str) -> str:
    """A paragraph of ~90 words whose wording (not just its numbers) differs for every ``n``, so the
    extractor's repeated-line (header/footer) filter keeps it."""
    rng = np.random.default_rng(n)
    sentences = [" ".join(rng.choice(VOCAB, 8)).capitalize() + "." for _ in range(11)]
    return f"{marker} applies here. " + " ".join(sentences)


def write_pdf(path: Path, pages: int, seed_word: str, edit: int | None = None) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for p in range(pages):
        pdf.add_page()
        pdf.set_font("Helvetica", style="B", size=13)
        pdf.cell(0, 10, f"Section {p + 1}: rules for {seed_word} part {p}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        for q in range(3):
            n = p * 3 + q
            text = prose(n, f"{seed_word}{n}" if n != edit else f"amended{seed_word}{n}")
            pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def part_c(tmp: Path, fake: bool) -> None:
    root = tmp / "c_files"
    root.mkdir()
    settings = settings_for(tmp / "c", root, fake)
    timed = Timed(embedder_for(settings, fake))
    store = Store(settings.data_dir, settings.keyword, settings.index)
    t0 = time.perf_counter()
    seed(store, settings, {}, timed.dimension, 0)
    tbl = store.db.open_table("chunks")
    rng = np.random.default_rng(1)
    for b in range(10):
        v = rng.standard_normal((10_000, timed.dimension)).astype(np.float32)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        tbl.add(pa.Table.from_pylist([{"chunk_id": f"s{b}_{i}", "path": f"seed/{b}_{i // 40}.pdf", "page": 1,
                                       "page_end": 1, "section": "", "ordinal": i % 40,
                                       "text": f"seeded filler {b} {i} premium deductible",
                                       "text_hash": f"h{b}_{i}", "vector": v[i].tolist()}
                                      for i in range(10_000)], schema=chunks_schema(timed.dimension)))
    store.optimize()
    print(f"(c) seeded {store.count_chunks()} chunks with indexes in {time.perf_counter() - t0:.0f} s")
    ix = Indexer(settings, store, lambda: timed, isolate=True)
    ix.index_path(write_pdf(root / "warm.pdf", 1, "warmup"))  # start the worker, load the model
    timed.seconds = 0.0
    path = root / "changed.pdf"
    t0 = time.perf_counter()
    write_pdf(path, 25, "zanzibar")
    outcome = ix.index_path(path)
    hits = store.keyword_search("zanzibar40", 5)  # a marker word of the new text
    total = time.perf_counter() - t0
    ix.close()
    print(f"(c) 25-page PDF changed in a {store.count_chunks()}-chunk index: {outcome}, searchable after "
          f"{total:.2f} s (embedding {timed.seconds:.2f} s, rest {total - timed.seconds:.2f} s); "
          f"keyword hit: {bool(hits) and hits[0][0].path == 'changed.pdf'}")


def part_d(tmp: Path, fake: bool) -> None:
    root = tmp / "d_files"
    root.mkdir()
    settings = settings_for(tmp / "d", root, fake)
    timed = Timed(embedder_for(settings, fake))
    path = write_pdf(root / "handbook.pdf", 100, "handbook")
    ix = Indexer(settings, Store(settings.data_dir), lambda: timed)
    first = ix.reconcile()
    write_pdf(path, 100, "handbook", edit=150)
    again = ix.reconcile()
    print(f"(d) 100-page PDF ({first.pages} pages, {first.chunks_embedded} chunks): one-paragraph edit "
          f"re-embedded {again.chunks_embedded} chunks, reused {again.chunks_reused}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default="b,d,c,a")
    ap.add_argument("--fake", action="store_true", help="FakeEmbedder (plumbing check only)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench_indexing_"))
    try:
        for part in args.parts.split(","):
            {"a": part_a, "b": part_b, "c": part_c, "d": part_d}[part.strip()](tmp, args.fake)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
