"""The ``status`` report: what is indexed, what failed and why, what is waiting, and whether the index
is current.

Reads the generation pointer (:mod:`core.store_state`), the running watcher's state and the indexer
lease (blobs of the shared store: :mod:`indexer.watch_state`, :mod:`core.lease`), the settings, and the
documents rows and chunk count — from the index snapshot (:mod:`indexer.snapshot`, no LanceDB import:
:func:`collect_fast`, local data dirs only) or from the tables (:func:`collect`). Never loads a model or
imports torch (``policybot status`` must stay under a second on a local data dir).
"""

from __future__ import annotations

import json
import os
import socket
import time
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from core.config import Settings
from core.fingerprint import config_fingerprint
from core.lease import read_lease
from core.store_state import IndexState, read_local_state
from indexer.removal_guard import read_held
from indexer.snapshot import read_snapshot
from indexer.watch_state import read_watch_state

if TYPE_CHECKING:
    from core.blobs import BlobStore
    from core.store import Store

NEEDS_OCR_MARK = "needs OCR"
"""Phrase in a failure reason that marks a file whose pages have no usable text and could not be
OCR'd (:func:`indexer.jobs.no_text_reason`)."""
NEEDS_OCR_FROM_FIELD = "documents.needs_ocr_pages"
"""Where ``needs_ocr`` comes from: the pages each documents row lists (rows written before that
column existed count when their failure reason carries :data:`NEEDS_OCR_MARK`)."""


def collect(settings: Settings, store: Store, now: float | None = None) -> dict[str, Any]:
    """The status read from the LanceDB tables (see :func:`build` for the shape)."""
    return build(settings, list(store.documents().values()), store.count_chunks(), store.state(),
                 store.blobs, now)


def collect_fast(settings: Settings, now: float | None = None) -> dict[str, Any] | None:
    """The status from the index snapshot without importing LanceDB; None when the snapshot is missing
    or not current, or the data dir is an object store (then use :func:`collect`)."""
    from pathlib import Path

    from core.blobs import LocalBlobStore
    from core.store_location import BLOBS_FOLDER

    if not isinstance(settings.data_dir, Path):
        return None  # the snapshot is a local file; an object store is read through LanceDB
    snap = read_snapshot(settings.data_dir)
    if snap is None:
        return None
    docs = [SimpleNamespace(**{**d, "needs_ocr_pages": tuple(d.get("needs_ocr_pages") or ())})
            for d in snap["documents"]]
    blobs = LocalBlobStore(settings.data_dir / BLOBS_FOLDER, create=False)
    return build(settings, docs, int(snap["chunks"]), read_local_state(settings.data_dir), blobs, now)


