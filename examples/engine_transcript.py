"""Print real exchanges with the reference engine (the transcripts in
docs/engine-protocol.md come from this script, and a test checks they still do).

    .venv/bin/python examples/engine_transcript.py

``>`` lines are what the referee sends, ``<`` lines what the engine answers.
"""

from __future__ import annotations

import io
import sys

from azul_rules import Color, Phase, PlaceTile, Refill, Take, Variant, new_game
from azul_rules.testing.engine_process import EngineProcess
from azul_rules.testing.protocol import factories_doc

B, Y, R, K, W = Color.BLUE, Color.YELLOW, Color.RED, Color.BLACK, Color.WHITE
DEAL = ((B, B, Y, R), (Y, Y, Y, K), (R, R, K, W), (B, K, K, W), (W, W, W, R))
ENGINE = [sys.executable, "-m", "azul_rules.engine"]


def opening() -> str:
    """A game's first exchanges: hello, new_game, legal moves, two takes, a refusal, the
    engine's view, quit."""
    out = io.StringIO()
    with EngineProcess(ENGINE, transcript=out) as engine:
        engine.hello()
        engine.new_game(2, Variant.COLORED, 0, DEAL)
        engine.legal_moves()
        engine.apply(Take(1, Y, 2), player=0)
        engine.apply(Take(-1, K, 0), player=1)
        engine.request("apply", {"move": {"type": "take", "source": 1, "color": "red", "line": 0}})
        engine.view(2)
    return out.getvalue()  # closing the engine says quit


def grey_tiling() -> str:
    """The grey wall's tiling phase: the engine lists place_tile moves and plays them."""
    state = new_game(2, variant=Variant.GREY, first_player=0, external_draws=True)
    state = state.apply(Refill(DEAL))
    moves = []
    while state.phase is not Phase.WALL_TILING:
        move = state.legal_moves()[0]
        moves.append((move, state.current_player))
        state = state.apply(move)
    out = io.StringIO()
    with EngineProcess(ENGINE) as engine:
        engine.hello()
        engine.new_game(2, Variant.GREY, 0, DEAL)
        for move, player in moves:
            engine.apply(move, player)
        engine.transcript = out
        engine.legal_moves()
        first = state.legal_moves()[0]
        assert isinstance(first, PlaceTile)
        engine.apply(first, state.current_player)
        engine.view(2)
        engine.transcript = None
    return out.getvalue()


if __name__ == "__main__":
    print(f"# the deal: {factories_doc(DEAL)}")
    print(opening(), end="")
    print("# ... a grey game from the same deal, first legal move each turn, at its tiling:")
    print(grey_tiling(), end="")
