"""Regression tests of the robustness issue: hostile input, grey tiling positions and
ruling R7.  Each test names the class of input it closes, not only the example."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import CENTER, FLOOR
from azul_rules import Color as C
from azul_rules import StateProblem as P
from azul_rules.adjudication.auditing import position_from_json
from azul_rules.cli import main
from azul_rules.testing import differential
from tests.builders import board, state, wall

ROOT = Path(__file__).resolve().parents[2]
B, Y, R, K, W = C.BLUE, C.YELLOW, C.RED, C.BLACK, C.WHITE


def doc(seed: int = 4, players: int = 2) -> dict[str, Any]:
    return az.to_dict(az.new_game(players, seed=seed))


def paths(error: az.FormatError) -> dict[str, str]:
    return dict(error.errors)


def grey_tiling_state(seed: int) -> az.GameState:
    """The first grey wall-tiling position of a seeded random game."""
    rng = random.Random(seed)
    s = az.new_game(2, seed=seed, variant=az.Variant.GREY)
    while s.phase is not az.Phase.WALL_TILING:
        s = s.apply(rng.choice(s.legal_moves()))
    return s


# -- 1, 2: counts and numbers that would cost memory or time --------------------------------


@pytest.mark.parametrize("where", ["bag", "lid"])
@pytest.mark.parametrize("count", [21, 10**8, 10**400])
def test_s3_a_tile_count_over_20_is_refused_before_any_tile_is_built(
    where: str, count: int
) -> None:
    """S3: no colour has more than 20 tiles; a count of 10**400 once made the loader
    allocate until the process died."""
    data = doc()
    data[where]["blue"] = count
    with pytest.raises(az.FormatError) as caught:
        az.from_dict(data, az.GameState)
    assert "from 0 to 20 (S3)" in paths(caught.value)[f"$.{where}.blue"]


def test_the_same_count_in_a_record_and_an_audit_position_is_refused_with_its_path() -> None:
    data = doc()
    data["bag"]["red"] = 10**8
    record = {"format_version": 1, "initial_state": data, "moves": []}
    with pytest.raises(az.FormatError) as caught:
        az.GameRecord.from_dict(record)
    assert "$.initial_state.bag.red" in paths(caught.value)
    with pytest.raises(az.FormatError):
        position_from_json(json.dumps(data))


def test_a_json_number_of_thousands_of_digits_is_a_format_error() -> None:
    text = '{"format_version": ' + "1" * 4301 + "}"
    with pytest.raises(az.FormatError, match="more than 4300 digits"):
        az.from_json(text, az.GameState)
    with pytest.raises(az.FormatError, match="more than 4300 digits"):
        az.GameRecord.from_json(text)
    with pytest.raises(az.FormatError, match="not a JSON number"):
        az.from_json('{"format_version": NaN}', az.GameState)


def test_input_over_one_mebibyte_is_refused_before_parsing() -> None:
    with pytest.raises(az.FormatError, match="at most 1048576"):
        az.from_json(" " * (1 << 20) + "{}", az.GameState)


def test_arrays_objects_and_documents_have_a_size_bound() -> None:
    data = doc()
    data["center"] = ["blue"] * 101
    with pytest.raises(az.FormatError) as caught:
        az.from_dict(data, az.GameState)
    assert paths(caught.value) == {"$.center": "101 entries: at most 100"}
    data = doc()
    data["players"] = [data["players"][0]] * 100
    with pytest.raises(az.FormatError, match="more than 2000 JSON values"):
        az.from_dict(data, az.GameState)


def test_a_record_holds_at_most_10000_moves() -> None:
    with pytest.raises(az.FormatError) as caught:
        az.GameRecord.from_dict({"format_version": 1, "moves": ["1B1"] * 10_001})
    assert paths(caught.value) == {"$.moves": "10001 moves: a record holds at most 10000"}


def test_a_format_error_lists_at_most_50_problems() -> None:
    moves = [{"type": "take", "source": "x", "color": "blue", "line": 0}] * 500
    with pytest.raises(az.FormatError) as caught:
        az.GameRecord.from_dict({"format_version": 1, "moves": moves})
    assert len(caught.value.errors) == 51
    assert caught.value.errors[-1] == ("$", "... and 1 more problems")


# -- 3: every check is linear in the input ------------------------------------------------


def test_p1_s4_a_table_take_with_40000_placements_is_judged_in_one_pass() -> None:
    """S4, P1: one NO_SUCH_LINE per line that does not exist, SPLIT_LOT for the five
    lines used (the placements are looked up in a table, not searched)."""
    s = az.new_game(2, seed=1)
    take = az.TableTake(0, s.factories[0][0], 40_000, {line: 1 for line in range(40_000)})
    result = s.validate(take)
    assert result.codes.count(az.ErrorCode.NO_SUCH_LINE) == 39_995
    assert az.ErrorCode.SPLIT_LOT in result.codes


# -- 4, 5: grey wall-tiling positions follow from the position itself ----------------------


@pytest.mark.parametrize("seed", range(6))
def test_v3_a_grey_tiling_position_without_its_record_plays_on_the_same(seed: int) -> None:
    """V3, W4: what remains to tile follows from the boards, so a position loaded without
    ``last_scoring`` (or with it) plays the same moves to the same positions."""
    original = grey_tiling_state(seed)
    data = az.to_dict(original)
    data.pop("last_scoring", None)
    loaded = az.from_dict(data, az.GameState)
    assert loaded == original
    rng = random.Random(seed)
    a, b = original, loaded
    while a.phase is az.Phase.WALL_TILING:
        assert a.legal_moves() == b.legal_moves()
        move = rng.choice(a.legal_moves())
        a, b = a.apply(move), b.apply(move)
        assert a == b
    assert a.round == original.round + 1 or a.is_over


def test_a_last_scoring_that_does_not_fit_the_position_is_refused_with_its_path() -> None:
    data = az.to_dict(grey_tiling_state(0))
    data["last_scoring"]["players"] = []
    with pytest.raises(az.FormatError) as caught:
        az.from_dict(data, az.GameState)
    assert paths(caught.value) == {"$.last_scoring.players": "expected one entry per player (2)"}
    data = az.to_dict(grey_tiling_state(0))
    data["last_scoring"]["players"][0]["score_after"] += 3
    with pytest.raises(az.FormatError) as caught:
        az.from_dict(data, az.GameState)
    assert "$.last_scoring.players[0].score_after" in paths(caught.value)
    data["last_scoring"] = {"round": "x"}
    with pytest.raises(az.FormatError):
        az.from_dict(data, az.GameState)


def grey_tiling_of(players: list[az.PlayerBoard], *, current: int, start: int = 0) -> Any:
    data = az.to_dict(
        state(players, [""] * 5, current=current, start=start, variant=az.Variant.GREY,
              phase=az.Phase.WALL_TILING, bag="", lid=None, round_number=3)
    )  # fmt: skip
    return data


def test_v3_a_grey_tiling_whose_player_to_decide_has_nothing_to_decide_cannot_exist() -> None:
    """V3: a dead end (no legal move, not over) is never accepted."""
    data = grey_tiling_of([board(pattern=["B"]), board()], current=1)
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    found = [(p.code, p.rule, p.path) for p in caught.value.problems]
    assert (P.PHASE_MISMATCH, "V3", "$.players[0].pattern_lines") in found  # tiles first
    assert (P.PHASE_MISMATCH, "V3", "$.current_player") in found


def test_v4_a_grey_tiling_waiting_on_a_line_with_no_legal_space_cannot_exist() -> None:
    rows = wall(["...R.", "BYK.W"])
    data = grey_tiling_of([board(pattern=["", "RR"], wall_rows=rows), board()], current=0)
    # Four tiles in row 2, and its line still to tile: four tilings before this one (W1).
    data["round"] = 5
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    assert [(p.code, p.rule) for p in caught.value.problems] == [(P.PHASE_MISMATCH, "V4")]


def test_v3_a_valid_grey_tiling_position_typed_in_loads_and_plays() -> None:
    data = grey_tiling_of([board(pattern=["B"]), board(pattern=["", "YY"])], current=0)
    s = az.from_dict(data, az.GameState)
    assert s.legal_moves() == tuple(az.PlaceTile(0, c) for c in range(5))
    s = s.apply(az.PlaceTile(0, 0))
    assert s.current_player == 1 and s.phase is az.Phase.WALL_TILING
    s = s.apply(az.PlaceTile(1, 0))
    assert s.phase is az.Phase.FACTORY_OFFER and s.round == 4


# -- 6: positions problems() used to miss ---------------------------------------------------


def test_r2_a_seeded_game_never_waits_for_a_refill() -> None:
    s = az.new_game(2, seed=3)
    bad = attrs.evolve(
        s, factories=((),) * 5, center=(),
        context=attrs.evolve(s.context, phase=az.Phase.REFILL, bag=s.bag + sum(s.factories, ())),
    )  # fmt: skip
    assert [(p.code, p.rule) for p in bad.problems()] == [(P.PHASE_MISMATCH, "R2")]
    assert bad.legal_moves() == ()


def test_w5_w1_floors_are_empty_and_complete_lines_tiled_between_rounds() -> None:
    data = az.to_dict(az.new_game(2, external_draws=True, first_player=0))
    data["round"] = 2
    data["players"][0]["floor"] = ["red"]
    data["players"][1]["pattern_lines"][1] = ["blue", "blue"]
    data["bag"] = {"blue": 18, "yellow": 20, "red": 19, "black": 20, "white": 20}
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    assert [(p.code, p.rule, p.path) for p in caught.value.problems] == [
        (P.FLOOR_NOT_CLEARED, "W5", "$.players[0].floor"),
        (P.LINE_NOT_TILED, "W1", "$.players[1].pattern_lines[1]"),
    ]


def test_w1_a_wall_holds_at_most_5_tiles_per_finished_round() -> None:
    data = doc()
    data["round"] = 2
    wall = data["players"][0]["wall"]
    wall[0][0:2] = ["blue", "yellow"]  # two in row 1: two tilings at least
    for row in range(1, 5):
        wall[row][row] = "blue"
    for color in ["blue", "yellow", "blue", "blue", "blue", "blue"]:
        data["bag"][color] -= 1
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    found = [(p.code, p.rule, p.path) for p in caught.value.problems]
    assert found == [
        (P.TOO_MANY_WALL_TILES, "W1", "$.players[0].wall"),
        (P.TOO_MANY_WALL_TILES, "W1", "$.players[0].wall[0]"),
    ]
    assert caught.value.problems[0].message == (
        "player 1's wall holds 6 tiles, but at most 5 can be placed by round 2 "
        "(factory offer): 5 per tiling"
    )
    data["round"] = 3
    assert az.from_dict(data, az.GameState).round == 3


def test_w1_a_wall_row_takes_at_most_one_tile_per_tiling() -> None:
    """W1: a tiling moves one pattern line to its own row: 4 tiles in row 1 need four
    tilings, even though 4 tiles could fit in one tiling's 5."""
    data = doc()
    data["round"] = 2
    data["players"][1]["wall"][0][0:4] = ["blue", "yellow", "red", "black"]
    for color in ["blue", "yellow", "red", "black"]:
        data["bag"][color] -= 1
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    (problem,) = caught.value.problems
    assert (problem.code, problem.rule, problem.path) == (
        P.TOO_MANY_WALL_TILES, "W1", "$.players[1].wall[0]",
    )  # fmt: skip
    assert problem.message == (
        "row 1 of player 2's wall holds 4 tiles, but at most 1 can be placed there by "
        "round 2 (factory offer): one per tiling, from pattern line 1"
    )
    assert problem.message_in("fr").startswith("la rangée 1 du mur du joueur 2 contient 4 carreaux")
    data["round"] = 5
    assert az.from_dict(data, az.GameState).round == 5
    del data["round"]
    assert az.from_dict(data, az.GameState).round == 5  # four tilings behind it


