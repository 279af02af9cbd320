"""Wiring of the verified-answer cache: the composition root's invalidation subscription (a real
Indexer on a temp folder), the TTL / metrics jobs on the real maintenance scheduler, the CLI twins of
the admin commands, the CachedAnswerService decorator, and the answer log's added columns.

The fake embedder throughout (the model is not the subject); real LanceDB in tmp_path.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from core.answer_log import ANSWERS_SCHEMA, AnswerLog
from core.blobs import LocalBlobStore
from core.cache import LoggedAnswer
from core.cache.jobs import read_published, schedule_cache_jobs
from core.cache.service import CachedAnswerService
from core.config import load_config
from core.database import Database
from core.types import Answer, Citation, Turn
from indexer.scheduler import MaintenanceScheduler
from policybot.cli import cli
from policybot.factory import App
from tests.cache_helpers import cache_env

GRACE = "The grace period for payment of the premium is thirty days."
QUESTION = "What is the grace period for premium payment?"
DAY = 86_400.0


def wait_for(predicate: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds pass."""
    end = time.monotonic() + timeout
    while not predicate() and time.monotonic() < end:
        time.sleep(0.05)
    return predicate()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    """An App on a temp policy folder with one Markdown policy, indexed, fake embedder."""
    policies = tmp_path / "policies"
    policies.mkdir()
    (policies / "grace.md").write_text(f"# Premium\n\n## Grace period\n\n{GRACE}\n")
    cfg = tmp_path / "config.yaml"
    cfg.write_text("embedding:\n  provider: fake\nrerank:\n  enabled: false\n"
                   f"policies:\n  root: {policies}\ndata_dir: {tmp_path / 'data'}\n")
    built = App(load_config(cfg))
    built.indexer.reconcile()
    yield built
    built.close()


def admit_grace(app: App) -> str:
    """Upvote an answer citing the indexed grace-period chunk; returns its cache entry id."""
    (row,) = app.store.chunk_rows("path = 'grace.md'", columns=["chunk_id", "text_hash", "section"])
    cite = Citation("grace.md", None, row["section"], 0.9, row["chunk_id"], row["text_hash"])
    logged = LoggedAnswer("a1", QUESTION, GRACE, [cite], provider="extractive")
    assert app.answer_cache.record_vote(logged, "U1", "up").status == "active"
    return "a1"


def test_changed_source_invalidates_cached_answers_through_the_indexer(app: App) -> None:
    admit_grace(app)
    (app.settings.policies.root / "grace.md").write_text("# Premium\n\nThe grace period is 15 days.\n")
    app.indexer.reconcile()
    assert app.answer_cache.stats().invalidations == {"source changed": 1}
    assert not isinstance(app.answer_cache.lookup(QUESTION), Answer)


def test_cli_cache_stats_json_and_forget(app: App, tmp_path: Path) -> None:
    entry = admit_grace(app)
    runner, cfg = CliRunner(), str(tmp_path / "config.yaml")
    stats = runner.invoke(cli, ["--config", cfg, "cache", "stats", "--json"])
    forgot = runner.invoke(cli, ["--config", cfg, "cache", "forget", entry])
    again = runner.invoke(cli, ["--config", cfg, "cache", "forget", entry])
    assert stats.exit_code == 0 and json.loads(stats.stdout)["entries"]["active"] == 1
    assert forgot.exit_code == 0 and again.exit_code == 1
    # the bot's cache sees the CLI's forget within store.read_consistency_s (another App = another process)
    assert wait_for(lambda: not isinstance(app.answer_cache.lookup(QUESTION), Answer), 30)


def test_ttl_and_metrics_jobs_run_on_the_maintenance_scheduler(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", QUESTION)
    env.clock.now += 91 * DAY
    settings = load_config(None, data_dir=tmp_path / "data")
    scheduler = MaintenanceScheduler()
    blobs = LocalBlobStore(tmp_path / "data" / "blobs")
    schedule_cache_jobs(scheduler, env.cache, settings, blobs)
    scheduler.start()
    try:
        assert wait_for(lambda: scheduler.history["cache-expire"].runs == 1)  # first run at start
        scheduler.run_soon("cache-metrics")
        assert wait_for(lambda: scheduler.history["cache-metrics"].runs == 1)
    finally:
        scheduler.shutdown()
    published = read_published(blobs)
    assert published is not None and published["invalidations"] == {"expired": 1}


class CountingService:
    """An inner AnswerService that counts calls and answers with a fixed text."""

    def __init__(self) -> None:
        self.calls = 0

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)) -> Answer:
        self.calls += 1
        return Answer("from retrieval", [], "fake")

    def ask_stream(self, question: str, *, history: Sequence[Turn] = (),
                   scope: Sequence[str] = ("**",)) -> Iterator[str | Answer]:
        yield "from "
        yield self.ask(question, history=history, scope=scope)


def test_stream_hit_yields_only_the_cached_answer(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", QUESTION)
    inner = CountingService()
    items = list(CachedAnswerService(inner, env.cache).ask_stream(QUESTION))
    assert inner.calls == 0 and len(items) == 1 and isinstance(items[0], Answer) and items[0].cached


def test_broken_cache_falls_through_to_the_inner_service(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    env.admit("a1", QUESTION)
    env.store.db.drop_table("answer_cache")  # lookups now fail inside LanceDB
    inner = CountingService()
    answer = CachedAnswerService(inner, env.cache).ask(QUESTION)
    assert answer.answer == "from retrieval" and inner.calls == 1


def test_follow_up_answer_is_marked_not_cacheable(tmp_path: Path) -> None:
    env = cache_env(tmp_path)
    answer = CachedAnswerService(CountingService(), env.cache).ask("And Plan B?",
                                                                    history=[Turn("user", QUESTION)])
    assert answer.details["cache_skip"] == "follow-up"


def test_answer_log_of_an_older_schema_gets_scope_and_details(tmp_path: Path) -> None:
    db = Database(tmp_path)
    old = pa.schema([f for f in ANSWERS_SCHEMA if f.name not in ("scope", "details")])
    row = dict(answer_id="a1", channel="C", thread_ts="1", question_ts="1", message_ts="2", parts="2",
               user="U", question="q", answer="a", citations="[]", provider="p", cached=False, created_at=1.0)
    db.create_table("answers", schema=old).add(pa.Table.from_pylist([row], schema=old))
    rec = AnswerLog(Database(tmp_path)).get("a1")
    assert rec is not None and rec.scope == ("**",) and rec.details == {}
