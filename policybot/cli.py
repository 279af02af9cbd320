"""``policybot`` command line: index, ask, status, watch, run, eval, cache, gaps.

Global options (before the command): ``--config PATH``, ``--data-dir DIR``, ``-v``. Every command
builds its collaborators through one :class:`~policybot.factory.App`. A
:class:`~core.errors.PolicybotError` becomes one line of user text and exit code 2 in exactly one place
(:class:`_Group`), as are OS errors (naming the path) and LanceDB errors on a damaged index; no
tracebacks for user errors. Heavy imports (sentence-transformers, slack-bolt,
watchdog) happen inside the commands that need them, so ``--help`` and ``status`` stay fast.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.logging import RichHandler
from rich.markup import escape
from typer.core import TyperGroup

from core.config import Secrets, Settings, load_config
from core.errors import PolicybotError
from policybot import render
from policybot.cache_cli import cache_app
from policybot.gaps_cli import gaps as gaps_command
from policybot.guards import has_index, os_error_text, unreadable_store

if TYPE_CHECKING:
    from indexer.pipeline import IndexSummary
    from indexer.watcher import PolicyWatcher
    from policybot.factory import App

log = logging.getLogger(__name__)


class _Group(TyperGroup):
    """Turns :class:`PolicybotError` into ``error: <message>`` on stderr and exit code 2."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except PolicybotError as exc:
            _fail(str(exc))
        except OSError as exc:  # data dir is a file, unwritable, read-only index, ...
            _fail(os_error_text(exc))
        except UnicodeDecodeError as exc:
            _fail(f"a file is not valid UTF-8 text (byte {exc.start}); save it as UTF-8")
        except RuntimeError as exc:  # LanceDB reports damaged table files as RuntimeError
            if "lance" not in str(exc).lower():
                raise
            _fail(str(unreadable_store(ctx.find_root().obj, exc)))


def _fail(message: str) -> None:
    Console(stderr=True).print(f"[bold red]error:[/bold red] {escape(message)}", highlight=False,
                               soft_wrap=True)
    raise typer.Exit(2) from None




cli = typer.Typer(cls=_Group, add_completion=False, no_args_is_help=True,
                  help="policybot answers questions about company policies, citing the policy files.")


def _app(ctx: typer.Context) -> App:
    """The one :class:`App` of this invocation, built on first use (``--help`` never builds it)."""
    from policybot.factory import App  # imports LanceDB (~2 s)

    root = ctx.find_root()
    if "app" not in root.meta:
        app = App(root.obj, Secrets.from_env())
        root.meta["app"] = app
        root.call_on_close(app.close)
    built: App = root.meta["app"]
    return built


@cli.callback()
def _main(
    ctx: typer.Context,
    config: Annotated[Path | None, typer.Option(help="config file (default ./config.yaml)")] = None,
    data_dir: Annotated[str | None, typer.Option(help="index folder (overrides data_dir)")] = None,
    verbose: Annotated[int, typer.Option("-v", "--verbose", count=True, help="-v INFO, -vv DEBUG logs")] = 0,
) -> None:
    """Load settings once; every command shares the collaborators built from them."""
    if data_dir is not None and not data_dir.strip():
        raise PolicybotError("--data-dir: empty path; pass the index folder")
    settings = load_config(config, data_dir=Path(data_dir) if data_dir is not None else None)
    level = {0: settings.log_level, 1: "INFO"}.get(verbose, "DEBUG")
    if verbose == 1 and settings.log_level == "DEBUG":
        level = "DEBUG"
    logging.basicConfig(level=level, format="%(name)s: %(message)s", datefmt="[%X]",
                        handlers=[RichHandler(console=Console(stderr=True), show_path=False)])
    logging.getLogger("sentence_transformers").setLevel(max(logging.WARNING, logging.getLevelName(level)))
    ctx.obj = settings


@cli.command()
def index(
    ctx: typer.Context,
    path: Annotated[str | None, typer.Argument(help="policy folder (default: policies.root)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as one JSON object")] = False,
) -> None:
    """Reconcile the index with the policy folder: index new/changed files, drop deleted ones."""
    if path is not None and not path.strip():
        raise PolicybotError("index: empty path; pass a policy folder (or none for policies.root)")
    summary = _reconcile(_app(ctx), Path(path) if path is not None else None, show_progress=not as_json)
    if as_json:
        typer.echo(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        render.index_summary(Console(), summary)


@cli.command()
def ask(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="the question, in quotes")],
    as_json: Annotated[bool, typer.Option("--json", help="print the answer as one JSON object")] = False,
    scope: Annotated[list[str] | None, typer.Option("--scope", help="folder glob (repeatable)")] = None,
) -> None:
    """Answer one question from the indexed policies, with citations."""
    if not question.strip():
        raise PolicybotError("the question is empty; ask it in quotes: policybot ask \"...\"")
    data_dir = _settings(ctx).data_dir
    if not has_index(data_dir):
        raise PolicybotError(f"no index in {data_dir}; run policybot index first")
    answer = _opened(_app(ctx)).service.ask(question, scope=tuple(scope or ("**",)))
    if as_json:
        typer.echo(json.dumps(answer.to_json(), ensure_ascii=False))
    else:
        render.answer(Console(), answer)


@cli.command()
def status(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="print the status as one JSON object")] = False,
) -> None:
    """Show what is indexed, what failed (with reasons) and the config fingerprint.

    Without an index in the data dir: prints "no index yet in DIR" (``--json``: ``{"data_dir": DIR,
    "index": null}``) and exits 0, creating nothing."""
    from policybot.status import collect

    data_dir = _settings(ctx).data_dir
    if not has_index(data_dir):  # never create the data dir just to look at it; not an error
        if as_json:
            typer.echo(json.dumps({"data_dir": str(data_dir), "index": None}, ensure_ascii=False))
        else:
            Console().print(f"no index yet in {escape(str(data_dir))}; run policybot index")
        return
    app = _opened(_app(ctx))
    data = collect(app.settings, app.store)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        render.status(Console(), data)


