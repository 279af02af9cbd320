"""The parts of bench/indexing.py (issue 3); run them through that script, whose docstring says what
each part measures.

They live in their own module so that the script itself imports almost nothing: the extraction
worker is a spawned process, which re-imports the parent's main module before its first file, and
this module pulls in LanceDB and PyArrow (~2 s). The policybot CLI's main module imports in ~0.3 s,
so a heavy bench script would add ~1.5 s to (a)'s cold index that no user sees.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from core.config import Settings
from core.cpu_share import CpuShare
from core.embedder import Embedder, FakeEmbedder, make_embedder
from core.fingerprint import config_fingerprint
from core.store import DOCUMENTS_SCHEMA, DocumentRecord, Store, chunks_schema
from core.store_state import IndexState
from core.types import Chunk
from indexer.extract import extract_file
from indexer.pipeline import Indexer, scan, sha256_file

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
DIMENSION = 384
"""all-MiniLM-L6-v2's vector size; the fake embedder uses it too so seeded vectors fit either."""


@dataclass(frozen=True)
class Sizes:
    """How big each part is (full run vs ``--quick``)."""

    files_b: int
    seed_chunks_c: int
    pages_c: int
    pages_d: int


FULL = Sizes(files_b=10_000, seed_chunks_c=100_000, pages_c=25, pages_d=100)
B_BATCH = 1_000
"""Files created and indexed per reconcile in (b)'s setup (then compacted, as the scheduled job does)."""
QUICK = Sizes(files_b=1_000, seed_chunks_c=10_000, pages_c=25, pages_d=100)


class Timed:
    """Wraps an embedder, adding up the seconds spent embedding and the texts embedded; ``received``
    keeps the texts themselves (a chunk's indexed text: its context line and body), so the raw pass
    embeds exactly what the pipeline embedded."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.seconds, self.texts = inner, 0.0, 0
        self.received: list[str] = []
        self.model_id, self.dimension, self.max_tokens = inner.model_id, inner.dimension, inner.max_tokens
        self.additive_tokens = getattr(inner, "additive_tokens", False)  # as Indexer.chunker reads it

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        t0 = time.perf_counter()
        out = self.inner.embed(texts)
        self.seconds += time.perf_counter() - t0
        self.texts += len(texts)
        self.received.extend(texts)
        return out

    def reset(self) -> None:
        self.seconds, self.texts = 0.0, 0
        self.received = []

    def itself(self) -> Embedder:
        """An embedder factory returning this wrapper."""
        return self


def settings_for(data: Path, root: Path, fake: bool) -> Settings:
    raw: dict[str, object] = {"data_dir": str(data), "policies": {"root": str(root)}, "log_level": "WARNING"}
    if fake:
        raw["embedding"] = {"provider": "fake"}
    return Settings.model_validate(raw)


def timed_embedder(settings: Settings, fake: bool, share: CpuShare | None = None) -> Timed:
    """The (warmed-up) embedder under test, wrapped in :class:`Timed`."""
    timed = Timed(FakeEmbedder(dimension=DIMENSION) if fake else make_embedder(settings.embedding, share))
    timed.embed(["warm up"])
    timed.reset()
    return timed


def new_store(settings: Settings) -> Store:
    return Store(settings.data_dir, settings.keyword, settings.index)


# ---- (a) cold corpus -----------------------------------------------------------------------
RAW_REPEATS = 2
"""Raw embedding passes over the chunk texts; the fastest counts (the ratio's denominator is the best
raw throughput of the run, so a pass slowed by another job on the host cannot flatter the ratio)."""


def raw_seconds(embedder: Embedder, texts: list[str]) -> float:
    """Seconds for one ``embed`` call over all ``texts`` (sentence-transformers sorts them by length
    and pads per batch, the embedder's best case)."""
    t0 = time.perf_counter()
    embedder.embed(texts)
    return time.perf_counter() - t0


def part_a(tmp: Path, sizes: Sizes, fake: bool) -> None:
    settings = settings_for(tmp / "a", CORPUS, fake)
    share = CpuShare()  # as the composition root (policybot.factory.App) wires it
    timed = timed_embedder(settings, fake, share)
    store = new_store(settings)
    with Indexer(settings, store, lambda: timed, isolate=True, share=share) as ix:
        s = ix.reconcile()
    chunks = len(store.chunk_rows(columns=["chunk_id"]))
    texts = list(timed.received)  # what the pipeline embedded (contextual chunks: context + body)
    raw = min(raw_seconds(timed.inner, texts) for _ in range(RAW_REPEATS))
    print(f"(a) 1-min load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"(a) cold corpus: {s.indexed} files indexed, {s.failed} failed, {s.pages} pages, "
          f"{chunks} chunks in {s.seconds:.1f} s = {s.pages / s.seconds:.2f} pages/s, "
          f"{chunks / s.seconds:.1f} chunks/s")
    print(f"(a) embedding inside the pipeline {timed.seconds:.1f} s ({timed.texts} texts); raw embedding of "
          f"the same {len(texts)} texts {raw:.1f} s = {len(texts) / raw:.1f} texts/s; "
          f"pipeline/raw throughput ratio {raw / s.seconds:.2f} (goal >= 0.85)")


# ---- (b) no-op reconcile of many small files ------------------------------------------------
def write_small_files(root: Path, start: int, stop: int) -> None:
    for i in range(start, stop):
        p = root / f"d{i % 50}" / f"f{i}.md"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"# Policy {i}\n\nRule {i} applies to team {i % 7}.\n")


