"""The ``status`` report: what is indexed, what failed and why, and whether the index is current.

Reads only the LanceDB tables and the settings; never loads a model (``policybot status`` must stay
fast and is the container's health check).
"""

from __future__ import annotations

from typing import Any

from core.config import Settings
from core.fingerprint import config_fingerprint
from core.store import Store


def collect(settings: Settings, store: Store) -> dict[str, Any]:
    """The status as a JSON-able dict.

    Shape: ``{"data_dir", "policy_root", "fingerprint", "chunks", "last_indexed_at",
    "documents": {"indexed", "failed", "stale"}, "files": [{"path", "status", "error", "chunks",
    "pages", "indexed_at"}], "index": {"generation", "live_fingerprint", "building",
    "rebuild_pending", "swapped_at"}, "reranker", "reranker_fallback", "provider"}``; ``stale`` counts
    documents indexed under another config fingerprint (they are re-embedded by the next reconcile);
    ``index`` is the live generation of :mod:`core.store_state` and whether a shadow rebuild is
    pending (the config fingerprint differs from the live one) or in progress (``building``).
    """
    fp = config_fingerprint(settings)
    docs = sorted(store.documents().values(), key=lambda d: d.path)
    files = [{"path": d.path, "status": d.status, "error": d.error, "chunks": d.chunk_count,
              "pages": d.pages, "indexed_at": d.indexed_at} for d in docs]
    return {
        "data_dir": str(settings.data_dir),
        "policy_root": str(settings.policies.root),
        "fingerprint": fp,
        "chunks": store.count_chunks(),
        "last_indexed_at": max((d.indexed_at for d in docs), default=0.0),
        "documents": {
            "indexed": sum(d.status == "indexed" for d in docs),
            "failed": sum(d.status == "failed" for d in docs),
            "stale": sum(d.fingerprint != fp for d in docs),
        },
        "files": files,
        "index": _index_state(store, fp),
        **_reranker(settings),
        "provider": "+".join([f"{p.kind}:{p.model}" for p in settings.llm.providers] + ["extractive"]),
    }


def _index_state(store: Store, fingerprint: str) -> dict[str, Any]:
    st = store.state()
    return {"generation": st.generation, "live_fingerprint": st.fingerprint, "building": st.building,
            "rebuild_pending": bool(st.fingerprint) and st.fingerprint != fingerprint,
            "swapped_at": st.swapped_at}


def _reranker(settings: Settings) -> dict[str, str | None]:
    """Which reranker will run, predicted without loading a model (``core.rerank.factory``)."""
    from core.rerank.factory import predict_reranker

    pred = predict_reranker(settings)
    return {"reranker": pred.get("reranker"), "reranker_fallback": pred.get("fallback_reason")}
