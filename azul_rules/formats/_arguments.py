"""The types of the command line's numeric options, as strict as the JSON readers.

Python's ``int`` and ``float`` read more than digits: ``int("٣")``, ``int("１０")`` and
``int("1_0")`` are numbers, ``float("nan")``, ``float("inf")`` and ``float("1e308")``
too.  A command line takes what a JSON document would: ASCII digits, and for seconds a
finite decimal number that a timer can wait for.  Standard library only.
"""

from __future__ import annotations

import argparse
import re
from typing import Final

from azul_rules.core.shown import shown
from azul_rules.formats.jsontext import MAX_DIGITS

__all__ = ["MAX_SECONDS", "integer", "integer_value", "seconds"]

MAX_SECONDS: Final = 1e9
"""The longest time an option takes (some 30 years): a longer one is no limit, and a
timer cannot wait for ``1e308`` seconds."""

_INTEGER: Final = re.compile(r"-?[0-9]+", re.ASCII)
_DECIMAL: Final = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)


def integer_value(text: str) -> int | None:
    """``text`` as an integer when it is ASCII digits (``-`` before a negative one), at
    most :data:`~azul_rules.formats.jsontext.MAX_DIGITS` of them; ``None`` otherwise."""
    if _INTEGER.fullmatch(text) is None or len(text.removeprefix("-")) > MAX_DIGITS:
        return None
    return int(text)


def integer(text: str) -> int:
    """The type of every integer option (``--seed``, ``--players``, ``--games``...)."""
    value = integer_value(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"expected an integer written in digits 0-9, got {shown(text)}"
        )
    return value


def seconds(text: str) -> float:
    """The type of every option giving seconds (``--timeout``, ``--time-limit``): a
    decimal number in ASCII digits (``10``, ``0.5``), above 0 and at most
    :data:`MAX_SECONDS`."""
    value = float(text) if _DECIMAL.fullmatch(text) else None
    if value is None or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds above 0 and at most {MAX_SECONDS:.0f} "
            f"(such as 10 or 0.5), got {shown(text)}"
        )
    return value
