"""``python -m azul_rules.cli.make_docs [DOCS_DIR] [--check]``: write the rule book's pages.

``docs/rules.md`` (English) and ``docs/regles.md`` (French) are generated from the texts of
:mod:`azul_rules.core.rulebook`; edit those, then run this from the project's root.  With
``--check`` nothing is written: the command exits 1 naming each page that differs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final, NoReturn

from azul_rules.core.rulebook import markdown

__all__ = ["PAGES", "main", "pages"]

PAGES: Final = {"en": "rules.md", "fr": "regles.md"}
"""The file name of the rule book's page in each language."""

PROG: Final = "python -m azul_rules.cli.make_docs"


def pages() -> Iterator[tuple[str, str]]:
    """Each page's file name and its text."""
    for lang, name in PAGES.items():
        yield name, markdown(lang)


class _Parser(argparse.ArgumentParser):
    """A wrong command line in one line on standard error, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{PROG}: {message} (see {PROG} --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Write the rule book's pages, docs/rules.md (English) and "
        "docs/regles.md (French), from the texts of azul_rules/core/rulebook.py.",
    )
    parser.add_argument("docs", metavar="DOCS_DIR", nargs="?", default="docs",
                        help="the folder to write them into (default: docs)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming each page that differs")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or ``--check``) the pages into ``DOCS_DIR`` (default ``docs``).  Exit
    status: 0 done (or up to date), 1 a page differs (``--check``), 2 a wrong command
    line or a page that cannot be written."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2
    docs = Path(args.docs)
    stale = []
    for name, text in pages():
        path = docs / name
        if args.check:
            if not _holds(path, text):
                stale.append(path)
            continue
        try:
            path.write_text(text, encoding="utf-8")
        except (OSError, ValueError) as error:  # ValueError: a null character in the name
            reason = error.strerror if isinstance(error, OSError) else None
            print(f"{PROG}: cannot write {path!s:.200}: {reason or error}", file=sys.stderr)
            return 2
        print(f"wrote {path}")
    for path in stale:
        print(f"{path} differs from azul_rules/core/rulebook.py: run {PROG}")
    return 1 if stale else 0


def _holds(path: Path, text: str) -> bool:
    try:
        return path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False


if __name__ == "__main__":
    sys.exit(main())
