"""Impossible positions: state.problems() and InvalidStateError, one test per code."""

from __future__ import annotations

import random
from typing import Any

import pytest

import azul_rules as az
from azul_rules import StateProblem as P
from azul_rules.core.scoring import most_points


def base() -> az.GameState:
    """A valid position to break in one place: the first take of a round played
    (factory 1's two whites to pattern line 5, its blue and yellow to the centre),
    player 2 to move; in round 2, so that no rule of round 1 (S6, F2) is in the way."""
    return az.new_game(2, seed=4).apply(az.parse_move("1W5")).replace(round=2)


def doc() -> dict[str, Any]:
    """:func:`base` as data."""
    return az.to_dict(base())


def problems(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    assert isinstance(caught.value, ValueError)
    return [(p.code.value, p.rule, p.path) for p in caught.value.problems]


def move_bag_tile(data: dict[str, Any], color: str) -> None:
    data["bag"][color] -= 1


def test_a_valid_position_has_no_problem() -> None:
    assert az.new_game(3, seed=1).problems() == ()
    assert base().problems() == ()
    assert az.from_dict(doc(), az.GameState) == base()


def test_tile_count() -> None:
    d = doc()
    d["bag"]["red"] += 1
    assert problems(d) == [("TILE_COUNT", "S3", "$")]


def test_line_over_capacity_and_mixed_colours() -> None:
    d = doc()
    d["players"][0]["pattern_lines"][1] = ["red", "red", "red"]
    d["players"][0]["pattern_lines"][2] = ["blue", "white"]
    for color in ["red", "red", "red", "blue", "white"]:
        move_bag_tile(d, color)
    assert problems(d) == [
        ("LINE_OVER_CAPACITY", "S4", "$.players[0].pattern_lines[1]"),
        ("LINE_MIXED_COLORS", "P2", "$.players[0].pattern_lines[2]"),
    ]


def test_line_colour_already_on_its_wall_row() -> None:
    d = doc()
    d["round"] = 2
    d["players"][1]["wall"][0][0] = "blue"
    d["players"][1]["pattern_lines"][0] = ["blue"]
    move_bag_tile(d, "blue")
    move_bag_tile(d, "blue")
    assert problems(d) == [("LINE_COLOR_ON_WALL", "P3", "$.players[1].pattern_lines[0]")]


def test_coloured_wall_tile_off_its_space_and_repeats() -> None:
    d = doc()
    d["round"] = 3  # two tilings behind: two tiles in a row are not too many (W1)
    d["players"][0]["wall"][0][1] = "blue"  # the yellow space
    d["players"][0]["wall"][0][0] = "blue"
    move_bag_tile(d, "blue")
    move_bag_tile(d, "blue")
    codes = [c for c, _, _ in problems(d)]
    assert codes == ["ROW_REPEATED_COLOR", "WALL_TILE_OFF_COLOR"]


def test_grey_wall_colour_twice_in_a_column() -> None:
    d = doc()
    d["variant"] = "grey"
    d["round"] = 3
    d["players"][0]["wall"][0][2] = "red"
    d["players"][0]["wall"][3][2] = "red"
    move_bag_tile(d, "red")
    move_bag_tile(d, "red")
    assert problems(d) == [("COLUMN_REPEATED_COLOR", "V2", "$.players[0].wall")]


def test_floor_too_long_and_two_markers() -> None:
    d = doc()
    d["players"][0]["floor"] = ["marker"] + ["black"] * 7
    d["players"][1]["floor"] = ["marker"]
    d["marker_holder"] = 0
    for _ in range(7):
        move_bag_tile(d, "black")
    assert problems(d) == [
        ("FLOOR_TOO_LONG", "F1", "$.players[0].floor"),
        ("MARKER_COUNT", "T3", "$.players"),
    ]


def test_marker_on_a_floor_while_said_to_be_in_the_centre() -> None:
    d = doc()
    d["players"][1]["floor"] = ["marker"]
    assert problems(d) == [("MARKER_COUNT", "T3", "$.players[1].floor")]


def test_marker_holder_without_the_marker() -> None:
    """F3, F4: the holder's floor must show the marker unless it was full."""
    d = doc()
    d["marker_holder"] = 1
    assert problems(d) == [("MARKER_COUNT", "F3", "$.players[1].floor")]
    d["players"][1]["floor"] = ["white"] * 7
    for _ in range(7):
        move_bag_tile(d, "white")
    assert az.from_dict(d, az.GameState).marker_holder == 1  # F4: a full floor


def test_players_out_of_range_and_negative_score() -> None:
    d = doc()
    d["current_player"] = 2
    d["start_player"] = 5
    d["players"][0]["score"] = -1
    assert problems(d) == [  # who is at the table first: the referee needs it
        ("PLAYER_OUT_OF_RANGE", "G2", "$.current_player"),
        ("PLAYER_OUT_OF_RANGE", "G2", "$.start_player"),
        ("NEGATIVE_SCORE", "W4", "$.players[0].score"),
    ]


def test_factory_counts_and_overfull_factories() -> None:
    d = doc()
    d["factories"][1].append("red")
    move_bag_tile(d, "red")
    assert problems(d) == [("FACTORY_OVERFULL", "R2", "$.factories[1]")]
    d = doc()
    d["factories"] = d["factories"][:4]
    for color in az.to_dict(az.new_game(2, seed=4))["factories"][4]:
        d["bag"][color] = d["bag"].get(color, 0) + 1
    assert problems(d) == [("FACTORY_COUNT", "S2", "$.factories")]


def test_player_count() -> None:
    d = doc()
    d["players"] = d["players"][:1]
    assert ("PLAYER_COUNT", "S1", "$.players") in problems(d)


def test_phase_mismatches() -> None:
    d = doc()
    d["phase"] = "refill"
    d["current_player"] = d["start_player"]  # who fills the factories (R4)
    assert problems(d) == [
        ("PHASE_MISMATCH", "G1", "$.phase"),
        ("PHASE_MISMATCH", "R2", "$.rng_state"),  # a seeded game never waits for a refill
    ]
    d = doc()
    d["phase"] = "wall_tiling"
    assert [c for c, _, _ in problems(d)] == ["PHASE_MISMATCH", "PHASE_MISMATCH"]
    d = doc()
    for factory in [*d["factories"], d["center"]]:
        for color in factory:
            d["lid"][color] = d["lid"].get(color, 0) + 1
        factory.clear()
    assert problems(d) == [("PHASE_MISMATCH", "P7", "$.phase")]


def test_a_complete_row_during_the_offer() -> None:
    d = doc()
    d["round"] = 6  # five tilings behind: one tile a row each time (W1)
    d["players"][0]["wall"][0] = ["blue", "yellow", "red", "black", "white"]
    for color in ["blue", "yellow", "red", "black", "white"]:
        move_bag_tile(d, color)
    assert problems(d) == [("GAME_SHOULD_HAVE_ENDED", "E1", "$.players")]


def test_problem_codes_are_stable_strings() -> None:
    for code in P:
        assert code.value == code.name


# -- the messages, in English and French ---------------------------------------------------


def found(data: dict[str, Any]) -> tuple[az.Problem, ...]:
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    return caught.value.problems


def test_every_problem_code_is_worded_in_english_and_french() -> None:
    """Each StateProblem has a template in both languages, with the same figures."""
    from string import Formatter

    from azul_rules.core.messages import PROBLEM_TEMPLATES

    assert {key.split("/")[0] for key in PROBLEM_TEMPLATES} == {code.value for code in P}
    for key, texts in PROBLEM_TEMPLATES.items():
        assert set(texts) == {"en", "fr"}, key
        fields = [{f for _, f, _, _ in Formatter().parse(texts[lang]) if f} for lang in texts]
        assert fields[0] == fields[1], key
        assert texts["en"] != texts["fr"], key


def test_problems_in_french_s3_s4_p2() -> None:
    """S3, S4, P2 in both languages: a line over capacity, a mixed line, tiles not adding
    up (the problems found on the document itself, before the board is built)."""
    d = doc()
    d["players"][0]["pattern_lines"][1] = ["red", "red", "red"]
    d["players"][0]["pattern_lines"][2] = ["blue", "white"]
    assert [(p.code, p.message, p.message_in("fr")) for p in found(d)] == [
        (
            P.LINE_OVER_CAPACITY,
            "pattern line 2 holds 3 tiles: it has 2 spaces",
            "la ligne de préparation 2 contient 3 carreaux\u202f: elle n'a que 2 places",
        ),
        (P.LINE_MIXED_COLORS, "pattern line 3 mixes colours",
         "la ligne de préparation 3 mélange plusieurs couleurs"),
        (
            P.TILE_COUNT,
            "21 blue tiles in all: the game has 20 of each colour",
            "21 carreaux de couleur bleue en tout\u202f: le jeu en compte 20 de chaque couleur",
        ),
        (
            P.TILE_COUNT,
            "23 red tiles in all: the game has 20 of each colour",
            "23 carreaux de couleur rouge en tout\u202f: le jeu en compte 20 de chaque couleur",
        ),
        (
            P.TILE_COUNT,
            "21 white tiles in all: the game has 20 of each colour",
            "21 carreaux de couleur blanche en tout\u202f: le jeu en compte 20 de chaque couleur",
        ),
    ]  # fmt: skip


def test_problems_in_french_f3_g1_r2() -> None:
    """F3 (the holder's floor without the marker), G1 and R2 (a seeded game waiting for
    a refill, tiles still out): one wording each of MARKER_COUNT and PHASE_MISMATCH."""
    d = doc()
    d["marker_holder"] = 1
    (marker,) = found(d)
    assert marker.message_in("fr") == (
        "le joueur 2 détient le marqueur premier joueur, mais il n'est pas sur son plancher "
        "(seul un plancher plein le laisse dehors, F4)"
    )
    d = doc()
    d["phase"] = "refill"
    d["current_player"] = d["start_player"]
    assert [p.message_in("fr") for p in found(d)] == [
        "des carreaux restent dans les fabriques ou au centre pendant la phase préparation "
        "de la manche",
        "une partie avec graine remplit elle-même ses fabriques\u202f: elle n'attend jamais de "
        "remplissage (rng_state doit être null avec des tirages extérieurs)",
    ]
    d = doc()
    d["phase"] = "wall_tiling"
    assert found(d)[0].message == (
        "tiles lie in the factories or the centre during the wall tiling phase"
    )


def test_every_wording_differs_in_french_and_keeps_the_english_message() -> None:
    """G2, W4, S2, R2, P7, E1 ...: message_in("en") is the message; French is another text."""
    cases: list[az.Problem] = []
    for change in (
        {"current_player": 2, "start_player": 5},
        {"phase": "game_over"},
        {"round": 0},
    ):
        d = doc()
        d.update(change)
        try:
            az.from_dict(d, az.GameState)
        except az.InvalidStateError as error:
            cases.extend(error.problems)
        except az.FormatError:
            pass
    assert len(cases) >= 3
    for problem in cases:
        assert problem.params
        assert problem.message_in("en") == problem.message
        assert problem.message_in("fr") != problem.message


def test_a_problem_built_by_hand_has_its_english_message_only() -> None:
    problem = az.Problem(P.TILE_COUNT, "S3", "$", "19 red tiles")
    assert problem.message_in("fr") == "19 red tiles"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        problem.message_in("de")


def test_a_records_impossible_start_keeps_its_french_words() -> None:
    """W4 at $.initial_state: the record's paths move, the figures stay."""
    d = doc()
    d["players"][0]["score"] = -4
    record = {"format_version": 1, "initial_state": d, "moves": []}
    with pytest.raises(az.InvalidStateError) as caught:
        az.GameRecord.from_dict(record)
    (problem,) = caught.value.problems
    assert problem.path == "$.initial_state.players[0].score"
    assert problem.message_in("fr") == "score -4 < 0\u202f: un score n'est jamais négatif"


# -- what play cannot reach (issue 34): the end, the scores, the takes, round 1 ----------


def fresh() -> dict[str, Any]:
    """A round-1 position as dealt, as data: every factory full, nothing taken yet."""
    return az.to_dict(az.new_game(2, seed=4))


def finished(seed: int = 1) -> az.GameState:
    """A game played to its end by random moves (E1: a complete wall row)."""
    rnd = random.Random(seed)
    state = az.new_game(2, seed=seed)
    while not state.is_over:
        state = state.apply(rnd.choice(state.legal_moves()))
    return state


def test_e1_r6_r7_a_game_over_with_no_cause_cannot_exist() -> None:
    """E1, R6, R7: round 1, every tile in the bag, empty walls, the game said over: no
    complete row, 100 tiles left to deal, and on the grey wall every row can still be
    completed.  Nobody played; nobody won."""
    d = az.to_dict(az.new_game(2, external_draws=True, first_player=0))
    d["phase"] = "game_over"
    assert problems(d) == [("GAME_OVER_WITHOUT_CAUSE", "E1", "$.phase")]
    (problem,) = found(d)
    assert problem.message == (
        "the game is over, but no wall row is complete (E1) and 100 tiles are left in the "
        "bag and the lid to fill the factories (R6): nothing ended it"
    )
    d["variant"] = "grey"
    (problem,) = found(d)
    assert problem.message_in("fr") == (
        "la partie est finie, mais aucune rangée de mur n'est complète (E1), 100 carreaux "
        "restent dans le sac et le couvercle pour remplir les fabriques (R6), et une rangée "
        "de mur peut encore être complétée (R7)\u202f: rien ne l'a terminée"
    )


def test_r6_a_game_ended_by_an_empty_filling_is_possible() -> None:
    """R6: the bag and the lid empty after the tiling: nothing to deal, the game ends
    with no complete row, and the position read back is possible."""
    from tests.core.test_rounds import starved_table

    before = starved_table(bag="", lid="").replace(round=5)  # four tilings behind (W1)
    assert before.problems() == ()
    ended = before.apply(az.Take(az.CENTER, az.Color.RED, 3))
    assert ended.is_over and not any(b.has_complete_row() for b in ended.players)
    assert ended.problems() == ()
    assert az.from_json(az.to_json(ended), az.GameState) == ended


def test_e2_a_final_score_below_the_end_bonuses_cannot_exist() -> None:
    """E2, W4: the bonuses are added after the floor's clamp at 0, so a finished game's
    score is at least its bonuses: 0 or 1 with a complete row (2 points) cannot be."""
    ended = finished()
    d = az.to_dict(ended)
    del d["last_scoring"]
    winner = ended.outcome.winners[0] if ended.outcome else 0
    bonuses = az.end_bonuses(ended.players[winner].wall).points
    assert bonuses >= 2
    for score in (0, 1):
        d["players"][winner]["score"] = score
        assert problems(d) == [("SCORE_OUT_OF_REACH", "E2", f"$.players[{winner}].score")]
        (problem,) = found(d)
        assert problem.message == (
            f"player {winner + 1}'s final score is {score}, below their end bonuses of "
            f"{bonuses}: the bonuses are added after the floor, to a score of 0 or more"
        )
    d["players"][winner]["score"] = bonuses
    assert az.from_dict(d, az.GameState).players[winner].score == bonuses


def test_w3_e2_a_final_score_above_what_the_wall_and_its_bonuses_give_cannot_exist() -> None:
    """W3, E2: at the end, the most the wall's placements can have scored plus its
    bonuses is the ceiling."""
    ended = finished()
    d = az.to_dict(ended)
    del d["last_scoring"]
    wall = ended.players[0].wall
    most = most_points(wall) + az.end_bonuses(wall).points
    d["players"][0]["score"] = most
    az.from_dict(d, az.GameState)
    d["players"][0]["score"] = most + 1
    assert problems(d) == [("SCORE_OUT_OF_REACH", "E2", "$.players[0].score")]


def test_w3_a_round_1_score_before_any_tiling_cannot_exist() -> None:
    """W3: 50 points in round 1, the wall still empty: no tile has scored."""
    d = fresh()
    d["players"][1]["score"] = 50
    assert problems(d) == [("SCORE_OUT_OF_REACH", "W3", "$.players[1].score")]
    assert found(d)[0].message == (
        "player 2's score is 50, but their wall holds no tile: no point can have been scored"
    )


def test_w3_five_wall_tiles_have_scored_15_at_most() -> None:
    """W3: round 2, one tiling behind: five tiles (one a row, W1, in a column) have
    scored at most 1 + 2 + 3 + 4 + 5; 60 points cannot be, 15 can."""
    d = doc()
    for row in range(5):
        color = ["blue", "white", "black", "red", "yellow"][row]  # column 1 (S5)
        d["players"][0]["wall"][row][0] = color
        move_bag_tile(d, color)
    d["players"][0]["score"] = 60
    assert problems(d) == [("SCORE_OUT_OF_REACH", "W3", "$.players[0].score")]
    (problem,) = found(d)
    assert dict(problem.params)["most"] == 15
    assert problem.message == (
        "player 1's score is 60, but the 5 tiles on their wall can have scored 15 at most, "
        "in any order"
    )
    d["players"][0]["score"] = 15
    assert az.from_dict(d, az.GameState).players[0].score == 15


def test_t3_t2_r4_no_trace_of_a_take_while_every_factory_is_full() -> None:
    """T2, T3, R4, W1, W5: every factory still holds its tiles, so nobody has taken yet:
    the marker cannot be held, the centre holds nothing, no floor line holds a tile,
    no pattern line is complete, and the starting player is to move."""
    d = fresh()
    d["marker_holder"] = 1
    d["players"][1]["floor"] = ["marker"]
    assert problems(d) == [("NO_TAKE_YET", "T3", "$.marker_holder")]
    d = fresh()
    d["round"] = 2  # the bag's count aside (round 1, S6)
    d["center"] = ["red", "red"]
    d["players"][0]["floor"] = ["blue"]
    d["players"][1]["pattern_lines"][0] = ["white"]
    for color in ("red", "red", "blue", "white"):
        move_bag_tile(d, color)
    assert problems(d) == [
        ("NO_TAKE_YET", "T2", "$.center"),
        ("NO_TAKE_YET", "W5", "$.players[0].floor"),
        ("NO_TAKE_YET", "W1", "$.players[1].pattern_lines[0]"),
    ]
    d = fresh()
    d["current_player"] = 1
    assert problems(d) == [("TURN_OUT_OF_ORDER", "R4", "$.current_player")]
    assert found(d)[0].message == (
        "player 2 is to move, but every factory still holds its tiles, so nobody has taken "
        "any this round: player 1, who started it, takes first"
    )


def test_g2_the_empty_factories_give_whose_turn_it_is() -> None:
    """G2, T3: while the marker lies in the centre every take emptied a factory, one a
    turn: with two factories empty at two players, the starting player is to move."""
    state = az.new_game(2, seed=4)
    for move in ("1W5", "2W4"):
        state = state.apply(az.parse_move(move))
    assert state.current_player == state.start_player == 0
    d = az.to_dict(state)
    d["current_player"] = 1
    assert problems(d) == [("TURN_OUT_OF_ORDER", "G2", "$.current_player")]
    assert dict(found(d)[0].params) == {
        "reason": "factory_takes", "player": 1, "due": 0, "starter": 0, "taken": 2,
    }  # fmt: skip
    taken = state.apply(az.parse_move("CB1"))  # the marker leaves the centre: no more said
    d = az.to_dict(taken)
    d["current_player"] = 0
    assert az.from_dict(d, az.GameState).current_player == 0


def test_r4_a_refill_is_made_by_the_rounds_starting_player() -> None:
    d = az.to_dict(az.new_game(2, external_draws=True, first_player=0))
    d["current_player"] = 1
    assert problems(d) == [("TURN_OUT_OF_ORDER", "R4", "$.current_player")]


def test_r2_a_factory_holds_4_tiles_or_none_while_the_bag_holds_tiles() -> None:
    """R2, T2: filled with 4 while the bag had tiles, emptied by a take."""
    d = doc()
    d["bag"]["black"] = d["bag"].get("black", 0) + 1
    d["factories"][1] = d["factories"][1][:3]
    removed = az.to_dict(base())["factories"][1][3]
    d["bag"][removed] = d["bag"].get(removed, 0) + 1
    d["bag"]["black"] -= 1
    assert problems(d) == [("FACTORY_SHORT", "R2", "$.factories[1]")]
    assert found(d)[0].message == (
        "factory 2 holds 3 tiles while the bag holds 81: every factory was filled with 4, "
        "and a take empties it"
    )


def test_s6_r2_f2_round_1_tiles_from_nowhere() -> None:
    """S6, R2, F2: in round 1 the bag keeps 100 less 4 a factory until the next filling,
    and the lid gets tiles only from a full floor line."""
    d = fresh()
    d["players"][0]["pattern_lines"][2] = ["red", "red", "red"]  # complete, factories full
    for _ in range(3):
        move_bag_tile(d, "red")
    assert problems(d) == [
        ("NO_TAKE_YET", "W1", "$.players[0].pattern_lines[2]"),
        ("TILES_FROM_NOWHERE", "R2", "$.bag"),
    ]
    assert found(d)[1].message == (
        "in round 1 the bag holds 77 tiles, but the first filling leaves 80 there (100 less "
        "4 a factory) until the next one"
    )
    taken = az.to_dict(az.new_game(2, seed=4).apply(az.parse_move("1W5")))
    taken["players"][0]["pattern_lines"][4] = []  # the two whites in the lid instead
    taken["lid"] = {"white": 2}
    assert problems(taken) == [("TILES_FROM_NOWHERE", "F2", "$.lid")]
    d = az.to_dict(az.new_game(2, external_draws=True, first_player=0))
    d["players"][0]["pattern_lines"][1] = ["blue"]  # before the first filling
    move_bag_tile(d, "blue")
    assert problems(d) == [("TILES_FROM_NOWHERE", "S6", "$.bag")]


def test_f2_tiles_in_the_lid_in_round_1_came_from_a_full_floor() -> None:
    """F2: a full floor line sends the rest to the lid, in round 1 too."""
    state = az.new_game(2, seed=7)
    for move in ["3KF", "1K5", "CYF", "2W3", "5YF", "4R4", "CWF"]:
        state = state.apply(az.parse_move(move))
    assert state.round == 1 and state.lid and len(state.players[0].floor) == 7
    assert state.problems() == ()


def test_w1_a_position_read_without_its_round_is_not_a_first_round_when_it_cannot_be() -> None:
    """S6, F2: with its round left out, a position is put in the least round its walls
    allow, and in round 2 when it cannot be a first one."""
    taken = az.to_dict(az.new_game(2, seed=4).apply(az.parse_move("1W5")))
    del taken["round"]
    assert az.from_dict(taken, az.GameState).round == 1
    taken["players"][0]["pattern_lines"][4] = []
    taken["lid"] = {"white": 2}
    assert az.from_dict(taken, az.GameState).round == 2


def test_w3_most_points_is_at_least_every_order_of_placement() -> None:
    """W3: for walls of up to 7 tiles, the bound is at least the points of every order
    the tiles can be placed in (all of them tried), and meets the best on lines."""
    from itertools import permutations

    from azul_rules.core.scoring import runs

    def best(cells: list[tuple[int, int]]) -> int:
        top = 0
        for order in permutations(cells):
            rows: list[list[az.Color | None]] = [[None] * 5 for _ in range(5)]
            total = 0
            for r, c in order:
                rows[r][c] = az.Color.BLUE
                total += runs(rows, r, c)[2]
            top = max(top, total)
        return top

    rnd = random.Random(0)
    for _ in range(120):
        cells = rnd.sample([(r, c) for r in range(5) for c in range(5)], rnd.randint(0, 6))
        wall = tuple(tuple(az.Color.BLUE if (r, c) in cells else None for c in range(5))
                     for r in range(5))  # fmt: skip
        assert best(cells) <= most_points(wall) <= best(cells) + 1, cells
    row = tuple(tuple(az.Color.BLUE if r == 2 else None for _ in range(5)) for r in range(5))
    assert most_points(row) == best([(2, c) for c in range(5)]) == 15
    assert most_points(tuple((az.Color.BLUE,) * 5 for _ in range(5))) == 145
