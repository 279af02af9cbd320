"""Per-file stages of the pipeline: change detection → extraction (in the worker) → chunk → embed →
one atomic write per document.

Change detection: a file whose (size, mtime_ns) and config fingerprint match its documents row is
unchanged without being read; only when size or mtime differ is its SHA-256 computed, and it decides.
A file whose extraction fails (unreadable, killed for time or memory, no text) is recorded with
status ``failed``, its reason and time; its previous chunks keep serving (the row keeps their count)
and it is retried when its content changes, or (transient failures: time or memory limit, worker
crash or start-up failure) when the limit named in the reason differs from the current one or the
worker failed (:func:`indexer.worker.should_retry`). Files that cannot be read, have a name that is
not UTF-8, or are broken symlinks get a failed row without extraction (:func:`record_skipped`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from core.errors import ExtractionError
from core.store import DocumentRecord, Store
from core.types import Chunk, ExtractedDocument
from indexer.names import BAD_NAME_REASON, is_bad_name
from indexer.summary import IndexSummary

log = logging.getLogger(__name__)

ExtractFn = Callable[[Path, Path], ExtractedDocument]
"""extract(absolute path, policy root) -> document; raises ExtractionError."""

_HASH_BLOCK = 1 << 20


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of the file's bytes (read in 1 MiB blocks)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class Job:
    """A file that must be (re-)extracted: its paths, stat, content hash and current row (or None)."""

    path: Path
    rel: str
    st: os.stat_result
    sha256: str
    rec: DocumentRecord | None


Extracted = ExtractedDocument | str | None
"""An extraction result: the document, a one-line failure reason, or None (the file vanished)."""


def classify(store: Store, path: Path, rel: str, rec: DocumentRecord | None, fingerprint: str,
             summary: IndexSummary, sha: str | None = None,
             retry: Callable[[str], bool] | None = None,
             oversize: Callable[[str, int], str | None] | None = None) -> Job | None:
    """A :class:`Job` when ``path`` must be indexed; None when it is unchanged (or still failing,
    or vanished, or unreadable, badly named or too big: a failed row is written and counted in
    ``summary``). ``sha`` is a hash already computed; ``retry(reason)`` says whether an unchanged file's
    failure was transient and must be retried now (e.g. :func:`indexer.worker.should_retry`);
    ``oversize(rel, size in bytes)`` is the failure reason of a file above the size cap (or None;
    :func:`indexer.file_size.oversize_reason`), checked before the file is hashed or read."""
    if is_bad_name(os.fspath(path)):
        record_skipped(store, rel, rec, fingerprint, BAD_NAME_REASON, summary)
        return None
    try:
        st = path.stat()
        too_big = oversize(rel, st.st_size) if oversize is not None else None
        if too_big is not None:
            record_skipped(store, rel, rec, fingerprint, too_big, summary)
            return None
        if rec is not None and rec.status == "failed" and retry is not None and retry(rec.error):
            log.info("retrying %s (transient failure: %s)", rel, rec.error)
            return Job(path, rel, st, sha or sha256_file(path), rec)
        if rec is not None and rec.fingerprint == fingerprint:
            if (rec.size, rec.mtime_ns) != (st.st_size, st.st_mtime_ns):
                sha = sha or sha256_file(path)
                if sha != rec.sha256:
                    return Job(path, rel, st, sha, rec)
                store.put_document(replace(rec, size=st.st_size, mtime_ns=st.st_mtime_ns))
            if rec.status == "failed":
                summary.add_failure(rel, rec.error)
            else:
                summary.unchanged += 1
            return None
        return Job(path, rel, st, sha or sha256_file(path), rec)
    except FileNotFoundError:
        if rec is not None:
            store.delete_document(rel)
            summary.removed += 1
            summary.invalidated.append(rel)
        return None
    except OSError as exc:
        record_skipped(store, rel, rec, fingerprint, f"cannot read the file ({exc.strerror})", summary)
        return None


def extract_job(job: Job, root: Path, extract: ExtractFn) -> Extracted:
    """Run ``extract`` on ``job`` (called on the prefetch thread); never raises. A document without
    text is returned as is (see :func:`no_text_reason`)."""
    if not job.path.is_file():
        return None
    try:
        doc = extract(job.path, root)
    except ExtractionError as exc:
        return None if not job.path.is_file() else str(exc)
    except Exception as exc:  # a bug or library error on one file never stops the others
        log.exception("unexpected error extracting %s", job.rel)
        return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    return doc


def no_text_reason(doc: ExtractedDocument) -> str | None:
    """The failure reason of a document without any text (what to do included), or None when it
    has text.

    A document whose pages are all unusable text layers that could not be OCR'd says "needs OCR"
    (:data:`policybot.status.NEEDS_OCR_MARK`) and what to do; its pages go to ``needs_ocr_pages``.
    """
    if any(b.text.strip() for b in doc.blocks):
        return None
    pages = f"{doc.pages} page{'' if doc.pages == 1 else 's'}"
    if doc.needs_ocr_pages:
        return (f"no extractable text ({pages}); a scanned PDF needs OCR: install tesseract "
                "(make system-deps) and set extraction.ocr: auto")
    if not doc.path.lower().endswith(".pdf"):
        return "no extractable text (the file is empty or blank); add the policy text or remove the file"
    if not doc.pages:
        return "no extractable text (the PDF has no pages); export it again from the original document"
    return (f"no extractable text ({pages}; no text layer, or text drawn as shapes); if the pages "
            "show text, export the PDF again from the original document")


def report_json(doc: ExtractedDocument, chunks: Sequence[Chunk] = ()) -> str:
    """The documents row's ``extraction_report``: the document's report and each chunk's kinds."""
    data = {**doc.report.to_json(), "chunk_kinds": ["+".join(c.kinds) for c in chunks]}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def base_record(job: Job, fingerprint: str, now: float) -> DocumentRecord:
    """The documents row ``job`` will get (status ``failed`` until it is indexed)."""
    return DocumentRecord(path=job.rel, sha256=job.sha256, size=job.st.st_size, mtime_ns=job.st.st_mtime_ns,
                          fingerprint=fingerprint, status="failed", indexed_at=now)


