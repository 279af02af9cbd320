"""``policybot health``: is the ``policybot run`` / ``watch`` process on this data dir alive? (the
container's health check; exit 0 healthy, 1 not, with one line saying why).

* HTTP mode or a Socket Mode health port (the running process recorded its port in ``serve.json`` in
  the data dir's local runtime folder: the data dir itself when it is a folder,
  :attr:`core.store_location.StoreLocation.runtime_dir`): ``GET /readyz`` on it must answer 200.
* Otherwise (Socket Mode, console, ``watch``): the watcher loop's heartbeat (the ``state/watch.json``
  blob, rewritten every second while the loop runs) must be younger than ``--max-age`` seconds and its
  process alive (on this host; on another host its heartbeat's age decides), and the index must be
  readable (the generation pointer, and on a local data dir the live tables' manifests on disk).

Imports nothing heavy: it runs every minute inside the container.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from core.store_state import STATE_FILE
from policybot.context import settings_of
from policybot.serve import SERVE_FILE

if TYPE_CHECKING:
    from core.blobs import BlobStore
    from core.store_location import StoreLocation


def register(cli: typer.Typer) -> None:
    """Add ``health`` to ``cli``."""
    cli.command()(health)


def health(
    ctx: typer.Context,
    max_age: Annotated[float, typer.Option(
        "--max-age", metavar="SECONDS", help="Oldest acceptable watcher heartbeat.")] = 30.0,
) -> None:
    """Exit 0 when the running policybot on this data dir is alive (for container health checks)."""
    from core.store_location import StoreLocation

    location = StoreLocation.parse(settings_of(ctx).data_dir)
    problem = _http_problem(location.runtime_dir)
    if problem is None:
        blobs = _blobs(location)
        problem = _loop_problem(blobs, location.uri, max_age) or _index_problem(blobs, location)
    if problem:
        typer.echo(f"unhealthy: {problem}", err=True)
        raise typer.Exit(1)
    typer.echo("healthy")


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _alive(pid: object) -> bool:
    if not isinstance(pid, int):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _blobs(location: StoreLocation) -> BlobStore:
    """The data dir's blob store, read-only for a folder (nothing is created)."""
    from core.blobs import LocalBlobStore, make_blob_store
    from core.store_location import BLOBS_FOLDER

    if location.local is not None:
        return LocalBlobStore(location.local / BLOBS_FOLDER, create=False)
    return make_blob_store(location)


def _http_problem(runtime_dir: Path) -> str | None:
    """"" when HTTP mode answers ready, a reason when it does not, None when HTTP mode is not on."""
    serve = _read(runtime_dir / SERVE_FILE)
    if serve.get("mode") != "http" or not _alive(serve.get("pid")):
        return None
    host = serve.get("host") or "127.0.0.1"
    host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    for route in ("/readyz", "/healthz"):  # /readyz once the health endpoints exist (issue 13)
        url = f"http://{host}:{serve.get('port')}{route}"
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:  # noqa: S310 - a local URL
                return "" if resp.status == 200 else f"{url} answered {resp.status}"
        except urllib.error.HTTPError as exc:
            if exc.code == 404 and route == "/readyz":
                continue
            return f"{url} answered {exc.code}"
        except OSError as exc:
            return f"{url} unreachable ({exc})"
    return "no health route answered"


def _loop_problem(blobs: BlobStore, where: str, max_age: float) -> str:
    from indexer.watch_state import read_watch_state
    from policybot.status import watcher_running

    watch = read_watch_state(blobs) or {}
    if not watch:
        return f"no policybot run/watch has started on {where}"
    if not watcher_running(watch):
        return f"the policybot process (pid {watch.get('pid')}) is not running"
    age = time.time() - float(watch.get("updated_at") or 0.0)
    if age > max_age:
        return f"the watcher loop has not reported for {age:.0f} s (more than {max_age:g} s): it is stuck"
    return ""


def _index_problem(blobs: BlobStore, location: StoreLocation) -> str:
    from core.store_state import StatePointer, table_names
    from indexer.snapshot import table_version

    try:
        state = StatePointer(blobs, legacy=location.runtime_dir / STATE_FILE if location.is_local else None
                             ).read()
    except Exception as exc:  # noqa: BLE001 - any reason is a health failure
        return f"the index pointer is unreadable ({exc})"
    docs, _ = table_names(state.generation)
    if location.local is not None and table_version(location.local, docs) is None:
        return f"the live index (generation {state.generation}) has no tables under {location.uri}"
    return ""
