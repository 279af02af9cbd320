"""``policybot gaps [--since 7d] [--json] [--report PATH]`` and the weekly owner post's wiring.

The report is built from the answer log in the data dir (:mod:`core.gaps`): the questions of the
window that were declined, answered with low answerability, 👎'd or asked again, grouped by meaning,
each group with examples, the nearest indexed documents and the 👎 reasons. It loads the embedding
model (questions are embedded to group them) — unless the window holds no question. Each run also
becomes the latest report admins see in the App Home.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from core.errors import PolicybotError, StoreError

if TYPE_CHECKING:  # core.gaps imports numpy and LanceDB: loaded by the command, so --help stays fast
    from core.gaps import GapReport, WeeklyGapJob
    from core.gaps.jobs import Scheduler
    from core.gaps.report import Search
    from policybot.factory import App

_DURATION = re.compile(r"\s*(\d+)\s*([hdw])\s*")
_UNIT_S = {"h": 3600, "d": 86400, "w": 7 * 86400}


def parse_since(text: str) -> float:
    """Seconds of a duration ``Nh``, ``Nd`` or ``Nw`` (hours, days, weeks; N ≥ 1).

    Raises:
        PolicybotError: another form, naming the flag and the accepted forms.
    """
    m = _DURATION.fullmatch(text)
    if m is None or int(m.group(1)) < 1:
        raise PolicybotError(f"--since: {text!r} is not a duration; use e.g. 7d, 48h or 2w")
    return float(int(m.group(1)) * _UNIT_S[m.group(2)])


def report_for(app: App, window_s: float, now: float | None = None) -> GapReport:
    """The gap report of the last ``window_s`` seconds before ``now`` (default: the clock), from
    ``app``'s answer log, embedder and index. Loads the embedding model."""
    from core.gaps import ReportInputs, SignalRules, build_report

    now = time.time() if now is None else now
    since = now - window_s
    log = app.answer_log
    inputs = ReportInputs(log.since(since), log.votes_since(since), since, now, now)
    g = app.settings.gaps
    rules = SignalRules(g.min_answerability, g.reask_window_s, g.reask_similarity)
    search, note = _search(app)
    report = build_report(inputs, app.embedder, rules, g.similarity_threshold, g.owners, search)
    if note:
        report = dataclasses.replace(report, notes=(*report.notes, note))
    return report


def _search(app: App) -> tuple[Search | None, str]:
    """Nearest-chunk search on the live index, or None with a note when vectors can't be compared."""
    try:
        app.check_index_compatible()
    except StoreError as exc:
        return None, f"nearest documents not shown: {exc}"
    if app.store.count_chunks() == 0:
        return None, ""
    return app.store.vector_search, ""


def gaps(
    ctx: typer.Context,
    since: Annotated[str | None, typer.Option(
        "--since", metavar="AGE",
        help="window before now: Nd, Nh or Nw (default gaps.since_days days)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the report as one JSON object")] = False,
    report: Annotated[Path | None, typer.Option(
        "--report", metavar="PATH", help="write the report as markdown here")] = None,
) -> None:
    """Questions the policies did not answer well (declined, low answerability, 👎, asked again),
    grouped by meaning, with the nearest documents and the 👎 reasons."""
    from core.gaps import save_latest
    from core.gaps.render import render_markdown, to_json
    from policybot.context import app_of as _app
    from policybot.context import has_index_of
    from policybot.context import opened as _opened

    app = _app(ctx)
    window = parse_since(since) if since is not None else app.settings.gaps.since_days * 86400.0
    if not has_index_of(ctx):
        raise PolicybotError(f"no index in {app.settings.data_dir}; run policybot index, and policybot "
                             "run to log questions")
    result = report_for(_opened(app), window)
    save_latest(app.blobs, result)
    if report is not None:
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(render_markdown(result), encoding="utf-8")
        Console(stderr=True).print(f"report: {report}", highlight=False)
    if as_json:
        typer.echo(json.dumps(to_json(result), ensure_ascii=False))
    elif report is None:
        typer.echo(render_markdown(result))


def schedule_weekly(app: App, scheduler: Scheduler) -> WeeklyGapJob:
    """Add the weekly owner post (``gaps-weekly``) to ``scheduler``, posting through Slack.

    Raises:
        ConfigError: ``SLACK_BOT_TOKEN`` is not set.
    """
    from bot.app import make_client
    from bot.gaps import SlackNotifier
    from core.gaps import WeeklyGapJob
    from core.gaps.jobs import schedule_gap_job

    g = app.settings.gaps
    job = WeeklyGapJob(lambda now: report_for(app, g.since_days * 86400.0, now),
                       SlackNotifier(make_client(app.settings, app.secrets)), g, app.blobs)
    schedule_gap_job(scheduler, job, g)
    return job
