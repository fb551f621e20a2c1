"""The command ``azul-rules differential``: its options read (the player counts, S1; the
walls; the durations, bounded as every option giving seconds), the search run
(:func:`~azul_rules.testing.differential.search.run`), the report printed (in words or
``--json``) and the disagreeing game saved (``--record``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, Final, TextIO

from azul_rules.core.phases import Variant
from azul_rules.core.shown import shown
from azul_rules.formats._arguments import MAX_SECONDS, integer_value
from azul_rules.formats._files import open_output, write_all
from azul_rules.testing.differential.report import record_json, report_dict, report_text
from azul_rules.testing.differential.search import run

__all__ = ["UsageError", "command", "parse_duration", "parse_players", "parse_variants"]

_DURATION: Final = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(ms|s|m|min|h)?", re.ASCII)
_UNITS: Final = {None: 1.0, "ms": 0.001, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}


class UsageError(ValueError):
    """A command-line option that cannot be read."""


def parse_duration(text: str, option: str) -> float:
    """``"60s"``, ``"2m"``, ``"1.5"`` (seconds), ``"500ms"`` in seconds: ASCII digits, above
    0 and at most :data:`~azul_rules.formats._arguments.MAX_SECONDS` (as every option giving
    seconds)."""
    match = _DURATION.fullmatch(text.strip())
    length = float(match.group(1)) * _UNITS[match.group(2)] if match else 0.0
    if not 0 < length <= MAX_SECONDS:
        raise UsageError(
            f"{option}: expected a duration above 0 and at most {MAX_SECONDS:.0f} seconds, "
            f"such as 60s, 2m or 500ms, got {shown(text)}"
        )
    return length


def parse_players(text: str) -> tuple[int, ...]:
    """``"2,3,4"`` as player counts (S1)."""
    read = [integer_value(part) for part in text.split(",")]
    counts = tuple(dict.fromkeys(n for n in read if n is not None)) if None not in read else ()
    if not counts or any(n not in (2, 3, 4) for n in counts):
        raise UsageError(
            f"--players: expected player counts from 2, 3, 4 such as 2,3; got {shown(text)}"
        )
    return counts


def parse_variants(text: str | None) -> tuple[Variant, ...] | None:
    """``"colored"``, ``"grey"`` or ``"colored,grey"``; ``None`` for the engine's own."""
    if text is None:
        return None
    names = [part.strip() for part in text.split(",")]
    if not names or any(n not in ("colored", "grey") for n in names):
        raise UsageError(f"--variant: expected colored, grey or colored,grey; got {shown(text)}")
    return tuple(Variant(n) for n in dict.fromkeys(names))


def _write(path: str, text: str) -> None:
    """``--record``: ``path`` holding ``text``; a named pipe that no process reads is
    refused at once (``_files.open_output``) rather than waited for."""
    fd = open_output(path)
    try:
        write_all(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def _printable(text: str) -> str:
    """One line, control characters escaped (a file name may hold any)."""
    return text if text.isprintable() else repr(text)[1:-1]


def command(args: Any, out: TextIO | None = None) -> int:
    """The ``azul-rules differential`` command: print the report, return its status."""
    out = out or sys.stdout
    try:
        players = parse_players(args.players)
        variants = parse_variants(args.variant)
        budget = parse_duration(args.time, "--time") if args.time else None
        shrink = parse_duration(args.shrink_time, "--shrink-time")
        if args.games is not None and args.games < 1:
            raise UsageError(f"--games: expected at least 1, got {args.games}")
        if not 0 < args.timeout <= MAX_SECONDS:  # NaN and infinity fail this too
            raise UsageError(f"--timeout: expected a number of seconds above 0 and at most "
                             f"{MAX_SECONDS:.0f}, got {shown(args.timeout)}")  # fmt: skip
    except UsageError as error:
        print(f"azul-rules differential: {error}", file=sys.stderr)
        return 2
    lang = getattr(args, "lang", "en")
    report = run(args.engine, players=players, variants=variants, games=args.games,
                 time_budget=budget, seed=args.seed, timeout=args.timeout,
                 shrink_time=shrink, lang=lang)  # fmt: skip
    if report.disagreement is not None and args.record:
        try:
            _write(args.record, record_json(report.disagreement.record) + "\n")
        except (OSError, ValueError) as error:  # ValueError: a name with a null character
            reason = error.strerror if isinstance(error, OSError) else error
            print(f"azul-rules differential: cannot write {_printable(args.record)}: {reason}",
                  file=sys.stderr)  # fmt: skip
            return 2
    if args.json:
        print(json.dumps(report_dict(report), indent=1), file=out)
    elif report.failure is not None:
        print(report_text(report, lang), file=sys.stderr)
    else:
        print(report_text(report, lang), file=out)
    return report.status