def setup_b_indexer(ix: Indexer, root: Path, files: int) -> str:
    """Index the files through the Indexer, :data:`B_BATCH` per reconcile, compacting after each."""
    for start in range(0, files, B_BATCH):
        write_small_files(root, start, min(start + B_BATCH, files))
        ix.reconcile()
        ix.store.optimize()
    return f"Indexer, fake embedder, {B_BATCH} files per reconcile, optimize() after each"


def setup_b_bulk(ix: Indexer, root: Path, files: int) -> str:
    """The rows the Indexer would write (same extractor, chunker, ids, hashes; fake vectors), in one
    commit per table, then compacted: the same tables, without ~3 LanceDB commits per file."""
    write_small_files(root, 0, files)
    store, fp = ix.store, ix.fingerprint
    docs, rows = [], []
    for rel, path in scan(root, ix.settings).items():
        doc, st = extract_file(path, root, ix.settings), path.stat()
        chunks = ix.chunker().chunk(doc)
        docs.append(DocumentRecord(path=rel, sha256=sha256_file(path), size=st.st_size,
                                   mtime_ns=st.st_mtime_ns, fingerprint=fp, status="indexed",
                                   chunk_count=len(chunks), pages=doc.pages, indexed_at=time.time()))
        vecs = ix.embedder().embed([c.text for c in chunks])
        rows += [{**asdict(c), "vector": v.tolist()} for c, v in zip(chunks, vecs, strict=True)]
    store.db.create_table(store.documents_table_name, data=pa.Table.from_pylist(
        [asdict(d) for d in docs], schema=DOCUMENTS_SCHEMA))
    store.db.create_table(store.chunks_table_name,
                          data=pa.Table.from_pylist(rows, schema=chunks_schema(DIMENSION)))
    store.set_state(IndexState(generation=0, fingerprint=fp))
    store.optimize()
    return "bulk rows from the real extractor and chunker, one commit per table, optimize()"


def part_b(tmp: Path, sizes: Sizes, fake: bool, bulk: bool = False) -> None:
    root = tmp / "b_files"
    settings = settings_for(tmp / "b", root, fake=True)
    ix = Indexer(settings, new_store(settings), lambda: FakeEmbedder(dimension=DIMENSION))
    t0 = time.perf_counter()
    how = (setup_b_bulk if bulk else setup_b_indexer)(ix, root, sizes.files_b)
    print(f"(b) setup: {len(ix.store.documents())} files indexed in {time.perf_counter() - t0:.0f} s ({how})")
    noop = ix.reconcile()
    print(f"(b) no-op reconcile of {sizes.files_b} files: {noop.seconds:.2f} s (unchanged={noop.unchanged}, "
          f"indexed={noop.indexed}, failed={noop.failed}, repaired={noop.repaired}) (goal <= 5 s)")
    one = root / "d0" / "f0.md"
    one.write_text(one.read_text() + "Amended.\n")
    changed = ix.reconcile()
    print(f"(b) reconcile with 1 of {sizes.files_b} files changed: {changed.seconds:.2f} s "
          f"(indexed={changed.indexed}, unchanged={changed.unchanged})")


# ---- (c) one changed PDF in a 100k-chunk index ----------------------------------------------
VOCAB = ("employee", "manager", "approval", "receipt", "hotel", "flight", "meal", "allowance", "premium",
         "deductible", "claim", "benefit", "leave", "contractor", "reimbursement", "travel", "insurance",
         "dependent", "coverage", "hospital", "pharmacy", "network", "limit", "annual", "quarterly")
SEED_BATCH = 1_000


def prose(n: int, marker: str) -> str:
    """A ~90-word paragraph whose wording differs for every ``n`` (so the extractor's repeated-line
    header/footer filter keeps it), opening with ``marker``."""
    rng = np.random.default_rng(n)
    sentences = [" ".join(rng.choice(VOCAB, 8)).capitalize() + "." for _ in range(11)]
    return f"{marker.capitalize()} applies here. " + " ".join(sentences)


