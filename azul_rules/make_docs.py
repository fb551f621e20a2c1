"""``python -m azul_rules.make_docs [DOCS_DIR] [--check]``: write the rule book's pages.

``docs/rules.md`` (English) and ``docs/regles.md`` (French) are generated from the texts of
:mod:`azul_rules.rulebook`; edit those, then run this from the project's root.  With
``--check`` nothing is written: the command exits 1 naming each page that differs.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

from azul_rules.rulebook import markdown

__all__ = ["PAGES", "main", "pages"]

PAGES: Final = {"en": "rules.md", "fr": "regles.md"}
"""The file name of the rule book's page in each language."""


def pages() -> Iterator[tuple[str, str]]:
    """Each page's file name and its text."""
    for lang, name in PAGES.items():
        yield name, markdown(lang)


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or ``--check``) the pages into ``DOCS_DIR`` (default ``docs``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    folders = [a for a in args if a != "--check"]
    docs = Path(folders[0] if folders else "docs")
    stale = []
    for name, text in pages():
        path = docs / name
        if not check:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path)
    for path in stale:
        print(f"{path} differs from azul_rules/rulebook.py: run python -m azul_rules.make_docs")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