def test_w1_one_wall_tile_too_many_is_said_in_the_singular() -> None:
    data = doc()
    data["round"] = 1
    data["players"][0]["wall"][2][2] = "blue"
    data["bag"]["blue"] -= 1
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    assert caught.value.problems[0].message.startswith(
        "player 1's wall holds 1 tile, but at most 0 can be placed by round 1"
    )


def test_w1_a_position_without_a_round_takes_the_least_its_walls_allow() -> None:
    data = doc()
    del data["round"]
    assert az.from_dict(data, az.GameState).round == 1
    for row in range(5):
        data["players"][1]["wall"][row][row] = "blue"  # 5 blues on the diagonal
    data["players"][1]["wall"][0][1] = "yellow"
    data["bag"]["blue"] -= 5
    data["bag"]["yellow"] -= 1
    assert az.from_dict(data, az.GameState).round == 3  # 6 tiles: two tilings at least


# -- 7: public construction keeps what the hot path relies on -------------------------------


def test_t3_evolve_and_the_constructor_store_multisets_sorted() -> None:
    """T3: a centre take removes exactly the colour's tiles, however the centre was
    given."""
    s = az.new_game(2, seed=5)
    centre = (R, B, R, Y, B, K)
    given = attrs.evolve(s, center=centre, factories=[list(reversed(f)) for f in s.factories])
    assert given.center == (B, B, Y, R, R, K)
    assert given.factories == s.factories
    after = given.apply(az.Take(CENTER, R, FLOOR))
    assert after.center == (B, B, Y, K)
    assert after.players[s.current_player].floor == (az.MARKER, R, R)
    built = az.GameState(s.players, s.factories, centre, s.current_player, None, s.context)
    assert built.center == given.center


