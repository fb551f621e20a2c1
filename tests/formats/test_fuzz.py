"""Fuzzing what the library exposes: positions, moves and records, mutated from valid
ones and generated from scratch, through the Python API and through every command of
the command line (in-process).

Only the documented exceptions may escape (``FormatError``, ``InvalidStateError``);
every position the referee accepts plays to the end by random moves with the 100 tiles
accounted for (S3) and ``problems()`` empty after every move; every command answers
with exit 0, 1 or 2 and, on failure, lines that start ``azul-rules:``, never a
traceback or an internal error.  ``benchmarks/fuzz.py`` runs the same for minutes.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.cli import main
from azul_rules.testing import tile_counts
from azul_rules.tournament import TournamentError
from azul_rules.tournament.lines import load_record, read_existing
from azul_rules.tournament.runner import _settings
from tests.fuzz_inputs import (
    TOURNAMENT_BOTS,
    TOURNAMENT_GAMES,
    check_lines,
    dumps,
    mutate,
    mutate_text,
    mutated_tournament_file,
    play_out,
    read,
    seed_document,
    tournament_lines,
)

KIND = st.sampled_from(["state", "move", "record", "claim", "audit_position", "scoresheet"])
SEEDS = st.integers(0, 40)

json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=6),
    max_leaves=25,
)  # fmt: skip


def accept_or_refuse(kind: str, text: str, rng: random.Random, seed: int | None = None
                     ) -> object | None:  # fmt: skip
    """Read ``text``; a refusal must be a documented error, an accepted position must
    play to the end (S3 and ``problems()`` checked after every move), an accepted move
    is judged in the position its seed document was legal in (``seed``)."""
    try:
        value = read(kind, text)
    except (az.FormatError, az.InvalidStateError):
        return None
    if isinstance(value, az.GameState):
        assert value.problems() == ()
        play_out(value, rng)
    elif isinstance(value, az.GameRecord):
        replay = value.replay()
        assert replay.ok or replay.failure is not None
    elif kind == "move" and seed is not None:
        judge(az.from_dict(seed_document("state", seed), az.GameState), value)
    return value


def judge(state: az.GameState, move: object) -> None:
    """G1, S3: ``validate`` and ``apply`` agree on any move the reader accepts: an
    illegal one raises ``IllegalMoveError`` carrying ``validate``'s very ``Result``,
    with at least one violation; a legal one gives a position that can exist, with
    every tile accounted for."""
    result = state.validate(move)  # type: ignore[arg-type]
    try:
        after = state.apply(move)  # type: ignore[arg-type]
    except az.IllegalMoveError as error:
        assert not result.ok and result.violations and error.result == result
    else:
        assert result.ok
        assert after.problems() == ()
        assert tile_counts(after) == dict.fromkeys(az.Color, 20)


@given(KIND, SEEDS, st.randoms(use_true_random=False), st.integers(1, 4))
def test_s3_mutated_documents_are_refused_clearly_or_play_to_the_end(
    kind: str, seed: int, rng: random.Random, steps: int
) -> None:
    """S3, G1: a valid document with a few values replaced, removed or repeated."""
    data = mutate(seed_document(kind, seed), rng, steps)
    accept_or_refuse(kind, dumps(data), rng, seed)


@given(KIND, SEEDS, st.randoms(use_true_random=False))
def test_mutated_json_text_is_refused_clearly_or_read(
    kind: str, seed: int, rng: random.Random
) -> None:
    text = mutate_text(dumps(seed_document(kind, seed)), rng)
    accept_or_refuse(kind, text, rng, seed)


@given(KIND, json_values, st.randoms(use_true_random=False))
def test_json_from_scratch_is_refused_clearly(
    kind: str, value: object, rng: random.Random
) -> None:
    accept_or_refuse(kind, json.dumps(value), rng)


@given(st.binary(max_size=64), KIND)
def test_bytes_that_are_not_utf8_json_are_format_errors(data: bytes, kind: str) -> None:
    with contextlib.suppress(az.FormatError, az.InvalidStateError):
        read(kind, data)


@given(SEEDS)
def test_every_seed_document_is_valid(seed: int) -> None:
    """The fuzzing starts from documents the referee accepts (and that round-trip)."""
    for kind in ("state", "move", "record"):
        text = dumps(seed_document(kind, seed))
        value = read(kind, text)
        assert json.loads(az.to_json(value)) == json.loads(text)
    for kind in ("claim", "audit_position", "scoresheet"):
        assert read(kind, dumps(seed_document(kind, seed))) is not None


# -- the command line, in-process ---------------------------------------------------------------

_AUDIT = "examples/audits/tile-in-wrong-row"
_SHEET = "examples/audits/scoresheet-one-wrong-round"
COMMANDS = {
    "state": [["show", "{path}"], ["check", "{path}", "1B1"], ["check", "{path}", "CKF"],
              ["moves", "{path}"], ["moves", "{path}", "--json"],
              ["convert", "{path}", "--to", "notation"], ["convert", "{path}", "--to", "json"]],
    "move": [["check", "examples/round-2-position.json", "{path}"]],
    "record": [["replay", "{path}"], ["replay", "{path}", "--json"],
               ["audit-game", "{path}", f"{_SHEET}/scoresheet.json"]],
    "claim": [["audit", f"{_AUDIT}/position.json", "{path}"]],
    "audit_position": [["audit", "{path}", f"{_AUDIT}/claim.json", "--json"],
                       ["show", "{path}"]],
    "scoresheet": [["audit-game", f"{_SHEET}/record.json", "{path}", "--explain"]],
}  # fmt: skip


def run_command(args: list[str]) -> None:
    out_buffer, err_buffer = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out_buffer), contextlib.redirect_stderr(err_buffer):
        status = main(args)
    out, err = out_buffer.getvalue(), err_buffer.getvalue()
    assert status in (0, 1, 2), args
    assert "Traceback" not in out + err
    assert "internal error" not in err, err
    check_lines(args, out, err)
    if status == 2:
        assert err and all(line.startswith("azul-rules: ") for line in err.splitlines()), err


@given(KIND, SEEDS, st.randoms(use_true_random=False), st.booleans())
def test_every_command_answers_mutated_files_in_one_line_per_problem(
    kind: str, seed: int, rng: random.Random, as_text: bool
) -> None:
    text = dumps(mutate(seed_document(kind, seed), rng, 2))
    if as_text:
        text = mutate_text(text, rng)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.json"
        path.write_text(text, encoding="utf-8")
        for template in COMMANDS[kind]:
            run_command([part.format(path=path) for part in template])


TOURNAMENT_COMMANDS = [
    ["tournament", "--bots", ",".join(TOURNAMENT_BOTS), "--games", str(TOURNAMENT_GAMES),
     "--out", "{path}", "--resume", "--no-progress"],
    ["replay", "{path}", "--game", "1"],
    ["replay", "{path}", "--game", str(TOURNAMENT_GAMES - 1), "--json", "--explain"],
    ["replay", "{path}"],
]  # fmt: skip


@given(st.randoms(use_true_random=False))
def test_mutated_tournament_files_are_refused_clearly_or_continued(rng: random.Random) -> None:
    """A tournament's JSON-lines file, one line or the text mutated: ``tournament
    --resume`` and ``replay FILE --game N`` answer in one line per problem (exit 2) or
    go on; through the API, ``load_record`` raises only ``FormatError`` or
    ``InvalidStateError`` and ``read_existing`` only ``TournamentError``."""
    text = mutated_tournament_file(rng)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        for template in TOURNAMENT_COMMANDS:
            path.write_text(text, encoding="utf-8")  # --resume may cut or append
            run_command([part.format(path=path) for part in template])
        path.write_text(text, encoding="utf-8")
        with contextlib.suppress(az.FormatError, az.InvalidStateError):
            record = load_record(str(path), 0)
            assert record.replay().final is not None
        settings = _settings(list(TOURNAMENT_BOTS), 2, 0, None, "colored", None, 100)
        with contextlib.suppress(TournamentError):
            existing = read_existing(str(path), settings, TOURNAMENT_GAMES)
            written = _written_summaries(settings)
            assert all(summary == written[summary.index] for summary in existing.summaries)


def _written_summaries(settings: Any) -> dict[int, Any]:
    """The summaries of the unmutated file: a line read back must say what was written."""
    if not _WRITTEN:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "games.jsonl"
            path.write_text("\n".join(tournament_lines()) + "\n", encoding="utf-8")
            for summary in read_existing(str(path), settings, TOURNAMENT_GAMES).summaries:
                _WRITTEN[summary.index] = summary
    return _WRITTEN


_WRITTEN: dict[int, Any] = {}


PLAY_BOTS = st.sampled_from([
    "random", "greedy", "os:getcwd", "sys:exit", "builtins:object", "builtins:print",
    *(f"tests.hostile_bots:{name}" for name in (
        "GeneratorExitBot", "OwnBaseExceptionBot", "own_error_factory", "UnprintableErrorBot",
        "RaisingTakeBot", "ImpostorBot", "OddPartsBot", "CheatingBot", "ForgetfulSearchBot",
        "UnhashablePartBot", "HugeSourceBot")),
    *(f"tests.tournament_bots:{name}" for name in (
        "IllegalBot", "RaisingBot", "TextBot", "broken_factory")),
])  # fmt: skip


@given(st.lists(PLAY_BOTS, min_size=2, max_size=4), st.integers(0, 10**6),
       st.sampled_from(["colored", "grey"]), st.sampled_from(["en", "fr"]))  # fmt: skip
def test_play_referees_hostile_bots_in_any_seat(
    bots: list[str], seed: int, variant: str, lang: str
) -> None:
    """``play --bots``: a bot that raises (anything), is no bot, answers no move, plays an
    illegal move or changes the state it was given forfeits: exit 1 and a forfeit line,
    never a traceback or an internal error (issue 24); a new game's boards are left
    untouched."""
    out_buffer, err_buffer = io.StringIO(), io.StringIO()
    args = ["play", "--players", str(len(bots)), "--bots", ",".join(bots), "--seed",
            str(seed), "--variant", variant, "--lang", lang]  # fmt: skip
    with contextlib.redirect_stdout(out_buffer), contextlib.redirect_stderr(err_buffer):
        status = main(args)
    out = out_buffer.getvalue()
    assert err_buffer.getvalue() == ""
    forfeits = re.findall(r"^(?:player \d .* forfeits|le joueur \d .* perd par forfait)",
                          out, re.MULTILINE)  # fmt: skip
    hostile = any(":" in bot for bot in bots)  # each forfeits in round 1 or 2
    assert (status, len(forfeits)) == ((1, 1) if hostile else (0, 0)), out[-500:]
    assert az.new_game(2).players[0].score == 0


@given(st.lists(st.text(max_size=12), max_size=5))
def test_every_command_answers_odd_arguments(words: list[str]) -> None:
    for command in ("play", "check", "show", "replay", "audit", "audit-game", "rules",
                    "tournament", "differential"):
        run_command([command, *words])
