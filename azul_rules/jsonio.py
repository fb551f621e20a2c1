"""The JSON entry points, loading cattrs only when they are first used (so that
``import azul_rules`` stays fast for programs that never serialise)."""

from __future__ import annotations

from types import UnionType
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from azul_rules.moves import Move

__all__ = ["from_dict", "from_json", "move_from_dict", "move_from_json", "to_dict", "to_json"]

T = TypeVar("T")


def to_json(obj: object, *, indent: int | None = 2) -> str:
    """A ``GameState``, a move or a ``GameRecord`` as JSON text (format in
    ``docs/json-format.md``); ``TypeError`` for anything else."""
    from azul_rules import serialization

    return serialization.to_json(obj, indent=indent)


@overload
def from_json(text: str | bytes, cls: type[T]) -> T: ...
@overload
def from_json(text: str | bytes, cls: UnionType) -> Move: ...
def from_json(text: str | bytes, cls: Any) -> Any:
    """Read a ``GameState``, a ``GameRecord`` or a move (``cls``; ``Move`` for any kind)
    from JSON text (at most 1 MiB).

    Raises ``FormatError`` for unreadable input (every problem, with its JSON path),
    ``InvalidStateError`` for a state that cannot exist and ``TypeError`` for another
    ``cls``.
    """
    from azul_rules import serialization

    return serialization.from_json(text, cls)


def to_dict(obj: object) -> dict[str, Any]:
    """A ``GameState``, a move or a ``GameRecord`` as plain JSON-ready data;
    ``TypeError`` for anything else."""
    from azul_rules import serialization

    return serialization.to_dict(obj)


@overload
def from_dict(data: object, cls: type[T]) -> T: ...
@overload
def from_dict(data: object, cls: UnionType) -> Move: ...
def from_dict(data: object, cls: Any) -> Any:
    """Read a ``GameState``, a ``GameRecord`` or a move from plain data (as
    ``from_json``)."""
    from azul_rules import serialization

    return serialization.from_dict(data, cls)


def move_from_json(text: str | bytes) -> Move:
    """Read a move of any kind (the ``"type"`` field says which) from JSON text."""
    from azul_rules import serialization

    return serialization.move_from_json(text)


def move_from_dict(data: object) -> Move:
    """Read a move of any kind from plain data."""
    from azul_rules import serialization

    return serialization.move_from_dict(data)
