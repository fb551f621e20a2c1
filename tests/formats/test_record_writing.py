"""Game records are written as states are: ``GameRecord.to_json`` / ``az.to_json`` write
only what ``GameRecord.from_json`` reads back, and refuse the rest with a
``FormatError`` naming the path in the reader's words — never a raw ``ValueError`` from
Python's limit on the digits of an integer (docs/json-format.md, "Writing").  The
problems of a record's ``initial_state`` are named under ``$.initial_state``, whether
it is read or written."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import azul_rules as az
from azul_rules import Color as C
from azul_rules.formats.record import MAX_RECORD_MOVES

HUGE = 10**5000  # 5,001 digits: past Python's limit of 4,300 digits in text
NOTE = " (not written: from_json would refuse it)"
TOO_LONG = "an integer of more than 4300 digits: JSON text holds at most that many" + NOTE
WRITERS = {
    "to_json": az.to_json,
    "to_json one line": lambda r: az.to_json(r, indent=None),
    "GameRecord.to_json": lambda r: r.to_json(),
}


def refused(write: Any, obj: object) -> tuple[tuple[str, str], ...]:
    with pytest.raises(az.FormatError) as raised:
        write(obj)
    return raised.value.errors


def with_score(state: az.GameState, player: int, score: int) -> az.GameState:
    boards = list(state.players)
    boards[player] = attrs.evolve(boards[player], score=score)
    return state.replace(players=tuple(boards))


# -- 1. integers past 4,300 digits ---------------------------------------------------------


@pytest.mark.parametrize("write", WRITERS.values(), ids=list(WRITERS))
def test_a_seed_past_4300_digits_is_a_format_error_at_its_path(write: Any) -> None:
    """The user's report: ``to_json(GameRecord(seed=10**5000))`` raised Python's raw
    ValueError; it is a FormatError at ``$.seed``, as for a state's score."""
    assert refused(write, az.GameRecord(seed=HUGE)) == (("$.seed", TOO_LONG),)
    assert refused(write, az.GameRecord(seed=-HUGE, players=3)) == (("$.seed", TOO_LONG),)


def test_a_seed_of_4300_digits_is_written_and_read_back() -> None:
    """The largest seed JSON text holds, both ways; plain data holds any seed."""
    record = az.GameRecord((az.parse_move("1B1"),), seed=10**4300 - 1)
    assert az.GameRecord.from_json(record.to_json()) == record
    assert az.from_json(az.to_json(record, indent=None), az.GameRecord) == record
    huge = az.GameRecord(seed=HUGE)
    assert az.GameRecord.from_dict(huge.to_dict()) == huge


@pytest.mark.parametrize("write", [*WRITERS.values(), az.to_dict], ids=[*WRITERS, "to_dict"])
def test_settings_the_reader_refuses_are_refused_in_its_words(write: Any) -> None:
    """A first player or a player count of 5,000 digits, or any setting the reader
    refuses (S1, G2), is refused when writing, plain data included."""
    got = "got an integer of more than 4300 digits"
    assert refused(write, az.GameRecord(first_player=HUGE)) == (
        ("$.first_player", f"expected a player number from 0, {got}{NOTE}"),
    )
    assert refused(write, az.GameRecord(players=HUGE)) == (
        ("$.players", f"expected 2, 3 or 4, {got}{NOTE}"),
    )
    odd = az.GameRecord(players=5, seed="7", variant="blue", first_player=-1,  # type: ignore[arg-type]
                        external_draws=1)  # type: ignore[arg-type]  # fmt: skip
    assert refused(write, odd) == (
        ("$.players", f"expected 2, 3 or 4, got 5{NOTE}"),
        ("$.seed", f"expected an integer, got '7'{NOTE}"),
        ("$.variant", f"expected colored or grey, got 'blue'{NOTE}"),
        ("$.first_player", f"expected a player number from 0, got -1{NOTE}"),
        ("$.external_draws", f"expected true or false, got 1{NOTE}"),
    )
    assert refused(write, az.GameRecord(players=3, first_player=3)) == (
        ("$.first_player", f"expected a player number from 0, got 3{NOTE}"),
    )


def test_a_move_past_4300_digits_is_named_under_moves() -> None:
    record = az.GameRecord((az.parse_move("1B1"), az.PlaceTile(0, HUGE, player=1)))
    assert refused(az.to_json, record) == (("$.moves[1].column", TOO_LONG),)
    assert az.GameRecord.from_dict(record.to_dict()) == record  # plain data holds it


