"""Strict reading of small JSON documents (claims, scoresheets): every problem is collected
with its JSON path, then raised at once as one :class:`~azul_rules.FormatError`.

The same readers check objects built in Python: :func:`plain` turns them into JSON-like
data first (colours to their names, tuples to lists), leaving anything unexpected as it
is, so that a wrong type is reported with the path of the field that holds it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Final

from azul_rules.core.colors import COLORS, MARKER, Color, FloorItem
from azul_rules.core.shown import number as _number
from azul_rules.core.shown import shown
from azul_rules.formats.jsontext import check_shape, format_error, member_path

__all__ = ["LIMIT", "Reader", "plain"]

LIMIT: Final = 1_000_000
"""Claimed figures (scores, bonuses) are integers of at most this size, either sign."""

_NAMES: Final = {c: c.name.lower() for c in COLORS}
_BY_NAME: Final = {name: c for c, name in _NAMES.items()}


class _Foreign:
    """Stands for a Python value that has no JSON form here (it is reported, not read)."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return shown(self.value, None)


def plain(value: object) -> object:
    """A Python value as the JSON readers see it: colours as names, the marker as
    ``"marker"``, tuples and lists as lists, mappings with their keys; a string or any
    other object that JSON would not hold here is kept as an opaque value that the
    readers refuse."""
    if isinstance(value, Color):
        return _NAMES[value]
    if value is MARKER:
        return "marker"
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if value is None or (isinstance(value, (bool, int)) and not isinstance(value, enum.Enum)):
        return value
    return _Foreign(value)


class Reader:
    """Collects ``(path, problem)`` pairs while reading a document."""

    def __init__(self) -> None:
        self.errors: list[tuple[str, str]] = []

    def fail(self, path: str, what: str) -> None:
        """Record one problem."""
        self.errors.append((path, what))

    def done(self) -> None:
        """Raise every problem recorded, as one ``FormatError``."""
        if self.errors:
            raise format_error(self.errors)

    def document(self, value: object, known: tuple[str, ...]) -> dict[str, object]:
        """The top-level object of a document, its ``format_version`` (optional) 1; raises
        at once when it is not an object at all.  The document is first held to the
        limits of :func:`~azul_rules.formats.jsontext.check_shape` (keys given twice, entries
        per array, values in all), each refusal with its path."""
        check_shape(value)
        doc = self.obj(value, "$", known)
        if doc is None:
            self.done()
            raise AssertionError("unreachable: done() raised")
        version = doc.get("format_version", 1)
        if type(version) is not int or version != 1:  # true is not 1
            self.fail("$.format_version", f"expected 1, got {shown(version)}")
        return doc

    def obj(self, value: object, path: str, known: tuple[str, ...]) -> dict[str, object] | None:
        """A JSON object whose keys are all in ``known``."""
        if not isinstance(value, dict):
            self.fail(path, f"expected a JSON object, got {_kind(value)}")
            return None
        for key in value:
            if key not in known:
                self.fail(member_path(path, key), f"unknown field (expected one of "
                          f"{', '.join(known)})")
        return value

    def integer(self, value: object, path: str, low: int = -LIMIT, high: int = LIMIT) -> int | None:
        """An integer from ``low`` to ``high`` (``true``/``false`` are not integers)."""
        if type(value) is not int:
            self.fail(path, f"expected an integer, got {_kind(value)}")
            return None
        if not low <= value <= high:
            self.fail(path, f"expected an integer from {low} to {high}, got {_number(value)}")
            return None
        return value

    def boolean(self, value: object, path: str) -> bool | None:
        """``true`` or ``false``."""
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, got {_kind(value)}")
            return None
        return value

    def array(self, value: object, path: str, length: int | None = None,
              most: int | None = None) -> list[object] | None:  # fmt: skip
        """A JSON array, of exactly ``length`` or at most ``most`` items when given."""
        if not isinstance(value, list):
            self.fail(path, f"expected a JSON array, got {_kind(value)}")
            return None
        if length is not None and len(value) != length:
            self.fail(path, f"expected {length} items, got {len(value)}")
            return None
        if most is not None and len(value) > most:
            self.fail(path, f"expected at most {most} items, got {len(value)}")
            return None
        return value

    def integers(self, value: object, path: str, low: int = -LIMIT, high: int = LIMIT,
                 most: int = 4) -> tuple[int, ...] | None:  # fmt: skip
        """An array of integers (one per player: at most 4, at least 1)."""
        items = self.array(value, path, most=most)
        if items is None:
            return None
        if not items:
            self.fail(path, "expected at least one item")
            return None
        read = [self.integer(v, f"{path}[{i}]", low, high) for i, v in enumerate(items)]
        return tuple(v for v in read if v is not None) if None not in read else None

    def players(self, value: object, path: str) -> tuple[int, ...] | None:
        """Player numbers (0 to 3), none named twice (the winners of a claim or a sheet)."""
        found = self.integers(value, path, 0, 3)
        if found is not None and len(set(found)) != len(found):
            self.fail(path, "a player is named twice")
        return found

    def color(self, value: object, path: str) -> Color | None:
        """A colour name."""
        if isinstance(value, str) and value in _BY_NAME:
            return _BY_NAME[value]
        self.fail(path, f"expected a colour ({', '.join(_BY_NAME)}), got {_kind(value)}")
        return None

    def floor_item(self, value: object, path: str) -> FloorItem | None:
        """A colour name or ``"marker"``."""
        if value == "marker":
            return MARKER
        if isinstance(value, str) and value in _BY_NAME:
            return _BY_NAME[value]
        self.fail(path, f"expected a colour or \"marker\", got {_kind(value)}")
        return None

    def counts(self, value: object, path: str) -> tuple[Color, ...] | None:
        """Tile counts by colour name (``{"red": 2}``) as a sorted multiset."""
        if not isinstance(value, dict):
            self.fail(path, f"expected a JSON object of tile counts by colour, got "
                      f"{_kind(value)}")  # fmt: skip
            return None
        tiles: list[Color] = []
        for key, count in value.items():
            color = _BY_NAME.get(key) if isinstance(key, str) else None
            if color is None:
                self.fail(f"{path}.{key}", f"unknown colour (expected {', '.join(_BY_NAME)})")
                continue
            number = self.integer(count, f"{path}.{key}", 0, 100)
            if number is not None:
                tiles.extend([color] * number)
        return tuple(sorted(tiles))


def _kind(value: object) -> str:
    if isinstance(value, _Foreign):
        return f"the Python value {shown(value.value, None)}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        written = _number(value) if isinstance(value, int) else shown(value)
        return f"the number {written}" if written[-1].isdigit() else written
    if isinstance(value, str):
        start = value if len(value) <= 20 else value[:20] + "..."
        return f"the string {start!r}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
