"""Impossible positions: state.problems() and InvalidStateError, one test per code."""

from __future__ import annotations

from typing import Any

import pytest

import azul_rules as az
from azul_rules import StateProblem as P


def doc() -> dict[str, Any]:
    """A valid round-1 position, as data, to break in one place."""
    return az.to_dict(az.new_game(2, seed=4))


def problems(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(data, az.GameState)
    assert isinstance(caught.value, ValueError)
    return [(p.code.value, p.rule, p.path) for p in caught.value.problems]


def move_bag_tile(data: dict[str, Any], color: str) -> None:
    data["bag"][color] -= 1


def test_a_valid_position_has_no_problem() -> None:
    assert az.new_game(3, seed=1).problems() == ()
    assert az.from_dict(doc(), az.GameState) == az.new_game(2, seed=4)


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
    d["factories"][0] = d["factories"][0] + [d["factories"][1].pop()]
    assert problems(d) == [("FACTORY_OVERFULL", "R2", "$.factories[0]")]
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
    assert problems(d) == [
        ("PHASE_MISMATCH", "G1", "$.phase"),
        ("PHASE_MISMATCH", "R2", "$.rng_state"),  # a seeded game never waits for a refill
    ]
    d = doc()
    d["phase"] = "wall_tiling"
    assert [c for c, _, _ in problems(d)] == ["PHASE_MISMATCH", "PHASE_MISMATCH"]
    d = doc()
    for factory in d["factories"]:
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
            "la ligne de préparation 2 contient 3 carreaux : elle n'a que 2 places",
        ),
        (P.LINE_MIXED_COLORS, "pattern line 3 mixes colours",
         "la ligne de préparation 3 mélange plusieurs couleurs"),
        (
            P.TILE_COUNT,
            "21 blue tiles in all: the game has 20 of each colour",
            "21 carreaux de couleur bleue en tout : le jeu en compte 20 de chaque couleur",
        ),
        (
            P.TILE_COUNT,
            "23 red tiles in all: the game has 20 of each colour",
            "23 carreaux de couleur rouge en tout : le jeu en compte 20 de chaque couleur",
        ),
        (
            P.TILE_COUNT,
            "21 white tiles in all: the game has 20 of each colour",
            "21 carreaux de couleur blanche en tout : le jeu en compte 20 de chaque couleur",
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
    assert [p.message_in("fr") for p in found(d)] == [
        "des carreaux restent dans les fabriques ou au centre pendant la phase préparation "
        "de la manche",
        "une partie avec graine remplit elle-même ses fabriques : elle n'attend jamais de "
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
    assert problem.message_in("fr") == "score -4 < 0 : un score n'est jamais négatif"
