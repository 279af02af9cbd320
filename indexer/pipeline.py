"""Indexing pipeline: reconcile the index with the policy folder, file by file.

extract (indexer.extract) → chunk (indexer.chunker) → embed (core.embedder) → store (core.store).

Change detection: a file whose (size, mtime_ns) and config fingerprint match its documents row is
unchanged without being read; when size or mtime differ, its sha256 decides. A file's chunks are
replaced in one commit (``Store.replace_chunks``) before its documents row is written, so a crash in
between only causes a re-index on the next reconcile. A file that fails (unreadable, or no text) is
recorded with status ``failed`` and a one-line reason; its previous chunks, if any, keep serving and
it is retried only when the file or the fingerprint changes. The embedder is built only when a chunk
must be embedded, so a no-op reconcile never loads the model.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from core.config import Settings
from core.embedder import Embedder
from core.errors import ExtractionError
from core.fingerprint import config_fingerprint
from core.store import DocumentRecord, Store
from core.types import ExtractedDocument
from indexer.chunker import Chunker
from indexer.extract import extract_file, relative_posix
from indexer.patterns import is_indexable

log = logging.getLogger(__name__)

Outcome = Literal["indexed", "unchanged", "failed", "removed", "ignored"]
Progress = Callable[[str, int, int], None]
"""progress(relative path, files done, files total)."""
ExtractFn = Callable[[Path, Path], ExtractedDocument]
"""extract(absolute path, policy root) -> document; raises ExtractionError."""

_HASH_BLOCK = 1 << 20


@dataclass
class IndexSummary:
    """What one reconcile did. ``failed`` counts files that are failing now (newly or still: an
    unchanged failed file is not retried but stays listed); ``seconds`` is wall-clock time."""

    indexed: int = 0
    unchanged: int = 0
    failed: int = 0
    removed: int = 0
    pages: int = 0
    chunks_embedded: int = 0
    seconds: float = 0.0
    failures: list[dict[str, str]] = field(default_factory=list)

    def add_failure(self, rel: str, reason: str) -> None:
        """Count a failed file and remember its reason."""
        self.failed += 1
        self.failures.append({"file": rel, "reason": reason})

    def to_json(self) -> dict[str, object]:
        """``{"indexed","unchanged","failed","removed","pages","chunks_embedded","seconds",
        "failures": [{"file","reason"}]}``."""
        return {"indexed": self.indexed, "unchanged": self.unchanged, "failed": self.failed,
                "removed": self.removed, "pages": self.pages, "chunks_embedded": self.chunks_embedded,
                "seconds": round(self.seconds, 2), "failures": list(self.failures)}


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of the file's bytes (read in 1 MiB blocks)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def scan(root: Path, settings: Settings) -> dict[str, Path]:
    """Indexable files under ``root``: relative POSIX path → absolute path (sorted by path)."""
    found: dict[str, Path] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if is_indexable(rel, settings) and path.is_file():
                found[rel] = path
    return found


class Indexer:
    """Keeps the store in step with a policy folder.

    Args:
        settings: policies (root, include/ignore), extraction, chunking (fingerprint inputs).
        store: the LanceDB store to write.
        embedder_factory: builds the embedder; called at most once, on first need.
        extract: ``extract(path, root)``; default in-process :func:`indexer.extract.extract_file`
            (e.g. pass ``ExtractionWorker.extract`` to isolate extraction in a child process).
    """

    def __init__(self, settings: Settings, store: Store, embedder_factory: Callable[[], Embedder],
                 extract: ExtractFn | None = None) -> None:
        self.settings = settings
        self.store = store
        self.root = settings.policies.root
        self.fingerprint = config_fingerprint(settings)
        self._embedder_factory = embedder_factory
        self._extract = extract or (lambda path, root: extract_file(path, root, settings))
        self._embedder: Embedder | None = None
        self._chunker: Chunker | None = None

    # ---- public API ---------------------------------------------------------------------
    def reconcile(self, root: Path | None = None, progress: Progress | None = None) -> IndexSummary:
        """Index new and changed files under ``root`` (default: ``policies.root``), skip unchanged
        ones, remove rows and chunks of files that are gone. Per-file failures are recorded, never
        raised. Raises only store or embedding-model errors (e.g. ModelLoadError)."""
        t0 = time.perf_counter()
        self.root = (root or self.settings.policies.root).resolve()
        files = scan(self.root, self.settings)
        known = self.store.documents()
        summary = IndexSummary()
        for rel in sorted(set(known) - set(files)):
            self.store.delete_document(rel)
            summary.removed += 1
        for i, (rel, path) in enumerate(files.items()):
            if progress is not None:
                progress(rel, i, len(files))
            self._process_safely(path, rel, known.get(rel), summary)
        if progress is not None:
            progress("", len(files), len(files))
        summary.seconds = time.perf_counter() - t0
        log.info("reconcile root=%s files=%d indexed=%d unchanged=%d failed=%d removed=%d chunks=%d "
                 "in %.1fs", self.root, len(files), summary.indexed, summary.unchanged, summary.failed,
                 summary.removed, summary.chunks_embedded, summary.seconds)
        return summary

    def index_path(self, abs_path: Path) -> Outcome:
        """Bring one file up to date (index it, skip it, or remove it when it no longer exists).

        Returns the outcome; a path outside the root or not matching the patterns is ``"ignored"``.
        """
        rel = self._rel(abs_path)
        if rel is None or not is_indexable(rel, self.settings):
            return "ignored"
        if not abs_path.is_file():
            return "removed" if self.remove_path(abs_path) else "ignored"
        return self._process_safely(abs_path, rel, self.store.documents().get(rel), IndexSummary())

    def remove_path(self, abs_path: Path) -> bool:
        """Drop the documents row and chunks of ``abs_path``; True when it was indexed."""
        rel = self._rel(abs_path)
        if rel is None or rel not in self.store.documents():
            return False
        self.store.delete_document(rel)
        log.info("removed %s", rel)
        return True

    # ---- per file -----------------------------------------------------------------------
    def _rel(self, abs_path: Path) -> str | None:
        rel = relative_posix(Path(os.path.abspath(abs_path)), self.root)
        return None if rel.startswith("../") or Path(rel).is_absolute() else rel

    def _process_safely(self, path: Path, rel: str, rec: DocumentRecord | None,
                        summary: IndexSummary) -> Outcome:
        """:meth:`_process`, but a file that vanished or cannot be read is removed or failed."""
        try:
            return self._process(path, rel, rec, summary)
        except FileNotFoundError:
            if rec is not None:
                self.store.delete_document(rel)
                summary.removed += 1
            return "removed"
        except OSError as exc:
            summary.add_failure(rel, f"cannot read the file ({exc.strerror})")
            return "failed"

    def _process(self, path: Path, rel: str, rec: DocumentRecord | None, summary: IndexSummary) -> Outcome:
        st = path.stat()
        sha: str | None = None
        if rec is not None and rec.fingerprint == self.fingerprint:
            if (rec.size, rec.mtime_ns) != (st.st_size, st.st_mtime_ns):
                sha = sha256_file(path)
                if sha == rec.sha256:
                    self.store.put_document(replace(rec, size=st.st_size, mtime_ns=st.st_mtime_ns))
            if sha is None or sha == rec.sha256:
                if rec.status == "failed":
                    summary.add_failure(rel, rec.error)
                    return "failed"
                summary.unchanged += 1
                return "unchanged"
        return self._index(path, rel, st, sha or sha256_file(path), summary)

    def _index(self, path: Path, rel: str, st: os.stat_result, sha: str, summary: IndexSummary) -> Outcome:
        t0 = time.perf_counter()
        base = DocumentRecord(path=rel, sha256=sha, size=st.st_size, mtime_ns=st.st_mtime_ns,
                              fingerprint=self.fingerprint, status="failed", indexed_at=time.time())
        try:
            doc = self._extract(path, self.root)
            if not any(b.text.strip() for b in doc.blocks):
                raise ExtractionError(f"no extractable text ({doc.pages} pages); a scanned PDF needs OCR")
            chunks = self.chunker().chunk(doc)
        except ExtractionError as exc:
            return self._fail(base, str(exc), summary)
        except Exception as exc:  # a bug or library error on one file never stops the others
            log.exception("unexpected error extracting %s", rel)
            return self._fail(base, f"{type(exc).__name__}: {exc}".splitlines()[0][:300], summary)
        vectors = self.embedder().embed([c.text for c in chunks])
        self.store.replace_chunks(rel, chunks, vectors)
        self.store.put_document(replace(base, status="indexed", chunk_count=len(chunks), pages=doc.pages))
        summary.indexed += 1
        summary.pages += doc.pages
        summary.chunks_embedded += len(chunks)
        log.info("indexed %s pages=%d chunks=%d in %.2fs", rel, doc.pages, len(chunks),
                 time.perf_counter() - t0)
        return "indexed"

    def _fail(self, base: DocumentRecord, reason: str, summary: IndexSummary) -> Outcome:
        reason = " ".join(reason.split())
        self.store.put_document(replace(base, error=reason))
        summary.add_failure(base.path, reason)
        log.warning("failed %s: %s", base.path, reason)
        return "failed"

    # ---- lazily built collaborators -----------------------------------------------------
    def embedder(self) -> Embedder:
        """The embedder, built on first call."""
        if self._embedder is None:
            self._embedder = self._embedder_factory()
        return self._embedder

    def chunker(self) -> Chunker:
        """The chunker, bound to the embedder's tokenizer and limit (builds the embedder)."""
        if self._chunker is None:
            emb = self.embedder()
            self._chunker = Chunker(self.settings.chunking, emb.count_tokens, emb.max_tokens)
        return self._chunker
