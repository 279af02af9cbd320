"""Issue 13 item 4 (stateless replicas) end to end: three REAL ``policybot run --http-port`` processes
on one ``s3://`` data dir (SeaweedFS on 127.0.0.1) and the local Slack (tests/slack_standin).

1. Replica A starts and leads (its first reconcile of many files); B and C start meanwhile and serve
   only. ``kill -9`` of A in the middle of that reconcile → B or C holds the lease within
   ``store.lease_ttl_s`` + 5 s, and its reconcile completes with every file indexed once and no
   duplicate chunks. A new replica takes A's place (serving only).
2. 30 questions from the signed-event driver, each delivered twice (the second time as Slack's retry) to
   two different replicas → exactly 30 answers.
3. 👍 from 3 users on one answer, each reaction delivered to two replicas → 3 votes.
4. ``/metrics`` of every replica shows the questions by outcome (summing to 30) and the answer latency
   histogram; ``/readyz`` is 200 on each.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from core.answer_log import AnswerLog
from core.database import Database
from core.lease import LeaseInfo, read_lease
from core.store import Store
from tests.cli_helpers import ENTRY, REPO, free_port
from tests.incremental_helpers import write_policy
from tests.slack_standin import EventsDriver, SlackStandIn, event_body
from tests.slack_standin.web_api import BOT_TOKEN

SECRET = "replica-signing-secret"
FILES = 120
TTL_S = 6.0
QUESTIONS = 30
CHANNEL = "C0FAKEPOL1"
VOTERS = ("U0FAKEUSR1", "U0FAKEUSR2", "U0FAKEUSR3")
DUPLICATE_WINDOW_S = 5.0
"""How long after the last first answer a second answer to any question is still looked for."""
POLL_S = 0.25
"""How often :func:`wait_for` looks (a look may read LanceDB over S3: CPU the replicas need)."""


def wait_for(check: Callable[[], object], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
        except (OSError, ValueError, RuntimeError):  # a table being created: look again
            value = None
        if value:
            return value
        time.sleep(POLL_S)
    pytest.fail(f"timed out waiting for {what}")


class Replica:
    """``policybot run --http-port N`` in its own process group, output collected to a file."""

    def __init__(self, config: Path, uri: str, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", ENTRY, "--config", str(config), "--data-dir", uri, "run", "--http-port",
             str(self.port), "--host", "127.0.0.1"], cwd=REPO, env=env, stdin=subprocess.DEVNULL,
            stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)

    def printed(self, text: str) -> bool:
        return text in self.log.read_text(errors="replace")

    def serving(self) -> bool:
        return self.printed("serving Slack in HTTP mode")

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as resp:  # noqa: S310 - local
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)


def _leader(store: Store) -> LeaseInfo | None:
    info = read_lease(store.blobs)
    return info if info is not None and info.live(time.time()) else None


@pytest.fixture
def cluster(tmp_path: Path, s3_uri: str, s3_env: dict[str, str]) -> Iterator[dict[str, Any]]:
    root = tmp_path / "policies"
    for i in range(FILES):
        write_policy(root / f"dept{i % 4}" / f"policy_{i:03d}.md", range(i * 10, i * 10 + 8), f"Policy {i}")
    with SlackStandIn() as slack:
        config = tmp_path / "config.yaml"
        config.write_text(json.dumps({
            "policies": {"root": str(root)}, "embedding": {"provider": "fake"}, "rerank": {"enabled": False},
            "chunking": {"max_tokens": 48, "overlap_tokens": 0},
            "store": {"lease_ttl_s": TTL_S, "read_consistency_s": 1},
            "slack": {"api_base_url": slack.base_url, "stream": False, "user_rate_per_minute": 1000,
                      "channel_rate_per_minute": 1000}}), encoding="utf-8")
        env = {**os.environ, **s3_env, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "PYTHONUNBUFFERED": "1", "SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SECRET}
        env.pop("SLACK_APP_TOKEN", None)
        names = (f"replica-{n}.log" for n in itertools.count())
        replicas: list[Replica] = []

        def start() -> Replica:
            replicas.append(Replica(config, s3_uri, env, tmp_path / next(names)))
            return replicas[-1]

        try:
            yield {"root": root, "slack": slack, "start": start, "store": Store(s3_uri), "uri": s3_uri}
        finally:
            for r in replicas:
                r.kill()
            for r in replicas:
                print(f"--- {r.log.name}\n{r.log.read_text(errors='replace')[-3000:]}")


def test_three_replicas_answer_once_vote_once_and_hand_over_the_index(cluster: dict[str, Any]) -> None:
    store, slack, start, root = cluster["store"], cluster["slack"], cluster["start"], cluster["root"]
    first = start()
    held = wait_for(lambda: _leader(store), 180, "the first replica to take the lease")
    assert held.pid == first.proc.pid
    others = [start(), start()]
    wait_for(lambda: all(r.printed("another process leads the index") for r in others), 240,
             "the other replicas to start as followers")
    indexed = len(store.documents())
    assert 0 < indexed < FILES, f"kill -9 must come mid-reconcile ({indexed} of {FILES} indexed)"
    os.killpg(first.proc.pid, signal.SIGKILL)
    killed_at = time.time()
    took = wait_for(lambda: (i := _leader(store)) is not None and i.pid != first.proc.pid and i, TTL_S + 60,
                    "another replica to take the lease")
    print(f"lease taken over {took.since - killed_at:.1f} s after kill -9 (TTL {TTL_S} s)")
    assert took.pid in {r.proc.pid for r in others} and took.since - killed_at <= TTL_S + 5.0
    files = {p.relative_to(root).as_posix() for p in root.rglob("*.md")}
    wait_for(lambda: set(store.documents()) == files and store.state().reconciled_at > killed_at, 300,
             "the new leader's reconcile to finish")
    docs = store.documents()
    assert all(d.status == "indexed" for d in docs.values()) and store.duplicate_chunk_ids() == 0
    counts = store.chunk_counts()
    assert set(counts) == files and all(counts[p] == d.chunk_count for p, d in docs.items())

    replicas = [*others, start()]  # A's replacement: serves only
    wait_for(lambda: all(r.serving() for r in replicas), 240, "three replicas serving")
    wait_for(lambda: all(r.get("/readyz")[0] == 200 for r in replicas), 240, "three replicas ready")
    asked, answered_at = _ask_each_twice(replicas, slack)
    _vote_from_three_users(replicas, slack, asked[0], cluster["uri"])
    _metrics_show_the_questions(replicas)
    _no_second_answer(slack, asked, answered_at)


def _answers(slack: SlackStandIn, asked: list[str]) -> list[str]:
    """The thread of every answer posted to one of the ``asked`` questions (one entry per answer)."""
    return [c.args.get("thread_ts") for c in slack.calls_to("chat.postMessage")
            if c.args.get("thread_ts") in asked]


def _ask_each_twice(replicas: list[Replica], slack: SlackStandIn) -> tuple[list[str], float]:
    """30 mentions, each sent to replica i and retried on replica i+1 at once; every one answered.
    Returns the questions' ts and when the last first answer was seen (``time.monotonic()``)."""
    drivers = [EventsDriver(r.url + "/slack/events", SECRET, slack) for r in replicas]
    bodies = [event_body("app_mention", ts=f"1718100{i:03d}.000100",
                         text=f"<@U0FAKEBOT1> what does policy {i} say about item {i * 10 + 3}?",
                         channel=CHANNEL, thread_ts=None)
              for i in range(QUESTIONS)]

    def deliver(job: tuple[int, int]) -> int:
        i, attempt = job
        replica = (i + attempt) % len(drivers)
        return drivers[replica].send_event(bodies[i], retry_num=attempt or None).status

    try:
        with ThreadPoolExecutor(6) as pool:
            statuses = list(pool.map(deliver, [(i, a) for i in range(QUESTIONS) for a in (0, 1)]))
    finally:
        for d in drivers:
            d.close()
    assert set(statuses) == {200}
    asked = [b["event"]["ts"] for b in bodies]
    wait_for(lambda: len(set(_answers(slack, asked))) == QUESTIONS, 600, "an answer to every question")
    return asked, time.monotonic()


