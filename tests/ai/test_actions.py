"""The action codec and the observation vector (azul_rules.ai.actions): core, no extra."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import testing as azt
from azul_rules.ai import actions

BOTH_WALLS = [az.Variant.COLORED, az.Variant.GREY]


@pytest.mark.parametrize(("players", "factories", "takes"), [(2, 5, 180), (3, 7, 240), (4, 9, 300)])
def test_sizes_follow_the_factory_count_s2(players: int, factories: int, takes: int) -> None:
    """S2: F factories; (F + 1) * 30 take ids, 25 more on the grey wall."""
    assert actions.factory_count(players) == factories
    assert actions.num_actions(players, "colored") == takes
    assert actions.num_actions(players, az.Variant.GREY) == takes + 25
    assert actions.num_take_actions(players) == takes


def test_documented_ids() -> None:
    """The table in docs/ai.md: source * 30 + colour * 6 + destination; the centre is
    source F; the floor is destination 5; placements follow the takes."""
    assert actions.action_id(az.Take(0, az.Color.BLUE, 0), 2) == 0
    assert actions.action_id(az.parse_move("3B2"), 2) == 61
    assert actions.action_id(az.parse_move("1K1"), 2) == 18
    assert actions.action_id(az.Take(4, az.Color.WHITE, az.FLOOR), 2) == 149
    assert actions.action_id(az.Take(az.CENTER, az.Color.BLUE, 0), 2) == 150
    assert actions.action_id(az.Take(az.CENTER, az.Color.WHITE, az.FLOOR), 2) == 179
    assert actions.action_id(az.Take(az.CENTER, az.Color.RED, 2), 3) == 7 * 30 + 12 + 2
    assert actions.action_id(az.Take(az.CENTER, az.Color.WHITE, az.FLOOR), 4) == 299
    assert actions.action_id(az.PlaceTile(0, 0), 2) == 180
    assert actions.action_id(az.PlaceTile(2, 3), 3) == 240 + 13
    assert actions.action_id(az.PlaceTile(4, 4), 4) == 324


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_id_round_trips(players: int) -> None:
    """Every id of both walls decodes to a move that encodes back to it."""
    seen = set()
    for action in range(actions.num_actions(players, "grey")):
        move = actions.move_from_action(action, players)
        assert actions.action_id(move, players) == action
        seen.add(move)
    assert len(seen) == actions.num_actions(players, "grey")


@given(st.sampled_from([2, 3, 4]), st.data())
def test_ids_round_trip_hypothesis(players: int, data: st.DataObject) -> None:
    """Any id, decoded and encoded again, on the wall it belongs to."""
    variant = data.draw(st.sampled_from(BOTH_WALLS))
    action = data.draw(st.integers(0, actions.num_actions(players, variant) - 1))
    move = actions.move_from_action(action, players, variant)
    assert actions.action_id(move, players) == action
    assert isinstance(move, az.PlaceTile) == (action >= actions.num_take_actions(players))


@given(azt.game_states(include_over=False), st.data())
def test_legal_moves_round_trip(state: az.GameState, data: st.DataObject) -> None:
    """Every legal move of a reachable position has an id that decodes back to it."""
    moves = state.legal_moves()
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    players = len(state.players)
    action = actions.action_id(move, players)
    assert actions.move_from_action(action, players, state.variant) == move


@given(azt.game_states())
def test_legal_actions_and_mask_match_legal_moves(state: az.GameState) -> None:
    players = len(state.players)
    ids = actions.legal_actions(state)
    assert ids == sorted(actions.action_id(m, players) for m in state.legal_moves())
    mask = actions.legal_action_mask(state)
    assert len(mask) == actions.num_actions(players, state.variant)
    assert [i for i, bit in enumerate(mask) if bit] == ids
    assert set(mask) <= {0, 1}
    if state.is_over:
        assert ids == []


def test_moves_without_an_id_are_refused() -> None:
    """A TableTake, a Refill and moves off the table have no id: ValueError says why."""
    table_take = az.TableTake(0, az.Color.BLUE, 2, {0: 2})
    with pytest.raises(ValueError, match=r"as_take\(\)"):
        actions.action_id(table_take, 2)
    with pytest.raises(ValueError, match="chance"):
        actions.action_id(az.Refill(((),) * 5), 2)
    with pytest.raises(ValueError, match="factories 0-4"):
        actions.action_id(az.Take(5, az.Color.BLUE, 0), 2)
    with pytest.raises(ValueError, match="not a tile colour"):
        actions.action_id(az.Take(0, az.MARKER, 0), 2)
    with pytest.raises(ValueError, match="lines are 0-4"):
        actions.action_id(az.Take(0, az.Color.RED, 5), 2)
    with pytest.raises(ValueError, match="lines and columns"):
        actions.action_id(az.PlaceTile(0, 5), 2)
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        actions.action_id(az.Take(0, az.Color.RED, 0), 5)


def test_out_of_range_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="out of range: 2 players have ids 0-204"):
        actions.move_from_action(205, 2)
    with pytest.raises(ValueError, match="colored wall have ids 0-179"):
        actions.move_from_action(180, 2, "colored")
    with pytest.raises(ValueError, match="out of range"):
        actions.move_from_action(-1, 3)
    with pytest.raises(ValueError, match="an int"):
        actions.move_from_action("3", 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="variant"):
        actions.num_actions(2, "purple")
    assert actions.move_from_action(179, 2, "grey") == az.Take(az.CENTER, az.Color.WHITE, az.FLOOR)


def test_action_to_string() -> None:
    assert actions.action_to_string(61, 2) == "3B2"
    assert actions.action_to_string(179, 2) == "CWF"
    assert actions.action_to_string(204, 2) == "place line 5 at column 5"


# -- observations ---------------------------------------------------------------------------


def _field(players: int, name: str) -> actions.ObservationField:
    return next(f for f in actions.observation_layout(players) if f.name == name)


def _read(vector: list[float], field: actions.ObservationField) -> list[float]:
    return vector[field.offset : field.offset + field.size]


@pytest.mark.parametrize(("players", "size"), [(2, 364), (3, 533), (4, 702)])
def test_layout_is_contiguous(players: int, size: int) -> None:
    layout = actions.observation_layout(players)
    offset = 0
    for field in layout:
        assert field.offset == offset
        assert field.size == math.prod(field.shape)
        assert field.low < field.high
        assert field.description
        offset += field.size
    assert offset == actions.observation_size(players) == size
    assert _field(players, "factories").shape == (actions.factory_count(players), 5)


@given(azt.game_states(), st.data())
def test_observation_fields_hold_the_position(state: az.GameState, data: st.DataObject) -> None:
    """Every value within its field's bounds; the observer's board first, then the
    others in turn order; every tile accounted for (20 per colour, S3)."""
    players = len(state.players)
    player = data.draw(st.integers(0, players - 1))
    vector = actions.observation(state, player)
    assert len(vector) == actions.observation_size(players)
    for field in actions.observation_layout(players):
        values = _read(vector, field)
        assert all(field.low <= v <= field.high for v in values), field.name
    for seat in range(players):
        board = state.players[(player + seat) % players]
        assert _read(vector, _field(players, f"board{seat}.score")) == [board.score]
        has_marker = az.MARKER in board.floor
        assert _read(vector, _field(players, f"board{seat}.floor_marker")) == [float(has_marker)]
    per_color = [0.0] * 5
    for field in actions.observation_layout(players):
        if field.name.endswith(("pattern_lines", "wall", "floor")) or field.name in (
            "factories", "center", "bag", "lid"
        ):  # fmt: skip
            values = _read(vector, field)
            for index, value in enumerate(values):
                per_color[index % 5] += value
    assert per_color == [20.0] * 5
    assert _read(vector, _field(players, "round")) == [float(state.round)]
    phase = _read(vector, _field(players, "phase"))
    assert sum(phase) == 1.0
    to_move = _read(vector, _field(players, "to_move"))
    if state.is_over:
        assert sum(to_move) == 0.0
    else:
        assert to_move.index(1.0) == (state.current_player - player) % players


def test_observation_of_a_known_position() -> None:
    """A take's effect read back from the vector: the line, the floor marker, the centre."""
    state = az.new_game(2, seed=3, first_player=0)
    factory = state.factories[0]
    color = factory[0]
    state = state.apply(az.Take(0, color, 2))  # player 0
    state = state.apply(
        next(m for m in state.legal_moves() if isinstance(m, az.Take) and m.source == az.CENTER)
    )
    vector = actions.observation(state, 1)  # player 1 sees its own board first
    lines = _read(vector, _field(2, "board1.pattern_lines"))  # player 0, one seat after
    assert lines[2 * 5 + color] == factory.count(color)
    assert _read(vector, _field(2, "board0.floor_marker")) == [1.0]
    assert _read(vector, _field(2, "center_marker")) == [0.0]
    assert _read(vector, _field(2, "to_move")) == [0.0, 1.0]


