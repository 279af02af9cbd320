"""50 questions from 10 users at once: 50 replies, each in its own thread, no duplicates."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.slack_standin import event_body
from tests.slack_standin.harness import BotEnv, open_env


@pytest.fixture
def bot_env(tmp_path: Path) -> Iterator[BotEnv]:
    with open_env(tmp_path) as env:
        yield env



def test_fifty_questions_from_ten_users_get_fifty_replies(bot_env: BotEnv) -> None:
    topics = ["vacation", "parental leave", "grace period for Plan A", "grace period for Plan B", "vacation"]
    bodies = [event_body("app_mention", user=f"U0LOAD{u:04d}", ts=f"1718002{u:03d}.{q:06d}",
                         text=f"<@U0FAKEBOT1> what about {topics[q]}?")
              for u in range(10) for q in range(5)]
    with ThreadPoolExecutor(max_workers=10) as pool:
        statuses = list(pool.map(bot_env.send, bodies))
    bot_env.settle()
    assert statuses == [200] * 50
    posts = bot_env.slack.calls_to("chat.postMessage")
    threads = [p.args["thread_ts"] for p in posts]
    assert sorted(threads) == sorted(b["event"]["ts"] for b in bodies)
    assert bot_env.slack.state.ephemerals == []  # nobody hit a rate limit
