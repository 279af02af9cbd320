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

from policybot.context import app_of, has_index_of, opened, settings_of


def register(cli: typer.Typer) -> None:
    """Add ``status`` to ``cli``."""
    cli.command()(status)


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
        if as_json:
            typer.echo(json.dumps({"data_dir": str(settings.data_dir), "index": None}, ensure_ascii=False))
        else:
            Console().print(f"no index yet in {escape(str(settings.data_dir))}; run policybot index")
        return
    data = collect_fast(settings)
    if data is None:
        app = opened(app_of(ctx))
        data = collect(app.settings, app.store)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        render.status(Console(), data)
