"""The CLI's one error boundary: an exception becomes one line naming its real cause and what to do.

The cause is classified from the exception's *type* (and its chain: ``__cause__``, ``__context__``,
``URLError.reason``), never guessed from where it happened:

* :class:`~core.errors.PolicybotError` — its own message (it already names the file or key);
* network — ``socket.gaierror`` (DNS), ``ConnectionRefusedError``, ``ssl.SSLError`` (TLS),
  ``TimeoutError``/httpx timeouts — which service and address (when a :func:`reaching` block named
  them) and what to check;
* ``OSError`` — the file it names and the cause (permission, disk full, a file in the way, ...);
* LanceDB ``RuntimeError``/``ValueError`` on damaged table files — the unreadable index.

Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import errno
import socket
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from core.errors import CredentialError, PolicybotError, ServiceUnreachableError, StoreError


def describe(exc: BaseException, data_dir: Path | str | None = None) -> str | None:
    """The user text of ``exc``, or None when it is not a user/environment error (a bug)."""
    if isinstance(exc, PolicybotError):
        return str(exc)
    network = network_cause(exc)
    if network is not None:
        return f"a network connection failed: {network}; check the network and the service's address"
    if isinstance(exc, OSError):
        return os_error_text(exc, data_dir)
    if isinstance(exc, UnicodeDecodeError):
        return f"a file is not valid UTF-8 text (byte {exc.start}); save it as UTF-8"
    if isinstance(exc, RuntimeError) and "lance" in str(exc).lower():  # LanceDB: damaged table files
        return str(unreadable_store(data_dir, exc))
    return None


# ---- network ---------------------------------------------------------------------------------------
def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop(0)
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        reason = getattr(e, "reason", None)  # urllib.error.URLError(reason=gaierror(...))
        todo += [reason if isinstance(reason, BaseException) else None, e.__cause__, e.__context__]
        todo += [a for a in getattr(e, "args", ()) if isinstance(a, BaseException)]


def network_cause(exc: BaseException, host: str = "") -> str | None:
    """What went wrong on the network, from the exception types in ``exc``'s chain; None when none
    of them is a network failure."""
    where = host or "the host"
    for e in _chain(exc):
        if isinstance(e, socket.gaierror):
            return f"cannot resolve {where} (DNS lookup failed: {e.strerror or e})"
        if isinstance(e, ConnectionRefusedError):
            return f"{where} refused the connection (nothing listens there)"
        if isinstance(e, ssl.SSLError):
            return f"the TLS handshake with {where} failed ({getattr(e, 'reason', None) or e})"
        if isinstance(e, TimeoutError) or type(e).__name__ in _TIMEOUTS:
            return f"{where} did not answer in time"
        if isinstance(e, ConnectionResetError | ConnectionAbortedError):
            return f"{where} closed the connection"
    return None


_TIMEOUTS = {"ConnectTimeout", "ReadTimeout", "WriteTimeout", "PoolTimeout", "TimeoutException",
             "ServerTimeoutError"}
"""Timeout exception types of httpx and aiohttp that do not derive from TimeoutError."""
_CHECKS = {
    "cannot resolve": "check the network connection, DNS and the host name",
    "refused": "check that the service runs at that address and port",
    "TLS": "check the system clock, the certificate store and any proxy that intercepts HTTPS",
    "in time": "check the network, firewall and proxy settings",
    "closed": "check the network, firewall and proxy settings",
}


@contextmanager
def reaching(service: str, url: str, key: str) -> Iterator[None]:
    """Turn a network failure inside the block into :class:`ServiceUnreachableError` naming ``service``,
    its ``url`` and the config ``key`` (or env var) that sets the address.

    Example: ``with reaching("Slack", settings.slack.api_base_url, "slack.api_base_url"): ...``
    """
    try:
        yield
    except PolicybotError:
        raise
    except Exception as exc:
        host = urlsplit(url).hostname or url
        cause = network_cause(exc, host)
        if cause is None:
            raise
        check = next((c for k, c in _CHECKS.items() if k in cause), "check the network")
        raise ServiceUnreachableError(
            f"cannot reach {service} at {url}: {cause}; {check}, and {key}") from None


@contextmanager
def accepted_by_slack(token_env: str, url: str) -> Iterator[None]:
    """Turn Slack refusing a token inside the block (``auth.test``, ``apps.connections.open`` answering
    ``ok: false``: ``invalid_auth``, ``token_revoked``, ...) into a :class:`CredentialError` naming the
    environment variable ``token_env``, Slack's error code (https://api.slack.com/methods/auth.test#errors),
    ``url`` (``slack.api_base_url``) and where to get a valid token (:func:`token_refused_text`).

    Example: ``with accepted_by_slack("SLACK_BOT_TOKEN", settings.slack.api_base_url): build_app(...)``
    """
    try:
        yield
    except PolicybotError:
        raise
    except Exception as exc:
        code = slack_error_code(exc)
        if code is None:
            raise
        raise CredentialError(token_refused_text(token_env, code, url)) from None


_WHERE = {
    "SLACK_BOT_TOKEN": "the Bot User OAuth Token (xoxb-...) under OAuth & Permissions of your Slack app",
    "SLACK_APP_TOKEN": "an app-level token (xapp-...) with the connections:write scope under Basic "
                       "Information → App-Level Tokens of your Slack app",
}
_CAUSES = {
    "invalid_auth": "the token is wrong, revoked or from another workspace",
    "not_authed": "no token reached Slack",
    "token_revoked": "the token was revoked",
    "token_expired": "the token expired",
    "account_inactive": "the app was uninstalled or its workspace deactivated",
    "not_allowed_token_type": "this is another kind of token",
}


def token_refused_text(var: str, code: str, url: str) -> str:
    """The one line for Slack (its Web API at ``url``) refusing the token in environment variable
    ``var`` with error ``code``."""
    cause = _CAUSES.get(code, "Slack refused it")
    where = _WHERE.get(var, "a valid token from your Slack app's settings")
    return (f"Slack at {url} refused {var} ({code}: {cause}); copy {where}, export it as {var} and run "
            "policybot run again (see docs/slack.md)")


def slack_error_code(exc: BaseException) -> str | None:
    """Slack's error code (``invalid_auth``) of the first ``slack_sdk`` ``SlackApiError`` in ``exc``'s
    chain (Bolt wraps its ``auth.test`` failure in a ``BoltError``), or None when there is none."""
    from slack_sdk.errors import SlackApiError

    for e in _chain(exc):
        if isinstance(e, SlackApiError):
            response = e.response
            return str(response.get("error") or f"HTTP {response.status_code}")
    return None


# ---- files -------------------------------------------------------------------------------------------
def _file_in_the_way(path: str | Path) -> str | None:
    """The nearest existing ancestor of ``path`` (itself included) that is a file, not a folder: the
    thing the user must move (``--data-dir /tmp/f`` where ``/tmp/f`` is a file fails on ``/tmp/f/blobs``)."""
    for candidate in (Path(path), *Path(path).parents):
        if candidate.exists():
            return str(candidate) if not candidate.is_dir() else None
    return None


def os_error_text(exc: OSError, data_dir: Path | str | None = None) -> str:
    """One line naming the path and the cause of an OS error, with what to do."""
    where = exc.filename if exc.filename is not None else None
    target = where or (f"a file under {data_dir}" if data_dir is not None else "a file")
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        room = f" on the disk of {data_dir}" if data_dir is not None else ""
        return f"{target}: no space left on the device; free disk space{room} and run the command again"
    if isinstance(exc, PermissionError) or exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{target}: permission denied; fix its permissions or pass another --data-dir"
    if isinstance(exc, FileExistsError | NotADirectoryError):
        blocker = _file_in_the_way(where) if where is not None else None
        return (f"{blocker or target}: a file is in the way where a folder is needed; check data_dir / "
                "--data-dir (it must be a folder)")
    if isinstance(exc, FileNotFoundError):
        return f"{target}: no such file or folder; check the path"
    cause = exc.strerror or str(exc)
    return f"{target}: {cause}; check the path, its permissions and free disk space"


def unreadable_store(data_dir: Path | str | None, exc: BaseException) -> StoreError:
    """The :class:`StoreError` for a LanceDB error ``exc`` reading the index under ``data_dir``."""
    where = data_dir if data_dir is not None else "the data dir"
    first = (str(exc).splitlines() or [type(exc).__name__])[0][:200]
    return StoreError(f"the index under {where} is unreadable ({first}); move it aside and run "
                      "policybot index")
