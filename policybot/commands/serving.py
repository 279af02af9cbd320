"""``policybot run [PATH]``: reconcile and watch the policy folder, then serve Slack (Socket Mode or
HTTP mode, :func:`policybot.serve.choose_mode`) or, without Slack tokens, a console chat.

Any number of ``run`` processes may share one data dir (bot replicas): each serves questions, and only
the one holding the indexer lease (:class:`indexer.lock.IndexerRole`) reconciles, watches and runs the
maintenance jobs (optimize, cache TTL and metrics, the weekly gap report). A process that starts while
another leads serves only, and takes over within ``store.lease_ttl_s`` when the leader stops or dies.

Ctrl-C and SIGTERM stop it cleanly (the indexer at a file boundary, the servers, the watcher) within a
few seconds; SIGTERM exits 0 (``docker stop``), Ctrl-C 130.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from policybot import render
from policybot.commands.indexing import (
    PathArg,
    SwitchRoot,
    empty_folder_note,
    policy_root,
    reconcile,
    start_local_api,
    start_watcher,
)
from policybot.context import app_of, checked, opened, set_interrupt_note

if TYPE_CHECKING:
    from indexer.lock import IndexerRole
    from indexer.watcher import PolicyWatcher
    from policybot.factory import App


def register(cli: typer.Typer) -> None:
    """Add ``run`` to ``cli``."""
    cli.command()(run)


def run(
    ctx: typer.Context,
    path: PathArg = None,
    switch_root: SwitchRoot = False,
    http_port: Annotated[int | None, typer.Option(
        "--http-port", metavar="N", min=0, max=65535,
        help="Serve Slack in HTTP mode on this port (POST /slack/events); needs SLACK_SIGNING_SECRET.",
        show_default=False)] = None,
    host: Annotated[str | None, typer.Option(
        "--host", metavar="H", help="Address HTTP mode listens on (default: slack.http_host, 0.0.0.0).",
        show_default=False)] = None,
    health_port: Annotated[int | None, typer.Option(
        "--health-port", metavar="N", min=0, max=65535,
        help="Serve GET /metrics, /livez and /readyz on this port (Socket Mode and the console chat; HTTP "
             "mode serves them on --http-port too).", show_default=False)] = None,
) -> None:
    """Reconcile and watch the policy folder, and serve Slack (or a console chat without Slack tokens).

    Slack mode: HTTP mode with --http-port (or slack.mode: http), else Socket Mode when
    SLACK_APP_TOKEN is set; without SLACK_BOT_TOKEN a console chat opens.
    """
    from policybot.serve import choose_mode, serve_slack
    from policybot.slack_check import check_slack_tokens

    app = app_of(ctx)
    mode = choose_mode(app.settings.slack, app.secrets, http_port, host, health_port)  # refuse before work
    check_slack_tokens(app.settings, app.secrets, mode)  # a refused token: one line, before indexing
    root = policy_root(path, app)  # a missing folder is refused before the data dir is created
    checked(opened(app))
    console = Console()
    role = app.role = start_role(ctx, app, root, switch_root=switch_root,
                                 jobs=None if mode.kind == "console" else lambda w: _leader_jobs(app, w))
    local = start_local_api(app)
    set_interrupt_note(ctx, lambda: f"policybot stopped; the index of {root} is consistent and the next "
                                    "start catches up on changes")
    try:
        if mode.kind == "console":
            console.print("No Slack tokens (SLACK_BOT_TOKEN / SLACK_APP_TOKEN) set: opening a console "
                          f"chat on {escape(str(root))}.")
            from policybot.console import chat
            from policybot.serve import health_served

            with health_served(app, mode):
                chat(app.answers, console)
        else:
            serve_slack(app, mode, root)
    finally:
        local.stop()
        role.stop()


def start_role(ctx: typer.Context, app: App, root: Path, *, switch_root: bool,
               jobs: Callable[[PolicyWatcher], None] | None) -> IndexerRole:
    """Reconcile ``root`` now when the indexer lease is free (with progress), then campaign for the
    lease: while this process holds it, it watches ``root`` and runs the store's optimize job and
    ``jobs(watcher)`` (the serving process's maintenance jobs); else it serves questions only.

    Raises:
        RootMismatchError, ReconcileAbortedError, ModelLoadError: from the first reconcile.
    """
    from core.errors import IndexLockedError
    from indexer.lock import IndexerRole, describe

    console = Console()
    fresh = {"reconciled": False}
    try:
        summary = reconcile(ctx, app, root, switch_root=switch_root, show_progress=True)
        render.index_summary(console, summary)
        empty_folder_note(app, root, summary)
        fresh["reconciled"] = True
    except IndexLockedError:
        console.print(f"another process leads the index ({escape(describe(app.lease.holder()))}): serving "
                      "questions only, taking over if it stops")

    def lead() -> PolicyWatcher:  # a leader taking over reconciles first (it resumes half-done work)
        first, fresh["reconciled"] = fresh["reconciled"], False
        watcher = start_watcher(ctx, app, root, hold_lock=False, reconcile_on_start=not first)
        if jobs is not None:
            jobs(watcher)
        return watcher

    return IndexerRole(app.lease, lead).start()


def _leader_jobs(app: App, watcher: PolicyWatcher) -> None:
    """The leader's maintenance jobs of a Slack-serving process."""
    if app.settings.cache.enabled:  # TTL + metrics jobs of the verified-answer cache
        from core.cache.jobs import schedule_cache_jobs

        schedule_cache_jobs(watcher.scheduler, app.answer_cache, app.settings, app.blobs)
    if app.settings.gaps.enabled:  # the weekly knowledge-gap post to policy owners
        from policybot.gaps_cli import schedule_weekly

        schedule_weekly(app, watcher.scheduler)
