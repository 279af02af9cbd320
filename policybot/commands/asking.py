"""``policybot ask "question"``: answered by a running ``run``/``watch`` process on the same data dir when
there is one (its models are warm: :mod:`policybot.local_api`), else by loading the models here."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console

from core.errors import PolicybotError
from policybot.context import app_of, checked, opened, settings_of
from policybot.guards import has_index


def register(cli: typer.Typer) -> None:
    """Add ``ask`` to ``cli``."""
    cli.command()(ask)


def ask(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="The question, in quotes.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as one JSON object.")] = False,
    scope: Annotated[list[str] | None, typer.Option(
        "--scope", metavar="GLOB", help="Search only these folders (repeatable), e.g. hr/**.")] = None,
) -> None:
    """Answer one question from the indexed policies, with citations."""
    if not question.strip():
        raise PolicybotError("the question is empty; ask it in quotes: policybot ask \"...\"")
    data_dir = settings_of(ctx).data_dir
    if not has_index(data_dir):
        raise PolicybotError(f"no index in {data_dir}; run policybot index first")
    globs = tuple(scope or ("**",))
    data = _warm(data_dir, question, globs)
    if data is None:
        app = checked(opened(app_of(ctx)))
        data = app.answers.ask(question, scope=globs).to_json()
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        from policybot import render

        render.answer_json(Console(), data)


def _warm(data_dir: Any, question: str, scope: tuple[str, ...]) -> dict[str, Any] | None:
    from policybot.local_api import ask_running

    return ask_running(data_dir, question, scope)