def record_failure(store: Store, job: Job, base: DocumentRecord, reason: str, summary: IndexSummary) -> None:
    """Write the failed row; the previous version's chunks (if any) stay and keep serving."""
    reason = " ".join(reason.split())
    kept = job.rec.chunk_count if job.rec is not None and job.rec.fingerprint == base.fingerprint else 0
    pages = job.rec.pages if kept and job.rec is not None else 0
    store.put_document(replace(base, error=reason, chunk_count=kept, pages=pages))
    summary.add_failure(job.rel, reason)
    note = f" (keeping {kept} chunks of the last good version)" if kept else ""
    summary.add_new_failure(job.rel, reason, note)


def record_skipped(store: Store, rel: str, rec: DocumentRecord | None, fingerprint: str, reason: str,
                   summary: IndexSummary) -> None:
    """Record ``rel`` as failed without extracting it (unreadable, bad name, broken symlink, ...).

    The row is written only when its reason changed (an unchanged failure is just counted); chunks of
    a last good version under the same fingerprint keep serving, as in :func:`record_failure`.
    """
    summary.add_failure(rel, reason)
    if rec is not None and rec.status == "failed" and rec.error == reason:
        return
    kept = rec.chunk_count if rec is not None and rec.fingerprint == fingerprint else 0
    base = rec or DocumentRecord(path=rel, sha256="", size=0, mtime_ns=0, fingerprint=fingerprint,
                                 status="failed")
    store.put_document(replace(base, fingerprint=fingerprint, status="failed", error=reason,
                               chunk_count=kept, pages=base.pages if kept else 0, indexed_at=time.time()))
    summary.add_new_failure(rel, reason)


def log_failures(summary: IndexSummary, level: int = logging.WARNING) -> None:
    """Log each file that failed in this run once, at ``level``: WARNING where nobody else shows them
    (the watcher), INFO when the caller prints ``summary.failures`` itself (``policybot index``'s
    failures table), so a failure is named once."""
    for f in summary.failed_now:
        log.log(level, "failed %s: %s", f["file"], f["reason"])
