"""Wall time of cold CLI commands (issue 15, item 9): ``--help``, ``status``, ``ask`` cold (no running
process: the command loads the models itself) and ``ask`` warm (answered by a running ``policybot
watch`` on the same data dir over its local socket), each a fresh ``policybot`` process as a user types
it. Uses the repository's ``config.yaml`` and ``policies/`` (the bundled MiniLM model) in a temp folder.

Run: ``.venv/bin/python bench/cli_latency.py [--repeat 5]``. Prints each figure (median of the repeats,
seconds) and the cold/warm ratio of ``ask`` within the one run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENTRY = "from policybot.cli import main; main()"
QUESTION = "How many days a week can I work from home?"


def timed(args: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Wall seconds of one ``policybot args`` run (fails loudly on a non-zero exit)."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", ENTRY, *args], cwd=cwd, env=env, capture_output=True,
                         text=True)
    elapsed = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"policybot {' '.join(args)} failed:\n{out.stderr}")
    return elapsed


def median_of(n: int, args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, list[float]]:
    runs = [timed(args, cwd, env) for _ in range(n)]
    return statistics.median(runs), runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    n = parser.parse_args().repeat
    base = Path(tempfile.mkdtemp(prefix="pb-cli-bench-"))
    shutil.copy2(REPO / "config.yaml", base / "config.yaml")
    shutil.copytree(REPO / "policies", base / "policies")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONPATH": str(REPO)}
    try:
        timed(["index"], base, env)
        rows = {"--help": median_of(n, ["--help"], base, env), "status": median_of(n, ["status"], base, env),
                "ask (cold)": median_of(max(2, n // 2), ["ask", QUESTION], base, env)}
        watch = subprocess.Popen([sys.executable, "-c", ENTRY, "watch"], cwd=base, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert watch.stdout is not None
            for line in watch.stdout:
                if line.startswith("watching"):
                    break
            timed(["ask", QUESTION], base, env)  # the first question waits for the watcher's warm-up
            rows["ask (warm, running watch)"] = median_of(n, ["ask", QUESTION], base, env)
        finally:
            watch.send_signal(signal.SIGTERM)
            watch.wait(30)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{'command':28} {'median s':>9}  runs")
    for name, (med, runs) in rows.items():
        print(f"{name:28} {med:9.2f}  {' '.join(f'{r:.2f}' for r in runs)}")
    cold, warm = rows["ask (cold)"][0], rows["ask (warm, running watch)"][0]
    print(f"ask cold / warm = {cold / warm:.1f}x")


if __name__ == "__main__":
    main()