def test_the_constructor_refuses_parts_of_the_wrong_type() -> None:
    s = az.new_game(2, seed=5)
    with pytest.raises(az.FormatError, match="holds 0, not a Color"):
        attrs.evolve(s, center=(0, 1))
    with pytest.raises(az.FormatError, match="current_player must be int"):
        attrs.evolve(s, current_player=True)
    with pytest.raises(az.FormatError, match="64-bit"):
        attrs.evolve(s, context=attrs.evolve(s.context, rng_state=2**64))
    with pytest.raises(az.FormatError, match="PlayerBoards only"):
        attrs.evolve(s, players=(None, None))


# -- 8: R7 ------------------------------------------------------------------------------------

DEAD_WALL = ["YR.KB", "B.KRW", "RBW.Y", "KY.BR", "W.BYK"]  # no row can ever be completed
CHOICE_WALL = ["W.RBY", "KWBY.", "BKWR.", "RY.KW", ".B.WR"]  # rows 1-4 dead; row 5 alive


def r7_tiling() -> az.GameState:
    """Grey, round 9: player 1 must place a yellow in row 5, in column 1 or 3.  In column
    3, row 5 can no longer be completed (its black would need column 1, which holds
    black); player 2's wall is already dead."""
    p0 = board(score=10, pattern=["", "", "", "", "YYYYY"], wall_rows=wall(CHOICE_WALL))
    p1 = board(score=12, wall_rows=wall(DEAD_WALL), floor_text="M")
    s = state([p0, p1], [""] * 5, "R", current=1, start=0, marker_holder=1,
              variant=az.Variant.GREY, round_number=9)  # fmt: skip
    return s.apply(az.Take(CENTER, R, FLOOR))


