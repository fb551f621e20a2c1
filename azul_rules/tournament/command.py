"""``azul-rules tournament``: the command-line face of :func:`azul_rules.tournament.run`
(its options are declared in ``azul_rules.cli.tournament``, with the other commands').

Exit status: 0 every game played, 1 some games lost by the backend (listed; ``--resume``
plays them again), 2 bad arguments, an unknown bot or a file that cannot be continued
(one line on standard error), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM); the
file keeps every finished game.  What bots print goes to standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Final

from azul_rules.core.bots import BotSpecError
from azul_rules.core.shown import clipped
from azul_rules.tournament.runner import Results, run
from azul_rules.tournament.settings import TournamentError

__all__ = ["main"]

_MAX_MESSAGE: Final = 1000
"""The longest error line of the command (the values it quotes are cut already)."""


def main(args: argparse.Namespace) -> int:
    """Run the tournament the arguments describe and print its results."""
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # package.module:Factory from here, as python -m
    try:
        with _stop_on_sigterm(), _bots_print_to_stderr():
            results = run(
                [name for name in args.bots.split(",")], players=args.players,
                games=args.games, seed=args.seed, variant=args.variant, backend=args.backend,
                batch=args.batch, workers=args.workers, time_limit=args.time_limit,
                max_rounds=args.max_rounds, out=args.out, resume=args.resume,
                ray_address=args.ray_address, retries=args.retries,
                progress=False if args.no_progress else None, lang=getattr(args, "lang", "en"),
            )  # fmt: skip
    except BotSpecError as error:
        print(f"azul-rules: --bots: {_printable(str(error))}", file=sys.stderr)
        return 2
    except TournamentError as error:
        print(f"azul-rules: {_printable(error.command_line)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as interruption:
        terminated = isinstance(interruption, _Terminated)
        where = (f"; {clipped(args.out)} keeps every finished game: add --resume to go on"
                 if args.out else "")  # fmt: skip
        how = "terminated (SIGTERM)" if terminated else "interrupted"
        print(f"azul-rules: {how}{where}", file=sys.stderr)
        return 128 + signal.SIGTERM if terminated else 130
    _report(results, args.json)
    return 1 if results.lost else 0


class _Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, a job scheduler, ``timeout``), raised where the run is so that
    it stops as Ctrl-C stops it: the file keeps every finished game, the worker
    processes are ended."""


@contextlib.contextmanager
def _stop_on_sigterm() -> Iterator[None]:
    """While the run lasts, SIGTERM raises :class:`_Terminated` (by default it would end
    the process at once, leaving the process backend's workers behind as orphans)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigterm(signum: int, frame: object) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _bots_print_to_stderr() -> Iterator[None]:
    """While the games run, whatever is written to standard output -- a bot's
    ``print``, a module printing on import, ``os.write(1, ...)``, a worker process --
    goes to standard error, so that standard output holds only the results (``--json``
    stays one JSON document).  Done on file descriptor 1 itself, which worker processes
    inherit; Python's ``sys.stdout`` is sent to ``sys.stderr`` too."""
    _flush_stdout()
    try:
        saved = os.dup(1)
    except OSError:  # no standard output to protect
        yield
        return
    try:
        os.dup2(2, 1)
    except OSError:  # no standard error to send it to
        os.close(saved)
        yield
        return
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        _flush_stdout()  # what a bot left in sys.stdout's buffer goes to standard error
        os.dup2(saved, 1)
        os.close(saved)


def _flush_stdout() -> None:
    for stream in {id(s): s for s in (sys.stdout, sys.__stdout__) if s is not None}.values():
        with contextlib.suppress(Exception):
            stream.flush()


def _printable(text: str) -> str:
    """One line, control characters escaped (a file or bot name may hold any), and cut:
    a message quoting an argument of a megabyte (``--out``) stays a line."""
    return clipped(text, _MAX_MESSAGE)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _report(results: Results, as_json: bool) -> None:
    if results.cut_bytes:
        print(
            f"azul-rules: cut off the incomplete last line of {clipped(results.out or '')} "
            f"({results.cut_bytes} bytes, an interrupted write); its game was played again",
            file=sys.stderr,
        )
    for lost in results.lost:
        which = "game" if len(lost.games) == 1 else "games"
        print(f"azul-rules: {which} {', '.join(map(str, lost.games))} not played: {lost.error}",
              file=sys.stderr)  # fmt: skip
    if as_json:
        print(json.dumps(results.to_dict(), indent=2, ensure_ascii=False))
        return
    print(results.table())
    done = f"{_count(results.played, 'game')} played in {results.elapsed:.1f} s"
    if results.played:
        done += f" ({results.games_per_second:.0f} games/s)"
    if results.resumed:
        done += f", {results.resumed} read back from {clipped(results.out or '')}"
    if results.lost:
        done += f"; {results.lost_games} lost (see above; --resume plays them again)"
    elif results.out:
        done += f"; records in {clipped(results.out)}"
    print(done)
