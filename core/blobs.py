"""Small named objects with conditional writes: the coordination primitive under the index.

Everything more than one process must agree on (the generation pointer, the indexer's leader lease,
exactly-once claims of Slack events) is a small object written with a *conditional* request:

- :meth:`BlobStore.create` succeeds only when the key does not exist (HTTP ``If-None-Match: *``);
- :meth:`BlobStore.replace` succeeds only when the object still has the ETag the caller read
  (HTTP ``If-Match``).

S3, GCS, Azure Blob and the S3-compatible servers enforce both (RFC 9110 §13.1.1–13.1.2;
https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-requests.html), and a POSIX folder
gives the same guarantees with ``link(2)`` (fails when the name exists) and ``flock(2)``
(:class:`LocalBlobStore`). The object-store implementation is :class:`core.blobs_object.ObjectBlobStore`;
:func:`make_blob_store` chooses one from the data dir's location, and :func:`check_conditional_writes`
is the start-up self-test that refuses a store (or a proxy in front of it) that ignores the conditions.

Keys are ``/``-separated relative names (``state/index.json``, ``claims/slack/Ev123``); ``..`` and
absolute keys are refused.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from core.errors import StoreError
from core.store_location import BLOBS_FOLDER, StoreLocation

__all__ = ["Blob", "BlobStore", "LocalBlobStore", "check_conditional_writes", "check_key", "make_blob_store"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Blob:
    """One object's bytes and the opaque version tag a conditional replace must quote."""

    data: bytes
    etag: str


class BlobStore(Protocol):
    """Named byte objects with conditional create/replace (see the module docstring)."""

    def get(self, key: str) -> Blob | None:
        """The object at ``key``, or None when there is none."""
        ...

    def put(self, key: str, data: bytes) -> str:
        """Write ``key`` unconditionally; returns the new ETag."""
        ...

    def create(self, key: str, data: bytes) -> str | None:
        """Write ``key`` only if it does not exist; the new ETag, or None when it already existed."""
        ...

    def replace(self, key: str, data: bytes, etag: str) -> str | None:
        """Overwrite ``key`` only if its ETag is still ``etag``; the new ETag, or None when it changed
        (or was deleted) since it was read."""
        ...

    def delete(self, key: str) -> None:
        """Remove ``key`` (no error when it is already gone)."""
        ...

    def list(self, prefix: str) -> list[str]:
        """Keys starting with ``prefix``, sorted."""
        ...


def check_key(key: str) -> str:
    """Return ``key`` when it is a safe relative object name.

    Raises:
        ValueError: empty, absolute, or containing an empty, ``.`` or ``..`` segment.
    """
    parts = key.split("/")
    if not key or key.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"invalid blob key {key!r}: use a relative name like 'state/index.json'")
    return key


