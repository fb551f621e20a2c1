"""The command line for the table's questions (issue 37): ``moves`` (each legal move with
its effect: P5, P6, F1), ``convert`` (JSON, notation, the page's link), ``check --json``'s
``notation`` and ``effect`` as the web gives them, ``show`` reading what ``audit`` reads,
``--svg`` on the audits, and a POSITION typed without its bag and lid (S3) read as every
other tile and said so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import azul_rules as az
from azul_rules.cli import main

EXAMPLES = Path("examples")
POSITION = EXAMPLES / "round-2-position.json"
AUDIT = EXAMPLES / "audits" / "gap-counted"
SHEET = EXAMPLES / "audits" / "scoresheet-one-wrong-round"
NOTATION = "c2f2.122_.b3r.yrkw..k2w2.y2r_b14y13r16k14w15_3039_3.02y1b02k.g8010._2.1r02w00.80g00.m"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def without_unseen(tmp_path: Path) -> Path:
    """The round-2 example typed without its bag, its lid and its generator."""
    doc = json.loads(POSITION.read_text(encoding="utf-8"))
    for part in ("bag", "lid", "rng_state"):
        doc.pop(part, None)
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_p5_moves_lists_the_30_legal_moves_with_their_effects(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """P5, F1: the round-2 example has 30 legal moves; 2B3 puts 2 blues on line 3 and
    the third on the floor (-1); 2BF puts all 3 on the floor (-4)."""
    status, out, err = run(capsys, "moves", str(POSITION))
    lines = out.splitlines()
    assert (status, err, len(lines)) == (0, "", 31)
    assert lines[0] == "30 legal moves, player 1 to move:"
    assert lines[1] == "  2B3: 2 tiles to pattern line 3, 1 tile to the floor line (-1 point)"
    assert lines[3] == "  2BF: 3 tiles to the floor line (-4 points)"
    assert "1 carreau au plancher" in run(capsys, "moves", str(POSITION), "--lang", "fr")[1]


def test_p6_moves_json_gives_each_move_its_notation_json_and_effect(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """P6: ``--json`` is an object with ``moves``, each the move, its notation and its
    effect as the web's check answer gives it; a take from the centre brings the marker."""
    status, out, _ = run(capsys, "moves", str(POSITION), "--json")
    doc = json.loads(out)
    state = az.from_json(POSITION.read_text(encoding="utf-8"), az.GameState)
    assert status == 0 and doc["count"] == len(doc["moves"]) == len(state.legal_moves()) == 30
    assert doc["moves"][0] == {
        "move": {"type": "take", "source": 1, "color": "blue", "line": 2},
        "notation": "2B3",
        "effect": {"to_line": 2, "to_floor": 1, "floor_penalty": 1, "marker": False},
    }
    centre = [m for m in doc["moves"] if m["move"]["source"] == "center"]
    assert centre and all(m["effect"]["marker"] is False for m in centre)  # taken already


def test_s3_a_position_without_bag_and_lid_is_read_as_every_other_tile_and_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S3: the same table without its bag and lid: the same 30 moves, and one line on
    standard error saying how the unseen tiles were read (in every command)."""
    path = without_unseen(tmp_path)
    note = f"azul-rules: {path}: bag and lid not given: read as every other tile\n"
    status, out, err = run(capsys, "moves", str(path))
    assert (status, err) == (0, note) and out == run(capsys, "moves", str(POSITION))[1]
    for args in (["show", str(path)], ["check", str(path), "2B3"],
                 ["convert", str(path), "--to", "notation"]):  # fmt: skip
        assert run(capsys, *args)[::2] == (0, note), args
    french = run(capsys, "moves", str(path), "--lang", "fr")[2]
    assert french == (
        f"azul-rules: {path}\u202f: sac et couvercle non donnés\u202f: lus comme tous les "
        "autres carreaux\n"
    )


def test_s3_the_strict_reading_is_kept_for_a_complete_document(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """S3: a document giving its bag and lid is read as it is, with nothing said."""
    assert run(capsys, "convert", str(POSITION), "--to", "notation") == (0, NOTATION + "\n", "")


@pytest.mark.parametrize("source", [str(POSITION), NOTATION])
def test_s3_convert_round_trips_json_notation_and_link(
    source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """S3: convert to JSON and to the notation reads back as the same position; the
    link is the page's ``/?position=<notation>``, or from ``--base``."""
    state = az.from_notation(NOTATION)
    status, out, _ = run(capsys, "convert", source, "--to", "json")
    assert status == 0 and az.from_json(out, az.GameState) == state
    status, out, _ = run(capsys, "convert", source, "--to", "notation")
    assert status == 0 and az.from_notation(out.strip()) == state
    assert run(capsys, "convert", source, "--to", "link")[1] == f"/?position={NOTATION}\n"
    link = run(capsys, "convert", source, "--to", "link", "--base", "http://127.0.0.1:8000/")[1]
    assert link == f"http://127.0.0.1:8000/?position={NOTATION}\n"


