"""``python -m azul_rules.text [FILE.po ...]``: check catalogues as the library reads them
(every catalogue of the package without arguments); one line per file, and the file and
line of the first problem of a broken one (exit status 1)."""

from __future__ import annotations

import os
import sys

from azul_rules.text.catalogue import FOLDER, SOURCE, languages, load
from azul_rules.text.po import CatalogueError, read_catalogue


def main(argv: list[str] | None = None) -> int:
    """Check the catalogues named (or all of the package's); 0 when every one is sound."""
    paths = argv if argv else [os.path.join(FOLDER, f"{lang}.po") for lang in languages()]
    status = 0
    for path in paths:
        try:
            catalogue = read_catalogue(path, load(SOURCE))
        except (CatalogueError, OSError) as error:
            print(f"{error}", file=sys.stderr)
            status = 1
            continue
        print(f"{path}: {catalogue.lang}, {len(catalogue.texts)} phrases, "
              f"{catalogue.nplurals} plural forms")  # fmt: skip
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