def _etag(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


class LocalBlobStore:
    """:class:`BlobStore` on a local folder (the single-machine default).

    ``create`` writes a temporary file and hard-links it to the key (``link(2)`` fails atomically when
    the name exists); ``replace`` and ``put`` hold an exclusive ``flock`` on ``<root>/.blobs.lock`` while
    they compare and ``os.replace`` the file, so a concurrent ``create``/``replace`` of the same key by
    another process can never both succeed. ETags are content hashes (two writes of the same bytes share
    an ETag, which is harmless for compare-and-swap of values that embed a writer id or a time).

    Args:
        root: the folder holding the objects (created when missing).
        create: False to only look (``policybot status`` creates nothing): the folder is not created,
            and a missing folder reads as empty (writes then fail with the OS error).
    """

    def __init__(self, root: Path, *, create: bool = True) -> None:
        self.root = root
        if create:
            root.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        return self.root / check_key(key)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with open(self.root / ".blobs.lock", "a+b") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def _temp(self, path: Path, data: bytes) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        return Path(tmp)

    def get(self, key: str) -> Blob | None:
        """The object at ``key``, or None."""
        try:
            data = self._path(key).read_bytes()
        except FileNotFoundError:
            return None
        return Blob(data, _etag(data))

    def put(self, key: str, data: bytes) -> str:
        """Write ``key`` unconditionally (atomic replace)."""
        path = self._path(key)
        tmp = self._temp(path, data)
        with self._locked():
            os.replace(tmp, path)
        return _etag(data)

    def create(self, key: str, data: bytes) -> str | None:
        """Write ``key`` only when absent (``link(2)``); None when it already exists."""
        path = self._path(key)
        tmp = self._temp(path, data)
        try:
            with self._locked():
                os.link(tmp, path)
        except FileExistsError:
            return None
        finally:
            tmp.unlink(missing_ok=True)
        return _etag(data)

    def replace(self, key: str, data: bytes, etag: str) -> str | None:
        """Overwrite ``key`` only when its content hash is still ``etag``; None otherwise."""
        path = self._path(key)
        tmp = self._temp(path, data)
        try:
            with self._locked():
                current = self.get(key)
                if current is None or current.etag != etag:
                    return None
                os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        return _etag(data)

    def delete(self, key: str) -> None:
        """Remove ``key`` if present."""
        with self._locked():
            self._path(key).unlink(missing_ok=True)

    def list(self, prefix: str) -> list[str]:
        """Keys under the root starting with ``prefix`` (temporary files excluded)."""
        keys: list[str] = []
        if not self.root.is_dir():
            return keys
        for path in self.root.rglob("*"):
            if path.is_file() and not path.name.startswith("."):
                key = path.relative_to(self.root).as_posix()
                if key.startswith(prefix):
                    keys.append(key)
        return sorted(keys)


def make_blob_store(location: StoreLocation) -> BlobStore:
    """The BlobStore of ``location``: :class:`LocalBlobStore` on ``<folder>/blobs`` for a folder,
    :class:`core.blobs_object.ObjectBlobStore` on ``<uri>/blobs/`` for ``s3://``, ``gs://``, ``az://``.

    Creates nothing on an object store (a bucket prefix needs no folder); creates the local folder.
    """
    if location.local is not None:
        return LocalBlobStore(location.local / BLOBS_FOLDER)
    from core.blobs_object import ObjectBlobStore

    return ObjectBlobStore(location, BLOBS_FOLDER)


def check_conditional_writes(blobs: BlobStore, where: str) -> None:
    """Start-up self-test: the store must refuse a second conditional create of one key and a replace
    quoting a stale ETag, or concurrent LanceDB commits (and leases, claims) would silently overwrite
    each other. Writes, checks and deletes ``selftest/<random>``.

    Raises:
        StoreError: the store accepted the second create or the stale replace (it, or a proxy in front of
            it, ignores ``If-None-Match``/``If-Match``), or it could not be reached (the message names
            ``where`` and the cause).
    """
    key = f"selftest/{uuid.uuid4().hex}"
    try:
        first = blobs.create(key, b"1")
        second = blobs.create(key, b"2")  # must be refused
        current = blobs.replace(key, b"3", first) if first is not None else None  # must succeed
        stale = blobs.replace(key, b"4", first) if first is not None else None  # must be refused
        blobs.delete(key)
    except Exception as exc:  # network, credentials, missing bucket: name it, never a traceback
        first_line = (str(exc).splitlines() or [type(exc).__name__])[0][:300]
        raise StoreError(f"cannot use the store at {where} ({type(exc).__name__}: {first_line}); check the "
                         "bucket, AWS_ENDPOINT_URL (or GOOGLE_*/AZURE_*) and the credentials in the "
                         "environment") from None
    if first is None or second is not None or current is None or stale is not None:
        raise StoreError(f"the store at {where} does not enforce conditional writes (a second create of "
                         "one key with If-None-Match, or a replace with a stale If-Match ETag, succeeded); "
                         "concurrent commits would be silently lost, so policybot refuses to start. Use a "
                         "store that enforces them (S3, GCS, Azure Blob, MinIO, SeaweedFS) and no proxy "
                         "that drops the If-None-Match/If-Match headers")
    log.debug("store at %s enforces conditional writes", where)


def write_json_record(blobs: BlobStore, key: str, data: dict[str, Any]) -> None:
    """Replace the JSON object at ``key`` with ``data`` (UTF-8; values JSON cannot hold are written as
    ``str``). Errors are logged at WARNING, never raised: a full disk or an unreachable store must not
    stop the caller (a watcher, a reconcile)."""
    try:
        blobs.put(key, json.dumps(data, ensure_ascii=False, default=str).encode("utf-8"))
    except Exception as exc:
        log.warning("cannot write %s (%s)", key, exc)


def read_json_record(blobs: BlobStore, key: str) -> dict[str, Any] | None:
    """The JSON object at ``key``, or None when there is none, it is unreadable or not an object
    (logged at DEBUG)."""
    try:
        blob = blobs.get(key)
        data = json.loads(blob.data) if blob is not None else None
    except (OSError, ValueError) as exc:
        log.debug("cannot read %s (%s)", key, exc)
        return None
    return data if isinstance(data, dict) else None
