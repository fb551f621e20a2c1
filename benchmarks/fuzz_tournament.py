"""Fuzzing the tournament's adapters (minutes, not in CI): ``azul-rules play --bots`` with
hostile bots in every seat, and ``tournament --resume`` on mutated files.

* ``play``: 2-4 seats, each a bot of ``tests/hostile_bots.py`` or
  ``tests/tournament_bots.py``, a function of the standard library named as a factory
  (``os:getcwd``, ``sys:exit``, ``builtins:input``...), an unknown spec, or a built-in
  bot; a random seed, variant, language, and ``--record`` half the time.  The command
  must exit 0 (a game played out or stopped at the round cap), 1 (a bot forfeited: the
  line says which player, at which move and why), 2 (an unknown bot, one line) or 130 (a
  bot raising ``KeyboardInterrupt``); never a traceback or an internal error; a saved
  record must replay to the printed scores (and stop at the illegal move of an
  illegal-move forfeit); and a new game's boards must be untouched afterwards (a bot
  changing the state it was given is undone).
* ``--resume``: a tournament's file (random and greedy against bots that forfeit in
  every way) with one line or the whole text mutated, continued through the command
  and through ``run``: refused in one line (exit 2, ``TournamentError``), or continued
  -- and then the results must be those of the file before it was mutated: a line is
  believed only when it is what the referee wrote.

    .venv/bin/python benchmarks/fuzz_tournament.py [--minutes 5] [--seed 0] [--no-forks]

(``--no-forks`` leaves out the bots that fork: a referee that does not end the copy a
bot forks, as before issue 24's ``play``, would have the copy run the fuzzer too.)
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import random
import re
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import azul_rules as az
from azul_rules.cli import main
from azul_rules.formats.jsontext import load
from azul_rules.tournament import Results, TournamentError, run
from tests import hostile_bots
from tests.fuzz_inputs import dumps, mutate, mutate_text

HOSTILE = [
    *(f"tests.hostile_bots:{name}" for name in (
        "GeneratorExitBot", "OwnBaseExceptionBot", "InterruptBot", "own_error_factory",
        "UnprintableErrorBot", "RaisingTakeBot", "ImpostorBot", "OddPartsBot",
        "LongTypeNameBot", "CheatingBot", "ForgetfulSearchBot", "UnhashablePartBot",
        "PrintingBot", "WrappedRandomBot", "HugeSourceBot")),
    *(f"tests.tournament_bots:{name}" for name in (
        "IllegalBot", "RaisingBot", "TextBot", "broken_factory", "SeededBot",
        "FirstMoveBot")),
    "os:getcwd", "os:getpid", "sys:exit", "builtins:exit", "builtins:object", "builtins:int",
    "builtins:list", "builtins:dict", "builtins:print", "builtins:iter", "builtins:input",
    "random:Random", "itertools:count", "collections:deque", "gc:collect", "time:sleep",
    "threading:Thread", "operator:attrgetter",
]  # fmt: skip
UNKNOWN = ["smart", "", " ", "a:b:c", ":x", "os:", "nosuchmodule:Bot", "os:nosuchname",
           "tests.hostile_bots:Int.x", "random,", "Random"]  # fmt: skip
RARE = ["os:fork", "tests.hostile_bots:ForkingBot"]  # forks: a few only
FORFEIT = re.compile(r"^(?:le joueur|player) (\d) \((.*)\) (?:forfeits at|perd par forfait au "
                     r"coup) (?:move )?(\d+)", re.MULTILINE)  # fmt: skip


@contextlib.contextmanager
def quiet_descriptor_1() -> Iterator[None]:
    """Bots write to file descriptor 1 itself (``os.write``): to /dev/null meanwhile."""
    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def play_round(rng: random.Random, counts: collections.Counter[str], failures: list[str],
               folder: Path, forks: bool = True) -> None:  # fmt: skip
    players = rng.choice((2, 3, 4))
    roll = rng.random()
    pool = HOSTILE if roll < 0.97 or not forks else RARE
    seats = [rng.choice(pool) if rng.random() < 0.7 else rng.choice(("random", "greedy"))
             for _ in range(players)]  # fmt: skip
    if rng.random() < 0.05:
        seats[rng.randrange(players)] = rng.choice(UNKNOWN)
    if rng.random() < 0.03:
        seats = seats[:-1] if rng.random() < 0.5 else [*seats, "random"]
    record = folder / "game.json"
    record.unlink(missing_ok=True)
    args = ["play", "--players", str(players), "--bots", ",".join(seats),
            "--seed", str(rng.randrange(10**6)), "--variant", rng.choice(("colored", "grey")),
            "--lang", rng.choice(("en", "fr"))]  # fmt: skip
    if rng.random() < 0.5:
        args += ["--record", str(record)]
    hostile_bots.InterruptBot.built = rng.choice((0, 2, 3, 100))
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO("")  # builtins:input reads a line; builtins:exit closes it
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(args)
    except BaseException:
        failures.append(f"play {args}: raised {traceback.format_exc(limit=4)}")
        return
    finally:
        sys.stdin = stdin
    counts[f"play: exit {status}"] += 1
    check_play(args, status, out.getvalue(), err.getvalue(), record, counts, failures)


def check_play(args: list[str], status: int, out: str, err: str, record: Path,
               counts: collections.Counter[str], failures: list[str]) -> None:  # fmt: skip
    where = f"play {args}: exit {status}"
    clean = all(line.startswith("azul-rules: ") for line in err.splitlines())
    forfeit = FORFEIT.search(out)
    if status not in (0, 1, 2, 130) or not clean or "internal error" in err or (
        "Traceback" in out + err
    ):
        failures.append(f"{where}: {err[:400]}")
        return
    if (status == 1) != (forfeit is not None):
        failures.append(f"{where}: forfeit line {forfeit and forfeit[0]!r}\n{out[-400:]}")
        return
    if az.new_game(4).players[0] != az.new_game(4, seed=1).players[0]:
        failures.append(f"{where}: a new game's boards were changed")
        return
    if forfeit is not None:
        reason = out[forfeit.end():].splitlines()[0]
        counts["play: forfeit, " + _reason(reason)] += 1
    if status in (0, 1) and "--record" in args:
        check_record(where, out, record, counts, failures)


def _reason(text: str) -> str:
    """The kind of a forfeit's reason, for the counts."""
    text = text.lstrip(": ")
    if "illegal" in text:
        return "illegal move"
    if text.startswith("not a move"):
        return "not a move"
    if text.startswith("changed the state"):
        return "changed the state"
    if text.startswith("building the bot"):
        return "factory failed"
    return "raised"