def test_r7_the_game_ends_after_the_tiling_that_leaves_no_row_completable() -> None:
    """R7, E2, E4: the yellow to column 3 kills the last completable row: the game ends
    after this tiling and its floor, with the end bonuses and the usual winner."""
    s = r7_tiling()
    assert s.legal_moves() == (az.PlaceTile(4, 0), az.PlaceTile(4, 2))
    end = s.apply(az.PlaceTile(4, 2))
    assert end.is_over
    assert end.round == 9
    # Player 1: 10 + 4 (a run of 4 across) + 7 (column 4) + 10 (five whites) = 31.
    # Player 2: 12 - 2 (marker and red on the floor) + 14 (columns 1, 5) + 10 (blues) = 34.
    assert end.outcome == az.Outcome(winners=(1,), scores=(31, 34))
    record = end.last_scoring
    assert record is not None and record.game_over
    assert record.players[0].bonuses == az.Bonuses(rows=0, columns=1, colors=1)
    assert record.players[1].bonuses == az.Bonuses(rows=0, columns=2, colors=1)


def test_r7_the_game_goes_on_while_a_row_can_still_be_completed() -> None:
    """R7, R1: the yellow to column 1 keeps row 5 completable: a new round is dealt."""
    alive = r7_tiling().apply(az.PlaceTile(4, 0))
    assert alive.phase is az.Phase.FACTORY_OFFER and alive.round == 10
    assert [b.score for b in alive.players] == [17, 10]  # 5 down + 2 across; 12 - 2


def test_r7_a_position_whose_rows_are_all_dead_should_have_ended() -> None:
    data = az.to_dict(az.new_game(2, seed=1, variant=az.Variant.GREY))
    data["round"] = 8
    for index in (0, 1):
        data["players"][index]["wall"] = [
            [None if ch == "." else {"Y": "yellow", "R": "red", "K": "black", "B": "blue",
                                     "W": "white"}[ch] for ch in row]
            for row in DEAD_WALL
        ]  # fmt: skip
    on_walls = "".join(DEAD_WALL) * 2
    names = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white"}
    data["bag"] = {}
    data["lid"] = {
        name: 20 - on_walls.count(letter) - sum(f.count(name) for f in data["factories"])
        for letter, name in names.items()
    }
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    assert [(p.code, p.rule) for p in caught.value.problems] == [(P.GAME_SHOULD_HAVE_ENDED, "R7")]


# -- 9: strict JSON ---------------------------------------------------------------------------


def test_a_key_given_twice_is_refused_with_its_path() -> None:
    text = az.to_json(az.new_game(2, seed=1)).replace('"round": 1,', '"round": 2, "round": 3,')
    with pytest.raises(az.FormatError) as caught:
        az.from_json(text, az.GameState)
    assert paths(caught.value) == {"$": "the same key given twice: 'round'"}
    move = '{"type": "take", "source": 0, "source": 1, "color": "red", "line": 0}'
    with pytest.raises(az.FormatError, match="given twice"):
        az.move_from_json(move)


@pytest.mark.parametrize("key", ["02", "٢", "+2", " 2", "2.0", "1e0"])
def test_a_placement_line_is_written_as_json_numbers_are(key: str) -> None:
    move = {"type": "table_take", "source": 0, "color": "red", "count": 2, "placements": {key: 2}}
    with pytest.raises(az.FormatError) as caught:
        az.move_from_dict(move)
    assert f"$.placements[{key!r}]" in paths(caught.value)


def test_a_line_given_twice_to_placements_is_refused_in_python_too() -> None:
    with pytest.raises(az.FormatError, match="twice"):
        az.TableTake(0, R, 2, [(2, 1), (2, 1)])


