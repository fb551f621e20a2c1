"""Writing is symmetrical to reading: whatever ``to_json`` / ``to_dict`` writes,
``from_json`` / ``from_dict`` reads back (an impossible position as an
``InvalidStateError``, as ``problems()`` lists it); what the reader would refuse as a
``FormatError``, the writer refuses the same way, naming the path — never a raw
``ValueError`` from Python's limit on the digits of an integer (docs/json-format.md,
"Writing")."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import FLOOR
from azul_rules import Color as C
from azul_rules.formats.serialization import json_text

HUGE = 10**5000  # 5,001 digits: past Python's limit of 4,300 digits in text
NOTE = " (not written: from_json would refuse it)"
TOO_LONG = "an integer of more than 4300 digits: JSON text holds at most that many" + NOTE


def played(players: int = 2, seed: int = 3, rounds: int = 2) -> az.GameState:
    """A state reached by random play, after ``rounds - 1`` tilings (so with a
    ``last_scoring``)."""
    rnd = random.Random(seed)
    state = az.new_game(players, seed=seed)
    while state.round < rounds:
        state = state.apply(rnd.choice(state.legal_moves()))
    return state


def with_parts(state: az.GameState, **parts: Any) -> az.GameState:
    """``state`` with some parts replaced, through the public ``state.replace``."""
    return state.replace(**parts)


def with_score(state: az.GameState, player: int, score: int) -> az.GameState:
    boards = list(state.players)
    boards[player] = attrs.evolve(boards[player], score=score)
    return with_parts(state, players=tuple(boards), last_scoring=None)


def refused(write: Any, obj: object) -> tuple[tuple[str, str], ...]:
    with pytest.raises(az.FormatError) as raised:
        write(obj)
    return raised.value.errors


def test_a_score_past_4300_digits_is_a_format_error_naming_its_path() -> None:
    """The user's report: ``to_json`` raised Python's raw ValueError "Exceeds the limit
    (4300 digits)"; it is a FormatError at ``$.players[0].score``, and ``from_json``
    refuses the same integer in a text."""
    state = with_score(played(), 0, HUGE)
    assert refused(az.to_json, state) == (("$.players[0].score", TOO_LONG),)
    assert refused(lambda s: az.to_json(s, indent=None), state) == (
        ("$.players[0].score", TOO_LONG),
    )
    text = az.to_json(with_score(played(), 0, 7)).replace('"score": 7', f'"score": 1{"0" * 4300}')
    with pytest.raises(az.FormatError, match="an integer of more than 4300 digits"):
        az.from_json(text, az.GameState)


def test_a_round_of_4300_digits_is_written_and_read_back() -> None:
    """The largest integer JSON text holds, both ways; plain data has no such limit.
    A round (R1 sets no last round: a table may send every tile to the floor for ever);
    no score that long can be read, no wall earns it (SCORE_OUT_OF_REACH)."""
    for round in (10**4300 - 1, 12):
        state = with_parts(played(), round=round, last_scoring=None)
        back = az.from_json(az.to_json(state), az.GameState)
        assert back == state and back.round == round
    state = with_parts(played(), round=HUGE, last_scoring=None)
    assert az.from_dict(az.to_dict(state), az.GameState).round == HUGE
    with pytest.raises(az.InvalidStateError) as raised:
        az.from_json(az.to_json(with_score(played(), 1, 10**4300 - 1)), az.GameState)
    assert [p.code for p in raised.value.problems] == [az.StateProblem.SCORE_OUT_OF_REACH]


def test_every_long_integer_is_named_at_once() -> None:
    state = with_parts(with_score(played(), 1, -HUGE), round=HUGE)
    assert refused(az.to_json, state) == (
        ("$.round", TOO_LONG),
        ("$.players[1].score", TOO_LONG),
    )


@pytest.mark.parametrize(
    ("parts", "errors"),
    [
        ({"bag": (C.RED,) * 21, "lid": (C.BLUE,) * 25},
         [("$.bag.red", "expected a count of tiles from 0 to 20 (S3), got 21"),
          ("$.lid.blue", "expected a count of tiles from 0 to 20 (S3), got 25")]),
        ({"center": (C.WHITE,) * 101}, [("$.center", "101 entries: at most 100")]),
        ({"factories": ((C.BLUE,) * 101, (), (), (), ())},
         [("$.factories[0]", "101 entries: at most 100")]),
    ],
)  # fmt: skip
def test_to_dict_refuses_what_from_dict_refuses_as_a_format_error(
    parts: dict[str, Any], errors: list[tuple[str, str]]
) -> None:
    """A bag or lid count over the 20 tiles of a colour (S3), an array past 100 entries:
    values GameState holds (the position cannot arise, but that is problems()'
    question) and the reader refuses as a FormatError; to_dict and to_json refuse them
    the same way, with the same paths and words."""
    state = with_parts(played(), **parts)
    expected = tuple((path, problem + NOTE) for path, problem in errors)
    assert refused(az.to_dict, state) == expected
    assert refused(az.to_json, state) == expected


def test_a_floor_past_100_items_is_refused_at_its_path() -> None:
    state = played()
    boards = list(state.players)
    boards[1] = attrs.evolve(boards[1], floor=(C.RED,) * 101)
    changed = with_parts(state, players=tuple(boards), last_scoring=None)
    assert refused(az.to_json, changed) == (
        ("$.players[1].floor", "101 entries: at most 100" + NOTE),
    )


def test_an_impossible_position_is_written_and_read_back_as_invalid_state() -> None:
    """W4: a negative score is a position that cannot exist, not a format error: to_json
    writes it, and from_json refuses it as problems() does."""
    state = with_score(played(), 0, -1)
    with pytest.raises(az.InvalidStateError) as raised:
        az.from_json(az.to_json(state), az.GameState)
    assert [(p.code, p.path) for p in raised.value.problems] == [
        (az.StateProblem.NEGATIVE_SCORE, "$.players[0].score")
    ]
    assert raised.value.problems == tuple(state.problems())


def test_a_last_tiling_that_does_not_fit_is_refused_at_its_path() -> None:
    """The record of the last tiling is read only when it fits the position; a state
    whose record no longer fits (a score changed after the tiling) is refused by the
    writer at the same path, never written to be refused on reading."""
    state = played()
    assert state.last_scoring is not None
    boards = list(state.players)
    before = boards[0].score
    boards[0] = attrs.evolve(boards[0], score=before + 1)
    changed = with_parts(state, players=tuple(boards))
    assert refused(az.to_json, changed) == (
        ("$.last_scoring.players[0].score_after",
         f"the board's score is {before + 1}, not {before}" + NOTE),
    )  # fmt: skip
    assert az.from_json(az.to_json(with_parts(changed, last_scoring=None)), az.GameState) == changed


def test_a_last_tiling_of_the_wrong_types_is_refused_at_its_path() -> None:
    """Scoring records are plain classes: one built by hand with a string for a round
    or a bool for a player is refused as the reader refuses it."""
    state = played()
    record = state.last_scoring
    assert record is not None
    wrong_round = attrs.evolve(record, round="1")  # type: ignore[arg-type]
    assert refused(az.to_json, with_parts(state, last_scoring=wrong_round)) == (
        ("$.last_scoring.round", "expected an integer, got '1'" + NOTE),
    )
    tilings = list(record.players)
    tilings[1] = attrs.evolve(tilings[1], player=True)
    wrong_player = attrs.evolve(record, players=tuple(tilings))
    assert refused(az.to_json, with_parts(state, last_scoring=wrong_player)) == (
        ("$.last_scoring.players[1].player", "expected an integer, got True" + NOTE),
    )


@pytest.mark.parametrize(
    ("move", "errors"),
    [
        (az.Take(HUGE, C.BLUE, 0), [("$.source", TOO_LONG)]),
        (az.Take(0, C.BLUE, 0, player=HUGE), [("$.player", TOO_LONG)]),
        (az.TableTake(0, C.BLUE, HUGE, {0: 1}), [("$.count", TOO_LONG)]),
        (az.TableTake(0, C.BLUE, 2, {0: HUGE}), [("$.placements['0']", TOO_LONG)]),
        (az.PlaceTile(0, HUGE), [("$.column", TOO_LONG)]),
        (az.TableTake(0, C.BLUE, 1, {10**9: 1}),
         [("$.placements", "a pattern line key has at most 9 digits, got 1000000000" + NOTE)]),
        (az.TableTake(0, C.BLUE, 1, {HUGE: 1}),
         [("$.placements", "a pattern line key has at most 9 digits, got an integer of more "
                           "than 4300 digits" + NOTE)]),
        (az.TableTake(0, C.BLUE, 101, dict.fromkeys(range(101), 1)),
         [("$.placements", "101 entries: at most 100" + NOTE)]),
        (az.Refill(((C.RED,),) * 101), [("$.factories", "101 entries: at most 100" + NOTE)]),
    ],
)  # fmt: skip
def test_a_move_the_reader_would_refuse_is_not_written(
    move: az.Move, errors: list[tuple[str, str]]
) -> None:
    """A move's numbers past 4,300 digits, a placement key past the 9 digits the reader
    takes, an array past 100 entries: FormatErrors at their paths (Python's own
    ValueError escaped before, and a key of 10 digits was written but not read)."""
    assert refused(az.to_json, move) == tuple(errors)


def test_the_largest_move_numbers_the_reader_takes_are_written_and_read_back() -> None:
    for move in (
        az.TableTake(0, C.BLUE, 10**4300 - 1, {999_999_999: 1, FLOOR: 2}),
        az.TableTake(0, C.BLUE, 100, dict.fromkeys(range(100), 1)),
        az.Take(10**4300 - 1, C.RED, 10**40, player=3),
    ):
        assert az.from_json(az.to_json(move), type(move)) == move
        assert az.from_dict(az.to_dict(move), type(move)) == move


def test_a_text_past_the_reader_s_1_mib_is_refused() -> None:
    """json_text, the writer behind to_json, refuses what load would refuse by size."""
    with pytest.raises(az.FormatError) as raised:
        json_text({"moves": ["1B1"] * 200_000}, indent=None)
    assert raised.value.errors == (
        ("$", "1400011 bytes of JSON text: at most 1048576 are read" + NOTE),
    )


_NUMBERS = st.one_of(
    st.integers(-3, 30), st.integers(-(10**50), 10**50),
    st.sampled_from([10**4300 - 1, 10**4300 - 2, -(10**4300) + 1, HUGE, -HUGE]),
)  # fmt: skip
_TILES = st.lists(st.sampled_from(list(C)), max_size=130).map(tuple)


@given(
    st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.integers(1, 3),
    st.sampled_from(["round", "current_player", "start_player", "marker_holder", "score",
                     "bag", "lid", "center", "factory", "floor"]),
    _NUMBERS, _TILES,
)  # fmt: skip
def test_whatever_to_json_writes_from_json_reads_back(
    seed: int, players: int, rounds: int, part: str, number: int, tiles: tuple[C, ...]
) -> None:
    """A reachable state with one part replaced by any number or tiles GameState takes:
    to_json refuses it with a FormatError, or from_json gives back an equal state
    (scoring record included) or an InvalidStateError listing state.problems() — never
    a FormatError on reading what was written, never another exception."""
    state = played(players, seed, rounds)
    changes: dict[str, Any]
    if part == "score":
        boards = list(state.players)
        boards[0] = attrs.evolve(boards[0], score=number)
        changes = {"players": tuple(boards)}
    elif part == "floor":
        boards = list(state.players)
        boards[-1] = attrs.evolve(boards[-1], floor=tiles)
        changes = {"players": tuple(boards)}
    elif part == "factory":
        changes = {"factories": (tiles, *state.factories[1:])}
    elif part in ("bag", "lid", "center"):
        changes = {part: tiles}
    else:  # round and players: the constructors' messages say what a huge number is
        changes = {part: number}
    try:
        changed = with_parts(state, **changes)
    except (az.FormatError, az.InvalidStateError):
        return  # refused by the constructors (a round below 1, no such player): not written
    for write in (az.to_json, lambda s: az.to_json(s, indent=None)):
        try:
            text = write(changed)
        except az.FormatError:
            continue
        try:
            back = az.from_json(text, az.GameState)
        except az.InvalidStateError as error:
            assert error.problems == tuple(changed.problems())
        else:
            assert back == changed and back.last_scoring == changed.last_scoring


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"format_version": HUGE}, ("$.format_version", "unsupported version an integer of "
                                    "more than 4300 digits (this library reads 1)")),
        ({"round": -HUGE}, ("$.round", "rounds count from 1, got an integer of more than "
                            "4300 digits")),
        ({"current_player": -HUGE}, ("$.current_player", "expected a number from 0, got an "
                                     "integer of more than 4300 digits")),
        ({"center": [HUGE]}, ("$.center[0]", "expected a colour (blue, yellow, red, black, "
                              "white), got an integer of more than 4300 digits")),
    ],
)  # fmt: skip
def test_from_dict_names_an_integer_past_4300_digits_without_printing_it(
    change: dict[str, Any], error: tuple[str, str]
) -> None:
    """Plain data has no limit of digits: the reader's messages describe such an
    integer instead of printing it (printing raised Python's raw ValueError)."""
    doc = az.to_dict(az.new_game(2, seed=1))
    doc.update(change)
    with pytest.raises(az.FormatError) as raised:
        az.from_dict(doc, az.GameState)
    assert raised.value.errors == (error,)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (HUGE, ("$", "not an object")),
        ({"type": HUGE}, ("$.type", "unknown move type an integer of more than 4300 digits")),
        ({"type": "take", "source": [-HUGE], "color": "blue", "line": 0},
         ("$.source", "expected a factory number (from 0) or 'center', got a list holding an "
                      "integer of more than 4300 digits")),
    ],
    ids=["number", "type", "source"],
)  # fmt: skip
def test_move_from_dict_names_an_integer_past_4300_digits(
    data: object, error: tuple[str, str]
) -> None:
    with pytest.raises(az.FormatError) as raised:
        az.move_from_dict(data)
    assert raised.value.errors == (error,)
    assert "an integer of more than 4300 digits" in str(raised.value)