def build(settings: Settings, rows: list[Any], chunks: int, state: IndexState, blobs: BlobStore,
          now: float | None = None) -> dict[str, Any]:
    """The status as a JSON-able dict from documents ``rows`` (:class:`~core.store.DocumentRecord` or
    alike), the ``chunks`` count, the generation pointer ``state`` and the data dir's ``blobs`` (the
    watcher's state, the indexer lease); ``now`` (UNIX seconds, default the clock) dates the index lag.

    Shape (times are UNIX seconds, 0.0 or null when never)::

        {"data_dir", "policy_root", "root_exists", "configured_root", "root_matches", "fingerprint", "chunks",
         "last_indexed_at",
         "documents": {"indexed", "failed", "stale", "pending", "needs_ocr", "partial"},
         "files": [{"path", "status", "error", "chunks", "pages", "indexed_at", "partial",
                    "extraction": {"ocr_pages", "needs_ocr_pages", "tables", "notes", "form_fields",
                                   "not_read", "hidden_removed", "furniture_lines", "encoding",
                                   "partial"} | null}],
         "failures": [{"path", "reason", "at"}],
         "needs_ocr": {"files": [paths], "pages": {path: [1-based pages]}, "source"},
         "index": {"generation", "live_fingerprint", "building", "rebuild_pending", "swapped_at"},
         "fingerprints": {"config", "live", "rebuild_pending", "state"},
         "pending": {"count", "oldest_at", "source",
                     "files": [{"path", "reason", "since", "retry_at", "gives_up_at" | null}]},
         "index_lag_s",
         "last_reconcile": {"at", "runs", "errors", "missed", "last_error"} | null,
         "jobs": {name: {"runs", "errors", "missed", "last_error", "last_missed_at", ...}},
         "job_problems": [{"job", "kind": "failed"|"missed", "reason", "at"}],
         "held_removals": {"count", "indexed", "files", "root", "reason", "at"} | null,
         "observer": {"kind", "reason", "configured"},
         "watcher": {"running", "pid", "host", "updated_at"},
         "leader": {"owner", "host", "pid", "since", "expires_at", "live"} | null,
         "embedding_model", "reranker", "reranker_fallback", "provider"}

    ``files[].extraction`` is the extraction report of the file's last extraction (null for rows
    indexed before reports were kept); ``files[].partial`` (and the ``documents.partial`` count) marks
    a file indexed only in part: pages needing OCR or embedded content not read.
    ``stale`` counts documents indexed under another config fingerprint (a shadow rebuild re-embeds
    them); ``fingerprints.state`` is ``current``, ``rebuild pending`` (the config's fingerprint differs
    from the live index's), ``rebuilding`` (a shadow generation is being built) or ``empty``.
    ``pending`` and ``index_lag_s`` (now − oldest pending change, 0 when none) come from a running
    watcher; with none running they are 0 and ``pending.source`` says so. ``pending.files`` names each
    waiting file (at most 50), why it waits, when it is looked at again and — for a file that looks
    incomplete — ``gives_up_at``: when it is indexed anyway and recorded as failed if still incomplete.
    ``last_reconcile`` and ``jobs`` (the scheduler's history: reconcile, store-optimize, ...) are the last
    watcher's;
    ``job_problems`` lists jobs whose last run failed or was missed, with the reason.
    ``held_removals``: a reconcile found the files of every indexed document (or more than
    ``index.max_removal_fraction`` of them) gone and removed none (:mod:`indexer.removal_guard`):
    how many, the first paths, why and what to do; null when nothing is held.
    ``leader`` is the indexer lease (:mod:`indexer.lock`): which process indexes, since when, and until
    when its lease holds (``live`` false: it expired or was released; null: no indexer ever ran).
    ``policy_root`` is the folder the index holds (recorded by the last reconcile; the configured
    ``policies.root`` before the first), ``configured_root`` the config's, ``root_matches`` whether
    they agree (a reconcile of another folder is refused without ``--switch-root``); ``root_exists``
    whether ``policy_root`` is a folder on this machine now (false: moved, deleted or an unmounted share;
    the index keeps serving its documents, and index, watch and run fail until it is back).
    """
    now = time.time() if now is None else now
    fp = config_fingerprint(settings)
    docs = sorted(rows, key=lambda d: d.path)
    watch = read_watch_state(blobs) or {}
    running = watcher_running(watch)
    pending = _pending(watch, running)
    stale = sum(d.fingerprint != fp for d in docs)
    index = _index_state(state, fp, stale)
    ocr = _needs_ocr(docs)
    configured = str(settings.policies.root)
    jobs = dict(watch.get("jobs") or {})
    return {
        "data_dir": str(settings.data_dir),
        "policy_root": state.root or configured,
        "root_exists": os.path.isdir(state.root or configured),
        "configured_root": configured,
        "root_matches": not state.root or state.root == configured,
        "fingerprint": fp,
        "chunks": chunks,
        "last_indexed_at": max((d.indexed_at for d in docs), default=0.0),
        "documents": {
            "indexed": sum(d.status == "indexed" for d in docs),
            "failed": sum(d.status == "failed" for d in docs),
            "stale": stale,
            "pending": pending["count"],
            "needs_ocr": len(ocr["files"]),
            "partial": sum(_partial(d) for d in docs),
        },
        "files": [_file(d) for d in docs],
        "failures": [{"path": d.path, "reason": d.error, "at": d.indexed_at}
                     for d in docs if d.status == "failed"],
        "needs_ocr": ocr,
        "index": index,
        "fingerprints": _fingerprints(fp, index),
        "pending": pending,
        "index_lag_s": round(max(0.0, now - pending["oldest_at"]), 3) if pending["count"] else 0.0,
        "last_reconcile": _last_reconcile(watch, state.reconciled_at),
        "jobs": jobs,
        "job_problems": _job_problems(jobs),
        "held_removals": read_held(blobs),
        "observer": {"kind": watch.get("observer_kind"), "reason": watch.get("observer_reason") or "",
                     "configured": settings.watch.observer},
        "watcher": {"running": running, "pid": watch.get("pid"), "host": watch.get("host"),
                    "updated_at": watch.get("updated_at")},
        "leader": _leader(blobs, now),
        "embedding_model": _embedding_model(settings),
        **_reranker(settings),
        "provider": "+".join([f"{p.kind}:{p.model}" for p in settings.llm.providers] + ["extractive"]),
    }


