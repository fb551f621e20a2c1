"""The JSON Schemas (draft 2020-12) of the library's documents, shipped with the package.

``position``, ``move``, ``record``, ``claim`` and ``scoresheet``: each file describes the
form its reader accepts (``az.from_dict``, ``az.move_from_dict``, ``GameRecord.from_dict``,
``claims.claim_from_dict``, ``scoresheet.scoresheet_from_dict``); ``engine-protocol``
the lines of the engine protocol (``docs/engine-protocol.md``).  A schema's ``$id`` is
a URN (``urn:azul-rules:schema:position:1``); the record's schema refers to the position
and move schemas by theirs.  :func:`bundle` gives a self-contained copy, with every
schema it refers to embedded under ``$defs`` (what ``azul-rules serve`` publishes).

The readers stay the authority: they refuse everything a schema refuses, and more (a
position of the right form may still be impossible; a record's ``last_scoring`` must fit
its boards).

>>> from azul_rules.formats import schemas
>>> schemas.schema("move")["$id"]
'urn:azul-rules:schema:move:1'
>>> sorted(schemas.bundle("record")["$defs"])
['move', 'notation', 'position']
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib.resources import files
from typing import Any, Final

__all__ = ["NAMES", "PROTOCOL", "bundle", "schema"]

NAMES: Final = ("position", "move", "record", "claim", "scoresheet")
"""The schemas of the documents, by name (the file is ``<name>.schema.json``)."""

PROTOCOL: Final = "engine-protocol"
"""The schema of the engine protocol's lines (``docs/engine-protocol.md``)."""

_PREFIX: Final = "urn:azul-rules:schema:"


def schema(name: str) -> dict[str, Any]:
    """The schema ``name`` as shipped (a fresh copy); ``ValueError`` for another name."""
    return copy.deepcopy(_loaded(_checked(name)))


def bundle(name: str) -> dict[str, Any]:
    """The schema ``name`` with every schema it refers to by URN embedded under
    ``$defs`` (each keeping its ``$id``), so that it validates on its own."""
    document = schema(name)
    for other in _referenced(document) - {name}:
        document.setdefault("$defs", {})[other] = schema(other)
    return document


def _checked(name: str) -> str:
    if name not in NAMES and name != PROTOCOL:
        raise ValueError(f"no schema {name!r}: the schemas are {', '.join((*NAMES, PROTOCOL))}")
    return name


@cache
def _loaded(name: str) -> dict[str, Any]:
    text = files(__name__).joinpath(f"{name}.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _referenced(value: object) -> set[str]:
    """The names of the schemas ``value`` refers to by URN."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith(_PREFIX):
                found.add(ref.removeprefix(_PREFIX).split(":")[0])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found