# Outside this branch's files (reported): messages that print a number past Python's
# limit of digits raise its raw ValueError.  Strict: each fails the run once fixed, to
# be turned into a plain test.


def test_g2_a_player_number_of_4300_nines_is_read_as_an_impossible_position() -> None:
    """G2: a current player who does not exist is an InvalidStateError, however large
    the number that names it."""
    doc = az.to_dict(az.new_game(2, seed=1))
    doc["current_player"] = 10**4300 - 1
    with pytest.raises(az.InvalidStateError):
        az.from_json(json_text(doc), az.GameState)


@pytest.mark.parametrize(
    ("part", "error"),
    [("round", az.FormatError), ("current_player", az.InvalidStateError)],
)
def test_g2_the_constructors_refuse_a_number_past_4300_digits_in_their_words(
    part: str, error: type[Exception]
) -> None:
    """G2: a round below 1 or a player not at the table, however long the number."""
    with pytest.raises(error):
        played().replace(**{part: -HUGE if part == "round" else HUGE})


def test_t2_the_verdict_on_a_factory_of_4300_nines_can_be_read() -> None:
    """T2: a factory that does not exist is NO_SUCH_SOURCE, and its message can be
    read, however long the number."""
    move = az.move_from_json(f'{{"type": "take", "source": {"9" * 4300}, "color": "blue", '
                             '"line": 0}')  # fmt: skip
    result = az.new_game(2, seed=1).validate(move)
    assert result.code is az.ErrorCode.NO_SUCH_SOURCE
    assert result.violations[0].message == (
        "there is no factory (an integer of more than 4300 digits): this table has factories "
        "1 to 5 and the centre"
    )
    assert "(un entier de plus de 4300 chiffres)" in result.violations[0].message_in("fr")