# ---- index and fingerprints ---------------------------------------------------------------------
def _index_state(st: IndexState, fingerprint: str, stale: int) -> dict[str, Any]:
    """The generation pointer; a rebuild is pending when the live fingerprint differs from the
    config's (or, before any fingerprint was recorded, when rows carry another one)."""
    pending = st.fingerprint != fingerprint if st.fingerprint else stale > 0
    return {"generation": st.generation, "live_fingerprint": st.fingerprint, "building": st.building,
            "rebuild_pending": pending, "swapped_at": st.swapped_at}


def _fingerprints(config_fp: str, index: dict[str, Any]) -> dict[str, Any]:
    live: str = index["live_fingerprint"]
    if index["building"] is not None:
        state = "rebuilding"
    elif index["rebuild_pending"]:
        state = "rebuild pending"
    else:
        state = "current" if live else "empty"
    return {"config": config_fp, "live": live, "rebuild_pending": index["rebuild_pending"], "state": state}


# ---- files and their extraction reports ------------------------------------------------------------
def _report(d: Any) -> dict[str, Any] | None:
    """The row's extraction report (a :class:`~core.store.DocumentRecord` or a snapshot row)."""
    raw = getattr(d, "extraction_report", "") or ""
    try:
        data = json.loads(raw) if raw else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _file(d: Any) -> dict[str, Any]:
    report = _report(d)
    if report is not None:
        report = {k: v for k, v in report.items() if k != "chunk_kinds"}
    return {"path": d.path, "status": d.status, "error": d.error, "chunks": d.chunk_count,
            "pages": d.pages, "indexed_at": d.indexed_at, "partial": _partial(d), "extraction": report}


def _partial(d: Any) -> bool:
    """Indexed, but only in part: pages needing OCR or embedded content not read."""
    report = _report(d) or {}
    return d.status == "indexed" and bool(d.needs_ocr_pages or report.get("partial"))


# ---- files needing OCR ----------------------------------------------------------------------------
def _needs_ocr(docs: list[Any]) -> dict[str, Any]:
    """Files with pages whose text layer was unusable and could not be OCR'd, indexed (the other
    pages serve) or failed (no page had text): ``{"files": [path], "pages": {path: [page]},
    "source"}``; ``pages`` is empty for rows from before the column existed."""
    found = [d for d in docs if d.needs_ocr_pages or (d.status == "failed" and NEEDS_OCR_MARK in d.error)]
    return {"files": [d.path for d in found], "pages": {d.path: list(d.needs_ocr_pages) for d in found},
            "source": NEEDS_OCR_FROM_FIELD}


# ---- the watcher (another process) ----------------------------------------------------------------
def _leader(blobs: BlobStore, now: float) -> dict[str, Any] | None:
    """The indexer lease: ``{"owner", "host", "pid", "since", "expires_at", "live"}`` or None."""
    info = read_lease(blobs)
    if info is None:
        return None
    return {"owner": info.owner, "host": info.host, "pid": info.pid, "since": info.since,
            "expires_at": info.expires_at, "live": info.live(now)}


