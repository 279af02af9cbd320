"""``policybot index [PATH]`` and ``policybot watch [PATH]``, and the reconcile they share with ``run``.

The index remembers the folder it was built from: a PATH (or ``policies.root``) other than that folder
is refused with both folders named, unless ``--switch-root`` (:func:`indexer.safety.check_root`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from core.errors import PolicybotError
from policybot import render
from policybot.context import app_of, checked, on_stop, opened, set_interrupt_note

if TYPE_CHECKING:
    from indexer.pipeline import IndexSummary
    from indexer.watcher import PolicyWatcher
    from policybot.factory import App
    from policybot.local_api import LocalApiServer

PathArg = Annotated[str | None, typer.Argument(
    metavar="PATH", help="Policy folder (default: policies.root).", show_default=False)]
SwitchRoot = Annotated[bool, typer.Option(
    "--switch-root", help="Index PATH although the index holds another folder (its documents are removed).")]
AllowRemovals = Annotated[bool, typer.Option(
    "--allow-removals", help="Remove the documents whose files are gone even when that is every indexed "
    "document or more than index.max_removal_fraction of them (else they are kept and status says why).")]


def register(cli: typer.Typer) -> None:
    """Add ``index`` and ``watch`` to ``cli``."""
    cli.command()(index)
    cli.command()(watch)


def index(
    ctx: typer.Context,
    path: PathArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    switch_root: SwitchRoot = False,
    allow_removals: AllowRemovals = False,
) -> None:
    """Reconcile the index with the policy folder: index new and changed files, drop deleted ones.

    Removing every indexed document (or more than index.max_removal_fraction of them) needs
    --allow-removals: an empty or unmounted folder never empties the index.
    """
    import json

    app = app_of(ctx)
    root = policy_root(path, app)
    summary = reconcile(ctx, app, root, switch_root=switch_root, show_progress=not as_json,
                        allow_removals=allow_removals)
    if as_json:
        typer.echo(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        render.index_summary(Console(), summary)
    empty_folder_note(app, root, summary)


def watch(ctx: typer.Context, path: PathArg = None, switch_root: SwitchRoot = False) -> None:
    """Reconcile, then follow changes in the policy folder until Ctrl-C."""
    app = app_of(ctx)
    root = policy_root(path, app)
    summary = reconcile(ctx, app, root, switch_root=switch_root, show_progress=True)
    render.index_summary(Console(), summary)
    empty_folder_note(app, root, summary)
    watcher = start_watcher(ctx, app, root)
    local = start_local_api(app)
    set_interrupt_note(ctx, lambda: f"stopped watching {root}; the index is consistent and the next start "
                                    "catches up on changes")
    Console().print(f"watching {escape(str(root))} (Ctrl-C to stop)")
    try:
        watcher.join()
    finally:
        local.stop()
        watcher.stop()


# ---- shared with run -------------------------------------------------------------------------------
def policy_root(path: str | None, app: App) -> Path:
    """The folder to reconcile: ``path`` or ``policies.root``, absolute.

    Raises:
        PolicybotError: empty, missing, or a file.
    """
    if path is not None and not path.strip():
        raise PolicybotError("empty path; pass a policy folder (or none for policies.root)")
    root = (Path(path) if path is not None else app.settings.policies.root).resolve()
    if root.exists() and not root.is_dir():
        raise PolicybotError(f"{root}: is a file, not a folder; pass the policy folder that holds it")
    if not root.is_dir():
        if path is not None:
            raise PolicybotError(f"{root}: no such folder; check the path (the folder of policy files)")
        source = app.settings.config_path or "the built-in defaults"
        raise PolicybotError(f"{root}: no such folder (policies.root in {source}); create it and put the "
                             "policy files there, fix policies.root, or pass a folder: policybot index PATH")
    return root


def reconcile(ctx: typer.Context, app: App, root: Path, *, switch_root: bool,
              show_progress: bool, allow_removals: bool = False) -> IndexSummary:
    """Check the parts, then reconcile ``root`` holding the indexer lease (:class:`indexer.lock.WriterLock`)
    with a progress bar; Ctrl-C stops at a file boundary and the interrupt line says how far it got.
    Failed files are not logged at WARNING: the caller prints the summary's failures table (each
    failure named once; ``-v`` logs them too). Removals held back (``allow_removals`` False,
    :mod:`indexer.removal_guard`) are said in one ``warning:`` line on stderr.

    Raises:
        IndexLockedError: another process holds the indexer lease (it is named).
    """
    from indexer.lock import WriterLock
    from policybot.progress import RichProgress

    checked(opened(app))
    on_stop(ctx, app.indexer.request_stop)
    with WriterLock(app.lease), RichProgress(enabled=show_progress) as progress:
        set_interrupt_note(ctx, progress.interrupt_note)
        summary = app.indexer.reconcile(root, progress, switch_root=switch_root, report_failures=False,
                                        allow_removals=allow_removals)
    set_interrupt_note(ctx, lambda: "")
    if summary.held_removals:
        Console(stderr=True).print(f"[yellow]warning:[/yellow] {escape(summary.held_reason)}",
                                   highlight=False, soft_wrap=True)
    return summary


def empty_folder_note(app: App, root: Path, summary: IndexSummary) -> None:
    """Say so when no file in ``root`` matched ``policies.include`` (instead of a row of zeros)."""
    if summary.indexed or summary.unchanged or summary.failed or summary.moved:
        return
    patterns = ", ".join(app.settings.policies.include)
    removed = (f"; the {summary.removed} documents indexed from it before were removed"
               if summary.removed else "")
    Console(stderr=True).print(f"note: no files matched policies.include ({escape(patterns)}) in "
                               f"{escape(str(root))}{removed}", highlight=False, soft_wrap=True)


def start_watcher(ctx: typer.Context, app: App, root: Path, *, hold_lock: bool = True,
                  reconcile_on_start: bool = False) -> PolicyWatcher:
    """Watch ``root`` with the store's optimize job. By default the watcher takes the indexer lease
    (``hold_lock``; False when the caller's :class:`~indexer.lock.IndexerRole` holds it) and does not
    reconcile first (the caller just ran one; ``reconcile_on_start`` for a leader taking over).

    Raises:
        IndexLockedError: ``hold_lock`` and another process holds the indexer lease.
    """
    from indexer.lock import WriterLock
    from indexer.snapshot import write_snapshot
    from indexer.watcher import start_watching

    watcher = start_watching(app.settings, app.indexer, root, reconcile_on_start=reconcile_on_start,
                             hold_lock=hold_lock, lock=WriterLock(app.lease))
    on_stop(ctx, app.indexer.request_stop)

    def optimize() -> None:  # compaction + cleanup + index upkeep (many small commits slow searches)
        app.store.optimize()
        write_snapshot(app.store)

    watcher.scheduler.add_job(optimize, app.settings.index.optimize_interval_s, "store-optimize")
    if app.settings.index.unit_vectors_interval_s > 0:  # answers then look sentence vectors up
        from core.answer.unit_vectors import UnitVectorJob

        # the job shares the index write lock: it gives it back after a batch as soon as a file is
        # waiting, so file changes never wait for its 20 s budget (it resumes on its next run)
        job = UnitVectorJob(app.unit_vectors, app.store, app.embedder,
                            stop=lambda: app.indexer.stopping or not watcher.idle(),
                            cleanup_older_than_s=app.settings.index.cleanup_older_than_s)
        watcher.scheduler.add_job(job.run, app.settings.index.unit_vectors_interval_s, "unit-vectors",
                                  run_now=True, best_effort=True)
    return watcher


def start_local_api(app: App) -> LocalApiServer:
    """Serve warm ``ask`` requests of other processes on this data dir (:mod:`policybot.local_api`; the
    socket is in the data dir's local runtime folder, :attr:`policybot.factory.App.runtime_dir`)."""
    from policybot.local_api import LocalApiServer

    app.warm_up()
    return LocalApiServer(app.runtime_dir, lambda: app.answers).start()
