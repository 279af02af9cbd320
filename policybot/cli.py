"""``policybot`` command line: index, ask, status, watch, run, eval, cache.

This module holds only the root: the global options (``--config``, ``--data-dir``, ``-v``/``-vv``,
accepted before or after the command), logging, and the one error boundary (:class:`_Group`) that turns
every user or environment error into one ``error:`` line (exit 2), Ctrl-C into one line (exit 130) and
SIGTERM into a clean stop (exit 0) — see :mod:`policybot.boundary` and :mod:`policybot.lifecycle`.

Commands live one group per module in :mod:`policybot.commands` (and :mod:`policybot.cache_cli`); each
module has ``register(cli)``. **To add a command**: write ``policybot/commands/<name>.py`` with a
``register(cli: typer.Typer) -> None`` that decorates its functions with ``cli.command()``, and add the
module to :data:`COMMAND_MODULES`. Keep heavy imports (LanceDB, torch, slack-bolt) inside the command
functions: ``--help`` and ``status`` must stay under a second.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from core.config import load_config
from core.errors import PolicybotError
from policybot.lifecycle import EXIT_INTERRUPTED, Terminated, stop_signals
from policybot.logs import configure_logging

log = logging.getLogger(__name__)

COMMAND_MODULES = (
    "policybot.commands.indexing",  # index, watch
    "policybot.commands.asking",    # ask
    "policybot.commands.status",    # status
    "policybot.commands.inspecting",  # inspect
    "policybot.commands.serving",   # run
    "policybot.commands.evaluating",  # eval
    "policybot.commands.health",    # health (the container's health check)
)
"""Modules whose ``register(cli)`` adds commands, in help order."""

GLOBAL_WITH_VALUE = ("--config", "--data-dir")
GLOBAL_FLAGS = ("--version",)
_VERBOSE = re.compile(r"^(-v+|--verbose)$")


def hoist_global_options(args: list[str], commands: set[str]) -> list[str]:
    """Move global options written after the command (``policybot status --data-dir X``) in front of
    it, so they work in either place. Stops at ``--``; ``args`` without a command are unchanged."""
    i = 0
    while i < len(args) and args[i] not in commands:
        i += 2 if args[i] in GLOBAL_WITH_VALUE else 1
    if i >= len(args):
        return args
    head, moved, kept = args[:i], [], []
    rest = args[i:]
    j = 0
    while j < len(rest):
        a = rest[j]
        if a == "--":
            kept += rest[j:]
            break
        if a in GLOBAL_WITH_VALUE and j + 1 < len(rest):
            moved += rest[j:j + 2]
            j += 2
            continue
        if a.split("=", 1)[0] in GLOBAL_WITH_VALUE or _VERBOSE.match(a) or a in GLOBAL_FLAGS:
            moved.append(a)
        else:
            kept.append(a)
        j += 1
    return head + moved + kept


class _Group(TyperGroup):
    """The root group: global options anywhere, and the error boundary around every command."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if ctx.parent is None:
            args = hoist_global_options(list(args), set(self.commands))
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        with stop_signals(lambda: list(ctx.meta.get("stop_hooks", []))):
            try:
                return super().invoke(ctx)
            except KeyboardInterrupt:
                _stopped(ctx, "interrupted", EXIT_INTERRUPTED)
            except Terminated:
                _stopped(ctx, "stopped (SIGTERM)", 0)
            except (typer.Exit, typer.Abort):
                raise
            except Exception as exc:
                from click import ClickException

                if isinstance(exc, ClickException):
                    raise
                from policybot.boundary import describe

                settings = ctx.obj
                text = describe(exc, getattr(settings, "data_dir", None))
                if text is None:
                    raise
                log.debug("error", exc_info=True)
                _fail(text)


def _stopped(ctx: Any, what: str, code: int) -> None:
    note_fn = ctx.meta.get("interrupt_note")
    note = note_fn() if note_fn is not None else ""
    Console(stderr=True).print(f"{what}{': ' + escape(note) if note else ''}", highlight=False,
                               soft_wrap=True)
    raise typer.Exit(code)


def _fail(message: str) -> None:
    Console(stderr=True).print(f"[bold red]error:[/bold red] {escape(message)}", highlight=False,
                               soft_wrap=True)
    raise typer.Exit(2) from None


HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
"""``-h`` is ``--help`` on the root and, through click's context inheritance, on every command."""

cli = typer.Typer(cls=_Group, add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  context_settings=HELP_OPTIONS,
                  help="policybot answers questions about company policies, citing the policy files.")


def _version(value: bool) -> None:
    """``--version``: print ``policybot X.Y.Z`` (the installed package's version) and exit 0."""
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("policybot")
        except PackageNotFoundError:  # run from a source tree without installing
            number = "unknown (not installed; run make run or make test once)"
        typer.echo(f"policybot {number}")
        raise typer.Exit(0)


@cli.callback()
def _main(
    ctx: typer.Context,
    config: Annotated[Path | None, typer.Option(
        "--config", metavar="PATH", help="Config file (default: ./config.yaml).")] = None,
    data_dir: Annotated[str | None, typer.Option(
        "--data-dir", metavar="DIR", help="Index folder, or an object-store URI (s3://bucket/prefix, gs://, "
        "az://; credentials from the environment). Overrides data_dir.")] = None,
    verbose: Annotated[int, typer.Option(
        "-v", "--verbose", count=True, metavar="", show_default=False,
        help="More log output; repeat it: -v INFO, -vv DEBUG (library warnings and progress bars too).")] = 0,
    _show_version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_version, help="Print the version and exit.")] = False,
) -> None:
    """Load settings once; every command shares the collaborators built from them.

    Global options may come before or after the command.
    """
    if data_dir is not None and not data_dir.strip():
        raise PolicybotError("--data-dir: empty path; pass the index folder")
    configure_logging(verbose)
    settings = load_config(config, data_dir=data_dir)
    configure_logging(verbose, settings.log_level, settings.log_format)
    ctx.obj = settings


for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(cli)

from policybot.cache_cli import cache_app  # noqa: E402 - after the commands, for the help order
from policybot.context import app_of as _app  # noqa: E402,F401 - old names, for code written before commands/
from policybot.context import opened as _opened  # noqa: E402,F401
from policybot.gaps_cli import gaps as gaps_command  # noqa: E402

cli.add_typer(cache_app, name="cache")
cli.command(name="gaps")(gaps_command)


def main() -> None:
    """Console-script entry point. Nothing is downloaded at run time: models load from local files only
    (HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE default to 1; export them as 0 to allow hub downloads)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    cli()