# -- 11: constructors check as JSON does -------------------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda: az.TableTake(0, R, 2, [1, 2]),  # type: ignore[list-item]
        lambda: az.TableTake(0, R, 2, [(1,)]),  # type: ignore[list-item]
        lambda: az.TableTake(0, R, -1, {1: 1}),
        lambda: az.TableTake(-2, R, 1, {1: 1}),
        lambda: az.Take(0, R, -3),
        lambda: az.Take(0, R, 1, player=-1),
        lambda: az.PlaceTile(-1, 0),
        lambda: az.new_game(2, external_draws="yes"),  # type: ignore[arg-type]
    ],
)
def test_moves_and_new_game_refuse_what_json_refuses(build: Any) -> None:
    with pytest.raises(az.FormatError):
        build()


def test_a_generator_state_past_64_bits_is_refused_in_json() -> None:
    data = doc()
    data["rng_state"] = 2**64
    with pytest.raises(az.FormatError) as caught:
        az.from_dict(data, az.GameState)
    assert "64-bit" in paths(caught.value)["$.rng_state"]


# -- 12: the API does what its docs say ---------------------------------------------------------


def test_records_go_through_to_json_and_from_json() -> None:
    record = az.GameRecord.of_game([az.parse_move("1R2")], players=2, seed=1)
    text = az.to_json(record)
    assert az.from_json(text, az.GameRecord) == record
    assert az.from_dict(az.to_dict(record), az.GameRecord) == record


def test_from_dict_reads_any_move_with_move() -> None:
    assert az.from_dict({"type": "place_tile", "line": 1, "column": 2}, az.Move) == az.PlaceTile(
        1, 2
    )
    with pytest.raises(TypeError):
        az.from_dict({}, int)


def test_an_initial_state_problem_keeps_its_path_in_the_record() -> None:
    data = doc()
    data["round"] = "two"
    with pytest.raises(az.FormatError) as caught:
        az.GameRecord.from_dict({"format_version": 1, "initial_state": data, "moves": []})
    assert "$.initial_state.round" in paths(caught.value)
    data = doc()
    data["players"][0]["score"] = -4
    with pytest.raises(az.InvalidStateError) as impossible:
        az.GameRecord.from_dict({"format_version": 1, "initial_state": data, "moves": []})
    assert impossible.value.problems[0].path == "$.initial_state.players[0].score"


# -- 13: the command line ------------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_reads_a_file_with_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (ROOT / "examples/round-2-position.json").read_bytes())
    status, out, _ = run_cli(capsys, "check", str(path), "2B3")
    assert status == 0 and out.startswith("legal")


def test_cli_usage_errors_are_one_line_and_not_called_unreadable_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(capsys, "play", "--bots", "foo,random")
    assert status == 2
    assert err == (
        "azul-rules: --bots: unknown bot 'foo': choose random, greedy or package.module:Factory\n"
    )
    record = tmp_path / "no-such-dir" / "game.json"
    status, _, err = run_cli(capsys, "play", "--seed", "1", "--record", str(record))
    assert status == 2
    assert err.startswith(f"azul-rules: cannot write {record}: ")
    assert err.count("\n") == 1


def test_cli_input_errors_name_the_file_the_path_and_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = doc()
    data["bag"]["blue"] = 10**400
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    status, _, err = run_cli(capsys, "show", str(path))
    assert status == 2
    assert err.startswith(f"azul-rules: {path}: unreadable")
    status, _, err = run_cli(capsys, "check", "examples/impossible-position.json", "2B3")
    assert status == 2
    assert all(line.startswith("azul-rules: examples/impossible-position.json: impossible")
               for line in err.splitlines())  # fmt: skip
    assert "TILE_COUNT (S3) at $" in err


@given(
    st.sampled_from(["center", -1, 0, 4, 9, 12, "0", True, None]),
    st.sampled_from(["blue", "white", "marker", "purple", 3, None]),
    st.sampled_from([0, 4, 7, -1, "floor", "1", False]),
    st.sampled_from([None, 0, 3, -2, "1"]),
)
def test_the_quick_reading_of_a_take_agrees_with_the_strict_reader(
    source: object, color: object, line: object, player: object
) -> None:
    """A record's takes are read by a short path; it accepts exactly what the strict
    reader accepts, with the same result."""
    from azul_rules.formats.serialization import _plain_take, _structure, _TakeDoc

    data = {"type": "take", "source": source, "color": color, "line": line}
    if player is not None:
        data["player"] = player
    quick = _plain_take(data)
    try:
        doc = _structure({k: v for k, v in data.items() if k != "type"}, _TakeDoc, "$")
        strict: az.Take | None = az.Take(doc.source, doc.color, doc.line, player=doc.player)
    except az.FormatError:
        strict = None
    assert quick is None or quick == strict
    assert az.move_from_dict(data) == strict if strict is not None else quick is None


@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 3, 4]), st.randoms(use_true_random=False))
def test_r7_a_grey_game_ends_or_keeps_a_completable_row(
    seed: int, players: int, rng: random.Random
) -> None:
    """R7, E1: driven by random moves from ``new_game``, a grey game is over, or some
    player can still complete a wall row: it never goes on with every row dead."""
    from azul_rules.core.grey import walls_can_end

    state = az.new_game(players, seed=seed, variant=az.Variant.GREY)
    for _ in range(400):
        assert state.is_over or walls_can_end(state.players)
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))