def write_pdf(path: Path, pages: int, word: str, edit: int | None = None, marker: str = "amended",
              headings: bool = True) -> Path:
    """A ``pages``-page PDF, a title and three paragraphs a page; paragraph ``edit`` opens with
    ``marker+word+n``. ``headings``: titles at 16 pt over 11 pt body ("Section 4 Hotel Claim Limit"),
    which the extractor detects as section headings; else 13 pt "Section 4: hotel claim limit", which
    it does not (the whole file is one section). Titles differ in words, not only in numbers, or the
    repeated-line filter drops them as a running header."""
    from fpdf import FPDF

    pdf = FPDF()
    for p in range(pages):
        pdf.add_page()
        pdf.set_font("Helvetica", style="B", size=16 if headings else 13)
        topic = " ".join(np.random.default_rng(10_000 + p).choice(VOCAB, 3)).title()
        title = f"Section {p + 1} {topic}" if headings else f"Section {p + 1}: {topic.lower()}"
        pdf.cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        for q in range(3):
            n = p * 3 + q
            pdf.multi_cell(0, 6, prose(n, f"{marker}{word}{n}" if n == edit else f"{word}{n}"),
                           new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def seed_chunks(store: Store, settings: Settings, total: int) -> None:
    """``total`` filler chunks (random unit vectors of :data:`DIMENSION`) in ``total / 1000`` seed
    documents, each written by one ``replace_chunks`` commit plus its documents row."""
    rng = np.random.default_rng(1)
    fp = config_fingerprint(settings)
    for b in range(total // SEED_BATCH):
        path = f"seed/s{b}.pdf"
        texts = [f"seeded filler {b} {i} {VOCAB[i % len(VOCAB)]} {VOCAB[(i * 7) % len(VOCAB)]}"
                 for i in range(SEED_BATCH)]
        chunks = [Chunk(chunk_id=hashlib.sha256(f"{path}:{i}".encode()).hexdigest()[:32], path=path,
                        text=t, page=1 + i // 40, page_end=1 + i // 40, section="", ordinal=i,
                        text_hash=hashlib.sha256(t.encode()).hexdigest()) for i, t in enumerate(texts)]
        vecs = rng.standard_normal((SEED_BATCH, DIMENSION)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        store.replace_chunks(path, chunks, vecs)
        store.put_document(DocumentRecord(path=path, sha256="0" * 64, size=0, mtime_ns=0, fingerprint=fp,
                                          status="indexed", chunk_count=SEED_BATCH, pages=25,
                                          indexed_at=time.time()))


def searchable_after(ix: Indexer, store: Store, path: Path, marker: str) -> tuple[float, bool]:
    """Seconds from now (the file just closed) to a keyword search for ``marker`` finding
    ``path``'s chunk; and whether it was found."""
    t0 = time.perf_counter()
    ix.index_path(path)
    hits = store.keyword_search(marker, 5)
    elapsed = time.perf_counter() - t0
    return elapsed, any(c.path == path.name and marker in c.text.lower() for c, _ in hits)


def part_c(tmp: Path, sizes: Sizes, fake: bool) -> None:
    root = tmp / "c_files"
    root.mkdir()
    settings = settings_for(tmp / "c", root, fake)
    timed = timed_embedder(settings, fake)
    store = new_store(settings)
    t0 = time.perf_counter()
    seed_chunks(store, settings, sizes.seed_chunks_c)
    store.set_state(IndexState(generation=0, fingerprint=config_fingerprint(settings)))
    stats = store.optimize()
    print(f"(c) seeded {store.count_chunks()} chunks in {time.perf_counter() - t0:.0f} s "
          f"(indexes created: {stats.get('indexes_created')})")
    with Indexer(settings, store, lambda: timed, isolate=True) as ix:
        ix.index_path(write_pdf(root / "warm.pdf", 1, "warmup"))  # start the worker
        path = root / "changed.pdf"
        for label, edit in (("new", None), ("edited", 40)):
            timed.reset()
            write_pdf(path, sizes.pages_c, "zanzibar", edit=edit)
            marker = "zanzibar40" if edit is None else "amendedzanzibar40"
            secs, found = searchable_after(ix, store, path, marker)
            print(f"(c) {label} {sizes.pages_c}-page PDF in a {store.count_chunks()}-chunk index: "
                  f"searchable {secs:.2f} s after the file closed (embedding {timed.seconds:.2f} s for "
                  f"{timed.texts} chunks, rest {secs - timed.seconds:.2f} s; goal <= 5 s + embedding); "
                  f"keyword hit: {found}")


# ---- (d) one-paragraph edit in a 100-page PDF -----------------------------------------------
def part_d(tmp: Path, sizes: Sizes, fake: bool) -> None:
    for headings in (True, False):
        root = tmp / f"d_files_{headings}"
        root.mkdir()
        settings = settings_for(tmp / f"d_{headings}", root, fake)
        timed = timed_embedder(settings, fake)
        path = write_pdf(root / "handbook.pdf", sizes.pages_d, "handbook", headings=headings)
        ix = Indexer(settings, new_store(settings), timed.itself)
        first = ix.reconcile()
        timed.reset()
        write_pdf(path, sizes.pages_d, "handbook", edit=150, headings=headings)
        again = ix.reconcile()
        kind = "with section headings" if headings else "without detected headings (one section)"
        print(f"(d) {first.pages}-page PDF {kind}, {first.chunks_embedded} chunks: a one-paragraph edit "
              f"re-embedded {again.chunks_embedded} chunks (embedder received {timed.texts} texts), reused "
              f"{again.chunks_reused} (goal <= 3)")


PARTS = {"a": part_a, "b": part_b, "c": part_c, "d": part_d}
