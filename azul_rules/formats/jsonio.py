"""The JSON entry points: positions, moves and game records to and from JSON text or
plain data (format in ``docs/json-format.md``).  ``azul_rules`` loads this module, and
cattrs with it, on first use."""

from __future__ import annotations

from types import UnionType
from typing import Any, TypeVar, overload

from azul_rules.core.moves import Move
from azul_rules.core.state import GameState
from azul_rules.formats import serialization
from azul_rules.formats.jsontext import load
from azul_rules.formats.record import GameRecord
from azul_rules.formats.unseen import complete_unseen

__all__ = ["from_dict", "from_json", "move_from_dict", "move_from_json", "to_dict", "to_json"]

T = TypeVar("T")


def to_dict(obj: object) -> dict[str, Any]:
    """A ``GameState``, a move or a ``GameRecord`` as plain JSON-ready data.  An
    impossible position is written (and read back as ``InvalidStateError``).

    :raises TypeError: for anything but a ``GameState``, a move or a ``GameRecord``.
    :raises FormatError: naming each path, for what :func:`from_json` would refuse as
        one: a bag or lid count over 20, an array past 100 entries, a ``last_scoring``
        that does not fit, a record's setting the reader refuses (``$.players``), more
        than 10,000 moves (``$.moves``), an entry that is not a move (``$.moves[3]``); a
        record's ``initial_state`` is named under ``$.initial_state``.
    """
    if isinstance(obj, GameRecord):
        return obj.to_dict()
    return serialization.to_dict(obj)


def to_json(obj: object, *, indent: int | None = 2) -> str:
    """A ``GameState``, a move or a ``GameRecord`` as JSON text, indented by ``indent``
    spaces.  States and moves keep short lists on one line; a record writes one move a
    line (``indent=None``: everything on one line).  An impossible position is written
    (and read back as ``InvalidStateError``).

    :raises TypeError: for anything but a ``GameState``, a move or a ``GameRecord``.
    :raises FormatError: naming each path, for what :func:`from_json` would refuse as
        one: what :func:`to_dict` refuses, an integer past 4,300 digits (``$.seed``) or
        a text over 1 MiB (``docs/json-format.md``, "Writing").
    """
    if isinstance(obj, GameRecord):
        return obj.to_json(indent=indent)
    return serialization.to_json(obj, indent=indent)


@overload
def from_dict(data: object, cls: type[T], *, infer_unseen: bool = False) -> T: ...
@overload
def from_dict(data: object, cls: UnionType, *, infer_unseen: bool = False) -> Move: ...
def from_dict(data: object, cls: Any, *, infer_unseen: bool = False) -> Any:
    """Read a ``GameState``, a ``GameRecord`` or a move (``cls``; ``Move`` for any kind)
    from plain data.  ``infer_unseen=True`` (a ``GameState`` only) reads a position
    typed without its bag, lid or marker holder as
    :func:`~azul_rules.complete_unseen` fills them in ("every other tile"); without
    it a part left out is read as empty, as the format says.

    :raises FormatError: for unreadable input: every problem with its JSON path, at most
        50 listed.
    :raises InvalidStateError: for a state that cannot exist: every problem (under
        ``$.initial_state`` in a record).
    :raises TypeError: for a ``cls`` other than ``GameState``, ``GameRecord``, ``Move``
        or a move class, or ``infer_unseen`` asked of another than ``GameState``.
    """
    if infer_unseen:
        if cls is not GameState:
            raise TypeError("infer_unseen reads positions only (cls=GameState)")
        data, _ = complete_unseen(data)
    if cls is GameRecord:
        return GameRecord.from_dict(data)
    return serialization.from_dict(data, cls)


@overload
def from_json(text: str | bytes, cls: type[T], *, infer_unseen: bool = False) -> T: ...
@overload
def from_json(text: str | bytes, cls: UnionType, *, infer_unseen: bool = False) -> Move: ...
def from_json(text: str | bytes, cls: Any, *, infer_unseen: bool = False) -> Any:
    """Read ``cls`` from JSON text (at most 1 MiB), as :func:`from_dict` does (with
    ``infer_unseen`` too); ``from_json(to_json(x), type(x)) == x``.

    :raises FormatError: for unreadable input: every problem with its JSON path, at most
        50 listed.
    :raises InvalidStateError: for a state that cannot exist: every problem (under
        ``$.initial_state`` in a record).
    :raises TypeError: for a ``cls`` other than ``GameState``, ``GameRecord``, ``Move``
        or a move class, or ``infer_unseen`` asked of another than ``GameState``.
    """
    return from_dict(load(text), cls, infer_unseen=infer_unseen)


def move_from_dict(data: object) -> Move:
    """Read a move of any kind (the ``"type"`` field says which) from plain data.

    :raises FormatError: for unreadable input: every problem with its JSON path, at most
        50 listed.
    """
    return serialization.move_from_dict(data)


def move_from_json(text: str | bytes) -> Move:
    """Read a move of any kind from JSON text (at most 1 MiB).

    :raises FormatError: for unreadable input: every problem with its JSON path, at most
        50 listed.
    """
    return serialization.move_from_dict(load(text))