def test_observation_refuses_a_player_out_of_range() -> None:
    state = az.new_game(3, seed=1)
    with pytest.raises(ValueError, match="player must be 0 to 2"):
        actions.observation(state, 3)
    with pytest.raises(ValueError, match="player must be 0 to 2"):
        actions.observation_string(state, -1)


def test_observation_string_puts_the_observer_first() -> None:
    state = az.new_game(3, seed=1, first_player=2)
    text = actions.observation_string(state, 1)
    assert text.startswith("player 1's view; round 1, factory offer, player 2 to move")
    assert (
        text.index("player 1 (you)") < text.index("player 2: score") < text.index("player 0: score")
    )
    assert "centre: M" in text
    table = actions.table_string(state)
    assert "(you)" not in table
    assert table.index("player 0: score") < table.index("player 1: score")


def test_utilities_are_zero_sum_e4() -> None:
    """E4: a sole winner +1, losers -1/(n-1); a shared victory splits the losers' pay."""
    assert actions.utilities((0,), 2) == [1.0, -1.0]
    assert actions.utilities((0, 1), 2) == [0.0, 0.0]
    assert actions.utilities((2,), 4) == [-1 / 3, -1 / 3, 1.0, -1 / 3]
    assert actions.utilities((0, 1, 2), 3) == [0.0, 0.0, 0.0]
    for winners in [(0,), (1, 3), (0, 1, 2)]:
        assert sum(actions.utilities(winners, 4)) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="winners"):
        actions.utilities((), 2)


