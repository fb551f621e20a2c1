"""``azul-rules tournament``: the command-line face of :func:`azul_rules.tournament.run`
(its options are declared in ``azul_rules.cli``, so that other commands do not import
this package).

Exit status: 0 every game played, 1 some games lost by the backend (listed; ``--resume``
plays them again), 2 bad arguments, an unknown bot or a file that cannot be continued
(one line on standard error), 130 interrupted (the file keeps every finished game).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from azul_rules.bots import BotSpecError
from azul_rules.tournament.runner import Results, run
from azul_rules.tournament.settings import TournamentError

__all__ = ["main"]


def main(args: argparse.Namespace) -> int:
    """Run the tournament the arguments describe and print its results."""
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # package.module:Factory from here, as python -m
    try:
        results = run(
            [name for name in args.bots.split(",")], players=args.players, games=args.games,
            seed=args.seed, variant=args.variant, backend=args.backend, batch=args.batch,
            workers=args.workers, time_limit=args.time_limit, max_rounds=args.max_rounds,
            out=args.out, resume=args.resume, ray_address=args.ray_address,
            retries=args.retries, progress=False if args.no_progress else None,
            lang=getattr(args, "lang", "en"),
        )  # fmt: skip
    except BotSpecError as error:
        print(f"azul-rules: --bots: {_printable(str(error))}", file=sys.stderr)
        return 2
    except TournamentError as error:
        print(f"azul-rules: {_printable(str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        where = f"; {args.out} keeps every finished game: add --resume to go on" if args.out else ""
        print(f"azul-rules: interrupted{where}", file=sys.stderr)
        return 130
    _report(results, args.json)
    return 1 if results.lost else 0


def _printable(text: str) -> str:
    """One line, control characters escaped (a file or bot name may hold any)."""
    return text if text.isprintable() else repr(text)[1:-1]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _report(results: Results, as_json: bool) -> None:
    if results.cut_bytes:
        print(
            f"azul-rules: cut off the incomplete last line of {results.out} "
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
        done += f", {results.resumed} read back from {results.out}"
    if results.lost:
        done += f"; {results.lost_games} lost (see above; --resume plays them again)"
    elif results.out:
        done += f"; records in {results.out}"
    print(done)
