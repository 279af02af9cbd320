"""Where the shared store lives: a local folder or an object-store URI (``s3://``, ``gs://``, ``az://``).

``data_dir`` (config key, ``--data-dir``) names it. A value with a ``scheme://`` prefix is an object-store
URI and is never turned into a local path (``Path("s3://b/p")`` would silently become a folder named
``s3:``); any other value is a folder. Credentials and endpoints come from the environment only
(``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_ENDPOINT_URL``, ``AWS_REGION``,
``AWS_ALLOW_HTTP``; ``GOOGLE_SERVICE_ACCOUNT``; ``AZURE_STORAGE_ACCOUNT_NAME``, ...), read by the same
object_store library underneath LanceDB and :mod:`core.blobs_object`.

Layout under the location (the same for a folder and a bucket prefix)::

    <location>/lancedb/...   LanceDB tables (documents, chunks, caches, answer log, votes)
    <location>/blobs/...     small objects with conditional writes (core.blobs): state/index.json,
                             state/watch.json, lease/indexer.json, claims/..., selftest/...

LanceDB storage docs: https://lancedb.github.io/lancedb/guides/storage/
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from core.errors import ConfigError

LANCEDB_FOLDER = "lancedb"
"""The LanceDB database's folder under the data dir (local) or prefix (object store)."""
BLOBS_FOLDER = "blobs"
"""The blob store's folder under the data dir (local) or prefix (object store): :mod:`core.blobs`."""
OBJECT_STORE_SCHEMES = ("s3", "gs", "az")
"""URI schemes of object stores LanceDB and object_store both support with conditional writes."""

_URI = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://(?P<rest>.*)$")
_BUCKET = re.compile(r"^[a-z0-9][a-z0-9.\-_]{1,254}$")


def is_uri(value: object) -> bool:
    """True when ``value`` is a string of the form ``scheme://...`` (any scheme)."""
    return isinstance(value, str) and _URI.match(value.strip()) is not None


def check_uri(value: str) -> str:
    """``value`` normalised (``scheme://bucket[/prefix]``, no trailing ``/``) when it names a supported
    object store.

    Raises:
        ConfigError: the scheme is not one of :data:`OBJECT_STORE_SCHEMES` or the bucket is missing
            or malformed; the message names the value and what is allowed.
    """
    m = _URI.match(value.strip())
    if m is None:
        raise ConfigError(f"data_dir {value!r}: not a URI; use a folder or s3://bucket/prefix")
    scheme, rest = m["scheme"].lower(), m["rest"].rstrip("/")
    if scheme not in OBJECT_STORE_SCHEMES:
        raise ConfigError(f"data_dir {value!r}: unsupported scheme '{scheme}://'; use a local folder or "
                          f"one of {', '.join(s + '://' for s in OBJECT_STORE_SCHEMES)} (an object store "
                          "that enforces conditional writes)")
    bucket, _, prefix = rest.partition("/")
    if not _BUCKET.match(bucket):
        raise ConfigError(f"data_dir {value!r}: '{bucket}' is not a bucket name; use "
                          f"{scheme}://bucket/prefix")
    if any(p in ("", ".", "..") for p in prefix.split("/")) and prefix:
        raise ConfigError(f"data_dir {value!r}: empty, '.' or '..' segment in the prefix")
    return f"{scheme}://{bucket}" + (f"/{prefix}" if prefix else "")


@dataclass(frozen=True)
class StoreLocation:
    """A parsed ``data_dir``.

    Attributes:
        uri: the folder's absolute path, or the normalised object-store URI.
        local: the folder (None for an object store).
        scheme: ``"file"``, ``"s3"``, ``"gs"`` or ``"az"``.
    """

    uri: str
    local: Path | None
    scheme: str

    @classmethod
    def parse(cls, data_dir: Path | str) -> StoreLocation:
        """The location of ``data_dir`` (a Path or folder string, or an object-store URI).

        Raises:
            ConfigError: an unsupported or malformed URI (:func:`check_uri`).
        """
        if isinstance(data_dir, str) and is_uri(data_dir):
            uri = check_uri(data_dir)
            return cls(uri, None, uri.split("://", 1)[0])
        path = Path(data_dir).resolve()
        return cls(str(path), path, "file")

    @property
    def is_local(self) -> bool:
        """True for a folder on this machine's file system."""
        return self.local is not None

    def child(self, name: str) -> str:
        """URI (or absolute path) of ``name`` under the location, e.g. ``child("lancedb")``."""
        return f"{self.uri.rstrip('/')}/{name}"

    @property
    def runtime_dir(self) -> Path:
        """This machine's folder for per-process runtime files of this data dir (the warm-``ask``
        socket ``policybot.sock``, ``serve.json``): the data dir itself when it is a folder; for an
        object store a private local folder keyed by the URI (:func:`runtime_dir_for`), never a folder
        named after the URI. Not created here (:func:`ensure_runtime_dir`)."""
        return self.local if self.local is not None else runtime_dir_for(self.uri)

    def __str__(self) -> str:
        return self.uri


def runtime_dir_for(uri: str) -> Path:
    """``$XDG_RUNTIME_DIR/policybot/<sha256(uri)[:16]>`` (else ``<tmp>/policybot-<uid>/<hash>``): the local
    runtime folder of the object-store data dir ``uri`` (short enough for a Unix socket path)."""
    import hashlib
    import os
    import tempfile

    digest = hashlib.sha256(uri.encode("utf-8")).hexdigest()[:16]
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    base = Path(xdg) / "policybot" if xdg else Path(tempfile.gettempdir()) / f"policybot-{os.getuid()}"
    return base / digest


def ensure_runtime_dir(location: StoreLocation) -> Path:
    """:attr:`StoreLocation.runtime_dir`, created when missing (mode 0700 for an object store's: only
    this user's processes may use the socket in it).

    Raises:
        OSError: it cannot be created.
    """
    path = location.runtime_dir
    if location.local is None:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.mkdir(mode=0o700, exist_ok=True)
    else:
        path.mkdir(parents=True, exist_ok=True)
    return path