@cli.command()
def watch(ctx: typer.Context) -> None:
    """Reconcile, then follow changes in the policy folder until Ctrl-C."""
    app = _app(ctx)
    render.index_summary(Console(), _reconcile(app, None, show_progress=True))
    watcher = _start_watcher(app)
    Console().print(f"watching {app.settings.policies.root} (Ctrl-C to stop)")
    try:
        watcher.join()
    except KeyboardInterrupt:
        pass
    finally:
        watcher.stop()


@cli.command()
def run(ctx: typer.Context) -> None:
    """Reconcile, watch the policy folder, and serve Slack (or a console chat without Slack tokens)."""
    app = _app(ctx)
    console = Console()
    render.index_summary(console, _reconcile(app, None, show_progress=True))
    watcher = _start_watcher(app)
    try:
        if app.secrets.slack_bot_token:
            from policybot.serve import serve_slack

            if app.settings.cache.enabled:  # TTL + metrics jobs of the verified-answer cache
                from core.cache.jobs import schedule_cache_jobs

                schedule_cache_jobs(watcher.scheduler, app.answer_cache, app.settings)
            if app.settings.gaps.enabled:  # the weekly knowledge-gap post to policy owners
                from policybot.gaps_cli import schedule_weekly

                schedule_weekly(app, watcher.scheduler)
            serve_slack(app)
        else:
            console.print("No Slack tokens (SLACK_BOT_TOKEN / SLACK_APP_TOKEN) set: opening a console chat.")
            from policybot.console import chat

            chat(app.service, console)
    finally:
        watcher.stop()



@cli.command(name="eval")
def eval_command(
    ctx: typer.Context,
    qa: Annotated[Path, typer.Argument(help="QA set in the schema of ../shared/corpus/qa_dev.yaml")],
    as_json: Annotated[bool, typer.Option("--json", help="print the metrics as one JSON object")] = False,
    report: Annotated[Path | None, typer.Option("--report", help="write markdown here (+ a .png)")] = None,
    context: Annotated[Path | None, typer.Option(
        "--context", help="YAML: channels: {item-id glob: [scope globs]} (a conversation's channel)")] = None,
    calibrate: Annotated[bool, typer.Option(
        "--calibrate", help="fit the answerability model and threshold instead (writes "
                            "core/calibration.json, the answer.min_answerability default, and the report: "
                            "--report, default docs/eval/calibration.md)")] = False,
) -> None:
    """Ask every QA item; report hit@k, MRR, nDCG@5, key-fact recall, refusals and latency.

    Gold paths are relative to the QA set's corpus folder: index with policies.root set to it.
    """
    from core.eval import load_context, load_qa, run_eval, setup_notes
    from core.eval.report import render_report, to_json, write_report

    app = _app(ctx)
    try:
        items = load_qa(qa)
        channels = load_context(context) if context is not None else {}
    except UnicodeDecodeError as exc:
        raise PolicybotError(f"{qa if context is None else f'{qa} or {context}'}: not valid UTF-8 text "
                             f"(byte {exc.start}); save it as UTF-8") from None
    if calibrate:
        from policybot.calibrate import run_calibration

        run_calibration(app, items, channels, qa, report)
        return
    notes = setup_notes(items, app.settings.policies.root, app.reranker)
    notes += [f"channel scope of `{g}` conversations: {', '.join(s)} (from `{context}`)"
              for g, s in channels.items()]
    result = run_eval(app.service, items, channels=channels, qa_path=str(qa), notes=notes)
    if report is not None:
        md, png = write_report(result, report)
        Console(stderr=True).print(f"report: {md}  chart: {png}")
    if as_json:
        typer.echo(json.dumps(to_json(result), ensure_ascii=False))
    elif report is None:
        typer.echo(render_report(result))

def _reconcile(app: App, path: Path | None, *, show_progress: bool) -> IndexSummary:
    from policybot.progress import RichProgress

    root = (path or app.settings.policies.root).resolve()
    if root.exists() and not root.is_dir():
        raise PolicybotError(f"{root}: is a file, not a folder; pass the policy folder that holds it")
    if not root.is_dir():
        raise PolicybotError(f"{root}: no such folder; pass a policy folder or set policies.root")
    _opened(app)
    from indexer.lock import WriterLock

    with WriterLock(app.settings.data_dir), RichProgress(enabled=show_progress) as progress:
        return app.indexer.reconcile(root, progress)


def _settings(ctx: typer.Context) -> Settings:
    settings: Settings = ctx.find_root().obj
    return settings


def _opened(app: App) -> App:
    """``app`` after a first read of its store; a damaged index becomes a :class:`StoreError`."""
    try:
        app.store.documents()
    except (RuntimeError, ValueError) as exc:  # LanceDB: damaged or truncated table files
        raise unreadable_store(app.settings, exc) from None
    return app


def _start_watcher(app: App) -> PolicyWatcher:
    from indexer.watcher import start_watching

    watcher = start_watching(app.settings, app.indexer)
    # compaction + cleanup + index upkeep (many small commits slow searches until optimize())
    watcher.scheduler.add_job(app.store.optimize, app.settings.index.optimize_interval_s, "store-optimize")
    return watcher


def main() -> None:
    """Console-script entry point. Nothing is downloaded at run time: models load from local files only
    (HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE default to 1; export them as 0 to allow hub downloads)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    cli()


cli.add_typer(cache_app, name="cache")
cli.command(name="gaps")(gaps_command)
