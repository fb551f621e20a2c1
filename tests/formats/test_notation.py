"""The position notation (docs/notation.md): one line, everything but ``last_scoring``."""

from __future__ import annotations

import random
import re
import string
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import testing as azt
from azul_rules.core.codes import StateProblem
from azul_rules.formats.notation import _GREY_ROWS, MAX_LENGTH, MAX_NOTATION

UNRESERVED = re.compile(r"[A-Za-z0-9._~-]*")


def without_history(state: az.GameState) -> az.GameState:
    """``state`` as a notation holds it: ``last_scoring`` is history."""
    return attrs.evolve(state, context=attrs.evolve(state.context, last_scoring=None))


def random_game(
    players: int, variant: str, seed: int, external: bool = False
) -> Iterator[az.GameState]:
    """Every position of a game played by random legal moves (external draws refilled
    with the bag's first tiles, as a table might)."""
    pick = random.Random(seed)
    if external:
        state = az.new_game(players, external_draws=True, first_player=0, variant=variant)
    else:
        state = az.new_game(players, seed=seed, variant=variant)
    while True:
        yield state
        if state.is_over or state.round > 30:
            return
        if state.phase is az.Phase.REFILL:
            state = state.apply(_refill(state, pick))
            continue
        state = state.apply(pick.choice(state.legal_moves()))


def _refill(state: az.GameState, pick: random.Random) -> az.Refill:
    pool = list(state.bag)
    pick.shuffle(pool)
    if len(pool) < 4 * len(state.factories):  # R2: the lid goes back into the bag
        rest = list(state.lid)
        pick.shuffle(rest)
        pool += rest
    factories = [tuple(pool[4 * i:4 * i + 4]) for i in range(len(state.factories))]
    return az.Refill(tuple(f for f in factories))


@given(azt.game_states())
@settings(max_examples=150)
def test_every_position_round_trips_and_fits_one_short_line(state: az.GameState) -> None:
    """S1-S7: every part but ``last_scoring`` comes back, in unreserved characters, within
    240 characters; the text of the result is the same text."""
    text = az.to_notation(state)
    assert len(text) <= MAX_LENGTH
    assert UNRESERVED.fullmatch(text)
    back = az.from_notation(text)
    assert back == without_history(state)
    assert back.last_scoring is None
    assert az.to_notation(back) == text


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["colored", "grey"])
def test_every_position_of_real_games_is_at_most_240_characters(
    players: int, variant: str
) -> None:
    """Every position of 60 random games a player count and wall (seeded and with a
    table's own draws), each phase included, round-trips within 240 characters."""
    longest = 0
    phases = set()
    for seed in range(60):
        for index, state in enumerate(random_game(players, variant, seed, external=seed % 4 == 0)):
            text = az.to_notation(state)
            longest = max(longest, len(text))
            phases.add(state.phase)
            if index % 7 == 0 or state.is_over:
                assert az.from_notation(text) == without_history(state)
    assert longest <= MAX_LENGTH
    assert {az.Phase.FACTORY_OFFER, az.Phase.GAME_OVER, az.Phase.REFILL} <= phases
    if variant == "grey":
        assert az.Phase.WALL_TILING in phases


def test_a_new_game_is_written_as_the_docs_say() -> None:
    """The example of docs/notation.md: a 2-player game of seed 7 (S1-S7)."""
    state = az.new_game(2, seed=7)
    text = az.to_notation(state)
    assert text == (
        "c2f1.110_b2yk.brw2.y2rk.rw3.byw2._b16y16r17k18w13_b54cda58fbbee885"
        "_0.00000.00000._0.00000.00000."
    )
    assert az.from_notation(text) == state


def test_external_draws_are_written_x_and_the_lid_is_what_is_nowhere_else() -> None:
    """S7 with external draws: no generator; R2: the lid is not written, and comes back
    as the tiles of each colour that lie nowhere else (20 a colour, S3)."""
    state = az.new_game(3, external_draws=True, first_player=2)
    text = az.to_notation(state)
    assert text.split("_")[:4] == ["c3r1.330", "......." , "b20y20r20k20w20", "x"]
    assert az.from_notation(text) == state
    played = next(s for s in random_game(2, "colored", 3) if s.round == 3)
    back = az.from_notation(az.to_notation(played))
    assert back.lid == played.lid and len(back.lid) > 0


