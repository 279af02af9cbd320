"""Watcher, a 200-file bulk copy (``cp -r``) with real watchdog observers (native inotify and polling),
real LanceDB and the FakeEmbedder: events are coalesced per path (at most one index call per file), all
index work runs on one worker thread, and the index ends matching the folder without duplicate chunks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.watcher_helpers import assert_index_matches_folder, indexed, settle, texts, watching

OBSERVERS = ["native", "polling"]
BULK_DEADLINE_S = 180.0
"""Liveness bound for indexing 200 files (~28 s on an idle CI host, 40 s at load 10): not a speed test."""


def policy_text(n: int) -> str:
    return f"# Policy {n}\n\nRule {n}: the approval limit for team {n} is {n * 10} euros.\n"


@pytest.mark.parametrize("observer", OBSERVERS)
def test_bulk_copy_of_200_files_is_at_most_200_index_calls_on_one_thread(
        tmp_path: Path, observer: str) -> None:
    source = tmp_path / "upload"
    source.mkdir()
    for n in range(200):
        (source / f"policy_{n:03}.md").write_text(policy_text(n))
    with watching(tmp_path, observer) as w:
        settle(w, lambda: w.watcher.scheduler.history["reconcile"].runs == 1)
        shutil.copytree(source, w.root / "bulk")
        settle(w, lambda: len(indexed(w)) == 200, BULK_DEADLINE_S)
        calls = w.indexer.calls
        assert len(calls) <= 200
        assert {c.rel for c in calls} == {f"bulk/policy_{n:03}.md" for n in range(200)}
        assert len({c.thread for c in calls}) == 1
        assert "approval limit for team 199 is 1990 euros" in texts(w, "bulk/policy_199.md")
        assert_index_matches_folder(w)
