"""A bounded load test of the web judge: ``POST /api/v1/check`` with 1, 8 and 64
concurrent clients against a real uvicorn server (``azul-rules serve``, its own process)
on this machine's loopback address.

Each level sends a fixed number of requests (after a short warm-up) and stops by
itself; a level that has not finished within ``--limit`` seconds is cut short and says
so.  Every request is the partial take of ``examples/`` in French (a table take, judged
``PARTIAL_TAKE``), and every answer is checked.  Prints requests per second and the
p50 / p99 latency of each level.  The client is a minimal HTTP/1.1 keep-alive client on
asyncio streams (one connection per concurrent client), so that its own cost stays small
beside the server's: both share the machine's cores.  Needs the ``web`` extra.

    .venv/bin/python benchmarks/web_load.py [--requests 3000] [--limit 120]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LEVELS = (1, 8, 64)


def _body() -> bytes:
    state = json.loads((ROOT / "examples/round-2-position.json").read_text())
    move = json.loads((ROOT / "examples/partial-take.json").read_text())
    return json.dumps({"state": state, "move": move, "lang": "fr"}).encode()


def _start_server() -> tuple[subprocess.Popen[str], str]:
    """``azul-rules serve`` on 127.0.0.1, a free port; its address."""
    command = [sys.executable, "-m", "azul_rules", "serve", "--host", "127.0.0.1", "--port",
               "0", "--log-level", "warning"]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert server.stdout is not None
    line = server.stdout.readline()
    if " at http://127.0.0.1:" not in line:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return server, line.split(" at ")[1].split()[0]


async def _level(address: tuple[str, int], request: bytes, clients: int, requests: int,
                 limit: float) -> tuple[list[float], float, bool]:  # fmt: skip
    """``requests`` POSTs shared among ``clients`` concurrent keep-alive connections; the
    latencies (s), the wall time, and whether the time limit cut the level short."""
    latencies: list[float] = []
    remaining = [requests]

    async def worker() -> None:
        reader, writer = await asyncio.open_connection(*address)
        try:
            while remaining[0] > 0:
                remaining[0] -= 1
                start = time.perf_counter()
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                payload = await reader.readexactly(length)
                latencies.append(time.perf_counter() - start)
                if not head.startswith(b"HTTP/1.1 200") or b'"PARTIAL_TAKE"' not in payload:
                    raise SystemExit(f"unexpected answer: {head[:60]!r} {payload[:200]!r}")
        finally:
            writer.close()

    began = time.perf_counter()
    tasks = [asyncio.create_task(worker()) for _ in range(clients)]
    done, pending = await asyncio.wait(tasks, timeout=limit)
    for task in pending:
        task.cancel()
    for task in done:
        task.result()
    return latencies, time.perf_counter() - began, bool(pending)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _run(base: str, requests: int, limit: float) -> list[dict[str, Any]]:
    host, port = base.removeprefix("http://").rstrip("/").split(":")
    assert host == "127.0.0.1", "this load test only ever talks to the loopback address"
    body = _body()
    request = (b"POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
               b"Content-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n" % len(body)) + body  # fmt: skip
    address = (host, int(port))
    results = []
    await _level(address, request, 8, 200, limit)  # warm-up
    for clients in LEVELS:
        latencies, wall, cut = await _level(address, request, clients, requests, limit)
        results.append({
            "clients": clients, "requests": len(latencies),
            "per_second": len(latencies) / wall,
            "p50_ms": 1000 * statistics.median(latencies),
            "p99_ms": 1000 * _percentile(latencies, 0.99), "cut_short": cut,
        })  # fmt: skip
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="per level (default 3000)")
    parser.add_argument("--limit", type=float, default=120, help="seconds per level at most")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args()
    server, base = _start_server()
    try:
        results = asyncio.run(_run(base, args.requests, args.limit))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"POST /api/v1/check ({base}), {args.requests} requests per level")
    print(f"{'clients':>8} {'requests/s':>11} {'p50 ms':>8} {'p99 ms':>8}")
    for r in results:
        note = "  (cut short by --limit)" if r["cut_short"] else ""
        print(f"{r['clients']:>8} {r['per_second']:>11.0f} {r['p50_ms']:>8.2f} "
              f"{r['p99_ms']:>8.2f}{note}")  # fmt: skip


if __name__ == "__main__":
    main()