def _no_second_answer(slack: SlackStandIn, asked: list[str], answered_at: float) -> None:
    """Exactly one answer per question, counted at least :data:`DUPLICATE_WINDOW_S` after the last first
    answer (a duplicate would arrive within seconds of it); the votes and metrics checks run in that
    window instead of a sleep."""
    time.sleep(max(0.0, answered_at + DUPLICATE_WINDOW_S - time.monotonic()))
    got = _answers(slack, asked)
    assert len(got) == QUESTIONS and set(got) == set(asked), f"{len(got)} answers to {QUESTIONS} questions"


def _vote_from_three_users(replicas: list[Replica], slack: SlackStandIn, thread: str, uri: str) -> None:
    log = AnswerLog(Database(uri))
    (rec,) = wait_for(lambda: log.thread(CHANNEL, thread), 60, "the first answer in the answer log")
    drivers = [EventsDriver(r.url + "/slack/events", SECRET, slack) for r in replicas]
    try:
        jobs = []
        for n, user in enumerate(VOTERS):
            body = event_body("reaction_added", user=user, reaction="+1",
                              item={"type": "message", "channel": CHANNEL, "ts": rec.message_ts})
            jobs += [(drivers[n % 3], body, None), (drivers[(n + 1) % 3], body, 1)]
        with ThreadPoolExecutor(6) as pool:
            statuses = list(pool.map(lambda j: j[0].send_event(j[1], retry_num=j[2]).status, jobs))
    finally:
        for d in drivers:
            d.close()
    assert set(statuses) == {200}
    votes = wait_for(lambda: len(v := AnswerLog(Database(uri)).votes(rec.answer_id)) == 3 and v, 120,
                     "three votes")
    assert votes == dict.fromkeys(VOTERS, "up")


def _metrics_show_the_questions(replicas: list[Replica]) -> None:
    by_outcome: dict[str, float] = {}
    histogram = 0.0
    for r in replicas:
        status, text = r.get("/metrics")
        assert status == 200
        for fam in text_string_to_metric_families(text):
            for s in fam.samples:
                if s.name == "policybot_questions_total" and s.labels["surface"] == "slack":
                    by_outcome[s.labels["outcome"]] = by_outcome.get(s.labels["outcome"], 0) + s.value
                if s.name == "policybot_answer_stage_duration_seconds_count" and s.labels["stage"] == "total":
                    histogram += s.value
    print(f"questions by outcome over the replicas: {by_outcome}; latency observations: {histogram}")
    assert sum(by_outcome.values()) == QUESTIONS and set(by_outcome) >= {"answered", "declined", "error"}
    assert by_outcome["error"] == 0 and histogram == QUESTIONS
