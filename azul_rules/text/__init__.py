"""Text: every player-facing phrase of the library, one gettext catalogue per language.

``en.po``, ``fr.po``... beside this file hold the phrases (error codes, problems of a
position, the rule book, the text picture, the SVG's captions, the command line's and the
web judge's own words) under stable keys such as ``code.LINE_FULL`` or ``rule.P3.text``;
:mod:`azul_rules.text.catalogue` reads them, lazily and once per language, strictly (a
broken file is a :class:`~azul_rules.text.po.CatalogueError` naming its file and
line; :mod:`azul_rules.text.po`, the reader, is imported on the first lookup only).
The languages are the catalogues present: adding ``de.po`` adds German everywhere
(``docs/translating.md``).

May import: the standard library only -- nothing of ``azul_rules`` (the bottom layer).
"""

from azul_rules.text.catalogue import (
    SOURCE,
    check_language,
    keys,
    languages,
    load,
    plural_index,
    table,
    template,
)

__all__ = [
    "SOURCE", "check_language", "keys", "languages", "load", "plural_index", "table", "template",
]  # fmt: skip
