"""``policybot eval QA.yaml``: ask every item of a question set and report retrieval and answer metrics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from core.errors import PolicybotError
from policybot.context import app_of


def register(cli: typer.Typer) -> None:
    """Add ``eval`` to ``cli``."""
    cli.command(name="eval")(eval_command)


def eval_command(
    ctx: typer.Context,
    qa: Annotated[Path, typer.Argument(help="QA set in the schema of ../shared/corpus/qa_dev.yaml.",
                                       show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the metrics as one JSON object.")] = False,
    report: Annotated[Path | None, typer.Option(
        "--report", metavar="PATH", help="Write a markdown report here (plus a PNG chart).")] = None,
    context: Annotated[Path | None, typer.Option(
        "--context", metavar="PATH",
        help="YAML: channels: {item-id glob: [scope globs]} (a conversation's channel).")] = None,
    calibrate: Annotated[bool, typer.Option(
        "--calibrate", help="Fit the answerability model and threshold instead (writes "
                            "core/calibration.json, the answer.min_answerability default, and the report: "
                            "--report, default docs/eval/calibration.md).")] = False,
) -> None:
    """Ask every QA item; report hit@k, MRR, nDCG@5, key-fact recall, refusals and latency.

    Gold paths are relative to the QA set's corpus folder: index with policies.root set to it.
    """
    from core.eval import load_context, load_qa, run_eval, setup_notes
    from core.eval.report import render_report, to_json, write_report

    app = app_of(ctx)
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
