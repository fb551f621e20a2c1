"""The ``azul-rules`` command (also ``python -m azul_rules`` and ``python -m azul_rules.cli``).

Exit status: 0 success (or a legal move), 1 an illegal move (``play``: a bot that
forfeits), 2 unreadable input or an impossible position, whether or not the reader of the
output stays to the end (``| head``).
Errors are reported in words, never as a traceback.

This module assembles the parser from the commands' modules (one a subcommand, each
with ``register`` and ``run``) and runs the one named; ``_common``, ``_inputs`` and
``_outputs`` hold what several commands share (docs/layout.md).

Layer: the top.  The command line may import every other part of the package; nothing
imports it but ``azul_rules.__main__``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, Final, TextIO

from azul_rules import __version__
from azul_rules.cli import (
    ask,
    audit,
    audit_game,
    check,
    convert,
    differential,
    moves,
    play,
    replay,
    rules,
    serve,
    show,
    tournament,
)
from azul_rules.cli._common import Command, Commands, InputError, Parser, UsageError, name, one_line
from azul_rules.cli.play import MAX_ROUNDS, describe_scoring
from azul_rules.core.errors import FormatError
from azul_rules.core.shown import listed

__all__ = ["COMMANDS", "MAX_ROUNDS", "InputError", "UsageError", "describe_scoring", "main",
           "parser", "run"]  # fmt: skip

COMMANDS: Final[tuple[Command, ...]] = (
    play, check, moves, show, convert, audit, replay, audit_game, rules, ask, differential,
    tournament, serve,
)  # fmt: skip
"""The commands' modules, in the order ``azul-rules --help`` lists them."""


EPILOG: Final = """\
'azul-rules COMMAND --help' describes a command: its options, their defaults and choices.
Exit status: 0 done, 1 a finding (an illegal move, a wrong score), 2 unreadable input.
The manual: docs/cli.md in the source (the site's "Command line" page); the rules:
'azul-rules rules' or docs/rules.md."""
"""The top-level help's closing lines: where the commands and the manual are described."""


def parser() -> argparse.ArgumentParser:
    """The parser of ``azul-rules``: each command's module adds its subcommand."""
    assembled = Parser(
        prog="azul-rules",
        description="A strict referee for the board game Azul.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    assembled.add_argument("--version", action="version", version=f"azul-rules {__version__}")
    commands = assembled.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.register(commands)
    _describe_commands(commands)
    return assembled


_parser = parser  # the name the tests have always used


def _describe_commands(commands: Commands) -> None:
    """Each command's ``--help`` opens with what the command does (its line in
    ``azul-rules --help``)."""
    for entry in commands._choices_actions:
        command = commands.choices[entry.dest]
        if command.description is None and entry.help:
            command.description = entry.help[:1].upper() + entry.help[1:] + "."


def _command_parser(whole: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of ``azul-rules COMMAND``."""
    for action in whole._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return whole


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    whole = parser()
    try:
        args, extra = whole.parse_known_args(argv)
        if extra:  # told by the command's own parser: its name and its --help
            _command_parser(whole, args.command).error(
                f"unrecognized arguments: {listed(extra, show=name, sep=' ')}"
            )
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2
    runs = {command.NAME: command.run for command in COMMANDS}
    try:
        return runs[args.command](args)
    except InputError as error:
        for line in error.lines:
            print(f"azul-rules: {line}", file=sys.stderr)
    except (UsageError, FormatError) as error:
        print(f"azul-rules: {one_line(str(error))}", file=sys.stderr)
    except KeyboardInterrupt:
        print("azul-rules: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a bug of ours: still one line, never a traceback
        print(f"azul-rules: internal error, please report it: {type(error).__name__}: "
              f"{one_line(str(error)[:200])}", file=sys.stderr)  # fmt: skip
    return 2


def run() -> None:
    """Entry point of the ``azul-rules`` script and ``python -m azul_rules``.

    A reader that leaves early (``azul-rules check ... | head -1``) does not change the
    exit status: the rest of the output is dropped, quietly, and the command still
    exits 0, 1 or 2 as its verdict says."""
    streams = {"stdout": sys.stdout, "stderr": sys.stderr}
    outputs = {key: _Output(s) for key, s in streams.items() if s is not None}  # None: closed
    for key, output in outputs.items():
        setattr(sys, key, output)
    try:
        status = main()
        for output in outputs.values():
            output.flush()
    finally:
        for key, stream in streams.items():
            setattr(sys, key, stream)
    sys.exit(status)


class _Output:
    """Standard output (or error) whose reader may leave: from the first broken pipe
    on, what is written is dropped (and the descriptor is pointed at ``os.devnull``, so
    that nothing fails when Python flushes it at exit)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.reader_gone = False

    def write(self, text: str) -> int:
        if not self.reader_gone:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._gone()
        return len(text)

    def flush(self) -> None:
        if not self.reader_gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._gone()

    def _gone(self) -> None:
        self.reader_gone = True
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self._stream.fileno())
            finally:
                os.close(null)
        except (OSError, ValueError, AttributeError):  # no descriptor (a test's capture)
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
