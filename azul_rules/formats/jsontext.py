"""Reading JSON text that may be careless or hostile, in bounded time and memory.

Every document the library reads (positions, moves, records, claims) goes through
:func:`load`, then :func:`check_shape`, before any of it is interpreted:

* text over :data:`MAX_INPUT_BYTES` is refused before parsing;
* a UTF-8 byte order mark is accepted; text that is not UTF-8 is refused;
* integers of more than :data:`MAX_DIGITS` digits (Python's own limit), ``NaN`` and
  ``Infinity`` are refused while parsing;
* the same key twice in one object is refused, with its path;
* no array or object may hold more than :data:`MAX_ITEMS` entries, and a document no
  more than its kind's budget of values (:func:`check_shape`): no position, move or
  claim comes near these figures, and they bound the work of reporting every problem.

Each refusal is a :class:`~azul_rules.FormatError` naming the path and the reason.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, Final

import attrs

from azul_rules.core.errors import FormatError, InvalidStateError
from azul_rules.core.shown import listed, name, number

__all__ = [
    "FORMAT_VERSION",
    "MAX_DIGITS",
    "MAX_INPUT_BYTES",
    "MAX_ITEMS",
    "MAX_REPORTED",
    "check_shape",
    "first_repeated",
    "format_error",
    "load",
    "load_unique",
    "member_path",
    "moved_under",
    "paths_under",
    "repeated_keys",
]

FORMAT_VERSION: Final = 1
"""The version of the JSON documents (``docs/json-format.md``): a position's
``format_version``, written by the writers and checked by the readers."""

MAX_INPUT_BYTES: Final = 1 << 20
"""The largest JSON text read, in bytes (1 MiB); a whole recorded game takes a few KB."""

MAX_DIGITS: Final = sys.get_int_max_str_digits() or 4300
"""The most digits a JSON integer may have: the interpreter's own limit on reading
integers from text (4,300 by default), past which their reading costs quadratic time.
Fields that take numbers bound them much lower (a tile count to 20, a generator state
to 64 bits)."""

MAX_ITEMS: Final = 100
"""The most entries of one JSON array or object inside a position, move or claim (the
game has 100 tiles; a record's list of moves is the one longer array)."""

MAX_REPORTED: Final = 50
"""The most problems a ``FormatError`` lists; past it, one more entry says how many
were left out."""


class _Refused(Exception):
    """Raised inside the JSON parser's hooks; turned into a ``FormatError``."""


class _Object(dict[str, Any]):
    """A JSON object that remembers the keys it was given twice."""

    __slots__ = ("repeated",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.repeated: tuple[str, ...] = ()
        if len(self) != len(pairs):
            seen: set[str] = set()
            repeated = []
            for key, _ in pairs:
                if key in seen:
                    repeated.append(key)
                seen.add(key)
            self.repeated = tuple(repeated)


def repeated_keys(value: object) -> tuple[str, ...]:
    """The keys given twice in a JSON object read by :func:`load` (``()`` for any other
    value)."""
    return value.repeated if isinstance(value, _Object) else ()


def first_repeated(data: object) -> tuple[str, str] | None:
    """The path of the first object of a document read by :func:`load` that was given a
    key twice, and those keys as they are quoted (``("$.result", "'end'")``); ``None``
    when there is none.  Unlike :func:`check_shape`, no limit of size applies (for
    documents such as a tournament's game line, a whole record inside)."""
    stack: list[tuple[object, str]] = [(data, "$")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            if repeated := repeated_keys(value):
                return path, listed(repeated)
            stack.extend((v, member_path(path, k)) for k, v in reversed(value.items())
                         if isinstance(v, (dict, list)))  # fmt: skip
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value)))
                         if isinstance(v, (dict, list)))  # fmt: skip
    return None


def _parse_constant(name: str) -> float:
    raise _Refused(f"{name} is not a JSON number")


def format_error(errors: list[tuple[str, str]]) -> FormatError:
    """A ``FormatError`` listing ``(path, problem)`` pairs, at most
    :data:`MAX_REPORTED` of them."""
    if len(errors) > MAX_REPORTED:
        left_out = len(errors) - MAX_REPORTED
        errors = [*errors[:MAX_REPORTED], ("$", f"... and {left_out} more problems")]
    return FormatError("; ".join(f"{p}: {m}" for p, m in errors), tuple(errors))


def moved_under(path: str, prefix: str) -> str:
    """A document's path (``$.round``) as the path of the same place once the document
    lies at ``prefix`` (``$.initial_state`` gives ``$.initial_state.round``)."""
    return prefix + path.removeprefix("$")


@contextlib.contextmanager
def paths_under(prefix: str) -> Iterator[None]:
    """Read a document that lies at ``prefix`` inside another: a ``FormatError`` or an
    ``InvalidStateError`` raised within names its places under ``prefix``."""
    try:
        yield
    except FormatError as error:
        raise format_error([(moved_under(p, prefix), m) for p, m in error.errors]) from None
    except InvalidStateError as error:
        raise InvalidStateError(
            tuple(attrs.evolve(p, path=moved_under(p.path, prefix)) for p in error.problems)
        ) from None