def test_a_grey_wall_row_is_its_index_among_the_rows_v2_allows() -> None:
    """V2: a grey row holds each colour at most once; its code is its place among the
    1,546 such rows in base-6 order, as two base-62 digits."""
    assert len(_GREY_ROWS) == 1546 and _GREY_ROWS[0] == (0, 0, 0, 0, 0)
    assert _GREY_ROWS[1] == (0, 0, 0, 0, 1) and _GREY_ROWS[-1] == (5, 4, 3, 2, 1)
    assert list(_GREY_ROWS) == sorted(_GREY_ROWS)
    played = next(s for s in random_game(2, "grey", 5) if s.round == 4)
    digits = string.digits + string.ascii_uppercase + string.ascii_lowercase
    for seat, board in enumerate(played.players):
        cells = [tuple(0 if t is None else list(az.Color).index(t) + 1 for t in row)
                 for row in board.wall]  # fmt: skip
        codes = [_GREY_ROWS.index(row) for row in cells]
        written = az.to_notation(played).split("_")[4 + seat].split(".")[2]
        assert written == "".join(digits[c // 62] + digits[c % 62] for c in codes)
        assert any(codes)
    assert az.from_notation(az.to_notation(played)) == without_history(played)


@pytest.mark.parametrize(
    ("change", "where", "expected"),
    [
        (lambda t: "", 1, "expected the variant: c (coloured wall) or g (grey)"),
        (lambda t: "q" + t[1:], 1, "expected the variant"),
        (lambda t: t[0] + "5" + t[2:], 2, "expected the number of players: 2, 3 or 4"),
        (lambda t: t[:2] + "z" + t[3:], 3, "expected the phase: f, w, r or e"),
        (lambda t: t.replace("f1.", "f01.", 1), 4, "expected the round"),
        (lambda t: t.replace(".110_", ".310_", 1), 6, "the player to move: a player, 1 to 2"),
        (lambda t: t.replace(".110_", ".113_", 1), 8, "expected the marker's holder"),
        (lambda t: t.replace("b2yk.", "yb2k.", 1), 11, "the colours of factory 1 once each"),
        (lambda t: t.replace("_b16", "_b21", 1), 36, "a count of the bag's tiles: 2 to 20"),
        (lambda t: t.replace("_b54cda58fbbee885", "_B54", 1), 51, "expected the generator"),
        (lambda t: t.replace("_0.00000.00000.", "_0.00300.00000.", 1), 73,
         "pattern line 3"),
        (lambda t: t.replace("_0.00000.00000.", "_0.0006r.00000.", 1), 73,
         "player 1's pattern line 4: at most 4 tiles"),
        (lambda t: t.replace("_0.00000.00000.", "_0.00000.0000w.", 1), 80,
         "player 1's wall row 5: a digit 0-9 or a-v"),
        (lambda t: t + "bbbbbbbb", 104, "player 2's floor line: it has 7 spaces (F1)"),
        (lambda t: t + "_", 97, "the end of the notation"),
    ],
)
def test_a_malformed_notation_names_its_character_and_what_was_expected(
    change: Callable[[str], str], where: int, expected: str
) -> None:
    text = change(az.to_notation(az.new_game(2, seed=7)))
    with pytest.raises(az.FormatError) as raised:
        az.from_notation(text)
    message = str(raised.value)
    assert message.startswith(f"notation, character {where}: ")
    assert expected in message
    assert raised.value.errors[0][0] == f"character {where}"


def test_a_position_that_cannot_exist_is_an_invalid_state_error_with_every_problem() -> None:
    """S3 (21 reds), and a line of a colour its wall row holds (P3): both problems."""
    text = az.to_notation(az.new_game(2, seed=7))
    boards = text.split("_")
    boards[1] = boards[1].replace("y2rk", "y2r3k", 1)  # factory 3 overfull (S2), reds
    boards[4] = "0.1b0000.g0000."  # player 1: blue on row 1's line and wall (P3)
    with pytest.raises(az.InvalidStateError) as raised:
        az.from_notation("_".join(boards))
    codes = {p.code for p in raised.value.problems}
    assert {StateProblem.FACTORY_OVERFULL, StateProblem.TILE_COUNT,
            StateProblem.LINE_COLOR_ON_WALL} <= codes  # fmt: skip


def test_a_notation_is_read_wherever_a_json_position_is() -> None:
    """``from_json``/``from_dict`` take a string as a notation (the web's ``"state"``)."""
    state = az.new_game(4, seed=2, variant="grey")
    text = az.to_notation(state)
    assert az.from_dict(text, az.GameState) == state
    assert az.from_json(f'"{text}"', az.GameState) == state
    with pytest.raises(az.FormatError, match="character 1"):
        az.from_dict("nonsense", az.GameState)


def test_wrong_types_and_oversized_texts_are_refused_at_once() -> None:
    with pytest.raises(az.FormatError, match="a notation is a str"):
        az.from_notation(b"c2f1")  # type: ignore[arg-type]
    with pytest.raises(az.FormatError, match=f"at most {MAX_NOTATION} characters"):
        az.from_notation("c" * (MAX_NOTATION + 1))
    with pytest.raises(TypeError, match="to_notation takes a GameState"):
        az.to_notation("c2f1")  # type: ignore[arg-type]


@given(st.data())
@settings(max_examples=300)
def test_any_text_gets_a_verdict_or_a_format_error(data: st.DataObject) -> None:
    """Fuzz: mutations of real notations and random texts end in a state, a
    ``FormatError`` or an ``InvalidStateError``; never another exception."""
    base = az.to_notation(data.draw(azt.game_states()))
    alphabet = st.sampled_from(string.ascii_letters + string.digits + "._~-")
    position = data.draw(st.integers(0, len(base)))
    inserted = data.draw(st.text(alphabet, max_size=4))
    cut = data.draw(st.integers(0, 4))
    text = base[:position] + inserted + base[position + cut:]
    if data.draw(st.booleans()):
        text = data.draw(st.text(max_size=300))
    try:
        state = az.from_notation(text)
    except (az.FormatError, az.InvalidStateError):
        return
    assert az.to_notation(state) == text


def test_cli_show_and_check_take_a_notation_in_place_of_a_file(tmp_path: Path) -> None:
    """``azul-rules show|check`` read a notation argument (T1 for the verdict)."""
    text = az.to_notation(az.new_game(2, seed=7))
    run = [sys.executable, "-m", "azul_rules"]
    shown = subprocess.run([*run, "show", text], capture_output=True, text=True, check=False,
                           cwd=tmp_path)  # fmt: skip
    assert shown.returncode == 0 and "factory 1: B B Y K" in shown.stdout
    legal = subprocess.run([*run, "check", text, "1B1"], capture_output=True, text=True,
                           check=False, cwd=tmp_path)  # fmt: skip
    assert (legal.returncode, legal.stdout.strip()) == (0, "legal: 1B1")
    illegal = subprocess.run([*run, "check", text, "1R1"], capture_output=True, text=True,
                             check=False, cwd=tmp_path)  # fmt: skip
    assert illegal.returncode == 1 and "COLOR_NOT_IN_SOURCE" in illegal.stdout
    bad = subprocess.run([*run, "show", text.replace("b16", "b1", 1)], capture_output=True,
                         text=True, check=False, cwd=tmp_path)  # fmt: skip
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "azul-rules: STATE: unreadable at character 36: expected a count of the bag's "
        "tiles: 2 to 20 (1 is not written), found '1'"
    )
    missing = subprocess.run([*run, "show", "game.json"], capture_output=True, text=True,
                             check=False, cwd=tmp_path)  # fmt: skip
    assert missing.returncode == 2 and "No such file" in missing.stderr


def test_the_web_judge_takes_a_notation_as_its_state() -> None:
    """``POST /api/v1/check`` with ``"state": "<notation>"``; a bad one is a 400 naming
    the character."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from azul_rules.web import create_app

    client = TestClient(create_app())
    text = az.to_notation(az.new_game(2, seed=7))
    answer = client.post("/api/v1/check", json={"state": text, "move": "1B1"})
    assert answer.status_code == 200 and answer.json()["ok"] is True
    refused = client.post("/api/v1/check", json={"state": text[:-3] + "zz", "move": "1B1"})
    assert refused.status_code == 400
    error = refused.json()["errors"][0]
    assert error["path"] == "$.state (character 94)"
    assert error["problem"].startswith("expected player 2's wall row 4")
