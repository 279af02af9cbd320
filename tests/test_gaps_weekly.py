"""The weekly gap post (core.gaps.jobs.WeeklyGapJob) with a fake Notifier and a real LocalBlobStore:
once per week and owner, only owners with groups, retries after a failed post, the week boundary; and
the digest rendering (bot.gaps) within Slack's limits."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.gaps import render_digest
from core.blobs import LocalBlobStore
from core.config import GapsSettings
from core.gaps import GapGroup, GapReport, OwnerDigest, WeeklyGapJob, load_latest
from core.gaps.jobs import week_start
from core.gaps.report import DocRef
from tests.slack_standin.methods import check_blocks

OWNERS = {"hr/**": "U0HRLEAD01", "insurance/**": "C0INSURE01", "legal/**": "U0LEGAL001"}
MONDAY_10 = datetime(2026, 11, 30, 10, 0, tzinfo=UTC).timestamp()  # a Monday, after 09:00 UTC


def group(file: str, owners: tuple[str, ...], n: int = 2) -> GapGroup:
    return GapGroup(count=n, examples=("How much for a desk?", "Desk budget?"), signals={"declined": n},
                    reasons=("too vague",), documents=(DocRef(file, "Home Office", None, 0.61),), cited=(),
                    owners=owners, first_asked_at=MONDAY_10 - 3600, last_asked_at=MONDAY_10 - 60)


REPORT = GapReport(MONDAY_10, MONDAY_10 - 7 * 86400, MONDAY_10, 40, 5, 0.45,
                   (group("hr/a.md", ("U0HRLEAD01",), 3), group("insurance/b.pdf", ("C0INSURE01",))))


class FakeNotifier:
    """Records digests; fails for owners in ``failing``."""

    def __init__(self, failing: set[str] | None = None) -> None:
        self.sent: list[OwnerDigest] = []
        self.failing = failing or set()

    def send(self, digest: OwnerDigest) -> None:
        if digest.owner in self.failing:
            raise RuntimeError("slack said no")
        self.sent.append(digest)


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def job(tmp_path: Path, notifier: FakeNotifier, clock: Clock, report: GapReport = REPORT,
        builds: list[float] | None = None) -> WeeklyGapJob:
    def build(now: float) -> GapReport:
        (builds if builds is not None else []).append(now)
        return report
    blobs = LocalBlobStore(tmp_path / "blobs")
    return WeeklyGapJob(build, notifier, GapsSettings(owners=OWNERS), blobs, clock)


def test_each_owner_with_groups_gets_one_digest_and_others_none(tmp_path: Path) -> None:
    fake = FakeNotifier()
    assert sorted(job(tmp_path, fake, Clock(MONDAY_10)).run()) == ["C0INSURE01", "U0HRLEAD01"]
    assert {d.owner: (d.globs, len(d.groups)) for d in fake.sent} == {
        "U0HRLEAD01": (("hr/**",), 1), "C0INSURE01": (("insurance/**",), 1)}


def test_the_same_week_posts_nothing_twice_even_from_another_process(tmp_path: Path) -> None:
    fake, builds = FakeNotifier(), []
    job(tmp_path, fake, Clock(MONDAY_10)).run()
    later = Clock(MONDAY_10 + 3 * 86400)
    assert job(tmp_path, fake, later, builds=builds).run() == []
    assert builds == [] and len(fake.sent) == 2


def test_next_week_posts_again(tmp_path: Path) -> None:
    fake = FakeNotifier()
    job(tmp_path, fake, Clock(MONDAY_10)).run()
    assert len(job(tmp_path, fake, Clock(MONDAY_10 + 7 * 86400)).run()) == 2


def test_a_failed_post_is_retried_at_the_next_check_without_reposting_the_others(tmp_path: Path) -> None:
    failing = FakeNotifier({"C0INSURE01"})
    assert job(tmp_path, failing, Clock(MONDAY_10)).run() == ["U0HRLEAD01"]
    fixed = FakeNotifier()
    assert job(tmp_path, fixed, Clock(MONDAY_10 + 3600)).run() == ["C0INSURE01"]


def test_a_failed_build_releases_the_week(tmp_path: Path) -> None:
    def broken(now: float) -> GapReport:
        raise OSError("store unreadable")

    blobs = LocalBlobStore(tmp_path / "blobs")
    with pytest.raises(OSError):
        WeeklyGapJob(broken, FakeNotifier(), GapsSettings(owners=OWNERS), blobs, Clock(MONDAY_10)).run()
    assert len(job(tmp_path, FakeNotifier(), Clock(MONDAY_10)).run()) == 2


def test_nothing_to_say_posts_nothing_but_keeps_the_latest_report(tmp_path: Path) -> None:
    fake = FakeNotifier()
    empty = GapReport(MONDAY_10, MONDAY_10 - 7 * 86400, MONDAY_10, 40, 0, 0.45, ())
    assert job(tmp_path, fake, Clock(MONDAY_10), report=empty).run() == []
    assert fake.sent == []
    latest = load_latest(LocalBlobStore(tmp_path / "blobs"))
    assert latest is not None and latest.questions == 40 and latest.groups == ()


def test_week_start_is_the_last_configured_weekday_and_hour() -> None:
    s = GapsSettings(weekday="mon", hour=9, timezone="UTC")
    assert week_start(MONDAY_10, s) == datetime(2026, 11, 30, 9, tzinfo=UTC)
    assert week_start(MONDAY_10 - 2 * 3600, s) == datetime(2026, 11, 23, 9, tzinfo=UTC)  # Monday 08:00
    berlin = GapsSettings(weekday="fri", hour=17, timezone="Europe/Berlin")
    assert week_start(MONDAY_10, berlin).isoformat() == "2026-11-27T17:00:00+01:00"


def test_digest_is_one_valid_message_even_with_many_groups() -> None:
    many = tuple(group("hr/a.md", ("U0HRLEAD01",)) for _ in range(80))
    msg = render_digest(OwnerDigest("U0HRLEAD01", ("hr/**",), many, MONDAY_10 - 7 * 86400, MONDAY_10))
    check_blocks(msg.blocks)
    assert "more groups not shown" in msg.blocks[-1]["elements"][0]["text"]
    assert sum(len(b["text"]["text"]) for b in msg.blocks if b["type"] == "section") <= 12000


def test_digest_escapes_question_text() -> None:
    g = GapGroup(count=1, examples=("<!channel> is <b> covered?",), signals={"downvoted": 1}, reasons=(),
                 documents=(), cited=(), owners=("U0HRLEAD01",), first_asked_at=0.0, last_asked_at=0.0)
    msg = render_digest(OwnerDigest("U0HRLEAD01", ("hr/**",), (g,), 0.0, 1.0))
    assert "&lt;!channel&gt; is &lt;b&gt; covered?" in msg.blocks[1]["text"]["text"]


class FakeScheduler:
    def __init__(self) -> None:
        self.jobs: list[tuple[str, float, bool]] = []

    def add_job(self, fn: object, interval_s: float, name: str, *, run_now: bool = False) -> None:
        self.jobs.append((name, interval_s, run_now))


def test_run_schedules_the_weekly_check_on_the_maintenance_scheduler(tmp_path: Path) -> None:
    from core.config import Secrets, Settings
    from policybot.factory import App
    from policybot.gaps_cli import schedule_weekly

    app = App(Settings(data_dir=tmp_path / "data", gaps=GapsSettings(owners=OWNERS, check_interval_s=1800)),
              Secrets(slack_bot_token="xoxb-fake"))
    sched = FakeScheduler()
    schedule_weekly(app, sched)
    assert sched.jobs == [("gaps-weekly", 1800.0, True)]


def test_gaps_without_an_index_says_what_to_do(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from policybot.cli import cli

    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path / "none"), "gaps"])
    assert result.exit_code == 2 and "no index" in result.output and "policybot index" in result.output
    assert not (tmp_path / "none").exists()


def test_owner_ids_are_checked_in_the_config() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="not a Slack user"):
        GapsSettings(owners={"hr/**": "hr-team"})
