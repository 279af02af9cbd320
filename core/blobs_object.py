""":class:`~core.blobs.BlobStore` on an object store (S3 and S3-compatible servers, GCS, Azure Blob).

Built on obstore (Python bindings of the Rust ``object_store`` crate, the library LanceDB itself writes
through), so both read the same environment variables for credentials and endpoints
(``AWS_ENDPOINT_URL``, ``AWS_ALLOW_HTTP``, ``AWS_REGION``, ``AWS_ACCESS_KEY_ID``, ...; ``GOOGLE_*``;
``AZURE_*``) and nothing comes from the config file.

- ``create`` is a PUT with ``If-None-Match: *`` (object_store ``PutMode::Create``);
- ``replace`` is a PUT with ``If-Match: <etag>`` (``PutMode::Update``; on GCS the generation).

Whether the server really enforces them is checked at start-up by :func:`core.blobs.check_conditional_writes`.
obstore docs: https://developmentseed.org/obstore/latest/api/put/ ; S3 conditional writes:
https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-writes.html
"""

from __future__ import annotations

import contextlib
import json
import logging
from datetime import timedelta
from typing import Any

import obstore
from obstore.exceptions import AlreadyExistsError, NotFoundError, PreconditionError

from core.blobs import Blob, check_key
from core.store_location import StoreLocation

log = logging.getLogger(__name__)

RETRY: dict[str, Any] = {"max_retries": 3, "retry_timeout": timedelta(seconds=20)}
"""Retries of a failed request: an unreachable endpoint fails in seconds, not after object_store's default
span (10 retries, 3 min). HTTP client options are left to the environment (``AWS_ALLOW_HTTP``, ...):
passing any ``client_options`` would replace them; object_store's defaults are a 5 s connect and a 30 s
request timeout."""


def _tag(result: Any) -> str:
    """Opaque ETag: the object's ETag and version (GCS generation), which ``replace`` quotes back."""
    return json.dumps([result.get("e_tag"), result.get("version")])


class ObjectBlobStore:
    """Blobs under ``<location>/blobs/`` in a bucket.

    Args:
        location: an object-store :class:`~core.store_location.StoreLocation` (``s3``, ``gs``, ``az``).
        folder: the sub-folder of the location holding the blobs.
    """

    def __init__(self, location: StoreLocation, folder: str = "blobs") -> None:
        if location.is_local:
            raise ValueError("ObjectBlobStore needs an object-store location; use LocalBlobStore")
        self.location = location
        bucket, _, prefix = location.uri.split("://", 1)[1].partition("/")
        prefix = f"{prefix}/{folder}" if prefix else folder
        self._store = _open(location.scheme, bucket, prefix)

    def get(self, key: str) -> Blob | None:
        """The object at ``key``, or None."""
        try:
            res = obstore.get(self._store, check_key(key))
        except (NotFoundError, FileNotFoundError):
            return None
        return Blob(bytes(res.bytes()), _tag(res.meta))

    def put(self, key: str, data: bytes) -> str:
        """Write ``key`` unconditionally."""
        return _tag(obstore.put(self._store, check_key(key), data, mode="overwrite"))

    def create(self, key: str, data: bytes) -> str | None:
        """Write ``key`` only when absent (``If-None-Match: *``); None when it exists."""
        try:
            return _tag(obstore.put(self._store, check_key(key), data, mode="create"))
        except (AlreadyExistsError, PreconditionError, FileExistsError):
            return None

    def replace(self, key: str, data: bytes, etag: str) -> str | None:
        """Overwrite ``key`` only when it still has ``etag`` (``If-Match``); None otherwise."""
        try:
            e_tag, version = json.loads(etag)
        except (ValueError, TypeError):
            return None
        mode: dict[str, str] = {k: v for k, v in (("e_tag", e_tag), ("version", version)) if v}
        try:
            return _tag(obstore.put(self._store, check_key(key), data, mode=mode))  # type: ignore[arg-type]
        except (PreconditionError, NotFoundError, FileNotFoundError):
            return None

    def delete(self, key: str) -> None:
        """Remove ``key`` (no error when it is gone)."""
        with contextlib.suppress(NotFoundError, FileNotFoundError):
            obstore.delete(self._store, check_key(key))

    def list(self, prefix: str) -> list[str]:
        """Keys starting with ``prefix``, sorted."""
        folder, _, _ = prefix.rpartition("/")
        keys: list[str] = []
        for batch in obstore.list(self._store, prefix=folder or None):
            keys.extend(str(m["path"]) for m in batch)
        return sorted(k for k in keys if k.startswith(prefix))


def _open(scheme: str, bucket: str, prefix: str) -> Any:
    """The obstore store of ``scheme`` for ``bucket`` under ``prefix`` (config from the environment)."""
    from obstore.store import AzureStore, GCSStore, S3Store

    kinds: dict[str, Any] = {"s3": S3Store, "gs": GCSStore, "az": AzureStore}
    return kinds[scheme](bucket, prefix=prefix, retry_config=RETRY)