STALE_WATCH_S = 30.0
"""A watcher on another host counts as running while its state is younger than this (it writes every
second)."""


def watcher_running(watch: dict[str, Any]) -> bool:
    """Whether the watcher that wrote its state said it is running and its process is alive (on this
    host: its pid exists; on another host: it wrote within :data:`STALE_WATCH_S`)."""
    pid = watch.get("pid")
    if not watch.get("running") or not isinstance(pid, int):
        return False
    if watch.get("host") not in (None, socket.gethostname()):
        return time.time() - float(watch.get("updated_at") or 0.0) < STALE_WATCH_S
    try:
        os.kill(pid, 0)  # signal 0: existence check only
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by another user
        return True
    return True


def _pending(watch: dict[str, Any], running: bool) -> dict[str, Any]:
    if not watch:
        return {"count": 0, "oldest_at": 0.0, "source": "no watcher has run on this data dir", "files": []}
    if not running:
        return {"count": 0, "oldest_at": 0.0,
                "source": "no watcher running: changes are found by the next reconcile (policybot index)",
                "files": []}
    count = int(watch.get("pending") or 0)
    oldest = float(watch.get("oldest_pending_at") or 0.0) if count else 0.0
    files = [f for f in watch.get("pending_files") or [] if isinstance(f, dict)] if count else []
    return {"count": count, "oldest_at": oldest, "source": "watcher", "files": files}


def _last_reconcile(watch: dict[str, Any], reconciled_at: float) -> dict[str, Any] | None:
    """The watcher's reconcile job history, with ``at`` the latest reconcile by any process
    (``policybot index`` records it in the index state); None when there never was one."""
    job = (watch.get("jobs") or {}).get("reconcile")
    if not isinstance(job, dict):
        if not reconciled_at:
            return None
        return {"at": reconciled_at, "runs": 0, "errors": 0, "missed": 0, "last_error": ""}
    return {"at": max(float(job.get("last_finished_at") or 0.0), reconciled_at),
            "runs": int(job.get("runs") or 0), "errors": int(job.get("errors") or 0),
            "missed": int(job.get("missed") or 0), "last_error": str(job.get("last_error") or "")}


def _job_problems(jobs: dict[str, Any]) -> list[dict[str, Any]]:
    """Jobs that failed or missed a run, the latest problem each: ``[{"job", "kind", "reason", "at",
    "ran_since"}]`` (``ran_since``: a run finished after it)."""
    out = []
    for name, job in sorted(jobs.items()):
        if not isinstance(job, dict) or not job.get("problem"):
            continue
        at = float(job.get("problem_at") or 0.0)
        out.append({"job": name, "kind": job.get("problem"), "reason": str(job.get("problem_reason") or ""),
                    "at": at, "ran_since": float(job.get("last_finished_at") or 0.0) > at})
    return out


# ---- models (predicted, never loaded) -------------------------------------------------------------
def _embedding_model(settings: Settings) -> str:
    emb = settings.embedding
    return "fake" if emb.provider == "fake" else f"{emb.provider}:{emb.model}"


def _reranker(settings: Settings) -> dict[str, str | None]:
    """Which reranker will run, predicted from the file system (as :func:`core.rerank.factory.
    predict_reranker`, without importing the rerank package: numpy and friends cost ~0.5 s)."""
    from core.model_files import model_available

    rs = settings.rerank
    if not rs.enabled:
        return {"reranker": "disabled", "reranker_fallback": None}
    if rs.provider not in ("cross-encoder", "auto"):
        return {"reranker": rs.provider, "reranker_fallback": None}
    found = model_available(rs.model)
    if rs.provider == "auto":
        return {"reranker": f"cross-encoder:{rs.model}" if found else "offline (auto: no local cross-encoder "
                "weights)", "reranker_fallback": None}
    reason = None if found else (f"rerank.model: {rs.model!r} is neither a local model folder nor in the "
                                 "local Hugging Face cache; using the offline reranker (stored-embedding "
                                 "cosine + BM25 + keyword and exact-match features)")
    return {"reranker": f"cross-encoder:{rs.model}", "reranker_fallback": reason}
