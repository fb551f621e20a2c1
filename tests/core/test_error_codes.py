"""Every ErrorCode is produced by a public path of the library (validate, apply, audit,
audit_game), each shown here: a table from code to a call that gives it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import azul_rules as az
from azul_rules.adjudication.claims import Claim, ClaimedBoard, claim_from_json
from azul_rules.adjudication.scoresheet import Scoresheet, audit_game
from azul_rules.core.rulebook import CODE_RULES
from tests.builders import board, colored_wall, state, wall

E = az.ErrorCode
C = az.Color
ROOT = Path(__file__).resolve().parents[2]
AUDITS = ROOT / "examples" / "audits"


def table() -> az.GameState:
    """Round 2: factory 2 holds three blues and a yellow (examples/round-2-position.json)."""
    return az.from_json((ROOT / "examples/round-2-position.json").read_text(), az.GameState)


def audited(folder: str) -> az.Result:
    from azul_rules.adjudication.auditing import position_from_json

    path = AUDITS / folder
    position = position_from_json((path / "position.json").read_text())
    return az.audit(position, claim_from_json((path / "claim.json").read_text()))


def grey_tiling() -> az.GameState:
    """A grey game waiting for player 1's wall placement (V1): blue in pattern line 1,
    yellow on the wall at row 1 column 1, blue at row 3 column 3; reached by the round's
    last take from a possible position (the 100 tiles add up, S3)."""
    p0 = board(pattern=["B"], wall_rows=wall(["Y....", "", "..B.."]))
    offer = state([p0, board(floor_text="M")], [""] * 5, "R", current=1, start=0,
                  marker_holder=1, variant=az.Variant.GREY)  # fmt: skip
    waiting = offer.apply(B(az.CENTER, C.RED, az.FLOOR))
    assert waiting.phase is az.Phase.WALL_TILING
    az.from_json(az.to_json(waiting), az.GameState)  # a position that can exist
    return waiting


def grey_placement(code: E) -> az.Result:
    """V1: the yellow's space; V2: column 3, which holds blue."""
    column = {E.SPACE_OCCUPIED: 0, E.COLUMN_COLOR_CONFLICT: 2}[code]
    return grey_tiling().validate(az.PlaceTile(0, column))


def finished() -> az.GameState:
    from azul_rules.core.bots import GreedyBot

    s, bot = az.new_game(2, seed=4), GreedyBot()
    while not s.is_over:
        s = s.apply(bot.choose(s))
    return s


def sheet_with_wrong_winner() -> az.Result:
    text = (AUDITS / "scoresheet-one-wrong-round" / "record.json").read_text()
    record = az.GameRecord.from_json(text)
    rounds = [[3, 0], [11, 0], [24, 0], [45, 0], [44, 3]]
    return audit_game(record, Scoresheet(tuple(map(tuple, rounds)), winners=(1,))).result


B = az.Take
PRODUCERS: dict[E, Callable[[], az.Result]] = {
    E.PARTIAL_TAKE: lambda: table().validate(az.TableTake(1, C.BLUE, 2, {2: 2})),
    E.SPLIT_LOT: lambda: table().validate(az.TableTake(1, C.BLUE, 3, {2: 2, 3: 1})),
    E.WALL_COLOR_CONFLICT: lambda: table().validate(B(1, C.YELLOW, 3)),
    E.INCOMPLETE_LINE_CLEARED: lambda: audited("incomplete-line-cleared"),
    E.DIAGONAL_COUNTED: lambda: audited("diagonal-counted"),
    E.GAP_COUNTED: lambda: audited("gap-counted"),
    E.MARKER_PENALTY_FORGOTTEN: lambda: audited("marker-penalty-forgotten"),
    E.GAME_ENDED_EARLY: lambda: audited("game-ended-early"),
    E.GAME_OVER: lambda: finished().validate(B(0, C.BLUE, 0)),
    E.WRONG_PHASE: lambda: table().validate(az.PlaceTile(0, 0)),
    E.NOT_YOUR_TURN: lambda: table().validate(B(1, C.BLUE, 2, player=1)),
    E.NO_SUCH_SOURCE: lambda: table().validate(B(8, C.BLUE, 2)),
    E.EMPTY_SOURCE: lambda: az.new_game(2, seed=1).apply(B(0, C.RED, 1)).validate(B(0, C.RED, 2)),
    E.COLOR_NOT_IN_SOURCE: lambda: table().validate(B(1, C.WHITE, 2)),
    E.TOO_MANY_TAKEN: lambda: table().validate(az.TableTake(1, C.BLUE, 4, {2: 3, az.FLOOR: 1})),
    E.TWO_COLORS: lambda: table().validate(az.TableTake(1, (C.BLUE, C.YELLOW), 4, {2: 3})),
    E.MARKER_ALONE: lambda: table().validate(B(az.CENTER, az.MARKER, 2)),
    E.NO_SUCH_LINE: lambda: table().validate(B(1, C.BLUE, 7)),
    E.LINE_COLOR_MISMATCH: lambda: table().validate(B(1, C.BLUE, 1)),
    E.LINE_FULL: lambda: table().validate(az.TableTake(1, C.BLUE, 3, {2: 3})),
    E.FLOOR_WHILE_ROOM: lambda: table().validate(az.TableTake(1, C.BLUE, 3, {3: 2, az.FLOOR: 1})),
    E.TILE_COUNT_MISMATCH: lambda: audited("leftovers-not-cleared"),
    E.COLUMN_COLOR_CONFLICT: lambda: grey_placement(E.COLUMN_COLOR_CONFLICT),
    E.SPACE_OCCUPIED: lambda: grey_placement(E.SPACE_OCCUPIED),
    E.NOT_WALL_COLOR_SPACE: lambda: audited("not-wall-color-space"),
    E.FILL_IMPOSSIBLE: lambda: az.new_game(2, external_draws=True, first_player=0).validate(
        az.Refill(((C.RED,) * 5,) + ((),) * 4)),
    E.EMPTY_DIRECTION_COUNTED: lambda: audited("empty-direction-counted"),
    E.CROSS_COUNTED_ONCE: lambda: audited("cross-counted-once"),
    E.SCORE_MISCOUNT: lambda: az.audit(*_simple(40)),
    E.FLOOR_OVERFLOW_PENALIZED: lambda: audited("floor-overflow-penalized"),
    E.SCORE_BELOW_ZERO: lambda: audited("score-below-zero"),
    E.BONUS_MISCOUNT: lambda: audited("bonus-miscount"),
    E.WRONG_WINNER: sheet_with_wrong_winner,
}  # fmt: skip


def _simple(claimed: int) -> tuple[az.GameState, Claim]:
    p0 = board(10, ["", "RR"], colored_wall(["...x.", "..x.x"]))
    position = state([p0, board()], [""] * 5, "")
    return position, Claim(scores=(claimed, 0), boards=(ClaimedBoard(), None))


def test_the_table_covers_every_error_code() -> None:
    """All 33 codes of the rule book's tables have a producer."""
    assert set(PRODUCERS) == set(E)
    assert len(E) == 33


@pytest.mark.parametrize("code", list(E), ids=lambda c: c.value)
def test_each_error_code_is_produced_by_a_public_path(code: E) -> None:
    """The code comes out of validate, audit or audit_game, citing one of its rules."""
    result = PRODUCERS[code]()
    assert not result.ok
    found = [v for v in result.violations if v.code is code]
    assert found, result
    for violation in found:
        assert violation.rule in CODE_RULES[code.value], violation
        assert violation.message and violation.message_in("fr")