def test_the_reader_names_a_count_at_the_path_the_writer_uses() -> None:
    """S3: from_dict names a bag or lid count over 20 at the path to_dict uses
    (``$.bag.red``); a key that is not a plain name is quoted in brackets, whatever it holds."""
    doc = az.to_dict(played())
    doc["bag"]["red"] = 21
    doc["lid"]["blue"] = 25
    doc["lid"]["a @ b"] = 1
    with pytest.raises(az.FormatError) as caught:
        az.from_dict(doc, az.GameState)
    count = "expected a count of tiles from 0 to 20 (S3), got "
    assert sorted(caught.value.errors) == [
        ("$.bag.red", count + "21"),
        ("$.lid.blue", count + "25"),
        ("$.lid['a @ b']", "expected a colour (blue, yellow, red, black, white), got 'a @ b'"),
    ]


def _written_by_json_dumps(value: object, indent: int = 2, level: int = 0) -> str:
    """The readable layout written with ``json.dumps`` for every key and leaf: the
    writer's reference (it writes scalars and flat lists without the encoder's set-up)."""
    import json

    pad, end = " " * (indent * (level + 1)), " " * (indent * level)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {_written_by_json_dumps(v, indent, level + 1)}"
                 for k, v in value.items()]  # fmt: skip
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) and v for v in value):
        items = [pad + _written_by_json_dumps(v, indent, level + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    return json.dumps(value, ensure_ascii=False)


_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(), st.floats())
_DOCUMENTS = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.text(), _DOCUMENTS, max_size=4))
def test_the_readable_layout_is_json_dumps_of_every_part(data: dict[str, Any]) -> None:
    """Every key, string (quotes, backslashes, controls, accents, U+00A0, surrogates),
    integer, flag, null and float written as ``json.dumps`` writes it, in the same
    layout: the text of a position does not change with the faster writer."""
    assert json_text(data) == _written_by_json_dumps(data)


def test_positions_of_random_play_are_written_as_json_dumps_writes_them() -> None:
    for players, seed, rounds in ((2, 1, 3), (3, 2, 2), (4, 5, 4)):
        data = az.to_dict(played(players, seed, rounds))
        assert az.to_json(played(players, seed, rounds)) == _written_by_json_dumps(data)
