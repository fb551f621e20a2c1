"""The PyPI package ``azul-game-engine`` (1.0.2, pure Python, written by others) speaking
the engine protocol, so that ``azul-rules differential`` can test it::

    .venv/bin/pip install --ignore-requires-python azul-game-engine==1.0.2
    .venv/bin/azul-rules differential \
        --engine ".venv/bin/python examples/azul_game_engine_adapter.py"

The adapter only translates: every rule decision is the package's own.  It builds the
game with one lid shared by the game and every floor (the package gives each floor its
own lid by default, so floor tiles would never come back to the bag), and a bag that
draws the tiles the referee names instead of random ones, through the package's own
``take_tiles`` (so the package still decides when the lid is poured into the bag).

The package has no move generator.  With ``--legal-moves`` the adapter lists the moves
its API accepts, by trying each on a copy of the game: every source, colour, pattern
line and number of tiles sent to the floor (its ``amount_to_place_on_floor``); a
choice that puts tiles on the floor while the line has room becomes a ``table_take``.
It is slow (hundreds of trial copies a position): use it with few games.

The package's view: scores, pattern lines, walls, floors (with the marker where it lies),
factories, centre, bag, lid, whose turn it is and, at the end, the winners.  It keeps no
round number and no "who started the round", so those are not reported.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections import Counter
from typing import Any

from azul_game_engine.action_not_allowed_exception import ActionNotAllowedException
from azul_game_engine.bag import Bag
from azul_game_engine.board import Board
from azul_game_engine.floor import Floor
from azul_game_engine.game import Game
from azul_game_engine.lid import Lid
from azul_game_engine.player import Player
from azul_game_engine.tile import Tile

TILES = {"blue": Tile.BLUE, "yellow": Tile.YELLOW, "red": Tile.RED, "black": Tile.BLACK,
         "white": Tile.WHITE}  # fmt: skip
NAMES = {tile: name for name, tile in TILES.items()}


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ScriptedBag(Bag):
    """The package's bag, drawing the tiles the referee says were drawn.  The package's
    own rule for the lid stays: it pours the lid into the bag when fewer tiles are left
    than it is asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.script: list[list[Tile]] = []

    def take_tiles(self, amount: int, lid: Lid) -> list[Tile]:
        if not self.script:  # the package refills at the round's end: the referee says later
            return []
        wanted = self.script.pop(0)
        if amount > len(self.tiles):
            self.tiles.extend(lid.give_tiles())
        for tile in wanted:
            if tile not in self.tiles:
                raise Refused("illegal_move", f"the bag holds no {NAMES[tile]} tile to draw")
            self.tiles.remove(tile)
        return list(wanted)


