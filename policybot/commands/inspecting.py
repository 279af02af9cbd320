"""``policybot inspect FILE [--page N] [--json]``: what the index holds for one policy file."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console

from policybot.context import app_of, has_index_of, opened, settings_of


def register(cli: typer.Typer) -> None:
    """Add ``inspect`` to ``cli``."""
    cli.command(name="inspect")(inspect_command)


def inspect_command(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(
        help="Policy file (a path, or one relative to the indexed policy folder).")],
    page: Annotated[int | None, typer.Option(
        "--page", metavar="N", min=1, help="Only what covers this page (PDF).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the inspection as one JSON object.")] = False,
) -> None:
    """Show what the index holds for FILE: blocks and chunks (page, section, kind) and its report."""
    from policybot.inspect import inspect_file, render_inspection

    settings = settings_of(ctx)
    store = opened(app_of(ctx)).store if has_index_of(ctx) else None
    data = inspect_file(settings, store, file, page)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        render_inspection(Console(), data)
