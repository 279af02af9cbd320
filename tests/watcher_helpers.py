"""Shared helpers of the tests/test_watcher_*.py files: a started watcher on a temp policy folder with
real watchdog observers (native inotify or polling), a recording Indexer, index-state checks."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from watchdog.observers import Observer

from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import Store, sql_str
from indexer.observers import ObserverFactory
from indexer.pipeline import Indexer, Outcome, scan
from indexer.watcher import PolicyWatcher, start_watching

DEADLINE_S = 40.0
FAST_WATCH = {"debounce_s": 0.15, "stable_s": 0.2, "poll_interval_s": 0.1, "retry_max_s": 0.8,
              "reconcile_interval_s": 3600}


@dataclass(frozen=True)
class Call:
    """One ``index_path`` call: relative path, file size at call time (-1: missing), thread id."""

    rel: str
    size: int
    thread: int


class RecordingIndexer(Indexer):
    """The real :class:`Indexer`, recording every ``index_path`` call the watcher makes."""

    calls: list[Call]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls = []

    def index_path(self, abs_path: Path) -> Outcome:
        try:
            size = abs_path.stat().st_size
        except OSError:
            size = -1
        rel = Path(os.path.abspath(abs_path)).relative_to(self.root).as_posix()
        self.calls.append(Call(rel, size, threading.get_ident()))
        return super().index_path(abs_path)


class CountingEmbedder(FakeEmbedder):
    """The FakeEmbedder, counting the texts it embeds (a rename must embed none)."""

    embedded = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded += len(texts)
        return super().embed(texts)


@dataclass
class Watched:
    """A running watcher on ``root`` with its store and recording indexer."""

    root: Path
    settings: Settings
    store: Store
    indexer: RecordingIndexer
    watcher: PolicyWatcher
    embedder: CountingEmbedder
    outside: Path = field(default_factory=Path)


def make_settings(tmp_path: Path, root: Path, observer: str, **watch: object) -> Settings:
    """Settings with the fake embedder and fast watch timings."""
    return Settings.model_validate({
        "data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
        "embedding": {"provider": "fake"}, "watch": {"observer": observer, **FAST_WATCH, **watch}})


@contextmanager
def watching(tmp_path: Path, observer: str, native_factory: ObserverFactory = Observer,
             **watch: object) -> Iterator[Watched]:
    """Start a watcher on ``tmp_path/policies`` (files already there are reconciled first)."""
    root = tmp_path / "policies"
    root.mkdir(exist_ok=True)
    settings = make_settings(tmp_path, root, observer, **watch)
    store = Store(settings.data_dir)
    embedder = CountingEmbedder()
    indexer = RecordingIndexer(settings, store, lambda: embedder)
    watcher = start_watching(settings, indexer, native_factory=native_factory)
    try:
        outside = tmp_path / "outside"
        outside.mkdir(exist_ok=True)
        yield Watched(root.resolve(), settings, store, indexer, watcher, embedder, outside)
    finally:
        watcher.stop()


def wait_for(cond: Callable[[], bool], deadline_s: float = DEADLINE_S) -> bool:
    """Poll ``cond`` every 50 ms until it holds or ``deadline_s`` passes."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def settle(w: Watched, cond: Callable[[], bool], deadline_s: float = DEADLINE_S) -> None:
    """Wait until ``cond`` holds and the watcher is idle (twice in a row, so late events are seen);
    ``deadline_s`` is a liveness bound, never a speed assertion."""
    def done() -> bool:
        return w.watcher.idle() and cond()

    assert wait_for(done, deadline_s), f"not reached; documents={sorted(w.store.documents())}"
    time.sleep(max(w.settings.watch.debounce_s, w.settings.watch.poll_interval_s) * 3)
    assert wait_for(done), f"not stable; documents={sorted(w.store.documents())}"


def indexed(w: Watched) -> set[str]:
    """Paths whose documents row says ``indexed``."""
    return {p for p, d in w.store.documents().items() if d.status == "indexed"}


def texts(w: Watched, rel: str) -> str:
    """All chunk text of ``rel``, joined."""
    rows = w.store.chunk_rows(f"path = {sql_str(rel)}", ["text"])
    return "\n".join(r["text"] for r in rows)


def assert_index_matches_folder(w: Watched) -> None:
    """documents == indexable files on disk, every one indexed; chunks table agrees with the documents
    table (row counts per file); no duplicate chunk ids, no duplicate (path, ordinal)."""
    on_disk = set(scan(w.root, w.settings))
    docs = w.store.documents()
    assert set(docs) == on_disk
    assert all(d.status == "indexed" for d in docs.values()), {p: d.error for p, d in docs.items()}
    rows = w.store.chunk_rows(columns=["chunk_id", "path", "ordinal"])
    ids = Counter(r["chunk_id"] for r in rows)
    assert [i for i, n in ids.items() if n > 1] == []
    slots = Counter((r["path"], r["ordinal"]) for r in rows)
    assert [s for s, n in slots.items() if n > 1] == []
    per_path = Counter(r["path"] for r in rows)
    assert dict(per_path) == {p: d.chunk_count for p, d in docs.items() if d.chunk_count}
