"""The command line as a demanding new user meets it: French output wholly in French,
``-`` for standard input wherever a file is read, a file of the wrong kind named for
what it is, a wrong argument told by the command it belongs to, ``--help`` for every
option, ``--version``, and ``play --record`` refused before the game, not after it."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import azul_rules as az
from azul_rules.cli import COMMANDS, _parser, main, parser
from azul_rules.cli._common import EXPLAIN_HELP, JSON_HELP, PLAYERS_HELP
from azul_rules.cli._common import POSITION as POSITION_METAVAR
from azul_rules.core.render import move_text

EXAMPLES = Path("examples")
POSITION = str(EXAMPLES / "round-2-position.json")
AUDITS = EXAMPLES / "audits"
SHEET_CASE = AUDITS / "scoresheet-one-wrong-round"


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))


# -- French output (--lang fr) -------------------------------------------------------------


def test_check_in_french_words_a_table_take_in_french_T2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T2: the partial take's verdict, the move included, is French, with French
    spacing before each colon."""
    assert main(["check", POSITION, str(EXAMPLES / "partial-take.json"), "--lang", "fr"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "coup illégal\u202f: 2 carreaux de couleur bleue pris de la fabrique 2\u202f: 2 "
        "vers la ligne 3",
        "  PARTIAL_TAKE (T2)\u202f: 2 des 3 carreaux de couleur bleue de la fabrique 2 ont été pris"
        "\u202f: il faut prendre tous les carreaux de la couleur choisie",
    ]


def test_check_of_a_legal_table_take_in_french_P5(capsys: pytest.CaptureFixture[str]) -> None:
    """P5: two blues to line 3 and the third to the floor is legal; said in French."""
    legal = str(EXAMPLES / "legal-table-take.json")
    assert main(["check", POSITION, legal, "--lang", "fr"]) == 0
    assert capsys.readouterr().out == (
        "coup légal\u202f: 3 carreaux de couleur bleue pris de la fabrique 2\u202f: 1 "
        "vers le plancher, "
        "2 vers la ligne 3\n"
    )
    assert main(["check", POSITION, legal]) == 0
    english = "legal: took 3 blue from factory 2: 1 to the floor, 2 to line 3\n"
    assert capsys.readouterr().out == english


def test_play_on_the_grey_wall_in_french_words_the_placements_V1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """V1: a grey-wall placement chosen by a bot is printed in French."""
    assert main(["play", "--variant", "grey", "--seed", "3", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "   joueur 1\u202f: poser la ligne 1 en colonne 1  (décoration du mur)\n" in out
    assert "place line" not in out


def test_replay_of_an_illegal_table_take_in_french_T2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """T2: the record's illegal move is named in French, as its verdict is."""
    first = az.new_game(2, seed=1).factories[0]
    take = az.TableTake(0, az.Color.RED, 1, {1: 1})
    assert first.count(az.Color.RED) == 2
    record = tmp_path / "record.json"
    record.write_text(az.GameRecord((take,), 2, 1).to_json(), encoding="utf-8")
    assert main(["replay", str(record), "--lang", "fr"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "coup 1 (1 carreau de couleur rouge pris de la fabrique 1\u202f: 1 vers la ligne 2), "
        "joueur 2\u202f: illégal",
        "  PARTIAL_TAKE (T2)\u202f: 1 des 2 carreaux de couleur rouge de la fabrique 1 a été pris"
        "\u202f: il faut prendre tous les carreaux de la couleur choisie",
    ]


def test_move_text_in_french_for_every_kind_of_move() -> None:
    """``move_text``: ``str(move)`` in English, the same words in French."""
    moves: dict[az.Move, str] = {
        az.TableTake(2, az.Color.YELLOW, 1, {3: 1}):
            "1 carreau de couleur jaune pris de la fabrique 3\u202f: 1 vers la ligne 4",
        az.TableTake(0, (az.Color.BLUE, az.Color.RED), 4, {3: 4}):
            "4 carreaux de couleurs bleue et rouge pris de la fabrique 1\u202f: 4 vers la ligne 4",
        az.TableTake(az.CENTER, az.MARKER, 1, {}):
            "1 marqueur premier joueur pris du centre\u202f: posé nulle part",
        az.TableTake(az.CENTER, az.Color.WHITE, 2, {}):
            "2 carreaux de couleur blanche pris du centre\u202f: posés nulle part",
        az.PlaceTile(0, 2): "poser la ligne 1 en colonne 3",
        az.Refill([[az.Color.BLUE] * 4] * 2): "remplissage 1:BBBB 2:BBBB",
        az.parse_move("cwf"): "CWF",
    }  # fmt: skip
    for move, french in moves.items():
        assert move_text(move, "fr") == french
        assert move_text(move, "en") == move_text(move) == str(move)


@pytest.mark.parametrize(
    ("case", "line"),
    [
        (
            "grey-space-occupied",
            "  SPACE_OCCUPIED (V1)\u202f: le carreau de couleur rouge de la ligne de préparation 2 "
            "du joueur 1 a été posé en rangée 2, colonne 1, sur une case qui porte déjà un "
            "carreau de couleur bleue",
        ),
        (
            "tile-in-wrong-row",
            "  NOT_WALL_COLOR_SPACE (W1)\u202f: le carreau de couleur noire de la ligne de "
            "préparation 3 du joueur 1 est dans la rangée 4 du mur (colonne 2)\u202f: le carreau "
            "d'une ligne complète va dans la rangée du mur à sa hauteur, la rangée 3",
        ),
    ],
)
def test_french_audit_messages_agree_with_the_tile_V1_W1(
    case: str, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """V1, W1: "le carreau de couleur noire", never "le carreau noire" (a carreau is
    masculine, the colour names agree with couleur)."""
    folder = AUDITS / case
    assert main(["audit", str(folder / "position.json"), str(folder / "claim.json"),
                 "--lang", "fr"]) == 1  # fmt: skip
    assert capsys.readouterr().out.splitlines() == ["l'annonce est fausse\u202f:", line]


def test_no_french_audit_message_puts_a_feminine_colour_after_carreau_W3() -> None:
    """W3 and every audit code: no French template reads "carreau {color}"."""
    from azul_rules.core.messages import TEMPLATES

    for key, texts in TEMPLATES.items():
        for placeholder in ("{color}", "{covered}"):
            assert f"carreau {placeholder}" not in texts["fr"], key


def test_an_unknown_rule_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    """``rules ID --lang fr``: the unknown id is told in French, as the rules are."""
    assert main(["rules", "Z9", "--lang", "fr"]) == 2
    assert capsys.readouterr().err == (
        "azul-rules: aucune règle 'Z9' dans le livre de règles\u202f: les identifiants sont G1-G2, "
        "S1-S7, T1-T4, P1-P7, F1-F4, W1-W5, R1-R7, E1-E4, V1-V5\n"
    )
    assert main(["rules", "Z9"]) == 2
    assert capsys.readouterr().err == (
        "azul-rules: no rule 'Z9' in the rule book: the ids are G1-G2, S1-S7, T1-T4, P1-P7, "
        "F1-F4, W1-W5, R1-R7, E1-E4, V1-V5\n"
    )


# -- standard input -------------------------------------------------------------------------


def test_show_reads_the_position_from_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, Path(POSITION).read_bytes())
    assert main(["show", "-"]) == 0
    state = az.from_json(Path(POSITION).read_text(encoding="utf-8"), az.GameState)
    assert capsys.readouterr().out == f"{state}\n"


def test_check_reads_the_position_or_the_move_from_standard_input_T2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """T2: ``-`` stands for the position, or for the move (JSON or notation)."""
    _stdin(monkeypatch, Path(POSITION).read_bytes())
    assert main(["check", "-", "2B3"]) == 0
    assert capsys.readouterr().out == "legal: 2B3\n"
    _stdin(monkeypatch, (EXAMPLES / "partial-take.json").read_bytes())
    assert main(["check", POSITION, "-"]) == 1
    assert capsys.readouterr().out.startswith("illegal: took 2 blue from factory 2: 2 to line 3\n")
    _stdin(monkeypatch, b" 2b3\n")
    assert main(["check", POSITION, "-"]) == 0
    assert capsys.readouterr().out == "legal: 2B3\n"


def test_audit_and_audit_game_read_standard_input_W3_F3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """W3, F3: the two mistakes' position from ``-``; the scoresheet from ``-``."""
    folder = AUDITS / "two-mistakes"
    _stdin(monkeypatch, (folder / "position.json").read_bytes())
    assert main(["audit", "-", str(folder / "claim.json"), "--json"]) == 1
    codes = [v["code"] for v in json.loads(capsys.readouterr().out)["violations"]]
    assert codes == ["CROSS_COUNTED_ONCE", "MARKER_PENALTY_FORGOTTEN"]
    _stdin(monkeypatch, (SHEET_CASE / "scoresheet.json").read_bytes())
    assert main(["audit-game", str(SHEET_CASE / "record.json"), "-", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["first_wrong"] == [3, 0]


def test_standard_input_stands_for_one_file_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, Path(POSITION).read_bytes())
    for argv in (["check", "-", "-"], ["audit", "-", "-"], ["audit-game", "-", "-"]):
        assert main(argv) == 2
        assert capsys.readouterr().err == (
            "azul-rules: - (standard input) stands for one file only: give the others by name\n"
        )


def test_closed_standard_input_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", None)
    for argv in (["show", "-"], ["replay", "-"]):
        assert main(argv) == 2
        assert capsys.readouterr().err == "azul-rules: -: cannot read: standard input is closed\n"


def test_oversized_standard_input_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, b" " * (2 << 20))
    assert main(["show", "-"]) == 2
    assert capsys.readouterr().err == (
        "azul-rules: -: more than 1048576 bytes: not a file this reads\n"
    )


# -- a file of the wrong kind ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["show", "examples/recorded-game.json"],
         "examples/recorded-game.json: a game record, not a position (replay and audit-game "
         "read game records)"),
        (["check", POSITION, POSITION],
         f"{POSITION}: a position, not a move (show, check and audit read positions)"),
        (["audit", str(AUDITS / "two-mistakes" / "claim.json"),
          str(AUDITS / "two-mistakes" / "position.json")],
         f"{AUDITS / 'two-mistakes' / 'claim.json'}: an audit claim, not a position (audit "
         "reads a claim as its second file)"),
        (["audit-game", str(SHEET_CASE / "scoresheet.json"), str(SHEET_CASE / "record.json")],
         f"{SHEET_CASE / 'scoresheet.json'}: a scoresheet, not a game record (audit-game "
         "reads a scoresheet as its second file)"),
        (["replay", "examples/partial-take.json"],
         "examples/partial-take.json: a move, not a game record (check reads a move as its "
         "second argument)"),
    ],
)  # fmt: skip
def test_a_file_of_another_kind_is_named_for_what_it_is(
    argv: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err == f"azul-rules: {error}\n"


def test_a_broken_document_of_the_right_kind_keeps_its_reader_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "p.json"
    broken.write_text('{"factories": 3}', encoding="utf-8")
    nested = tmp_path / "n.json"
    nested.write_text("[" * 100_000, encoding="utf-8")
    assert main(["show", str(broken)]) == 2
    assert f"azul-rules: {broken}: unreadable at $.factories: expected a JSON array, got 3\n" in (
        capsys.readouterr().err
    )
    assert main(["show", str(nested)]) == 2
    assert capsys.readouterr().err.startswith(f"azul-rules: {nested}: unreadable")


# -- the command line itself ----------------------------------------------------------------


def test_an_unknown_argument_is_told_by_its_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "R5", "--json"]) == 2
    assert capsys.readouterr().err == (
        "azul-rules: rules: unrecognized arguments: --json (see azul-rules rules --help)\n"
    )
    assert main(["check", POSITION, "2B3", "extra"]) == 2
    assert capsys.readouterr().err == (
        "azul-rules: check: unrecognized arguments: extra (see azul-rules check --help)\n"
    )


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"azul-rules {az.__version__}\n"


