"""Helpers for tests that run the real ``policybot`` command in a child process (signals, ports, ptys).

:func:`write_config` makes a config with the fake embedder (the model is not the subject) and a real
LanceDB data dir in ``tmp_path``; :class:`CliProcess` starts ``policybot`` with piped output read on
background threads, so a test can wait for a line, send a signal and collect what was printed.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import yaml

REPO = Path(__file__).resolve().parents[1]
ENTRY = "from policybot.cli import main; main()"
LEAVE = ("# Parental leave\n\n## Mothers\n\nMothers get 26 weeks of paid parental leave after the birth.\n\n"
         "## Fathers\n\nFathers and partners get 4 weeks of paid parental leave after the birth.\n")
TRAVEL = "# Travel\n\n## Per diem\n\nThe per diem for domestic travel is 60 euros per day.\n"


def policy_folder(path: Path, files: Mapping[str, str]) -> Path:
    """Create ``path`` with ``files`` (relative name → text)."""
    for rel, text in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text, encoding="utf-8")
    return path


def write_config(tmp_path: Path, root: Path, name: str = "config.yaml", **sections: Any) -> Path:
    """A config: fake embedder, no reranker, ``policies.root`` = ``root``, data dir ``tmp_path/data``;
    ``sections`` are merged in (e.g. ``slack={"api_base_url": ...}``)."""
    data: dict[str, Any] = {"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
                            "embedding": {"provider": "fake"}, "rerank": {"enabled": False}}
    for key, value in sections.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    cfg = tmp_path / name
    cfg.write_text(yaml.safe_dump(data), encoding="utf-8")
    return cfg


def cli_env(**extra: str) -> dict[str, str]:
    """The environment for a child ``policybot``: no Slack tokens unless given, models offline."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONUNBUFFERED="1", COLUMNS="200")
    env.update(extra)
    return env


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_cli(*args: str, env: Mapping[str, str] | None = None, timeout: float = 300,
            stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``policybot args`` to completion in a child process."""
    return subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, text=True, cwd=REPO,
                          env=dict(env or cli_env()), timeout=timeout, input=stdin)


class CliProcess:
    """``policybot args`` running in a child process; stdout and stderr are collected line by line."""

    def __init__(self, *args: str, env: Mapping[str, str] | None = None, stdin: int | None = None) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", ENTRY, *args], cwd=REPO,
                                     env=dict(env or cli_env()),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     stdin=stdin if stdin is not None else subprocess.DEVNULL)
        self.lines: queue.Queue[str] = queue.Queue()
        self.out: list[str] = []
        self.err: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        for stream, sink in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._pump, args=(stream, sink), daemon=True).start()

    def _pump(self, stream: IO[str], sink: list[str]) -> None:
        for line in stream:
            sink.append(line)
            self.lines.put(line)

    def wait_for(self, pattern: str, timeout: float = 120) -> re.Match[str]:
        """The first output line matching ``pattern`` (fails when the process ends or time runs out)."""
        deadline = time.monotonic() + timeout
        rx = re.compile(pattern)
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None and self.lines.empty():
                    break
                continue
            if m := rx.search(line):
                return m
        raise AssertionError(f"no line matching {pattern!r}; exit {self.proc.poll()}\nstdout:\n"
                             f"{''.join(self.out)}\nstderr:\n{''.join(self.err)}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> tuple[int, float]:
        """Send ``sig`` and wait; returns (exit code, seconds until it exited)."""
        t0 = time.monotonic()
        self.proc.send_signal(sig)
        code = self.proc.wait(timeout=timeout)
        elapsed = time.monotonic() - t0
        time.sleep(0.2)  # let the pump threads drain the pipes
        return code, elapsed

    @property
    def stderr(self) -> str:
        """Everything printed on stderr so far."""
        return "".join(self.err)

    def kill(self) -> None:
        """Kill the process if it still runs (test clean-up)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
