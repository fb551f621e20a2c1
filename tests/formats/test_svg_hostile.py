"""Pictures against odd input, from a documentation pass: ``board()`` given records
built by hand (``Result``, ``Violation``, ``RoundScoring`` whose fields are not the
referee's) raises the documented ``FormatError`` instead of a ``KeyError`` or an
``AttributeError``; numbers past 4,300 digits are drawn, not a ``ValueError`` from
Python's int-to-text limit; ``replay --svg-dir`` writes its pictures one at a time; and
``-`` is refused where a picture or a record is written (a file named ``-`` was made)."""

from __future__ import annotations

import os
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.cli import main
from azul_rules.core.messages import TEMPLATES
from azul_rules.svg import board
from azul_rules.svg.game import iter_record_pictures, record_pictures
from tests.pictures import elements, parse

E = az.ErrorCode
HUGE = 10**5000  # past Python's 4,300 digits of int-to-text
STATE = az.new_game(2, seed=1)
POSITION = "examples/round-2-position.json"


def _violation(code: az.ErrorCode, **params: object) -> az.Violation:
    return az.Violation(code, "T2", tuple(params.items()))


@pytest.mark.parametrize(
    "result",
    [
        az.Result((az.Violation(E.PARTIAL_TAKE, "T2"),)),  # no params: the message needs them
        az.Result((_violation(E.SPLIT_LOT, lines=4),)),  # lines not a tuple
        az.Result((_violation(E.PARTIAL_TAKE, source="zz", color=5, count=None),)),
        az.Result((az.Violation(E.GAME_OVER, "E1", 5),)),  # type: ignore[arg-type]
        az.Result(("not a violation",)),  # type: ignore[arg-type]
        az.Result(None),  # type: ignore[arg-type]
        az.Result((az.Violation("GAME_OVER", "E1"),)),  # type: ignore[arg-type]
    ],
)
def test_a_hand_built_result_that_cannot_be_drawn_is_a_format_error(result: az.Result) -> None:
    """Was a ``KeyError`` ('count'), an ``AssertionError``, ``AttributeError`` or
    ``TypeError`` from the message catalogue; alone and beside a move."""
    with pytest.raises(az.FormatError, match="highlight: "):
        board(STATE, highlight=result)
    with pytest.raises(az.FormatError, match="highlight: "):
        board(STATE, highlight=(az.Take(0, az.Color.RED, 1), result), lang="fr")


def _tiling(**changes: object) -> az.PlayerTiling:
    parts: dict[str, object] = dict(
        player=0, score_before=0, placements=(), floor_penalty=0, score_after=1
    )
    parts.update(changes)
    return az.PlayerTiling(**parts)  # type: ignore[arg-type]


_ODD = az.WallPlacement(row="a", column=None, color="red", horizontal=1, vertical=1, points=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("scoring", "named"),
    [
        (az.RoundScoring(round=1, players="xx", game_over=False), "players"),  # type: ignore[arg-type]
        (az.RoundScoring(round=1, players=None, game_over=False), "players"),  # type: ignore[arg-type]
        (az.RoundScoring(round="1", players=(), game_over=False), "round"),  # type: ignore[arg-type]
        (az.RoundScoring(round=1, players=(5,), game_over=False), r"players\[0\]"),  # type: ignore[arg-type]
        (az.RoundScoring(1, (_tiling(bonuses=5),), False), r"players\[0\]\.bonuses"),
        (az.RoundScoring(1, (_tiling(score_before=None),), False), r"players\[0\]\.score_before"),
        (az.RoundScoring(1, (_tiling(placements=(_ODD,)),), False), r"players\[0\]\.placements"),
    ],
)
def test_a_hand_built_round_scoring_of_other_types_is_a_format_error(
    scoring: az.RoundScoring, named: str
) -> None:
    """W1-W4's record of a tiling, built by hand with fields of other types: was an
    ``AttributeError`` ('bonuses') or ``TypeError``; now named."""
    with pytest.raises(az.FormatError, match=f"RoundScoring's {named}"):
        board(STATE, highlight=scoring)


def test_records_of_another_position_are_still_drawn_where_they_fit() -> None:
    """A verdict or a tiling of the right types but of another table marks what exists
    on this one and nothing else (docs/pictures.md), huge indices included."""
    placed = az.WallPlacement(row=HUGE, column=-1, color=az.Color.RED, horizontal=1,
                              vertical=1, points=1)  # fmt: skip
    tilings = tuple(_tiling(player=p, placements=(placed,)) for p in (0, 3, HUGE))
    assert board(STATE, highlight=az.RoundScoring(round=2, players=tilings, game_over=False))
    far = az.Violation.of(E.SPACE_OCCUPIED, "V1", player=9, row=HUGE, column=0, color=az.Color.RED)
    root = parse(board(STATE, highlight=az.Result((far,))))
    assert not elements(root, "highlight", "offending")