def check_record(where: str, out: str, record: Path, counts: collections.Counter[str],
                 failures: list[str]) -> None:  # fmt: skip
    try:
        replay = az.GameRecord.from_json(record.read_bytes()).replay()
    except Exception:
        failures.append(f"{where}: the record saved does not replay: "
                        f"{traceback.format_exc(limit=2)}")  # fmt: skip
        return
    counts["play: records replayed"] += 1
    final = replay.final
    scores = final.outcome.scores if final.outcome else tuple(b.score for b in final.players)
    said = re.search(r"(?:scores when the game stopped|final scores|scores finaux|scores à "
                     r"l'arrêt de la partie) ?: (.*)", out)  # fmt: skip
    if said is None and "== stopped in round" not in out and "arrêt à la manche" not in out:
        failures.append(f"{where}: no scores printed\n{out[-300:]}")
    elif said is not None and [int(s) for s in re.findall(r": (-?\d+)", said[1])] != list(
        scores
    ):
        failures.append(f"{where}: scores {said[1]} printed, the record replays to {scores}")
    illegal = "illegal move" in out or "coup illégal" in out
    if replay.failure is not None and not illegal:
        failures.append(f"{where}: the record holds an illegal move, no illegal-move forfeit")


# -- tournament --resume ---------------------------------------------------------------

RESUME_BOTS = ["random", "greedy", "tests.tournament_bots:IllegalBot",
               "tests.tournament_bots:RaisingBot", "tests.tournament_bots:broken_factory",
               "tests.hostile_bots:CheatingBot", "tests.hostile_bots:HugeSourceBot"]  # fmt: skip
RESUME_GAMES = 14


def base_file(folder: Path) -> tuple[list[str], Results]:
    path = folder / "base.jsonl"
    results = run(RESUME_BOTS, games=RESUME_GAMES, out=str(path), progress=False)
    return path.read_text(encoding="utf-8").splitlines(), results


def mutated(lines: list[str], rng: random.Random) -> tuple[str, str]:
    """(how, text): one line's values or text mutated, or the whole text."""
    lines = list(lines)
    index = rng.randrange(len(lines))
    action = rng.randrange(4)
    if action <= 1:  # values: the result and the record most often
        doc = json.loads(lines[index])
        part = rng.choice(("result", "record", None)) if action == 0 else None
        if part is not None:
            doc[part] = mutate(doc[part], rng, rng.randint(1, 3))
        else:
            doc = mutate(doc, rng, rng.randint(1, 3))
        lines[index] = dumps(doc)
        how = f"values of {part or 'the line'}"
    elif action == 2:
        lines[index] = mutate_text(lines[index], rng)
        how = "text of a line"
    text = "\n".join(lines) + "\n"
    if action == 3:
        return "whole text", mutate_text(text, rng)
    return how, text


