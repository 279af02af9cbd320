"""Per-invocation state shared by the commands: the settings loaded by the global options, the one
:class:`~policybot.factory.App` (built on first use, so ``--help`` and ``status`` never build it), and
the note a command leaves for the interrupt message (:mod:`policybot.lifecycle`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import typer

from core.config import Secrets, Settings

if TYPE_CHECKING:
    from policybot.factory import App


def settings_of(ctx: typer.Context) -> Settings:
    """The settings of this invocation (loaded by the global options)."""
    settings: Settings = ctx.find_root().obj
    return settings


def app_of(ctx: typer.Context) -> App:
    """The one :class:`App` of this invocation, built on first use and closed when the command ends."""
    from policybot.factory import App  # imports LanceDB (~3 s cold on this host)

    root = ctx.find_root()
    if "app" not in root.meta:
        app = App(root.obj, Secrets.from_env())
        root.meta["app"] = app
        root.call_on_close(app.close)
    built: App = root.meta["app"]
    return built


def has_index_of(ctx: typer.Context) -> bool:
    """Whether the data dir holds an index: a local folder is looked at without creating anything or
    importing LanceDB (:func:`policybot.guards.has_index`); an object store is opened (its start-up
    self-test runs first, so an unreachable bucket is a clear error here).

    Raises:
        PolicybotError: the local data dir is a file. StoreError: the object store is unusable.
    """
    from pathlib import Path

    from policybot.guards import has_index

    data_dir = settings_of(ctx).data_dir
    if isinstance(data_dir, Path):
        return has_index(data_dir)
    return app_of(ctx).store.has_index()


def opened(app: App) -> App:
    """``app`` after a first read of its store; a damaged index becomes a :class:`StoreError`."""
    from policybot.boundary import unreadable_store

    try:
        app.store.documents()
    except (RuntimeError, ValueError) as exc:  # LanceDB: damaged or truncated table files
        raise unreadable_store(app.settings.data_dir, exc) from None
    return app


def checked(app: App) -> App:
    """``app`` after the start-up checks of its parts (:func:`policybot.checks.check_parts`, once).

    Raises:
        ModelLoadError, ConfigError: a missing embedding model or tokenizer (nothing changed).
    """
    if not getattr(app, "_parts_checked", False):
        from policybot.checks import check_parts

        check_parts(app.settings)
        app._parts_checked = True  # type: ignore[attr-defined]
    return app


def set_interrupt_note(ctx: typer.Context, note: Callable[[], str]) -> None:
    """What the interrupt message says was finished (e.g. "12 of 40 files indexed")."""
    ctx.find_root().meta["interrupt_note"] = note


def on_stop(ctx: typer.Context, hook: Callable[[], None]) -> None:
    """Call ``hook()`` (from the signal handler) when Ctrl-C or SIGTERM arrives: stop background work
    at once (e.g. :meth:`indexer.pipeline.Indexer.request_stop`). Hooks must be quick and thread-safe."""
    ctx.find_root().meta.setdefault("stop_hooks", []).append(hook)
