"""``azul-rules convert``: a position written again, as a JSON document
(docs/json-format.md), as its one-line notation (docs/notation.md) or as the link that
opens it on the web judge's page (``/?position=<notation>``, docs/web.md).

Exit status 0, 2 unreadable input (or a position no notation holds: a score past 100
digits).
"""

from __future__ import annotations

import argparse
from typing import Final

from azul_rules.cli._common import POSITION, POSITION_HELP, Commands, UsageError, add_lang
from azul_rules.cli._inputs import load_state
from azul_rules.formats.jsonio import to_json
from azul_rules.formats.notation import to_notation

__all__ = ["NAME", "register", "run"]

NAME = "convert"

FORMATS: Final = ("json", "notation", "link")
"""What ``--to`` writes: the JSON document, the notation, the page's link."""


def register(commands: Commands) -> None:
    """Add ``convert`` and its options to ``commands``."""
    parser = commands.add_parser(NAME, help="a position written as JSON, a notation or a link")
    parser.add_argument("state", metavar=POSITION, help=POSITION_HELP)
    parser.add_argument("--to", choices=FORMATS, required=True,
                        help="what to write: json, notation or link (the web page's "
                        "/?position=...)")  # fmt: skip
    parser.add_argument("--base", metavar="URL", default="",
                        help="the address of the web judge the link starts with, such "
                        "as http://127.0.0.1:8000 (default: none, a link from the site's "
                        "root)")  # fmt: skip
    add_lang(parser, "the language of the messages (a position's problems): en (default) "
             "or fr")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Read the position and print it in the format asked for."""
    state = load_state(args.state, args.lang)
    if args.to == "json":
        print(to_json(state))
        return 0
    try:
        notation = to_notation(state)
    except ValueError as error:  # a score past 100 digits: no notation holds it
        raise UsageError(f"{args.to}: {error}") from None
    if args.to == "notation":
        print(notation)
    else:
        print(f"{args.base.rstrip('/')}/?position={notation}")
    return 0