def _documented_returns(winners: set[int], players: int) -> list[float]:
    """The table of docs/ai.md: losers pay 1/(n-1), the winners split the pot."""
    lose = -1 / (players - 1)
    share = -lose * (players - len(winners)) / len(winners)
    return [share if p in winners else lose for p in range(players)]


def test_utilities_refuse_a_repeated_winner_e4() -> None:
    """E4: winners are distinct players; [0, 0] once returned [0.0, -1.0], summing to -1."""
    with pytest.raises(ValueError, match=r"^winners must be distinct players; 0 is repeated"):
        actions.utilities([0, 0], 2)
    with pytest.raises(ValueError, match="2 is repeated"):
        actions.utilities((1, 2, 2), 4)
    assert actions.utilities((2, 0), 4) == actions.utilities((0, 2), 4) == [1 / 3, -1 / 3] * 2


def test_utilities_refuse_winners_that_are_not_ints() -> None:
    """A bool is not a player (True once counted as player 1); nor is a float or a
    string; FormatError is a ValueError, as for a player out of range."""
    for winners, what in [
        ([True], "the bool True"),
        ([0, False], "the bool False"),
        ([1.0], "float 1.0"),
        (["0"], "str '0'"),
        ([None], "NoneType None"),
    ]:
        expected = f"^a winner is a player \\(an int\\), not {what}$"
        with pytest.raises(az.FormatError, match=expected):
            actions.utilities(winners, 2)  # type: ignore[arg-type]
    for not_a_list in [0, "01", None]:
        with pytest.raises(az.FormatError, match=r"^winners is a sequence of players"):
            actions.utilities(not_a_list, 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^winners must be players 0 to 2, got 3 \(E4\)$"):
        actions.utilities([3], 3)
    with pytest.raises(ValueError, match=r"got an integer of more than \d+ digits"):
        actions.utilities([10**5000], 3)
    with pytest.raises(ValueError, match=r"^winners must name at least one player, 0 to 1"):
        actions.utilities(iter(()), 2)
    with pytest.raises(ValueError, match="got 2"):  # an endless iterator is read no further
        actions.utilities(itertools.count(), 2)


@given(
    players=st.integers(2, 4),
    winners=st.one_of(
        st.lists(st.integers(0, 3), unique=True, min_size=1, max_size=4),
        st.lists(
            st.one_of(st.integers(-2, 5), st.booleans(), st.floats(0, 3), st.none()), max_size=6
        ),
    ),
)
def test_accepted_winners_always_sum_to_zero_e4(players: int, winners: list[object]) -> None:
    """Any winners list either is refused with a ValueError or gives the documented
    returns, which sum to 0; exactly the non-empty lists of distinct int players are
    accepted."""
    valid = (
        bool(winners)
        and all(type(w) is int and 0 <= w < players for w in winners)
        and len(set(winners)) == len(winners)
    )
    try:
        returns = actions.utilities(winners, players)  # type: ignore[arg-type]
    except ValueError:
        assert not valid
        return
    assert valid
    assert returns == pytest.approx(_documented_returns(set(winners), players))  # type: ignore[arg-type]
    assert math.fsum(returns) == pytest.approx(0.0, abs=1e-12)
    assert max(returns) <= 1.0
    assert min(returns) >= -1 / (players - 1)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda bad: actions.legal_actions(bad), "legal_actions"),
        (lambda bad: actions.legal_action_mask(bad), "legal_action_mask"),
        (lambda bad: actions.observation(bad, 0), "observation"),
        (lambda bad: actions.observation_string(bad, 0), "observation_string"),
        (lambda bad: actions.table_string(bad), "table_string"),
    ],
)
def test_functions_of_a_state_refuse_anything_else(call: object, name: str) -> None:
    """A non-state raised AttributeError deep inside; now FormatError (a TypeError and a
    ValueError, as svg.board) naming the function and what it was given."""
    assert callable(call)
    for bad, what in [("x", "str 'x'"), (None, "NoneType None"), (az.new_game(2).players[0], "")]:
        with pytest.raises(az.FormatError, match=f"^{name}\\(\\) reads a GameState, not ") as info:
            call(bad)
        assert isinstance(info.value, TypeError)
        assert str(info.value).endswith(what)
    assert "PlayerBoard" in str(info.value)


