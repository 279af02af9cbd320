"""Slack handler latency: 50 questions from 10 users at once through the real bolt app.

The app (real slack_bolt + slack_sdk) runs against the local Slack stand-in (tests/slack_standin) in
HTTP mode; the answer service is the real PolicyAnswerService in extractive mode (hybrid retrieval
over the sample ``policies/`` with the configured embedder and reranker). Prints, per question:
  - handler time: delivery of the signed event → the reply's ``chat.postMessage`` at the local Slack
    (includes queueing behind the bot's background workers),
  - service time: ``service.ask`` alone,
and their p50/p95/max, plus the ack time of the HTTP delivery.

Run from the repo root: ``HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python bench/bench_slack.py [--workers 4]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bot.app import build_app
from bot.runner import EVENTS_PATH, make_http_server
from bot.work import BackgroundWork
from core.answer_log import AnswerLog
from core.config import SlackSettings, load_config
from core.types import Answer, Turn
from indexer.pipeline import Indexer
from policybot.factory import App as Root
from tests.slack_standin import EventsDriver, SlackStandIn, event_body
from tests.slack_standin.events import Delivery
from tests.slack_standin.harness import SIGNING_SECRET, secrets

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = [
    "How many days a week can I work remotely?",
    "What is the internet allowance for remote work?",
    "What are the core hours?",
    "How much is the home office stipend?",
    "Can I work from another country?",
]


class TimedService:
    """Wraps an answer service and records the milliseconds of every ``ask``."""

    def __init__(self, inner: Root) -> None:
        self.inner = inner.service
        self.ms: list[float] = []
        self.lock = threading.Lock()

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)) -> Answer:
        t = time.perf_counter()
        a = self.inner.ask(question, history=history, scope=scope)
        with self.lock:
            self.ms.append((time.perf_counter() - t) * 1000)
        return a

    def ask_stream(self, question: str, *, history: Sequence[Turn] = (),
                   scope: Sequence[str] = ("**",)) -> Iterator[str | Answer]:
        yield self.ask(question, history=history, scope=scope)


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=4, help="bot background workers")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, SlackStandIn() as slack:
        base = load_config(REPO / "config.yaml", data_dir=Path(tmp))
        slack_settings = SlackSettings(api_base_url=slack.base_url, stream=False,
                                       user_rate_per_minute=100, channel_rate_per_minute=100)
        settings = base.model_copy(update={"slack": slack_settings})
        root = Root(settings)
        t = time.perf_counter()
        summary = Indexer(settings, root.store, root.embedder_factory).reconcile()
        print(f"indexed policies/ in {time.perf_counter() - t:.1f} s: {summary}")
        service = TimedService(root)
        service.ask("warm up: remote work")  # load models before timing
        service.ms.clear()
        work = BackgroundWork(workers=args.workers)
        app = build_app(settings, secrets(), service, AnswerLog(root.store.db), work=work, blobs=root.blobs)
        server = make_http_server(app, 0, host="127.0.0.1")
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}{EVENTS_PATH}"
        driver = EventsDriver(url, SIGNING_SECRET, slack)
        bodies = [event_body("app_mention", user=f"U0BENCH{u:03d}", ts=f"1718003{u:03d}.{q:06d}",
                             text=f"<@U0FAKEBOT1> {QUESTIONS[q]}") for u in range(10) for q in range(5)]
        with ThreadPoolExecutor(max_workers=10) as pool:
            deliveries = list(pool.map(driver.send_event, bodies))
        assert work.drain(600)
        report(slack, bodies, deliveries, service.ms, args.workers)
        server.shutdown()
        work.shutdown()
        driver.close()


def report(slack: SlackStandIn, bodies: list[dict[str, Any]], deliveries: list[Delivery],
           service_ms: list[float], workers: int) -> None:
    """Print the figures."""
    posted = {c.args["thread_ts"]: c.at for c in slack.calls_to("chat.postMessage")}
    handler = [(posted[b["event"]["ts"]] - d.sent_at) * 1000
               for b, d in zip(bodies, deliveries, strict=True)]
    print(f"replies: {len(posted)} / {len(bodies)}; HTTP statuses: "
          f"{sorted({d.status for d in deliveries})}; workers: {workers}")
    ack = [(d.acked_at - d.sent_at) * 1000 for d in deliveries]
    for name, vals in (("handler (event -> reply)", handler), ("service.ask", service_ms),
                       ("HTTP ack", ack)):
        print(f"{name:26s} p50 {statistics.median(vals):7.0f} ms  p95 {pct(vals, 95):7.0f} ms  "
              f"max {max(vals):7.0f} ms  (n={len(vals)})")


if __name__ == "__main__":
    main()