def test_what_is_not_a_move_or_not_writable_is_named_under_moves() -> None:
    """A string, ``None`` or a compact notation in ``moves`` is not a move; a table
    take's line past 9 digits is refused as ``to_dict`` refuses it, under its index."""
    wide = az.TableTake(0, C.RED, 1, {10**12: 1})
    record = az.GameRecord(("3B2", az.parse_move("1B1"), None, wide))  # type: ignore[arg-type]
    assert refused(az.to_dict, record) == (
        ("$.moves[0]", f"expected a move (Take, TableTake, PlaceTile or Refill), got '3B2'{NOTE}"),
        ("$.moves[2]", f"expected a move (Take, TableTake, PlaceTile or Refill), got None{NOTE}"),
        ("$.moves[3].placements", f"a pattern line key has at most 9 digits, got {10**12}{NOTE}"),
    )
    assert refused(az.to_json, az.GameRecord(None)) == (  # type: ignore[arg-type]
        ("$.moves", f"expected a sequence of moves, got NoneType{NOTE}"),
    )


# -- 2. the number of moves, and the size of the text -------------------------------------


def test_a_record_of_the_most_moves_is_written_and_read_back() -> None:
    """10,000 moves (``MAX_RECORD_MOVES``), both ways."""
    record = az.GameRecord((az.parse_move("1B1"),) * MAX_RECORD_MOVES)
    assert az.GameRecord.from_json(record.to_json()) == record
    assert az.GameRecord.from_dict(record.to_dict()) == record


@pytest.mark.parametrize("write", [*WRITERS.values(), az.to_dict], ids=[*WRITERS, "to_dict"])
def test_a_record_past_the_most_moves_is_not_written(write: Any) -> None:
    """The user's report: 10,001 moves were written, then refused when read back.  The
    writer refuses them as the reader does, at ``$.moves``; no move is looked at."""
    record = az.GameRecord((az.parse_move("1B1"),) * (MAX_RECORD_MOVES + 1))
    message = "10001 moves: a record holds at most 10000"
    assert refused(write, record) == (("$.moves", message + NOTE),)
    text = json.dumps({"format_version": 1, "moves": ["1B1"] * (MAX_RECORD_MOVES + 1)})
    with pytest.raises(az.FormatError) as raised:
        az.GameRecord.from_json(text)
    assert raised.value.errors == (("$.moves", message),)


def test_a_record_text_over_1_mib_is_not_written() -> None:
    """10,000 refills take more than the 1 MiB the reader reads: refused at ``$``;
    the same record as plain data is written and read back."""
    refill = az.Refill(((C.BLUE, C.RED, C.BLACK, C.WHITE),) * 9, player=3)
    record = az.GameRecord((refill,) * MAX_RECORD_MOVES, players=4, external_draws=True)
    for write, indent in ((az.GameRecord.to_json, 1), (az.to_json, 2)):  # their defaults
        size = len(json.dumps(record.to_dict(), indent=indent, ensure_ascii=False))
        assert size > 1 << 20
        assert refused(write, record) == (
            ("$", f"{size} bytes of JSON text: at most 1048576 are read{NOTE}"),
        )
    assert az.GameRecord.from_dict(record.to_dict()) == record


# -- 3. the initial state's paths, written and read ----------------------------------------


def test_an_initial_state_past_4300_digits_is_named_under_initial_state() -> None:
    """The writer's paths inside the initial state were those of a lone state
    (``$.round``): they are under ``$.initial_state``."""
    start = az.new_game(2, seed=4)
    record = az.GameRecord(initial_state=with_score(start, 0, HUGE).replace(round=HUGE))
    assert refused(az.to_json, record) == (
        ("$.initial_state.round", TOO_LONG),
        ("$.initial_state.players[0].score", TOO_LONG),
    )
    bag = list(start.bag) + [C.RED] * 21
    record = az.GameRecord(initial_state=start.replace(bag=tuple(bag)))
    message = "expected a count of tiles from 0 to 20 (S3), got "
    assert refused(az.to_dict, record) == (
        ("$.initial_state.bag.red", f"{message}{start.bag.count(C.RED) + 21}{NOTE}"),
    )


def test_an_initial_state_with_settings_or_not_a_state_is_not_written() -> None:
    """The format holds an initial state or ``new_game`` settings, not both: a record
    with both would be read back without its settings."""
    start = az.new_game(2, seed=4)
    assert refused(az.to_json, az.GameRecord(initial_state=start, seed=5)) == (
        ("$", "give either initial_state or new_game settings, not both" + NOTE),
    )
    record = az.GameRecord(initial_state=start, players=2, seed=0)  # the defaults
    assert az.GameRecord.from_json(record.to_json()) == record
    assert refused(az.to_json, az.GameRecord(initial_state="start")) == (  # type: ignore[arg-type]
        ("$.initial_state", f"expected a GameState, got str{NOTE}"),
    )