def test_every_option_and_argument_has_help_and_every_command_a_description() -> None:
    commands = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        assert command.description, name
        for action in command._actions:
            assert action.help, f"azul-rules {name} {action.dest}"


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(commands.choices)


def test_every_command_has_a_one_line_help_in_azul_rules_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``azul-rules --help`` lists every command with one line saying what it does, in the
    style of every other help text: a lower-case start, no full stop."""
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    helps = {entry.dest: entry.help for entry in commands._choices_actions}
    assert set(helps) == set(commands.choices) == {command.NAME for command in COMMANDS}
    monkeypatch.setenv("COLUMNS", "200")  # each command's line unwrapped
    assert main(["--help"]) == 0
    listing = capsys.readouterr().out
    for name, help in helps.items():
        assert help and "\n" not in help and _in_style(help), (name, help)
        assert re.search(rf"^    {re.escape(name)} +{re.escape(help)}$", listing, re.M), name


def _in_style(help: str) -> bool:
    """A help text as the command line words them: a lower-case first word (or one
    naming a value, such as ``- reads``), no full stop at the end."""
    return (help[0].islower() or help[0] == "-") and not help.rstrip().endswith(".")


def test_every_option_s_help_follows_one_style_and_json_reads_the_same_everywhere() -> None:
    """Each option's help starts with a lower-case word and ends without a full stop,
    ``--json`` is described in the same words by every command that takes it, and so
    are ``--explain`` and ``--players`` (where it is one count)."""
    same = {"--json": JSON_HELP, "--explain": EXPLAIN_HELP}
    for name, command in _subcommands().items():
        for action in command._actions:
            assert action.help and _in_style(action.help), (name, action.dest, action.help)
            for option in action.option_strings:
                assert action.help == same.get(option, action.help), (name, option)
            if "--players" in action.option_strings and action.choices:
                assert action.help == PLAYERS_HELP, name


def test_every_value_is_named_the_same_way_wherever_it_is_taken() -> None:
    """An option taking a value names it (a metavar, or its choices), the same name for
    the same option in every command (``--seed S``, ``--games N``, ``--record FILE``), and
    every position argument is ``POSITION`` (a notation or a JSON file)."""
    metavars: dict[str, set[object]] = {}
    for name, command in _subcommands().items():
        for action in command._actions:
            if action.nargs == 0:  # a flag: no value to name
                continue
            if not action.option_strings:
                assert action.metavar, (name, action.dest)
                if action.dest == "state":
                    assert action.metavar == POSITION_METAVAR, name
                continue
            assert action.metavar or action.choices, (name, action.option_strings)
            if action.choices is None:
                metavars.setdefault(action.option_strings[-1], set()).add(action.metavar)
    assert {option: names for option, names in metavars.items() if len(names) > 1} == {}
    assert metavars["--seed"] == {"S"} and metavars["--games"] == {"N"}


def test_play_refuses_an_unwritable_record_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path, reason in ((tmp_path / "no" / "r.json", "No such file or directory"),
                         (tmp_path, "Is a directory")):  # fmt: skip
        assert main(["play", "--record", str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err == f"azul-rules: cannot write {path}: {reason}\n"


def test_the_reference_engine_answers_help_instead_of_waiting(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m azul_rules.engine --help`` says what it is (it used to sit waiting for
    protocol requests); a stray argument is one line, exit 2."""
    from azul_rules.engine import command

    assert command(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m azul_rules.engine [-h]\n")
    assert "engine protocol, version 1 (docs/engine-protocol.md)" in " ".join(out.split())
    assert command(["--bogus"]) == 2
    assert capsys.readouterr().err == (
        "python -m azul_rules.engine: unrecognized arguments: --bogus "
        "(see python -m azul_rules.engine --help)\n"
    )


# -- installing an extra from the checkout (issue 24) -------------------------------------


@pytest.mark.parametrize(
    ("missing", "args", "says"),
    [
        ("uvicorn", ["serve", "--port", "0"],
         "azul-rules: serve needs the web extra (uvicorn is missing): pip install -e '.[web]' "
         "in the project's checkout"),
        ("hypothesis", ["differential", "--engine", "x"],
         "azul-rules differential: needs the hypothesis package, the testing extra: "
         "pip install -e '.[testing]' in the project's checkout"),
    ],
)  # fmt: skip
def test_cli_a_missing_extra_is_installed_from_the_checkout(
    missing: str, args: list[str], says: str
) -> None:
    """``pip install 'azul_rules[web]'`` fails: the project is on no package index.  The
    command says how to install the extra from the checkout, in one line, exit 2."""
    code = (f"import sys; sys.modules[{missing!r}] = None\n"
            "from azul_rules.cli import main\n"
            f"sys.exit(main({args!r}))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert (done.returncode, done.stderr) == (2, says + "\n")


DOCS = [Path("README.md"), Path("examples/README.md"), *sorted(Path("docs").glob("*.md"))]


@pytest.mark.parametrize("page", DOCS, ids=str)
def test_docs_install_from_the_checkout_and_run_the_environment_s_commands(page: Path) -> None:
    """The docs said ``pip install 'azul_rules[web]'`` (no package index has it) and ran
    a bare ``azul-rules`` that is on no ``PATH`` beside ``.venv/bin/azul-rules``: every
    install is from the checkout, every command run in a code block is the
    environment's (the README says once that an activated environment drops the path)."""
    text = page.read_text(encoding="utf-8")
    assert "pip install 'azul_rules[" not in text and "pip install azul_rules" not in text
    blocks = re.findall(r"^```(?:sh|bash|console)?\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    for line in "\n".join(blocks).splitlines():
        command = line.removeprefix("$ ").split("|")[-1].strip()
        synopsis = re.search(r" \[-|\[[A-Z]", command)  # azul-rules play [--seed S]
        if command.startswith(("azul-rules ", "pip ", "python ")) and not synopsis:
            pytest.fail(f"{page}: {line!r} runs a command that is not the environment's")
