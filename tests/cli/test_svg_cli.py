"""Pictures from the command line: ``show --svg``, ``check --svg``, ``replay --svg-dir``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from azul_rules.cli import main
from tests.pictures import classes, elements, parse

EXAMPLES = "examples"
POSITION = f"{EXAMPLES}/round-2-position.json"


def test_show_writes_the_picture_and_still_prints_the_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "position.svg"
    assert main(["show", POSITION, "--svg", str(out)]) == 0
    assert "factory 2: B B B R" in capsys.readouterr().out
    root = parse(out.read_text(encoding="utf-8"))
    assert len(elements(root, "tile")) == 100 - 72  # every tile but the bag's 72 (lid empty)
    assert not elements(root, "highlight")


def test_show_in_french(tmp_path: Path) -> None:
    out = tmp_path / "position.svg"
    assert main(["show", POSITION, "--svg", str(out), "--lang", "fr"]) == 0
    assert "Sac\u202f: 72 carreaux" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("dispute", "status", "code"),
    [
        ("partial-take", 1, "PARTIAL_TAKE"),
        ("split-lot", 1, "SPLIT_LOT"),
        ("wall-color-conflict", 1, "WALL_COLOR_CONFLICT"),
        ("legal-table-take", 0, None),
    ],
)
def test_check_draws_the_move_and_its_verdict(
    dispute: str, status: int, code: str | None, tmp_path: Path
) -> None:
    out = tmp_path / f"{dispute}.svg"
    move = f"{EXAMPLES}/{dispute}.json"
    assert main(["check", POSITION, move, "--svg", str(out)]) == status
    root = parse(out.read_text(encoding="utf-8"))
    (verdict,) = elements(root, "verdict")
    assert ("legal" if code is None else "illegal") in classes(verdict)
    assert elements(root, "highlight", "source")
    offending = {m.get("data-code") for m in elements(root, "highlight", "offending")}
    assert offending == (set() if code is None else {code})


def test_check_json_output_is_unchanged_by_svg(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "verdict.svg"
    assert main(["check", POSITION, "2B3", "--json", "--svg", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    assert out.exists()


def test_replay_writes_each_rounds_start_and_tiling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "pictures"
    assert main(["replay", f"{EXAMPLES}/recorded-game.json", "--svg-dir", str(folder)]) == 0
    assert f"10 pictures in {folder}" in capsys.readouterr().out
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(f"round-0{r}-{k}.svg" for r in range(1, 6) for k in ("start", "tiled"))
    for path in folder.iterdir():
        parse(path.read_text(encoding="utf-8"))


def test_replay_draws_the_illegal_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["replay", f"{EXAMPLES}/disputed-game.json", "--svg-dir", str(tmp_path)])
    assert status == 1
    assert capsys.readouterr().out.startswith("move 7 (CB2), player 1: illegal")
    root = parse((tmp_path / "move-007-illegal.svg").read_text(encoding="utf-8"))
    codes = {m.get("data-code") for m in elements(root, "highlight", "offending")}
    assert codes == {"LINE_COLOR_MISMATCH", "LINE_FULL"}


def test_replay_json_stays_pure_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = f"{EXAMPLES}/recorded-game.json"
    assert main(["replay", record, "--json", "--svg-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert len(list(tmp_path.iterdir())) == 10


def _one_line_error(capsys: pytest.CaptureFixture[str], words: str) -> None:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("azul-rules: cannot write") and words in err


def test_unwritable_svg_path_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-folder" / "x.svg"
    assert main(["show", POSITION, "--svg", str(missing)]) == 2
    _one_line_error(capsys, "No such file or directory")
    assert main(["check", POSITION, "2B3", "--svg", str(tmp_path)]) == 2
    _one_line_error(capsys, "Is a directory")


def test_svg_dir_that_is_a_file_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    record = f"{EXAMPLES}/recorded-game.json"
    assert main(["replay", record, "--svg-dir", str(blocker)]) == 2
    _one_line_error(capsys, "not a directory")
    assert main(["replay", record, "--svg-dir", str(blocker / "below")]) == 2
    _one_line_error(capsys, "Not a directory")


def test_unreadable_input_with_svg_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.svg"
    assert main(["check", POSITION, "2Z3", "--svg", str(out)]) == 2
    assert main(["show", f"{EXAMPLES}/impossible-position.json", "--svg", str(out)]) == 2
    assert not out.exists()
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "dispute", ["partial-take", "split-lot", "wall-color-conflict", "legal-table-take"]
)
def test_example_pictures_are_what_the_documented_command_draws(
    dispute: str, tmp_path: Path
) -> None:
    """examples/pictures/ stays in step with the drawing (the command of
    examples/README.md)."""
    out = tmp_path / f"{dispute}.svg"
    main(["check", POSITION, f"{EXAMPLES}/{dispute}.json", "--svg", str(out)])
    committed = Path(EXAMPLES) / "pictures" / f"{dispute}.svg"
    assert out.read_text(encoding="utf-8") == committed.read_text(encoding="utf-8")
