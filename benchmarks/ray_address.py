"""How long ``azul-rules tournament --backend ray --ray-address ADDR`` takes to fail on
each kind of bad address, and what it prints; with ``--cluster``, also a valid address
(a local cluster's GCS) and another of Ray's gRPC ports (its raylet's).

    .venv/bin/python benchmarks/ray_address.py [--timeout SECONDS] [--cluster]

Each row runs the command once in a fresh process (as a user would), timed from start
to exit, and reports its exit status, the seconds, the lines on standard error and the
start of its last line.  A run still going after ``--timeout`` seconds (default 60) is
killed and shown as such (Ray alone waits about 14 minutes for an address where
nothing listens: give ``--timeout 1200`` to see it end).  The servers standing in for
wrong services (a web server, a port that never answers) run in this process.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.fake_servers import black_hole, closed_port, web_server


def attempt(address: str, timeout: float, note: str = "") -> str:
    """One run of the command: a Markdown row."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    command = [sys.executable, "-m", "azul_rules", "tournament", "--bots", "random,greedy",
               "--games", "2", "--backend", "ray", "--no-progress", "--ray-address",
               address]  # fmt: skip
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as expired:
        err = expired.stderr or b""
        lines = (err.decode(errors="replace") if isinstance(err, bytes) else err).count("\n")
        return f"| `{address}`{note} | killed | > {timeout:.0f} | {lines} | (still waiting) |"
    seconds = time.perf_counter() - start
    text = (done.stderr.strip() or done.stdout.strip() or "-").splitlines()
    last = text[-1]
    lines = done.stderr.count("\n")
    return (f"| `{address}`{note} | {done.returncode} | {seconds:.2f} | {lines} "
            f"| {last[:90].replace('|', '/')}… |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--cluster", action="store_true", help="also a real local cluster")
    args = parser.parse_args()
    print("| address | exit | seconds | stderr lines | last line |")
    print("| --- | ---: | ---: | ---: | --- |")
    with web_server() as web, black_hole() as hole:
        for address in ("::::", "localhost", "nosuchhost:6379", f"127.0.0.1:{closed_port()}",
                        f"ray://127.0.0.1:{closed_port()}", f"127.0.0.1:{web}",
                        f"127.0.0.1:{hole}"):  # fmt: skip
            print(attempt(address, args.timeout), flush=True)
    if args.cluster:
        ray: Any = importlib.import_module("ray")  # the [ray] extra
        ray.init(address="local", num_cpus=1, include_dashboard=False, logging_level="ERROR")
        try:
            port = ray.get_runtime_context().gcs_address.rsplit(":", 1)[1]
            print(attempt(f"127.0.0.1:{port}", args.timeout, " (a running cluster's GCS)"))
            raylet = ray.nodes()[0]["NodeManagerPort"]
            print(attempt(f"127.0.0.1:{raylet}", args.timeout, " (its raylet's port)"))
        finally:
            ray.shutdown()


if __name__ == "__main__":
    main()
