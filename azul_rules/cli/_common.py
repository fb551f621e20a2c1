"""What every command of ``azul-rules`` shares: its two kinds of failure, how it quotes
a file name in a message, and the options several commands take, worded once.

Both failures end the command with exit status 2 and words on standard error, never a
traceback (:func:`azul_rules.cli.main` prints them).
"""

from __future__ import annotations

import argparse
from typing import Final, NoReturn, Protocol, TypeAlias

from azul_rules.core.messages import LANGUAGES
from azul_rules.core.shown import clipped, printable, shown

__all__ = [
    "EXPLAIN_HELP",
    "JSON_HELP",
    "LANG_HELP",
    "PLAYERS_HELP",
    "POSITION",
    "POSITION_HELP",
    "STDIN",
    "VARIANT_HELP",
    "Command",
    "Commands",
    "InputError",
    "Parser",
    "UsageError",
    "add_explain",
    "add_json",
    "add_lang",
    "count",
    "name",
    "one_line",
]

_MAX_USAGE: Final = 500
"""The longest message about a wrong command line (its values are quoted cut)."""

STDIN: Final = "-"
"""The file name that reads standard input, for every input file of every command."""


class Parser(argparse.ArgumentParser):
    """argparse, reporting a wrong command line in one line (``--help`` for more)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("azul-rules").strip()
        where = f"{command}: " if command else ""
        text = clipped(message, _MAX_USAGE)  # its values are cut already: a last guard
        self.exit(2, f"azul-rules: {where}{text} (see {self.prog} --help)\n")

    def _check_value(self, action: argparse.Action, value: object) -> None:
        """argparse's, quoting a wrong value cut (``--lang`` given a megabyte)."""
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(repr, action.choices))
            raise argparse.ArgumentError(
                action, f"invalid choice: {shown(value)} (choose from {choices})"
            )


Commands: TypeAlias = "argparse._SubParsersAction[Parser]"
"""What each command's ``register`` adds its parser to: ``azul-rules``'s subcommands."""


class Command(Protocol):
    """What a command's module holds: its name, how it adds its parser, how it runs."""

    NAME: str

    def register(self, commands: Commands) -> None:
        """Add the command's parser, with its one-line help and options, to ``commands``."""

    def run(self, args: argparse.Namespace) -> int:
        """Do what the parsed ``args`` ask; returns the exit status."""


class UsageError(Exception):
    """A command given arguments it cannot act on (an unknown bot, a file it cannot
    write): one line on standard error, exit 2."""


class InputError(Exception):
    """An input file that cannot be read, understood or believed: every problem on
    its own line (what, where, which rule), exit 2."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def name(text: str) -> str:
    """A file name or an argument as a message quotes it: on one line, cut."""
    return clipped(text)


def one_line(text: str) -> str:
    """A message as it can be shown on one line (control characters escaped)."""
    return printable(text)


def count(n: int, noun: str) -> str:
    """``1 bot``, ``2 bots`` (English and French nouns taking an ``s``)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# The help of the options several commands share.  Every help text of the command line
# starts with a lower-case word and ends without a full stop; a value is named by the
# same metavar wherever it is taken (POSITION, FILE, N, S...): tests/cli/test_cli_usage.py.

LANG_HELP: Final = (  # one language per catalogue of azul_rules.text: "en (default) or fr"
    f"the language of the output: {', '.join(['en (default)', *LANGUAGES[1:-1]])} or "
    f"{LANGUAGES[-1]}"
)
JSON_HELP: Final = "print the result as JSON on standard output"
EXPLAIN_HELP: Final = "print the broken rule's text under each violation"
PLAYERS_HELP: Final = "the number of players: 2, 3 or 4 (default 2)"
VARIANT_HELP: Final = "the wall: colored (default) or grey (the back of the boards)"
POSITION: Final = "POSITION"
"""The metavar of every position argument (a notation or a JSON file)."""
POSITION_HELP: Final = (
    "a position: its notation (docs/notation.md) or a JSON file (docs/json-format.md; "
    "- reads standard input)"
)


def add_lang(parser: argparse.ArgumentParser, help: str = LANG_HELP) -> None:
    """``--lang``: the language of what the command prints (every command but ``serve``)."""
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help=help)


def add_json(parser: argparse.ArgumentParser) -> None:
    """``--json``: the command's result as a JSON document on standard output, worded
    the same for every command."""
    parser.add_argument("--json", action="store_true", help=JSON_HELP)


def add_explain(parser: argparse.ArgumentParser) -> None:
    """``--explain``: the text of the rule each violation breaks, under it."""
    parser.add_argument("--explain", action="store_true", help=EXPLAIN_HELP)