def _with_score(score: int) -> az.GameState:
    board0 = STATE.players[0]
    huge = az.PlayerBoard(score=score, pattern_lines=board0.pattern_lines, wall=board0.wall,
                          floor=board0.floor)  # fmt: skip
    return STATE.replace(players=(huge, STATE.players[1]))


@pytest.mark.parametrize(
    ("state", "highlight"),
    [
        (_with_score(HUGE), None),
        (STATE.replace(round=HUGE), None),
        (STATE, az.Take(HUGE, az.Color.RED, 1)),
        (STATE, az.Take(0, az.Color.RED, HUGE)),
        (STATE, az.TableTake(HUGE, az.Color.RED, 2, {0: 2})),
        (STATE, az.TableTake(0, az.Color.RED, 1, {HUGE: 1})),
        (STATE, az.PlaceTile(HUGE, HUGE)),
        (STATE, az.Take(0, az.Color.RED, 1, player=HUGE)),
    ],
)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_numbers_past_4300_digits_are_drawn_as_such(
    state: az.GameState, highlight: az.Move | None, lang: str
) -> None:
    """Was ``ValueError: Exceeds the limit (4300 digits) for integer string conversion``
    (a score grown past it is reachable: docs/cli.md, "Failures"), or an ``OverflowError``
    for a factory number so large its angle on the ring has no float."""
    picture = board(state, highlight=highlight, lang=lang)
    assert ("more than 4300 digits" if lang == "en" else "plus de 4300 chiffres") in picture


_NAMES = sorted({field for langs in TEMPLATES.values() for text in langs.values()
                 for _, field, _, _ in string.Formatter().parse(text) if field})  # fmt: skip
_VALUES = st.sampled_from([0, 1, 4, 5, -1, 99, HUGE, True, None, "zz", az.Color.RED, az.CENTER,
                           az.FLOOR, az.MARKER, (0, 1), (7,), (az.Color.RED, "x"), {"a": 1},
                           1.5, [az.Color.RED]])  # fmt: skip


@given(
    code=st.sampled_from(list(E)),
    params=st.dictionaries(st.sampled_from([*_NAMES, "reason"]), _VALUES, max_size=8),
    lang=st.sampled_from(["en", "fr"]),
)
def test_any_hand_built_violation_is_drawn_or_refused_as_a_format_error(
    code: az.ErrorCode, params: dict[str, object], lang: str
) -> None:
    """Every code with params of any kind: a picture, or ``FormatError``, nothing else."""
    violation = az.Violation(code, "T2", tuple(params.items()))
    try:
        picture = board(STATE, highlight=(az.Take(0, az.Color.RED, 1), az.Result((violation,))),
                        lang=lang)  # fmt: skip
    except az.FormatError:
        return
    assert picture.startswith("<svg")


def test_record_pictures_come_one_at_a_time() -> None:
    """``iter_record_pictures`` draws each picture when asked for (``--svg-dir`` of a
    10,000-move record held its 2,269 pictures, 228 MB, before writing one), and gives
    what ``record_pictures`` lists; its arguments are checked at the call."""
    record = az.GameRecord.from_json(Path("examples/recorded-game.json").read_text("utf-8"))
    pictures = iter_record_pictures(record)
    assert not isinstance(pictures, list)
    first = next(pictures)
    assert first[0] == "round-01-start.svg"
    assert [first, *pictures] == record_pictures(record)
    with pytest.raises(ValueError, match="unknown language"):
        iter_record_pictures(record, lang="de")
    with pytest.raises(az.FormatError, match="GameRecord"):
        iter_record_pictures({})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "args",
    [
        ["show", POSITION, "--svg", "-"],
        ["check", POSITION, "2B3", "--svg", "-"],
        ["replay", "examples/recorded-game.json", "--svg-dir", "-"],
        ["play", "--seed", "1", "--record", "-"],
    ],
)
def test_dash_is_refused_where_a_file_is_written(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """``-`` is standard input for every input file; as an output it made a file (or a
    folder) named ``-`` in the current folder.  Now one line, exit 2, nothing written."""
    root = Path.cwd()
    monkeypatch.chdir(tmp_path)
    absolute = [str(root / a) if a.startswith(("examples/",)) else a for a in args]
    assert main(absolute) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{args[-2]} -: '-' stands for standard input" in err
    assert not os.path.lexists(tmp_path / "-")
