"""``policybot status``: what is indexed, what failed and why, what waits, which models run.

Fast (< 1 s cold): it reads the generation pointer, the index snapshot the writer keeps current
(:mod:`indexer.snapshot`) and the watcher's state, and opens LanceDB only when the snapshot is missing or
not provably current (always for an object-store data dir).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from core.config import Settings
from policybot.context import app_of, has_index_of, opened, settings_of


def register(cli: typer.Typer) -> None:
    """Add ``status`` to ``cli``."""
    cli.command()(status)


def _no_index(settings: Settings, as_json: bool) -> None:
    """Say that there is no index yet, and whether the configured policy folder exists:
    ``{"data_dir", "index": null, "policy_root", "root_exists"}`` with ``--json``."""
    root = settings.policies.root
    exists = root.is_dir()
    if as_json:
        typer.echo(json.dumps({"data_dir": str(settings.data_dir), "index": None, "policy_root": str(root),
                               "root_exists": exists}, ensure_ascii=False))
        return
    console = Console()
    console.print(f"no index yet in {escape(str(settings.data_dir))}; run policybot index")
    if not exists:
        console.print(f"[yellow]policy folder missing:[/yellow] {escape(str(root))} is not a folder; "
                      "create it and put the policy files there, or set policies.root in the config "
                      "(or pass the folder: policybot index PATH)", soft_wrap=True)


def status(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print the status as one JSON object.")] = False,
) -> None:
    """Show what is indexed, what failed (with reasons), the policy folder and the config fingerprint.

    Without an index in the data dir it says so and exits 0, creating nothing.
    """
    from policybot import render
    from policybot.status import collect, collect_fast

    settings = settings_of(ctx)
    if not has_index_of(ctx):  # never create the data dir just to look at it; not an error
        _no_index(settings, as_json)
        return
    data = collect_fast(settings)
    if data is None:
        app = opened(app_of(ctx))
        data = collect(app.settings, app.store)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        render.status(Console(), data)