# -- found by the acceptance audit ------------------------------------------------------------


@pytest.mark.parametrize("key", ["seed", "players", "moves", "format_version"])
def test_a_key_given_twice_at_the_top_of_a_record_is_refused(key: str) -> None:
    """The record's own keys are checked like every other object's (last-wins once
    replayed another game: ``"seed": 1, "seed": 2``)."""
    text = '{"format_version": 1, "players": 2, "seed": 1, "moves": []}'
    value = {"seed": "2", "players": "3", "moves": '["1B1"]', "format_version": "1"}[key]
    text = text.replace("{", '{"' + key + '": ' + value + ", ", 1)
    with pytest.raises(az.FormatError) as caught:
        az.GameRecord.from_json(text)
    assert paths(caught.value) == {"$": f"the same key given twice: {key!r}"}


def test_a_tournament_line_is_read_as_strictly_as_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = az.GameRecord.of_game([az.parse_move("1B1")], players=2, seed=1).to_dict()
    line = json.dumps({"tournament": {}, "game": 0, "record": record})
    twice = line.replace('"seed": 1', '"seed": 7, "seed": 1')
    path = tmp_path / "games.jsonl"
    path.write_text(twice + "\n")
    status, _, err = run_cli(capsys, "replay", str(path), "--game", "0")
    assert status == 2
    assert err == f"azul-rules: {path}: unreadable at $.record: the same key given twice: 'seed'\n"
    path.write_text(line.replace('"moves": [', '"moves": [' + "1" * 5000 + ", ") + "\n")
    status, _, err = run_cli(capsys, "replay", str(path), "--game", "0")
    assert status == 2
    assert err == (  # not "not a tournament's JSON-lines file"
        f"azul-rules: {path}: unreadable: {path} line 1: not acceptable JSON: "
        "an integer of more than 4300 digits\n"
    )


def test_the_engine_answers_a_number_of_5000_digits_with_a_refusal() -> None:
    from azul_rules.engine import ReferenceEngine

    reply = ReferenceEngine().handle_line(b'{"type": "new_game", "players": ' + b"1" * 5000 + b"}")
    assert reply == {"ok": False, "error": {"code": "bad_json", "message":
                     "not a JSON object: an integer of more than 4300 digits"}}  # fmt: skip


@pytest.mark.parametrize(
    "call",
    [
        lambda: az.new_game(2).validate(10**5000),  # type: ignore[arg-type]
        lambda: az.new_game(2).apply(10**5000),  # type: ignore[arg-type]
        lambda: az.audit(None, az.Claim(scores=(1, 2))),  # type: ignore[arg-type]
    ],
)
def test_entry_points_raise_their_documented_error_for_any_argument(call: Any) -> None:
    with pytest.raises(az.FormatError):
        call()
    with pytest.raises(TypeError, match="more than 4300 digits"):
        az.rule(10**5000)  # type: ignore[arg-type]


def _a_problem() -> az.Problem:
    text = (ROOT / "examples" / "impossible-position.json").read_text()
    with pytest.raises(az.InvalidStateError) as raised:
        az.from_json(text, az.GameState)
    return raised.value.problems[0]


def _a_violation() -> az.Violation:
    state = az.new_game(2, seed=1)
    return state.validate(az.Take(0, az.Color.RED, 9)).violations[0]


HUGE = 10**5000


@pytest.mark.parametrize(
    "call",
    [
        lambda: _a_problem().message_in(HUGE),  # type: ignore[arg-type]
        lambda: _a_violation().message_in(HUGE),  # type: ignore[arg-type]
        lambda: az.rule("P3").title_in(HUGE),  # type: ignore[arg-type]
        lambda: differential.run("true", lang=HUGE),  # type: ignore[arg-type]
        lambda: differential.report_text(None, lang=HUGE),  # type: ignore[arg-type]
    ],
    ids=["Problem.message_in", "Violation.message_in", "Rule.title_in", "differential.run",
         "differential.report_text"],
)  # fmt: skip
def test_a_language_of_5000_digits_is_a_value_error_in_words(call: Any) -> None:
    """Quoting the argument once raised Python's own ValueError about its limit of
    digits instead of the entry point's documented one."""
    with pytest.raises(ValueError, match=r"^unknown language an integer of more than 4300 "
                       r"digits: (choose|expected) one of en, fr$"):  # fmt: skip
        call()


# -- the acceptance audit of issue 11, second pass ---------------------------------------------


