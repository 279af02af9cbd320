"""One error boundary that names the cause (issue 15, item 3): DNS failure, connection refused,
permission denied, disk full and Ctrl-C during ``index`` each end in one line on stderr, the right exit
code and no traceback. Network and permission failures are real (a ``.invalid`` host, a closed local
port, sysfs); the full disk is simulated by an ``ENOSPC`` from the store's write (tests cannot fill a
disk); Ctrl-C is a real ``^C`` typed into a pseudo-terminal while a 400-page PDF is being indexed.
"""

from __future__ import annotations

import errno
import fcntl
import os
import pty
import select
import shutil
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.store import Store
from policybot.boundary import network_cause, reaching
from policybot.cli import cli
from tests.cli_helpers import ENTRY, LEAVE, REPO, cli_env, free_port, policy_folder, run_cli, write_config
from tests.slack_standin.web_api import BOT_TOKEN

CORPUS = REPO.parent / "shared" / "corpus"


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip()]


def _slack_config(tmp_path: Path, api_base_url: str) -> Path:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    return write_config(tmp_path, root, slack={"api_base_url": api_base_url})


def _run_http(cfg: Path) -> subprocess.CompletedProcess[str]:
    env = cli_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_SIGNING_SECRET="s3cret")
    return run_cli("--config", str(cfg), "run", "--http-port", str(free_port()), "--host", "127.0.0.1",
                   env=env, timeout=120)


def test_dns_failure_names_slack_the_host_and_the_key(tmp_path: Path) -> None:
    out = _run_http(_slack_config(tmp_path, "http://policybot-test.invalid/api/"))
    (line,) = [x for x in _error_lines(out.stderr) if x.startswith("error:")]
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "cannot reach Slack at http://policybot-test.invalid/api/" in line
    assert "DNS" in line and "slack.api_base_url" in line


def test_dns_failure_is_the_only_stderr_line_at_default_verbosity(tmp_path: Path) -> None:
    """slack_sdk's own ``Failed to send a request`` ERROR records are quiet unless ``-v``."""
    cfg = _slack_config(tmp_path, "http://policybot-test.invalid/api/")
    quiet = _run_http(cfg)
    env = cli_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_SIGNING_SECRET="s3cret")
    loud = run_cli("-v", "--config", str(cfg), "run", "--http-port", str(free_port()), "--host", "127.0.0.1",
                   env=env, timeout=120)
    assert [x[:15] for x in _error_lines(quiet.stderr)] == ["error: cannot r"]
    assert "Failed to send a request to Slack API server" in loud.stderr


def test_connection_refused_names_slack_and_what_to_check(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/api/"
    out = _run_http(_slack_config(tmp_path, url))
    (line,) = [x for x in _error_lines(out.stderr) if x.startswith("error:")]
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"cannot reach Slack at {url}" in line and "refused" in line and "slack.api_base_url" in line


def test_permission_denied_names_the_path(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    out = run_cli("--config", str(write_config(tmp_path, root)), "--data-dir", "/sys/policybot-test", "index")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    (line,) = _error_lines(out.stderr)
    assert "/sys/policybot-test" in line and "permission denied" in line


def test_disk_full_names_the_file_and_free_space(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = policy_folder(tmp_path / "policies", {"leave.md": LEAVE})
    cfg = write_config(tmp_path, root)
    full = tmp_path / "data" / "lancedb" / "chunks.lance"

    def no_space(self: Store, *args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(full))

    monkeypatch.setattr(Store, "replace_chunks", no_space)
    r = CliRunner().invoke(cli, ["--config", str(cfg), "index"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    (line,) = _error_lines(r.stderr)
    assert str(full) in " ".join(r.stderr.split()) and "no space left" in line and "free disk space" in line


def test_network_causes_are_classified_by_exception_type() -> None:
    import socket
    import ssl
    import urllib.error

    wrapped = urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))
    assert network_cause(wrapped, "slack.com") is not None and "DNS" in str(network_cause(wrapped))
    assert "refused" in str(network_cause(ConnectionRefusedError(111, "Connection refused")))
    assert "TLS" in str(network_cause(ssl.SSLCertVerificationError("certificate verify failed")))
    assert "in time" in str(network_cause(TimeoutError("timed out")))
    assert network_cause(ValueError("Name or service not known")) is None  # the text alone proves nothing
    with pytest.raises(ValueError), reaching("X", "http://x", "x.url"):
        raise ValueError("a bug stays a bug")


def test_ctrl_c_during_index_in_a_terminal_prints_one_line_and_exits_130(tmp_path: Path) -> None:
    root = policy_folder(tmp_path / "policies", {"a_leave.md": LEAVE})
    shutil.copy2(CORPUS / "indian_constitution.pdf", root / "b_constitution.pdf")
    shutil.copy2(CORPUS / "policy.pdf", root / "c_policy.pdf")
    cfg = write_config(tmp_path, root)
    master, slave = pty.openpty()

    def controlling_tty() -> None:  # a new session whose terminal is the pty: ^C reaches the process group
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([sys.executable, "-c", ENTRY, "--config", str(cfg), "index"], cwd=REPO,
                            env=cli_env(COLUMNS="120", TERM="xterm"), stdin=slave, stdout=slave, stderr=slave,
                            preexec_fn=controlling_tty)
    os.close(slave)
    try:
        seen = _read_until(master, proc, b"b_constitution", timeout=180)
        time.sleep(1.0)
        os.write(master, b"\x03")
        seen += _read_until(master, proc, None, timeout=120)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = seen.decode("utf-8", "replace")
    assert code == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert "interrupted:" in text and "run the same command again to continue" in text
    status = run_cli("--config", str(cfg), "status", "--json")
    assert status.returncode == 0 and '"a_leave.md"' in status.stdout  # the finished file is kept


def _read_until(fd: int, proc: subprocess.Popen[bytes], marker: bytes | None, timeout: float) -> bytes:
    """Read the pty until ``marker`` appears (None: until the process closes it)."""
    out = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                block = os.read(fd, 65536)
            except OSError:  # EIO: the other side closed
                return out
            if not block:
                return out
            out += block
            if marker is not None and marker in out:
                return out
        elif proc.poll() is not None and marker is not None:
            break
    if marker is not None:
        raise AssertionError(f"{marker!r} not seen: {out.decode('utf-8', 'replace')[-2000:]}")
    return out