def resume_round(rng: random.Random, base: tuple[list[str], Results],
                 counts: collections.Counter[str], failures: list[str],
                 folder: Path) -> None:  # fmt: skip
    lines, original = base
    how, text = mutated(lines, rng)
    counts[f"resume: tried, {how}"] += 1
    path = folder / "games.jsonl"
    path.write_text(text, encoding="utf-8")
    args = ["tournament", "--bots", ",".join(RESUME_BOTS), "--games", str(RESUME_GAMES),
            "--out", str(path), "--resume", "--no-progress", "--json"]  # fmt: skip
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(args)
    counts[f"resume: command exit {status}"] += 1
    errors = err.getvalue()
    clean = all(line.startswith("azul-rules: ") for line in errors.splitlines())
    if status not in (0, 2) or not clean or "internal error" in errors:
        failures.append(f"resume ({how}): exit {status}: {errors[:400]}\n{text[:300]}")
        return
    if status == 0 and _bots(json.loads(out.getvalue())) != _bots(original.to_dict()):
        failures.append(f"resume ({how}): believed a changed line:\n{out.getvalue()[:600]}")
    if status == 0 and (lie := _changed_line(text, lines)) is not None:
        failures.append(f"resume ({how}): believed a changed line: {lie[:600]}")
    path.write_text(text, encoding="utf-8")
    try:
        results = run(RESUME_BOTS, games=RESUME_GAMES, out=str(path), resume=True,
                      progress=False)  # fmt: skip
    except TournamentError as error:
        counts["resume: run raised TournamentError"] += 1
        if "\n" in str(error):
            failures.append(f"resume ({how}): a message of several lines: {error}")
        return
    except Exception:
        failures.append(f"resume ({how}): run raised {traceback.format_exc(limit=3)}")
        return
    counts["resume: run continued the file"] += 1
    if results.bots != original.bots:
        failures.append(f"resume ({how}): run believed a changed line")


def _changed_line(text: str, lines: list[str]) -> str | None:
    """A complete line of ``text`` that says something else than the line of the same game
    in ``lines`` (the file as written): its settings, game, seeds, lineup, result, or
    record (as a record reads it); only a forfeit's ``error`` text may differ."""
    originals = {json.loads(line)["game"]: json.loads(line) for line in lines}
    for line in text.split("\n")[:-1]:  # after the last newline: cut off, played again
        if not line.strip():
            continue
        try:
            doc: Any = load(line.rstrip("\r").encode())  # as the reader reads it
            original = originals[doc["game"]]
        except (az.FormatError, KeyError, TypeError):
            return line  # believed a line that is not even a game of the file
        try:
            for found in (doc, original):
                found["record"] = az.GameRecord.from_dict(found["record"])
                if found["result"].get("forfeit"):
                    _unverifiable(found["result"]["forfeit"], found)
        except (az.FormatError, az.InvalidStateError, AttributeError, KeyError, TypeError):
            return line  # a record no reader takes, or a result that is no object
        if doc != original:
            return f"{_difference(doc, original, '$')}: {line}"
    return None


def _unverifiable(forfeit: dict[str, Any], line: dict[str, Any]) -> None:
    """Blank what the reader takes as written: a bot's error text, and an illegal move no
    record holds (a number past 4,300 digits) with its verdict."""
    forfeit["error"] = None
    if len(line["record"].moves) == line["result"]["moves"] and forfeit["move"] is not None:
        forfeit["move"] = forfeit["violations"] = None


def _difference(found: object, written: object, path: str) -> str:
    """The first place where ``found`` differs from ``written``, and how."""
    if isinstance(found, dict) and isinstance(written, dict):
        for key in sorted(set(found) | set(written), key=str):
            if found.get(key, KeyError) != written.get(key, KeyError):
                return _difference(found.get(key), written.get(key), f"{path}.{key}")
    if isinstance(found, list) and isinstance(written, list) and len(found) == len(written):
        for i, (a, b) in enumerate(zip(found, written, strict=True)):
            if a != b:
                return _difference(a, b, f"{path}[{i}]")
    return f"{path} is {str(found)[:200]!r}, was {str(written)[:200]!r}"


def _bots(doc: dict[str, object]) -> object:
    return doc["bots"]


def fuzz(minutes: float, seed: int, forks: bool = True, play_share: float = 0.5) -> int:
    rng = random.Random(seed)
    counts: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    start = time.monotonic()
    half = start + 60 * minutes * play_share
    with tempfile.TemporaryDirectory() as name, quiet_descriptor_1():
        folder = Path(name)
        while time.monotonic() < half:
            play_round(rng, counts, failures, folder, forks)
        base = base_file(folder)
        while time.monotonic() < start + 60 * minutes:
            resume_round(rng, base, counts, failures, folder)
    for key in sorted(k for k in counts if counts[k]):
        print(f"{counts[key]:>9,}  {key}")
    print(f"{len(failures):>9,}  failures")
    for failure in failures[:20]:
        print("\n" + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-forks", action="store_true", help="leave out the forking bots")
    parser.add_argument("--play-share", type=float, default=0.5,
                        help="the share of the time for play (the rest: --resume)")
    options = parser.parse_args()
    sys.exit(fuzz(options.minutes, options.seed, not options.no_forks, options.play_share))
