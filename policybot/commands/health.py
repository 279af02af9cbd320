"""``policybot health``: is the ``policybot run`` / ``watch`` process on this data dir alive? (the
container's health check; exit 0 healthy, 1 not, with one line saying why).

* HTTP mode (the running process recorded its port in ``<data_dir>/serve.json``): ``GET /readyz`` on
  it — or ``/healthz`` while the server has no ``/readyz`` route yet — must answer 200.
* Otherwise (Socket Mode, console, ``watch``): the watcher loop's heartbeat (``watch.json``, rewritten
  every second while the loop runs) must be younger than ``--max-age`` seconds and its process alive,
  and the index must be readable (the generation pointer and the live tables' manifests on disk).

Imports nothing heavy: it runs every minute inside the container.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Annotated, Any

import typer

from policybot.context import settings_of
from policybot.serve import SERVE_FILE


def register(cli: typer.Typer) -> None:
    """Add ``health`` to ``cli``."""
    cli.command()(health)


def health(
    ctx: typer.Context,
    max_age: Annotated[float, typer.Option(
        "--max-age", metavar="SECONDS", help="Oldest acceptable watcher heartbeat.")] = 30.0,
) -> None:
    """Exit 0 when the running policybot on this data dir is alive (for container health checks)."""
    data_dir = settings_of(ctx).data_dir
    problem = _http_problem(data_dir)
    if problem is None:
        problem = _loop_problem(data_dir, max_age) or _index_problem(data_dir)
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


def _http_problem(data_dir: Path) -> str | None:
    """"" when HTTP mode answers ready, a reason when it does not, None when HTTP mode is not on."""
    serve = _read(data_dir / SERVE_FILE)
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


def _loop_problem(data_dir: Path, max_age: float) -> str:
    watch = _read(data_dir / "watch.json")
    if not watch:
        return f"no policybot run/watch has started on {data_dir}"
    if not watch.get("running") or not _alive(watch.get("pid")):
        return f"the policybot process (pid {watch.get('pid')}) is not running"
    age = time.time() - float(watch.get("updated_at") or 0.0)
    if age > max_age:
        return f"the watcher loop has not reported for {age:.0f} s (more than {max_age:g} s): it is stuck"
    return ""


def _index_problem(data_dir: Path) -> str:
    from core.store_state import read_state, table_names
    from indexer.snapshot import table_version

    try:
        state = read_state(data_dir)
    except Exception as exc:  # noqa: BLE001 - any reason is a health failure
        return f"the index pointer is unreadable ({exc})"
    docs, _ = table_names(state.generation)
    if table_version(data_dir, docs) is None:
        return f"the live index (generation {state.generation}) has no tables under {data_dir}"
    return ""