def test_s3_convert_of_a_typed_table_gives_the_inferred_bag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S3: the table typed without bag and lid, converted to JSON: its bag holds the 72
    unseen tiles (the example's bag; its lid is empty), colour by colour."""
    out = run(capsys, "convert", str(without_unseen(tmp_path)), "--to", "json")[1]
    state = az.from_json(out, az.GameState)
    expected = az.from_json(POSITION.read_text(encoding="utf-8"), az.GameState)
    assert sorted(state.bag + state.lid) == sorted(expected.bag + expected.lid)
    assert state.lid == () and len(state.bag) == 72


def test_p5_check_json_gives_the_notation_and_the_effect_as_the_web(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """P5: ``check --json`` of a legal take: its notation and effect; of an illegal one
    (a full line, P4): the notation and no effect."""
    status, out, _ = run(capsys, "check", str(POSITION), "2B3", "--json")
    doc = json.loads(out)
    assert status == 0 and doc["notation"] == "2B3"
    assert doc["effect"] == {"to_line": 2, "to_floor": 1, "floor_penalty": 1, "marker": False}
    status, out, _ = run(capsys, "check", str(POSITION), "2B1", "--json")
    doc = json.loads(out)
    assert status == 1 and doc["notation"] == "2B1" and doc["effect"] is None


def test_w3_show_reads_the_position_audit_reads(capsys: pytest.CaptureFixture[str]) -> None:
    """W3: an audit's position sits at the end of the factory offer; ``show`` reads it
    (it refused it before)."""
    status, out, err = run(capsys, "show", str(AUDIT / "position.json"))
    assert (status, err) == (0, "") and out.startswith("Azul, 2 players, colored wall, round 3")


def test_w3_audit_svg_draws_the_position_with_the_mistake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """W3: ``audit --svg`` draws the audited position headed by the wrong claim, the
    violation listed."""
    out = tmp_path / "audit.svg"
    status, _, _ = run(capsys, "audit", str(AUDIT / "position.json"),
                       str(AUDIT / "claim.json"), "--svg", str(out))  # fmt: skip
    picture = out.read_text(encoding="utf-8")
    assert status == 1 and 'class="verdict-head audit wrong"' in picture
    assert "GAP_COUNTED" in picture


def test_w3_audit_game_svg_draws_the_first_wrong_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """W3: ``audit-game --svg`` draws the first wrong round's position at its offer's
    end, its mistakes marked."""
    out = tmp_path / "sheet.svg"
    status, _, _ = run(capsys, "audit-game", str(SHEET / "record.json"),
                       str(SHEET / "scoresheet.json"), "--svg", str(out))  # fmt: skip
    picture = out.read_text(encoding="utf-8")
    assert status == 1 and 'class="verdict-head audit wrong"' in picture
    assert "round 3" in picture


@pytest.mark.parametrize("command", [["moves"], ["convert", "--to", "json"]])
def test_s3_unreadable_positions_are_one_line_and_exit_2(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S3: bad UTF-8, a file over 1 MiB, a missing file, a bad notation: exit 2, one
    line on standard error, nothing on standard output."""
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format_version": 1, "x": "\xff"}')
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (1024 * 1024 + 1))
    for source in (bad, huge, tmp_path / "missing.json", "c2f9"):
        args = [command[0], str(source), *command[1:]]
        status, out, err = run(capsys, *args)
        assert (status, out) == (2, "") and err.count("\n") == 1, (args, err)
