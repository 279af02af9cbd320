"""The ``replace`` child of bench/scale.py: one 50-chunk file replaced until searchable, several times,
with the shipped design and with the one it replaced, as ratios in one run (issue 13: "one 50-chunk file
replaced and searchable in ≤ 1 s" at 1M chunks).

    HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/scale.py measure --target local --only replace

It works on a **shallow clone** of the built tables (LanceDB ``clone_table``: a new manifest that shares
the data, deletion and index files of the source; every write lands in the clone), made in
``WORK/replace-clone`` and deleted afterwards, so the 1M dataset is never written — the clone also gets
the all-null ``retired`` column the shipped design needs (core/store_replace.py; a metadata-only change).
Runs alternate: the shipped ``Store.replace_rows`` (a ``merge_insert`` on ``chunk_id`` that flags the old
rows, then a delete of them) and the previous single ``merge_insert`` with
``when_not_matched_by_source_delete`` (:func:`full_join_replace`). Each run is timed from the start of the
commit until both legs find the new text (all 50 chunks by BM25, chunk 7 by the vector leg) and the
previous version's text is gone; ``SCALE_REPLACE_RUNS`` runs of each (default 3), median and ratio.
"""

from __future__ import annotations

import os
import shutil
import statistics
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from bench.scale import settings_for
from bench.scale_child import emit


def replace(data_dir: str, corpus: Path, questions: list[str]) -> dict[str, object]:
    """Clone, warm both legs, then alternate the two designs; returns every run and the medians."""
    from core.embedder import make_embedder
    from core.store import Store

    runs = int(os.environ.get("SCALE_REPLACE_RUNS", "3"))
    settings: Any = settings_for(data_dir, corpus)
    clone = clone_tables(Path(data_dir))
    out: dict[str, object] = {}
    try:
        store = Store(clone, settings.keyword, settings.index)
        embedder = make_embedder(settings.embedding)
        for q in embedder.embed(questions[:3]):  # open the ANN and BM25 indexes before timing
            store.vector_search(q, 20)
        store.keyword_search("reimbursement limit approval", 20)
        times: dict[str, list[float]] = {"shipped": [], "full_join": []}
        previous = ""
        for i in range(2 * runs):
            design = "shipped" if i % 2 == 0 else "full_join"
            run = one_replacement(out, store, embedder, design, previous)
            previous = str(run.pop("marker"))
            times[design].append(float(run["searchable_s"]))  # type: ignore[arg-type]
            emit(out, f"run{i + 1}_{design}", run)
        medians = {k: round(statistics.median(v), 2) for k, v in times.items()}
        emit(out, "median_searchable_s", medians)
        emit(out, "ratio_full_join_over_shipped", round(medians["full_join"] / medians["shipped"], 1))
    finally:
        shutil.rmtree(clone, ignore_errors=True)
    return out


def clone_tables(data_dir: Path, folder: str = "replace-clone") -> Path:
    """Shallow clones of the ``documents`` and ``chunks`` tables of ``data_dir`` (generation 0, as
    ``build`` writes them) in a fresh ``folder`` beside it; the clone's path."""
    import lancedb
    import pyarrow as pa

    from core.store_replace import RETIRED_FIELD

    clone = data_dir.parent / folder
    shutil.rmtree(clone, ignore_errors=True)
    conn = lancedb.connect(clone / "lancedb")
    for name in ("documents", "chunks"):
        conn.clone_table(name, str(data_dir / "lancedb" / f"{name}.lance"))
    tbl = conn.open_table("chunks")
    if RETIRED_FIELD.name not in tbl.schema.names:
        tbl.add_columns(pa.schema([RETIRED_FIELD]))  # what the first Store.replace_rows would do
    return clone


def one_replacement(out: dict[str, object], store: Any, embedder: Any, design: str,
                    previous: str) -> dict[str, object]:
    """Replace the 50 chunks of one file with new text by ``design``; seconds to commit and until
    searchable (the embedding of the 50 texts is done before and not counted)."""
    from bench.scale_child import _searchable, replace_chunks
    from bench.scale_data import file_of
    from core.store_schema import path_filter
    from core.types import Chunk

    path = file_of(123 * 50)
    marker = f"zq{uuid.uuid4().hex[:10]}"
    texts = [f"{marker} revised clause {i}: the reimbursement limit for item {i} is {100 + i} euros per "
             f"claim, subject to prior approval by the line manager." for i in range(50)]
    vectors = embedder.embed(texts)
    chunks = [Chunk(chunk_id=f"{path}#{marker}-{i}", path=path, text=t, page=i // 3 + 1, page_end=i // 3 + 1,
                    section="Revised", ordinal=i, text_hash=uuid.uuid4().hex) for i, t in enumerate(texts)]
    t0 = time.perf_counter()
    if design == "shipped":
        replace_chunks(out, store, path, chunks, vectors)
    else:
        full_join_replace(store, path, chunks, vectors)
    commit_s = time.perf_counter() - t0
    while not (_searchable(store, path, marker, chunks[7].chunk_id, vectors[7])
               and not (previous and store.keyword_search(previous, 5))):
        if time.perf_counter() - t0 > 120:
            raise SystemExit(f"{design}: the replaced file never became searchable")
    searchable_s = time.perf_counter() - t0
    live = len(store.chunk_rows(path_filter([path]), ["chunk_id"]))
    return {"marker": marker, "commit_s": round(commit_s, 3), "searchable_s": round(searchable_s, 3),
            "file_chunks_after": live}


def full_join_replace(store: Any, path: str, chunks: list[Any], vectors: np.ndarray) -> None:
    """The replacement shipped before core/store_replace.py, the baseline: one
    ``merge_insert("chunk_id")`` with ``when_not_matched_by_source_delete(path = …)`` (atomic, but an
    outer join over every row of the table), rows cut to the table's columns."""
    import pyarrow as pa

    from core.store_schema import chunk_row, chunks_schema, path_filter

    tbl = store._chunks()
    rows = [chunk_row(c, v) for c, v in zip(chunks, vectors, strict=True)]
    data = pa.Table.from_pylist(rows, schema=chunks_schema(int(vectors.shape[1])))
    data = data.select(tbl.schema.names).cast(tbl.schema)
    (tbl.merge_insert("chunk_id").when_matched_update_all().when_not_matched_insert_all()
     .when_not_matched_by_source_delete(path_filter([path])).execute(data))
