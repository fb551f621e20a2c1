"""An engine whose words are hostile, for the tests: each answers like the reference
engine, but with a megabyte where a word is expected and control characters (an ESC
that would recolour a terminal, a carriage return that would hide a line).

    python tests/engines/hostile_engine.py --mode refuse|name|garbage|stderr

* ``refuse``: refuses every move with a 200,000-character code and message;
* ``name``: calls itself by a name of 200,000 characters in its ``hello``;
* ``garbage``: answers ``new_game`` with a line of 200,000 characters, not JSON;
* ``stderr``: writes such a line on standard error, then exits with status 3.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from azul_rules.engine import ReferenceEngine, main

MODES = ("refuse", "name", "garbage", "stderr")
HOSTILE = "\x1b[31mred\r\x07" + "x" * 200_000


class HostileEngine(ReferenceEngine):
    """The reference engine, with hostile words."""

    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode

    def handle(self, request: object) -> dict[str, Any]:
        kind = request.get("type") if isinstance(request, dict) else None
        reply = super().handle(request)
        if kind == "hello" and self.mode == "name":
            reply["engine"] = HOSTILE
        if kind == "apply" and self.mode == "refuse":
            error = {"code": HOSTILE, "message": HOSTILE}
            return {"id": reply.get("id"), "ok": False, "error": error}
        if kind == "new_game" and self.mode == "garbage":
            print(HOSTILE, flush=True)
        if kind == "new_game" and self.mode == "stderr":
            print(HOSTILE, file=sys.stderr, flush=True)
            sys.exit(3)
        return reply


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=MODES, required=True)
    sys.exit(main(HostileEngine(parser.parse_args().mode)))
