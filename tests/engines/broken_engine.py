"""Engines that break the protocol, for the tests: each answers ``hello`` like the
reference engine, then fails in one way at its first ``new_game``.

    python tests/engines/broken_engine.py --mode garbage [--pids FILE]

* ``garbage``: prints a debugging line instead of a reply;
* ``exit``: writes a last word on standard error and exits with status 3;
* ``hang``: starts a child process, then never answers (both must be ended);
* ``shape``: answers ``state`` with a score that is not a number;
* ``old``: says it speaks protocol 0 in its ``hello``.

``--pids FILE`` writes the engine's process id (and its child's) to FILE.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

from azul_rules.engine import ReferenceEngine, main

MODES = ("garbage", "exit", "hang", "shape", "old")


class BrokenEngine(ReferenceEngine):
    """The reference engine, broken in one way."""

    def __init__(self, mode: str, pids: str | None) -> None:
        super().__init__()
        self.mode = mode
        self.pids = pids

    def handle(self, request: object) -> dict[str, Any]:
        kind = request.get("type") if isinstance(request, dict) else None
        reply = super().handle(request)
        if kind == "hello" and self.mode == "old":
            reply["protocol"] = 0
        if kind == "new_game":
            self.break_now()
        if kind == "state" and self.mode == "shape":
            reply["state"]["players"][0]["score"] = "twelve"
        return reply

    def break_now(self) -> None:
        if self.mode == "garbage":
            print("debug: dealing the factories...", flush=True)
        elif self.mode == "exit":
            print("Traceback: the engine fell over", file=sys.stderr, flush=True)
            sys.exit(3)
        elif self.mode == "hang":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            if self.pids:
                with open(self.pids, "w", encoding="utf-8") as out:
                    json.dump([os.getpid(), child.pid], out)
            time.sleep(600)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=MODES, required=True)
    parser.add_argument("--pids")
    arguments = parser.parse_args()
    sys.exit(main(BrokenEngine(arguments.mode, arguments.pids)))