def test_an_impossible_initial_state_is_written_and_refused_under_initial_state() -> None:
    """As for a lone state, an impossible position is written (to be shown, disputed);
    reading it back names its problems under ``$.initial_state`` (W4)."""
    start = with_score(az.new_game(2, seed=4), 1, -3)
    text = az.to_json(az.GameRecord(initial_state=start))
    with pytest.raises(az.InvalidStateError) as raised:
        az.from_json(text, az.GameRecord)
    assert [(p.code, p.rule, p.path) for p in raised.value.problems] == [
        (az.StateProblem.NEGATIVE_SCORE, "W4", "$.initial_state.players[1].score")
    ]


def _start_document() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(az.to_json(az.new_game(2, seed=4)))
    return doc


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (lambda d: d.update(round=0), "$.initial_state.round", "rounds count from 1, got 0"),
        (lambda d: d["players"][0].update(score="7"), "$.initial_state.players[0].score",
         "expected an integer, got '7'"),
        (lambda d: d["bag"].update(purple=3), "$.initial_state.bag.purple",
         "expected a colour (blue, yellow, red, black, white), got 'purple'"),
        (lambda d: d["bag"].update(red=21), "$.initial_state.bag.red",
         "expected a count of tiles from 0 to 20 (S3), got 21"),
    ],
)  # fmt: skip
def test_an_unreadable_initial_state_is_named_under_initial_state(
    change: Any, path: str, message: str
) -> None:
    """Read from plain data, from text, and through ``az.from_json``: one path."""
    start = _start_document()
    change(start)
    doc = {"format_version": 1, "initial_state": start, "moves": []}
    readers: list[Callable[[], object]] = [
        lambda: az.GameRecord.from_dict(doc),
        lambda: az.GameRecord.from_json(json.dumps(doc)),
        lambda: az.from_json(json.dumps(doc), az.GameRecord),
    ]
    for read in readers:
        with pytest.raises(az.FormatError) as raised:
            read()
        assert raised.value.errors == ((path, message),)
        assert str(raised.value) == f"{path}: {message}"


def test_an_impossible_initial_state_read_names_each_problem_under_initial_state() -> None:
    """Two tiles on the one-space line (S4), so a red tile too many (S3); a negative
    score (W4); and a full line while every factory still holds its tiles (W1: the
    tiling empties every complete line before the round's filling)."""
    start = _start_document()
    start["players"][0]["pattern_lines"][0] = ["red", "red"]
    start["players"][1]["score"] = -1
    doc = {"format_version": 1, "initial_state": start, "moves": []}
    with pytest.raises(az.InvalidStateError) as raised:
        az.GameRecord.from_json(json.dumps(doc))
    assert [(p.code.value, p.rule, p.path) for p in raised.value.problems] == [
        ("LINE_OVER_CAPACITY", "S4", "$.initial_state.players[0].pattern_lines[0]"),
        ("TILE_COUNT", "S3", "$.initial_state"),
        ("NEGATIVE_SCORE", "W4", "$.initial_state.players[1].score"),
        ("NO_TAKE_YET", "W1", "$.initial_state.players[0].pattern_lines[0]"),
    ]
    assert str(raised.value).count("at $.initial_state") == 4


# -- the reader, given plain data past 4,300 digits ---------------------------------------


def test_reading_plain_data_past_4300_digits_names_each_problem() -> None:
    """``from_dict`` quoted what it was given with ``repr``, which raised ValueError."""
    doc = {"format_version": 1, "players": HUGE, "variant": HUGE, "first_player": -HUGE,
           "external_draws": HUGE, HUGE: 1, "moves": []}  # fmt: skip
    got = "got an integer of more than 4300 digits"
    with pytest.raises(az.FormatError) as raised:
        az.GameRecord.from_dict(doc)
    assert raised.value.errors == (
        ("$[an integer of more than 4300 digits]", "unknown field"),
        ("$.players", f"expected 2, 3 or 4, {got}"),
        ("$.variant", f"expected colored or grey, {got}"),
        ("$.first_player", f"expected a player number from 0, {got}"),
        ("$.external_draws", f"expected true or false, {got}"),
    )


@pytest.mark.parametrize("indent", [1, 2, 4])
def test_to_json_indents_a_record_by_the_indent_asked(indent: int) -> None:
    """``az.to_json(record, indent=N)`` indents by N spaces (it always wrote 1), one move
    a line, and reads back."""
    record = az.GameRecord((az.parse_move("1B1"), az.parse_move("2Y3")), seed=7)
    lines = az.to_json(record, indent=indent).splitlines()
    assert lines[1] == " " * indent + '"format_version": 1,'
    assert lines[-4:-1] == [" " * 2 * indent + '"1B1",', " " * 2 * indent + '"2Y3"',
                            " " * indent + "]"]  # fmt: skip
    assert az.from_json("\n".join(lines), az.GameRecord) == record
