"""``policybot cache stats [--json]`` and ``policybot cache forget ID``: the CLI twins of the admin
commands ``/policy cache stats`` and ``/policy cache forget <id>``.

They open the cache table without loading the embedding model (:meth:`policybot.factory.App.admin_cache`);
on a data dir without an index they open nothing (and create nothing there): no entries.
Hits, misses and invalidations are counters of the serving process (``policybot run``), which publishes
them every minute to the data dir's shared store (``state/cache_metrics.json``); ``stats`` shows the
latest of them beside the
entry counts read from the table now.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

cache_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                        help="Inspect or prune the verified-answer cache (admins).")


EMPTY: dict[str, Any] = {"entries": {"active": 0, "candidate": 0, "invalidated": 0}, "times_served": 0,
                         "hits": 0, "misses": {}, "invalidations": {}}
"""The stats of a data dir without a cache table (or without an index)."""


def _stats(ctx: typer.Context) -> dict[str, Any]:
    from core.cache.jobs import read_published, stats_json
    from policybot.context import app_of as _app
    from policybot.context import has_index_of

    if not has_index_of(ctx):  # nothing to read; opening the store would create its folders
        return dict(EMPTY)
    app = _app(ctx)
    cache = app.admin_cache()
    data = stats_json(cache.stats()) if cache is not None else dict(EMPTY)
    published = read_published(app.blobs)
    if published is not None:  # the serving process's counters; entries stay as read now
        keys = ("hits", "misses", "invalidations", "published_at")
        data |= {k: published[k] for k in keys if k in published}
    return data


@cache_app.command("stats")
def stats(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print the stats as one JSON object.")] = False,
) -> None:
    """Entries by status, times served, and hits / misses by reason / invalidations by reason."""
    from core.cache.jobs import stats_text

    data = _stats(ctx)
    typer.echo(json.dumps(data, ensure_ascii=False) if as_json else stats_text(data))


@cache_app.command("forget")
def forget(ctx: typer.Context, entry_id: Annotated[str, typer.Argument(
        metavar="ID", help="Cache entry id.", show_default=False)]) -> None:
    """Stop serving one cached answer for good (exit code 1 when no live entry has that id)."""
    from policybot.context import app_of as _app
    from policybot.context import has_index_of

    cache = _app(ctx).admin_cache() if has_index_of(ctx) else None  # no index: nothing to open or create
    if cache is None or not cache.forget(entry_id):
        typer.echo(f"no live cache entry {entry_id}", err=True)
        raise typer.Exit(1)
    typer.echo(f"cache entry {entry_id} forgotten: it will not be served again")