class Adapter:
    def __init__(self, list_moves: bool, patches: set[str]) -> None:
        self.list_moves = list_moves
        self.patches = patches
        self.game: Game | None = None
        self.starter = 0

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "protocol": 1, "engine": "azul-game-engine 1.0.2 (adapter)",
                "legal_moves": self.list_moves, "variants": ["colored"]}  # fmt: skip

    def new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        lid = Lid()  # one lid for the game and every floor
        players = [Player(Board(floor=Floor(lid)), name=str(i)) for i in range(request["players"])]
        game = Game(players, starting_player=request["first_player"], lid=lid)
        bag = ScriptedBag()
        game.set_bag(bag)
        bag.script = [[TILES[t] for t in f] for f in request["factories"]]
        for index in range(len(game.factory_displays)):
            game.change_factory_display(index, bag.take_tiles(4, lid))
        self.game = game
        self.starter = request["first_player"]
        return {"ok": True}

    def refill(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self.playing()
        bag = game.bag
        assert isinstance(bag, ScriptedBag)
        bag.script = [[TILES[t] for t in f] for f in request["factories"]]
        game.prepare_for_next_round()  # the package's own refill, drawing the named tiles
        if "marker" in self.patches:  # T3 done for the package: the marker is back
            game.center.nobody_has_taken_from_center = True
        self.starter = game.current_player
        return {"ok": True}

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self.playing()
        move = request["move"]
        if move.get("type") != "take":
            raise Refused("illegal_move", "this engine plays takes only")
        holder = marker_holder(game)
        first_at_center = move["source"] == "center" and game.center.nobody_has_taken_from_center
        if holder is None and first_at_center:
            holder = game.current_player
        try:
            play(game, move["source"], TILES[move["color"]], move["line"], None)
        except ActionNotAllowedException as error:
            raise Refused("illegal_move", error.message) from None
        ended = not any(f.tiles for f in game.factory_displays) and not game.center.tiles
        if "starter" in self.patches and ended:  # R4, R5 done for the package, to see past them
            game.current_player = self.starter if holder is None else holder
        return {"ok": True}

    def legal_moves(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "moves": accepted_moves(self.playing())}

    def state(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "state": view(self.playing())}

    def playing(self) -> Game:
        if self.game is None:
            raise Refused("no_game", "send new_game first")
        return self.game


def play(game: Game, source: int | str, tile: Tile, line: int | str, to_floor: int | None) -> None:
    """A take through the package's API; ``to_floor`` tiles go to the floor by choice
    (``None``: none for a pattern line, all of them for the floor)."""
    if not game.is_running:
        raise ActionNotAllowedException("Game has already ended.")
    tiles = game.center.tiles if source == "center" else game.factory_displays[source].tiles
    count = sum(1 for t in tiles if t == tile)
    if to_floor is None:
        to_floor = count if line == "floor" else 0
    index = 0 if line == "floor" else line
    if source == "center":
        game.execute_factory_offer_phase_with_center(tile, to_floor, index)
    else:
        game.execute_factory_offer_phase_with_factory(source, tile, to_floor, index)


def accepted_moves(game: Game) -> list[dict[str, Any]]:
    """Every take the package's API accepts now, by trial on copies of the game."""
    if not game.is_running:
        return []
    found: dict[str, dict[str, Any]] = {}
    sources: list[int | str] = [*range(len(game.factory_displays)), "center"]
    board = game.players[game.current_player].board
    for source in sources:
        tiles = game.center.tiles if source == "center" else game.factory_displays[source].tiles
        for tile in Tile:
            count = sum(1 for t in tiles if t == tile)
            for line in [*range(5), "floor"]:
                for to_floor in range(count + 1) if line != "floor" else [count]:
                    move = as_protocol(board, source, tile, count, line, to_floor)
                    key = json.dumps(move, sort_keys=True)
                    if key in found or not accepts(game, source, tile, line, to_floor):
                        continue
                    found[key] = move
    return list(found.values())


def accepts(game: Game, source: int | str, tile: Tile, line: int | str, to_floor: int) -> bool:
    trial = copy.deepcopy(game)
    try:
        play(trial, source, tile, line, to_floor)
    except ActionNotAllowedException:
        return False
    return True


def as_protocol(board: Board, source: int | str, tile: Tile, count: int, line: int | str,
                to_floor: int) -> dict[str, Any]:  # fmt: skip
    """The move the package would make, in the JSON move format: a compact take when it
    is one, else a table take saying where each tile went."""
    color = NAMES[tile]
    if count and (line == "floor" or to_floor == 0):
        return {"type": "take", "source": source, "color": color, "line": line}
    placements: dict[str, int] = {}
    if line != "floor" and count - to_floor:
        pattern = board.pattern_lines[line]
        kept = min(count - to_floor, pattern.size - pattern.tile_count)
        placements[str(line)] = kept
        to_floor = count - kept
    if to_floor:
        placements["floor"] = to_floor
    return {"type": "table_take", "source": source, "color": color, "count": count,
            "placements": placements}  # fmt: skip


def marker_holder(game: Game) -> int | None:
    """The player whose floor holds the starting player marker, if any."""
    for index, player in enumerate(game.players):
        if player.board.floor.first_player_marker_position > -1:
            return index
    return None


def view(game: Game) -> dict[str, Any]:
    """What the package shows of its game, in the protocol's shape."""
    players = []
    for player in game.players:
        board = player.board
        floor = [NAMES[t] for t in board.floor.tiles]
        position = board.floor.first_player_marker_position
        if -1 < position < 7:  # past 7 the package neither shows nor penalises it (F4)
            floor.insert(position, "marker")
        players.append({
            "score": player.score,
            "pattern_lines": [[NAMES[p.tile]] * p.tile_count if p.tile else []
                              for p in board.pattern_lines],
            "wall": [[NAMES[w.tile] if w.is_placed else None for w in row]
                     for row in board.wall.tiles],
            "floor": floor,
        })  # fmt: skip
    offering = any(f.tiles for f in game.factory_displays) or game.center.tiles
    doc: dict[str, Any] = {
        "players": players,
        "current_player": game.current_player,
        "marker_holder": marker_holder(game),
        "factories": [[NAMES[t] for t in f.tiles] for f in game.factory_displays],
        "center": [NAMES[t] for t in game.center.tiles],
        "bag": dict(Counter(NAMES[t] for t in game.bag.tiles)),
        "lid": dict(Counter(NAMES[t] for t in game.lid.tiles)),
        "phase": "game_over" if not game.is_running else
                 "factory_offer" if offering else "refill",
    }  # fmt: skip
    if not game.is_running:
        doc["winners"] = sorted(int(name) for name in game.winners())
    return doc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--legal-moves", action="store_true",
        help="answer legal_moves by trying every take on a copy (slow)",
    )  # fmt: skip
    parser.add_argument("--patch", default="",
                        help="comma-separated fixes, to see past the package's first "
                             "disagreements: starter (the marker holder starts the next "
                             "round, R4, R5), marker (the marker is back in the centre "
                             "every round, T3)")  # fmt: skip
    arguments = parser.parse_args()
    adapter = Adapter(arguments.legal_moves, set(filter(None, arguments.patch.split(","))))
    handlers = {"hello": adapter.hello, "new_game": adapter.new_game, "refill": adapter.refill,
                "apply": adapter.apply, "legal_moves": adapter.legal_moves,
                "state": adapter.state, "quit": lambda request: {"ok": True}}  # fmt: skip
    for line in sys.stdin:
        request: Any = None
        try:
            request = json.loads(line)
            reply = handlers[request["type"]](request)
        except Refused as refusal:
            reply = {"ok": False, "error": {"code": refusal.code, "message": str(refusal)}}
        except Exception as error:  # a bad request, or the package failing: say so, read on
            reply = {"ok": False, "error": {"code": "bad_request", "message": repr(error)}}
        if isinstance(request, dict) and "id" in request:
            reply = {"id": request["id"], **reply}
        print(json.dumps(reply), flush=True)
        if isinstance(request, dict) and request.get("type") == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