def test_wrong_types_are_format_errors_wrong_values_value_errors() -> None:
    """Ints that are out of range: ValueError; arguments of the wrong type: FormatError."""
    state = az.new_game(2, seed=1)
    take = az.Take(0, az.Color.BLUE, 0)
    wrong_types: list[tuple[Callable[[], object], str]] = [
        (lambda: actions.observation(state, True), r"player is an int \(0-based\), not bool True"),
        (lambda: actions.observation_string(state, "0"), "player is an int"),  # type: ignore[arg-type]
        (lambda: actions.action_id("3B2", 2), r"action_id\(\) reads a Take or a PlaceTile"),  # type: ignore[arg-type]
        (lambda: actions.action_id(take, state), "the number of players is an int .*GameState"),  # type: ignore[arg-type]
        (lambda: actions.move_from_action(0, "2"), "the number of players is an int"),  # type: ignore[arg-type]
        (lambda: actions.move_from_action("61", 2), "an action id is an int, not str '61'"),  # type: ignore[arg-type]
        (lambda: actions.move_from_action(True, 2), "an action id is an int, not bool True"),
        (
            lambda: actions.num_actions(2, 1),  # type: ignore[arg-type]
            "variant must be 'colored' or 'grey', not int 1",
        ),
        (
            lambda: actions.observation_layout(2.0),  # type: ignore[arg-type]
            "the number of players is an int",
        ),
    ]
    for call, message in wrong_types:
        with pytest.raises(az.FormatError, match=message):
            call()
    wrong_values: list[tuple[Callable[[], object], str]] = [
        (lambda: actions.observation(state, 2), "player must be 0 to 1, not 2"),
        (lambda: actions.move_from_action(0, 5), "Azul is played by 2, 3 or 4 players, not 5"),
        (lambda: actions.move_from_action(10**5000, 2), "action id an integer of more than"),
        (lambda: actions.num_actions(2, "gray"), "variant must be 'colored' or 'grey', not 'gray'"),
    ]
    for call, message in wrong_values:
        with pytest.raises(ValueError, match=message) as info:
            call()
        assert not isinstance(info.value, az.FormatError)


class _Scalar:
    """An integer scalar that is not an int, as numpy's ``int64`` (``__index__`` only)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_player_counts_and_players_take_integer_scalars_as_documented() -> None:
    """docs/ai.md: numpy integers are ints for a player count and a player, as for an
    action id; they were refused with FormatError ("not int64 np.int64(3)")."""
    state = az.new_game(3, seed=4)
    assert actions.num_actions(_Scalar(3), "grey") == 265  # type: ignore[arg-type]
    assert actions.factory_count(_Scalar(4)) == 9  # type: ignore[arg-type]
    assert actions.observation_size(_Scalar(3)) == 533  # type: ignore[arg-type]
    assert actions.observation_layout(_Scalar(2)) is actions.observation_layout(2)  # type: ignore[arg-type]
    assert actions.observation(state, _Scalar(1)) == actions.observation(state, 1)  # type: ignore[arg-type]
    assert actions.observation_string(state, _Scalar(2)).startswith("player 2's view")  # type: ignore[arg-type]
    assert actions.move_from_action(61, _Scalar(2)) == az.parse_move("3B2")  # type: ignore[arg-type]
    returns = actions.utilities([_Scalar(0)], _Scalar(3))  # type: ignore[list-item, arg-type]
    assert returns == [1.0, -0.5, -0.5]
    assert all(type(r) is float for r in returns)
    with pytest.raises(ValueError, match="player must be 0 to 2, not 3"):
        actions.observation(state, _Scalar(3))  # type: ignore[arg-type]
    with pytest.raises(az.FormatError, match="not bool True"):
        actions.num_actions(True)
