"""Values quoted in messages, safely: the library quotes what it was given, and what it
was given may be hostile -- a number of 5,000 digits, whose ``str`` and ``repr`` raise
``ValueError`` past Python's limit of digits; a string of a megabyte; control
characters that would move a terminal's cursor or end a log line.  Every quoted value
is cut (:data:`MAX_SHOWN` characters, a number past :data:`MAX_FIGURE_DIGITS` digits
said to be one) and printable.  Its words (a number too long to write, the forms of a
counted word) come from the catalogues (:mod:`azul_rules.text`); every layer may use it.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from azul_rules.text import SOURCE, languages, plural_index, template

__all__ = [
    "MAX_FIGURE_DIGITS", "MAX_NAME", "MAX_SHOWN", "TYPOGRAPHY", "clipped", "fill", "is_printable",
    "listed", "name", "number", "plural_form", "printable", "shown", "singular", "too_long",
]  # fmt: skip

T = TypeVar("T")

MAX_SHOWN: Final = 200
"""The most characters of a value quoted in a message (``shown(value, None)``)."""

MAX_FIGURE_DIGITS: Final = 40
"""The most digits of a number written in a message or on a board; a longer one is
said to be one (``an integer of 4300 digits``), as the web judge says it."""

MAX_NAME: Final = 40
"""The longest key named as it is (``$.bag.blue``, ``unknown field: surprise``)."""


def _known(lang: str) -> str:
    """``lang`` if a catalogue has it, else English: a quoted value is always written."""
    return lang if lang in languages() else SOURCE


def too_long(lang: str = "en") -> str:
    """What a number Python refuses to write is called in messages."""
    return template(_known(lang), "number.too_long").format(digits=sys.get_int_max_str_digits())


def number(value: int, lang: str = "en") -> str:
    """``str(value)``, or, past :data:`MAX_FIGURE_DIGITS` digits, how many digits it has
    (``an integer of 4300 digits``), or that it has more than Python writes (past
    ``sys.get_int_max_str_digits()``)."""
    if -(10**MAX_FIGURE_DIGITS) < value < 10**MAX_FIGURE_DIGITS:
        return str(value)
    try:
        digits = len(str(abs(value)))
    except ValueError:
        return too_long(lang)
    return template(_known(lang), "number.long").format(digits=digits)


def plural_form(count: object, lang: str = "en") -> int:
    """Which form of a counted word ``count`` takes in ``lang`` (0 the first), by the
    ``Plural-Forms`` rule of its catalogue: ``1 tile``, ``0 tiles``, ``2 tiles`` in
    English; ``0 carreau``, ``1 carreau``, ``2 carreaux`` in French; a ``float`` of seconds
    likewise.  What is not a number (hostile input) takes the last form."""
    return plural_index(_known(lang), count)


def singular(count: object, lang: str = "en") -> bool:
    """Whether ``count`` takes the first form of a counted word in ``lang``: the singular
    of the two of English and French (:func:`plural_form`)."""
    return plural_form(count, lang) == 0


class _Words(string.Formatter):
    """``str.format`` for messages: an ``int`` is written by :func:`number`, and a
    field whose format lists forms, ``singular|plural`` (as many as the language's
    catalogue has plural forms), is the form its count takes:
    ``{count} {count:tile|tiles} {count:was|were} taken``; ``{seconds:g}`` writes a
    ``float`` in its shortest form.  No other format is applied: the catalogues may
    hold none (:mod:`azul_rules.text.po` refuses them), and a phrase is never longer
    than its words."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec:
            forms = format_spec.split("|")
            return forms[min(plural_form(value, self.lang), len(forms) - 1)]
        if format_spec == "g" and type(value) is float:  # seconds: 1.5, 30
            return format(value, "g")
        if type(value) is int:
            return number(value, self.lang)
        return format(value, "")


def fill(template: str, lang: str, /, **params: object) -> str:
    """``template`` with its ``params`` in ``lang``: numbers written (:func:`number`), each
    counted word in the singular or the plural its count takes (``{n:tile|tiles}``)."""
    return _Words(lang).vformat(template, (), params)


TYPOGRAPHY: Final = frozenset("\u00a0\u202f")
"""The spaces that ``str.isprintable`` refuses (category Zs) but that a phrase of the
catalogues holds as ordinary typography: the no-break space U+00A0 and the narrow
no-break space U+202F that French puts before ``; : ! ?`` and inside « ».  Visible as
spaces, they move no cursor and end no line; every other character Python does not
print (controls, U+2028, bidirectional controls, zero-width and other format
characters) is still escaped."""

_TYPOGRAPHY_SPLIT: Final = re.compile("([\u00a0\u202f])")


def is_printable(text: str) -> bool:
    """Whether :func:`printable` leaves ``text`` as it is: every character printable by
    ``str.isprintable``, or one of the spaces of :data:`TYPOGRAPHY`."""
    return text.isprintable() or all(c.isprintable() or c in TYPOGRAPHY for c in text)


def printable(text: str) -> str:
    """``text`` on one line: control characters (and every other character Python does
    not print, such as U+2028 or a bidirectional control) escaped as ``repr`` escapes
    them; the no-break spaces of French typography (:data:`TYPOGRAPHY`) kept."""
    if is_printable(text):
        return text
    pieces = _TYPOGRAPHY_SPLIT.split(text)
    return "".join(p if p in TYPOGRAPHY else repr(p)[1:-1] for p in pieces)


def clipped(text: str, limit: int = MAX_SHOWN) -> str:
    """Free text from outside (an engine's message, a bot's error) as a message quotes
    it: printable (:func:`printable`) and cut to ``limit`` characters (``...``)."""
    text = printable(text[: limit + 1])
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(value: object, limit: int | None = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (``None``: :data:`MAX_SHOWN`) and
    printable; an integer past :data:`MAX_FIGURE_DIGITS` digits said to be one."""
    limit = MAX_SHOWN if limit is None else limit
    if type(value) is int:
        text = number(value)
    else:
        if isinstance(value, (str, bytes)) and len(value) > limit:
            value = value[:limit]  # its repr is as long at least: cut below, with "..."
        try:
            text = printable(repr(value))
        except ValueError:
            text = f"a {type(value).__name__} holding {too_long('en')}"
    if len(text) <= limit:
        return text
    return text[: limit - 3] + "..."


def name(key: object) -> str:
    """A key of a document as a message names it: a plain name (an ASCII identifier of
    at most :data:`MAX_NAME` characters) as it is, any other key :func:`shown`."""
    if isinstance(key, str) and key.isidentifier() and key.isascii() and len(key) <= MAX_NAME:
        return key
    return shown(key)


def listed(values: Sequence[T], most: int = 5, show: Callable[[T], str] = shown,
           sep: str = ", ") -> str:  # fmt: skip
    """Values as a message lists them (each ``show``-n: :func:`shown`, or :func:`name`
    for keys), the first ``most`` of them and how many more (``'a', 'b' and 12 more``)."""
    items = sep.join(show(v) for v in values[:most])
    return items if len(values) <= most else f"{items} and {len(values) - most} more"
