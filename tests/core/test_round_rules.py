"""Round-level rules checked on whole seeded games: the end of the offer, the next round,
pattern-line tiles across rounds, and pattern lines at the end of the game."""

from __future__ import annotations

import azul_rules as az
from azul_rules.core.bots import GreedyBot
from tests.builders import count_all_tiles


def _rounds(seed: int) -> list[tuple[az.GameState, az.Move, az.GameState]]:
    """Every round-ending take of a seeded greedy game: (before, take, after)."""
    state = az.new_game(2, seed=seed)
    bot = GreedyBot()
    found: list[tuple[az.GameState, az.Move, az.GameState]] = []
    while not state.is_over:
        move = bot.choose(state)
        after = state.apply(move)
        if after.round != state.round or after.is_over:
            found.append((state, move, after))
        state = after
    return found


def test_p7_the_offer_ends_when_no_tile_is_left() -> None:
    """P7: the last take empties the last source; the state before it still had tiles."""
    for before, move, after in _rounds(3):
        assert isinstance(move, az.Take)
        left = [len(f) for f in before.factories] + [len(before.center)]
        assert sum(1 for n in left if n) == 1
        source = before.center if move.source == az.CENTER else before.factories[move.source]
        assert set(source) == {move.color}
        assert after.phase in (az.Phase.FACTORY_OFFER, az.Phase.GAME_OVER)


def test_r1_a_new_round_when_no_wall_row_is_complete() -> None:
    """R1: each round that completes no row is followed by a new round; the one that does
    ends the game (E1)."""
    rounds = _rounds(5)
    for _, _, after in rounds[:-1]:
        assert after.phase is az.Phase.FACTORY_OFFER and not after.is_over
        assert not any(b.has_complete_row() for b in after.players)
        assert any(after.factories)
    last = rounds[-1][2]
    assert last.is_over and any(b.has_complete_row() for b in last.players)


def test_r3_pattern_line_tiles_stay_out_of_the_bag_and_lid() -> None:
    """R3, W2: incomplete lines keep their tiles into the next round; the 100 tiles
    still add up (S3)."""
    kept = 0
    for before, move, after in _rounds(8)[:-1]:
        ended = before.apply(move)
        for player, board in enumerate(ended.players):
            if player == before.current_player:
                continue  # the round's last take may have changed this board's lines
            old = before.players[player].pattern_lines
            for line, new_line in zip(old, board.pattern_lines, strict=True):
                if line.color is not None and line.count < line.capacity:
                    assert (new_line.color, new_line.count) == (line.color, line.count)
                    kept += line.count
        assert count_all_tiles(after) == dict.fromkeys(az.Color, 20)
    assert kept > 0


def test_e3_pattern_line_tiles_score_nothing_at_the_end() -> None:
    """E3, E2: the final score is the last tiling's score plus the bonuses, whatever
    still lies in the pattern lines."""
    from azul_rules.adjudication.scoresheet import _replay

    record = az.GameRecord.of_game(_moves(11), players=2, seed=11)
    rounds, final, _, _ = _replay(record)
    assert final.outcome is not None
    waiting = sum(line.count for b in final.players for line in b.pattern_lines)
    assert waiting > 0
    for player, board in enumerate(final.players):
        bonus = az.end_bonuses(board.wall).points
        assert final.outcome.scores[player] == rounds[-1].after[player].score + bonus


def _moves(seed: int) -> list[az.Move]:
    state = az.new_game(2, seed=seed)
    bot = GreedyBot()
    moves: list[az.Move] = []
    while not state.is_over:
        move = bot.choose(state)
        moves.append(move)
        state = state.apply(move)
    return moves
