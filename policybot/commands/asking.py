"""``policybot ask "question"``: answered by a running ``run``/``watch`` process on the same data dir when
there is one (its models are warm: :mod:`policybot.local_api`), else by loading the models here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from core.errors import PolicybotError
from policybot.context import app_of, checked, has_index_of, opened, settings_of
from policybot.guards import has_index


def register(cli: typer.Typer) -> None:
    """Add ``ask`` to ``cli``."""
    cli.command()(ask)


def ask(
    ctx: typer.Context,
    words: Annotated[list[str], typer.Argument(
        metavar="QUESTION", show_default=False,
        help="The question: in quotes, or its words as they come (ask what is the leave policy); quote it "
             "when it holds characters the shell expands (? * ' !).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as one JSON object.")] = False,
    scope: Annotated[list[str] | None, typer.Option(
        "--scope", metavar="GLOB", help="Search only these folders (repeatable), e.g. hr/**.")] = None,
) -> None:
    """Answer one question from the indexed policies, with citations."""
    question = " ".join(words)
    if not question.strip():
        raise PolicybotError("the question is empty; ask it in quotes: policybot ask \"...\"")
    data_dir = settings_of(ctx).data_dir
    local = isinstance(data_dir, Path)
    if isinstance(data_dir, Path) and not has_index(data_dir):  # a folder: looked at without LanceDB
        raise PolicybotError(f"no index in {data_dir}; run policybot index first")
    globs = tuple(scope or ("**",))
    data = _warm(data_dir, question, globs)
    if data is None and not local and not has_index_of(ctx):  # an object store: opened
        raise PolicybotError(f"no index in {data_dir}; run policybot index first")
    if data is None:
        app = checked(opened(app_of(ctx)))
        data = app.answers.ask(question, scope=globs).to_json()
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        from policybot import render

        render.answer_json(Console(), data)


def _warm(data_dir: Path | str, question: str, scope: tuple[str, ...]) -> dict[str, Any] | None:
    from core.store_location import StoreLocation
    from policybot.local_api import ask_running

    return ask_running(StoreLocation.parse(data_dir).runtime_dir, question, scope)