def load(text: str | bytes | bytearray) -> object:
    """Parse JSON text within the limits above; ``FormatError`` otherwise."""
    return _decoded(text, _Object)


def load_unique(text: str | bytes | bytearray) -> object:
    """:func:`load`, also refusing a key given twice in any object of the document, with
    the object's path (``$.result: the same key given twice: 'end'``), but none of
    :func:`check_shape`'s limits of size: for documents of their own shape, such as a
    tournament's game line (a whole record inside).  The document is walked only when
    some object did repeat a key."""
    hook = _NotingRepeats()
    data = _decoded(text, hook)
    if hook.seen and (found := first_repeated(data)) is not None:
        path, keys = found
        raise format_error([(path, f"the same key given twice: {keys}")])
    return data


class _NotingRepeats:
    """A JSON object hook building :class:`_Object`s that notes whether one of them
    was given a key twice."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, pairs: list[tuple[str, Any]]) -> _Object:
        found = _Object(pairs)
        if found.repeated:
            self.seen = True
        return found


def _decoded(text: str | bytes | bytearray, hook: Callable[[list[tuple[str, Any]]], object]
             ) -> object:  # fmt: skip
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_INPUT_BYTES:
            raise _too_large(len(text))
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            where = f"{error.reason} at byte {error.start}"
            raise format_error([("$", f"not UTF-8 text ({where})")]) from None
    elif not isinstance(text, str):
        kind = type(text).__name__
        raise format_error([("$", f"expected JSON text (str or bytes), got {kind}")])
    if len(text) > MAX_INPUT_BYTES:
        raise _too_large(len(text))
    try:
        return json.loads(
            text.removeprefix("\ufeff"),
            object_pairs_hook=hook,
            parse_constant=_parse_constant,
        )
    except _Refused as refused:
        raise format_error([("$", f"not acceptable JSON: {refused}")]) from None
    except json.JSONDecodeError as error:
        raise format_error([("$", f"not JSON: {error}")]) from None
    except RecursionError:
        raise format_error([("$", "not acceptable JSON: nested too deeply")]) from None
    except ValueError as error:  # an integer past MAX_DIGITS digits
        what = f"an integer of more than {MAX_DIGITS} digits" if "digits" in str(error) else error
        raise format_error([("$", f"not acceptable JSON: {what}")]) from None


def _too_large(size: int) -> FormatError:
    return format_error([("$", f"{size} bytes of input: at most {MAX_INPUT_BYTES} are read")])


def member_path(path: str, key: object) -> str:
    """The JSON path of ``key`` inside the value at ``path`` (``$.a``, ``$.a[2]``,
    ``$.bag.blue``; ``$.bag['a b']`` for a key that is not a plain name)."""
    if isinstance(key, int):
        return f"{path}[{number(key)}]"
    named = name(key)
    return f"{path}.{named}" if named is key else f"{path}[{named}]"


def check_shape(data: object, path: str = "$", budget: int = 2_000) -> None:
    """Refuse repeated keys, arrays and objects over :data:`MAX_ITEMS` entries, and more
    than ``budget`` values in all, each with its path (every problem at once).  A quick
    pass counts and looks; the paths are worked out only when something is wrong."""
    if _looks_fine(data, budget):
        return
    errors: list[tuple[str, str]] = []
    for count, (value, where) in enumerate(_walk(data, path), start=1):
        if count > budget:
            errors.append((path, f"more than {budget} JSON values: this is no such document"))
            break
        if isinstance(value, _Object) and value.repeated:
            errors.append((where, f"the same key given twice: {listed(value.repeated)}"))
        if isinstance(value, (list, dict)) and len(value) > MAX_ITEMS:
            errors.append((where, f"{len(value)} entries: at most {MAX_ITEMS}"))
    if errors:
        raise format_error(errors)


def _looks_fine(data: object, budget: int) -> bool:
    """True when no container is too long or repeats a key and the values fit the
    budget; no path is built."""
    stack = [data]
    count = 0
    while stack:
        value = stack.pop()
        count += 1
        if isinstance(value, dict):
            if len(value) > MAX_ITEMS or (type(value) is _Object and value.repeated):
                return False
            stack.extend(value.values())
        elif isinstance(value, list):
            if len(value) > MAX_ITEMS:
                return False
            stack.extend(value)
        if count > budget:
            return False
    return True


def _walk(data: object, path: str) -> Iterator[tuple[object, str]]:
    """Every value of a parsed document with its path, depth first, without recursion."""
    stack: list[tuple[object, str]] = [(data, path)]
    while stack:
        value, where = stack.pop()
        yield value, where
        if isinstance(value, dict):
            items = list(value.items())[: MAX_ITEMS + 1]
            stack.extend((v, member_path(where, k)) for k, v in reversed(items))
        elif isinstance(value, list):
            entries = list(enumerate(value[: MAX_ITEMS + 1]))
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(entries))
