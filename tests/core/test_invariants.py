"""Invariants over many random games (S3, W4, T1, E1 and the referee's own promises)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import CENTER, FLOOR, MARKER
from tests.builders import count_all_tiles

seeds = st.integers(min_value=0, max_value=2**64)
player_counts = st.sampled_from([2, 3, 4])
variants = st.sampled_from(list(az.Variant))
MAX_MOVES = 1500


def random_game(
    players: int, seed: int, moves_seed: int, variant: az.Variant = az.Variant.COLORED
) -> list[az.GameState]:
    """Every state of one random game, from start to end."""
    rnd = random.Random(moves_seed)
    s = az.new_game(players, seed=seed, variant=variant)
    states = [s]
    while not s.is_over and len(states) < MAX_MOVES:
        s = s.apply(rnd.choice(s.legal_moves()))
        states.append(s)
    # A coloured game always ends.  A grey game can starve: when every row left to fill
    # needs a colour locked in incomplete pattern lines or already in the column, no
    # row can be completed and E1 never comes (R7 ends it).
    assert s.is_over or variant is az.Variant.GREY, "a coloured game must end"
    return states


def all_compact_moves(s: az.GameState) -> list[az.Take | az.PlaceTile]:
    """The whole space of compact moves on this table, plus off-table numbers."""
    sources = [*range(len(s.factories) + 1), CENTER]
    colors: list[az.Color | az.Marker] = [*az.Color, MARKER]
    moves: list[az.Take | az.PlaceTile] = [
        az.Take(src, c, line) for src in sources for c in colors for line in [*range(6), FLOOR]
    ]
    moves.extend(az.PlaceTile(line, column) for line in range(7) for column in range(7))
    return moves


@given(player_counts, seeds, seeds, variants)
def test_every_game_ends_with_100_tiles_and_no_negative_score(
    players: int, seed: int, moves_seed: int, variant: az.Variant
) -> None:
    """S3, W4, E1: tiles add up to 20 per colour in every state; scores stay >= 0;
    the game ends with an outcome consistent with the boards (E4); V2: no colour twice
    in a wall column."""
    states = random_game(players, seed, moves_seed, variant)
    for s in states:
        assert count_all_tiles(s) == {c: 20 for c in az.Color}
        assert all(b.score >= 0 for b in s.players)
        assert all(len(b.floor) <= 7 and b.floor.count(MARKER) <= 1 for b in s.players)
        assert sum(b.floor.count(MARKER) for b in s.players) <= 1
        for b in s.players:
            for column in range(5):
                tiles = [row[column] for row in b.wall if row[column] is not None]
                assert len(tiles) == len(set(tiles))
    final = states[-1]
    if not final.is_over:
        return  # a starved grey game (see random_game)
    assert final.outcome is not None
    assert final.outcome.scores == tuple(b.score for b in final.players)
    assert any(b.complete_rows() for b in final.players) or not any(final.factories)


@given(player_counts, seeds, seeds, variants)
def test_legal_moves_are_exactly_the_moves_validate_accepts(
    players: int, seed: int, moves_seed: int, variant: az.Variant
) -> None:
    """T1-T4, P1-P6, V1-V3: legal_moves() equals the accepted part of the whole move
    space, is deterministic and duplicate-free, and is never empty while the game waits
    for a compact move."""
    for s in random_game(players, seed, moves_seed, variant)[::3]:
        legal = s.legal_moves()
        accepted = [m for m in all_compact_moves(s) if s.validate(m).ok]
        assert set(legal) == set(accepted)
        assert len(set(legal)) == len(legal)
        assert legal == s.legal_moves()
        waiting = s.phase in (az.Phase.FACTORY_OFFER, az.Phase.WALL_TILING)
        assert bool(legal) == waiting  # T1: never stuck


@given(player_counts, seeds, seeds, variants)
def test_apply_accepts_exactly_the_moves_validate_accepts(
    players: int, seed: int, moves_seed: int, variant: az.Variant
) -> None:
    """T1-T4, P2-P4, V1-V3: ``apply`` (which checks a take on its own fast path) raises
    ``IllegalMoveError`` with validate's very ``Result`` for every move validate
    rejects, and returns a state for every move it accepts."""
    for s in random_game(players, seed, moves_seed, variant)[::7]:
        for move in all_compact_moves(s):
            verdict = s.validate(move)
            try:
                s.apply(move)
            except az.IllegalMoveError as error:
                assert not verdict.ok, move
                assert error.result == verdict
            else:
                assert verdict.ok, move


@given(player_counts, seeds, seeds, variants)
def test_apply_never_mutates_and_equal_states_hash_equal(
    players: int, seed: int, moves_seed: int, variant: az.Variant
) -> None:
    """apply returns a new state and leaves its input equal to what it was."""
    rnd = random.Random(moves_seed)
    s = az.new_game(players, seed=seed, variant=variant)
    for _ in range(MAX_MOVES):
        if s.is_over:
            break
        snapshot = (az.to_dict(s), hash(s))
        move = rnd.choice(s.legal_moves())
        nxt = s.apply(move)
        assert (az.to_dict(s), hash(s)) == snapshot
        assert nxt is not s
        assert s.apply(move) == nxt and hash(s.apply(move)) == hash(nxt)
        s = nxt


@given(player_counts, seeds, seeds, variants)
def test_same_seed_same_game(players: int, seed: int, moves_seed: int, variant: az.Variant) -> None:
    """S7, R2: the seed decides the first player and every draw."""
    first = random_game(players, seed, moves_seed, variant)
    assert first == random_game(players, seed, moves_seed, variant)
    assert [s.last_scoring for s in first] == [
        s.last_scoring for s in random_game(players, seed, moves_seed, variant)
    ]


@given(player_counts, seeds, seeds)
def test_every_legal_take_has_an_equal_table_take(players: int, seed: int, moves_seed: int) -> None:
    """A legal Take and the TableTake describing it are both legal and apply alike;
    taking one tile less is PARTIAL_TAKE."""
    for s in random_game(players, seed, moves_seed)[::4]:
        for move in s.legal_moves():
            assert isinstance(move, az.Take) and isinstance(move.color, az.Color)
            source = s.center if move.source == CENTER else s.factories[move.source]
            count = source.count(move.color)
            placements: dict[int, int] = {}
            if move.line == FLOOR:
                placements[FLOOR] = count
            else:
                room = s.players[s.current_player].pattern_lines[move.line].room
                placements[move.line] = min(room, count)
                if count > room:
                    placements[FLOOR] = count - room
            table = az.TableTake(move.source, move.color, count, placements)
            assert s.validate(table).ok, s.validate(table)
            assert table.as_take() == move
            assert s.apply(table) == s.apply(move)
            if count > 1:
                fewer = az.TableTake(move.source, move.color, count - 1, {FLOOR: count - 1})
                assert s.validate(fewer).code == az.ErrorCode.PARTIAL_TAKE


def test_first_player_from_seed_and_by_name() -> None:
    """S7: the first player is drawn from the seed unless named."""
    firsts = {az.new_game(4, seed=s).current_player for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert az.new_game(3, seed=5, first_player=2).current_player == 2


def test_s1_s2_players_and_factories() -> None:
    """S1, S2: 2-4 players with 5, 7, 9 factories of 4 tiles (S6: from a bag of 100)."""
    for players, factories in [(2, 5), (3, 7), (4, 9)]:
        s = az.new_game(players, seed=1)
        assert len(s.players) == players
        assert len(s.factories) == factories
        assert all(len(f) == 4 for f in s.factories)
        assert len(s.bag) == 100 - 4 * factories
        assert s.lid == () and s.center == ()
        assert s.round == 1 and s.marker_in_center
    for bad in [1, 5, 0]:
        try:
            az.new_game(bad)
        except ValueError as error:
            assert "2, 3 or 4 players" in str(error)
        else:
            raise AssertionError(f"{bad} players accepted")
    for bad_first in [-1, 2]:
        try:
            az.new_game(2, first_player=bad_first)
        except ValueError as error:
            assert "first_player" in str(error)
        else:
            raise AssertionError("first_player out of range accepted")


def test_s4_s5_empty_board_and_coloured_wall() -> None:
    """S4: lines of capacity 1-5, an empty 5x5 wall, an empty floor, score 0; S5: the
    printed colours run in diagonals."""
    b = az.new_game().players[0]
    assert [line.capacity for line in b.pattern_lines] == [1, 2, 3, 4, 5]
    assert b.score == 0 and b.floor == ()
    assert all(t is None for row in b.wall for t in row)
    from azul_rules.core.colors import wall_color

    assert [wall_color(0, c) for c in range(5)] == list(az.Color)
    assert [wall_color(1, c).name for c in range(5)] == ["WHITE", "BLUE", "YELLOW", "RED", "BLACK"]


@given(player_counts, seeds, seeds)
def test_every_legal_table_take_is_a_legal_take(players: int, seed: int, moves_seed: int) -> None:
    """The converse: any physical take the referee accepts applies like a legal Take."""
    for s in random_game(players, seed, moves_seed)[::6]:
        if s.phase is not az.Phase.FACTORY_OFFER:
            continue
        legal = set(s.legal_moves())
        sources = [*range(len(s.factories)), CENTER]
        for source in sources:
            tiles = s.center if source == CENTER else s.factories[source]
            for color in set(tiles):
                n = tiles.count(color)
                for count in (n - 1, n, n + 1):
                    for line in range(5):
                        for k in range(count + 1):
                            table = az.TableTake(source, color, count, {line: k, FLOOR: count - k})
                            if s.validate(table).ok:
                                assert table.as_take() in legal
                                assert s.apply(table) == s.apply(table.as_take())