def _counting(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    """Count the calls of ``owner.name`` (a list holding the count)."""
    calls = [0]
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_refused_file_is_parsed_once_by_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the reader refuses was parsed a second time to tell whether it is of
    another kind, doubling the time and memory of a hostile 1 MB file: the parsed
    document is shared.  A record given to ``show`` is still named for what it is."""
    parses = _counting(monkeypatch, json, "loads")
    data = doc()
    data["center"] = ["blue"] * 101
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data))
    status, _, err = run_cli(capsys, "show", str(path))
    assert (status, parses[0]) == (2, 1)
    assert err == f"azul-rules: {path}: unreadable at $.center: 101 entries: at most 100\n"
    parses[0] = 0
    record = ROOT / "examples/recorded-game.json"
    status, _, err = run_cli(capsys, "show", str(record))
    assert (status, parses[0]) == (2, 1)
    assert err == (f"azul-rules: {record}: a game record, not a position (replay and "
                   "audit-game read game records)\n")  # fmt: skip
    parses[0] = 0
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps({"rounds": [[1, 2]] * 101}))
    game = ROOT / "examples/audits/scoresheet-one-wrong-round/record.json"
    status, _, err = run_cli(capsys, "audit-game", str(game), str(sheet))
    assert (status, parses[0]) == (2, 2)  # the record, then the sheet
    assert err == f"azul-rules: {sheet}: unreadable at $.rounds: 101 entries: at most 100\n"


def test_audit_game_referees_each_move_once() -> None:
    """``audit_game`` validated every move before applying it, and rebuilt the end of
    every round's offer (a record may tile hundreds of rounds): each move is applied
    once, plus one rebuilt offer end per round the sheet has written wrong (or after a
    wrong one: a round written right from right totals is confirmed as it stands), and
    ``validate`` is left for an illegal move."""
    folder = ROOT / "examples/audits/scoresheet-one-wrong-round"
    record = az.GameRecord.from_json((folder / "record.json").read_text())
    sheet = json.loads((folder / "scoresheet.json").read_text())
    with pytest.MonkeyPatch.context() as patch:
        applied = _counting(patch, az.GameState, "apply")
        validated = _counting(patch, az.GameState, "validate")
        verdict = az.audit_game(record, sheet)
    assert verdict.first_wrong == (3, 0)
    audited = len(sheet["rounds"]) - 2  # rounds 1 and 2 are right
    assert (applied[0], validated[0]) == (len(record.moves) + audited, 0)
    states = record.replay().states
    three = next(i for i, s in enumerate(states) if s.round == 3)  # moves of rounds 1-2
    unfinished = attrs.evolve(record, moves=record.moves[:three])  # two rounds tiled
    with pytest.MonkeyPatch.context() as patch:
        applied = _counting(patch, az.GameState, "apply")
        verdict = az.audit_game(unfinished, {"rounds": sheet["rounds"][:1]})
    assert len(verdict.rounds) == 1 and applied[0] == three  # round 1 right: confirmed
    with pytest.MonkeyPatch.context() as patch:
        applied = _counting(patch, az.GameState, "apply")
        verdict = az.audit_game(unfinished, {"rounds": [[4, 0]]})
    assert verdict.first_wrong == (1, 0) and applied[0] == three + 1  # audited
    broken = attrs.evolve(record, moves=(*record.moves[:3], az.Take(0, C.RED, 0)))
    with pytest.MonkeyPatch.context() as patch:
        validated = _counting(patch, az.GameState, "validate")
        verdict = az.audit_game(broken, {"rounds": []})
    assert verdict.failed_at == 3 and verdict.failure is not None and validated[0] == 1


@pytest.mark.parametrize(
    ("record", "errors"),
    [
        (az.GameRecord((), players=1), (("$.players", "expected 2, 3 or 4, got 1"),)),
        (az.GameRecord(moves=None), (  # type: ignore[arg-type]
            ("$.moves", "expected a sequence of moves, got NoneType"),)),
        (az.GameRecord(moves=("1B1", 10**5000)), (  # type: ignore[arg-type]
            ("$.moves[0]", "expected a move (Take, TableTake, PlaceTile or Refill), got '1B1'"),
            ("$.moves[1]", "expected a move (Take, TableTake, PlaceTile or Refill), got an "
             "integer of more than 4300 digits"))),
        (az.GameRecord(seed="7", variant="blue", external_draws=1), (  # type: ignore[arg-type]
            ("$.seed", "expected an integer, got '7'"),
            ("$.variant", "expected colored or grey, got 'blue'"),
            ("$.external_draws", "expected true or false, got 1"))),
        (az.GameRecord(initial_state=az.new_game(2), seed=5), (
            ("$", "give either initial_state or new_game settings, not both"),)),
        (az.GameRecord(initial_state="start"), (  # type: ignore[arg-type]
            ("$.initial_state", "expected a GameState, got str"),)),
    ],
    ids=["players", "moves-None", "not-moves", "settings", "both", "initial-state"],
)  # fmt: skip
def test_a_record_replay_refuses_what_json_refuses_with_the_field(
    record: az.GameRecord, errors: tuple[tuple[str, str], ...]
) -> None:
    """``GameRecord((), players=1).replay()`` raised a plain ValueError and
    ``GameRecord(moves=None).replay()`` a TypeError: ``replay``, ``audit_game`` (and
    ``start`` for the settings) refuse what ``from_dict`` refuses, with the same paths
    and words."""
    with pytest.raises(az.FormatError) as raised:
        record.replay()
    assert raised.value.errors == errors
    with pytest.raises(az.FormatError) as raised:
        az.audit_game(record, {"rounds": []})
    assert raised.value.errors == errors
    if not errors[0][0].startswith("$.moves"):
        with pytest.raises(az.FormatError) as raised:
            record.start()
        assert raised.value.errors == errors


def test_tournament_resume_reads_its_lines_strictly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--resume`` read its lines with ``json.loads``: a key given twice was taken
    last-wins, a line nested past Python's stack was an internal error.  Each is one
    line naming the line, exit 2, and the file is left as it was."""
    from azul_rules.tournament import run

    path = tmp_path / "games.jsonl"
    run(["random", "greedy"], games=2, out=str(path), progress=False)
    first, second = path.read_text().splitlines()
    resume = ["tournament", "--bots", "random,greedy", "--games", "2", "--out", str(path),
              "--resume", "--no-progress"]  # fmt: skip
    damaged = {
        first.replace('"game":0', '"game":0,"game":1'): "line 1: $: the same key given "
        "twice: 'game'",
        first[:-1] + ',"x":' + "[" * 50_000 + "]" * 50_000 + "}": "line 1: not acceptable "
        "JSON: nested too deeply",
        first.replace('"deal":0', '"deal":' + "1" * 4301): "line 1: not acceptable JSON: an "
        "integer of more than 4300 digits",
        "\ufeff" + first.replace('"bots"', '"bots":[],"bots"'): "line 1: $.tournament: the same "
        "key given twice: 'bots'",
    }  # fmt: skip
    for line, says in damaged.items():
        path.write_text(f"{line}\n{second}\n", encoding="utf-8")
        status, _, err = run_cli(capsys, *resume)
        assert (status, err) == (2, f"azul-rules: {path} {says}\n")
        assert path.read_text(encoding="utf-8") == f"{line}\n{second}\n"
    path.write_text(f"{first}\n{second}\n", encoding="utf-8")
    status, out, _ = run_cli(capsys, *resume)
    assert status == 0 and "2 read back from" in out


def test_replay_of_a_game_whose_first_line_is_nested_too_deeply_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay FILE --game N`` looked at the first line with ``json.loads``, whose
    RecursionError became an internal error."""
    path = tmp_path / "games.jsonl"
    path.write_text("[" * 50_000 + "]" * 50_000 + "\n")
    status, _, err = run_cli(capsys, "replay", str(path), "--game", "0")
    assert (status, err) == (2, f"azul-rules: {path}: unreadable: --game picks a game of a "
                                f"tournament's JSON-lines file; {path} is not one\n")  # fmt: skip


# -- issue 24: hostile values quoted cut and printable -----------------------------------------


@pytest.mark.parametrize("kind", ["state", "move", "record", "claim", "audit_position",
                                  "scoresheet"])  # fmt: skip
def test_api_every_refusal_quotes_hostile_values_cut_and_printable(kind: str) -> None:
    """A 100,000-character ``variant`` gave a ``FormatError`` of 200,128 characters, a
    bag key of 100,000 characters one of 300,147, control characters kept raw: each
    problem (its path and its words) is now at most a few hundred characters, the
    whole message printable."""
    from tests.fuzz_inputs import _nodes, read, seed_document

    rng = random.Random(kind)
    hostile = "\x1b[31m\r" + "x" * 100_000
    for _ in range(40):
        data = seed_document(kind, rng.randrange(5))
        container, key = rng.choice(_nodes(data))
        if isinstance(container, dict) and rng.random() < 0.4:
            container[hostile] = container.pop(key)
        else:
            container[key] = rng.choice([hostile, [hostile], {hostile: 1}, 10**4000])
        try:
            read(kind, json.dumps(data))
        except az.FormatError as error:
            assert str(error).isprintable()
            assert all(len(path) + len(what) <= 400 for path, what in error.errors)
        except az.InvalidStateError as error:
            assert str(error).isprintable()
            assert all(len(p.path) + len(p.message) <= 400 for p in error.problems)


def test_api_a_long_variant_and_a_long_bag_key_are_quoted_cut() -> None:
    data = doc()
    data["variant"] = "x" * 100_000
    data["bag"]["k" * 100_000] = 1
    with pytest.raises(az.FormatError) as caught:
        az.from_dict(data, az.GameState)
    assert len(str(caught.value)) < 700
    assert paths(caught.value)["$.variant"] == (
        f"expected one of colored, grey, got '{'x' * 196}..."
    )
    key_path = next(path for path in paths(caught.value) if path.startswith("$.bag["))
    assert key_path == f"$.bag['{'k' * 56}...]"
