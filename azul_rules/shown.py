"""Values quoted in messages, safely: the library quotes what it was given, and what it
was given may be hostile (a number of 5,000 digits, whose ``str`` and ``repr`` raise
``ValueError`` past Python's limit of digits).  No dependency: every layer may use it.
"""

from __future__ import annotations

import sys

__all__ = ["number", "shown", "too_long"]

_TOO_LONG = {
    "en": "an integer of more than {digits} digits",
    "fr": "un entier de plus de {digits} chiffres",
}


def too_long(lang: str = "en") -> str:
    """What a number Python refuses to write is called in messages."""
    return _TOO_LONG.get(lang, _TOO_LONG["en"]).format(digits=sys.get_int_max_str_digits())


def number(value: int, lang: str = "en") -> str:
    """``str(value)``, or what it is when Python refuses to write it (more digits than
    ``sys.get_int_max_str_digits()``)."""
    try:
        return str(value)
    except ValueError:
        return too_long(lang)


def shown(value: object, limit: int | None = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (``None``: whole), or what it is when
    it holds an integer Python refuses to write."""
    try:
        text = repr(value)
    except ValueError:
        if isinstance(value, int):
            text = too_long("en")
        else:
            text = f"a {type(value).__name__} holding {too_long('en')}"
    if limit is None or len(text) <= limit:
        return text
    return text[: limit - 3] + "..."
