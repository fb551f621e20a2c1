"""Which kind of document a parsed JSON text is, told by its keys, so that a file given
in the wrong place (a game record to ``show``, a claim and a position swapped for
``audit``) is named for what it is, in one line, instead of by every key the reader
refused.

Private: used by :mod:`azul_rules.cli`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

__all__ = ["Kind", "wrong_kind"]

Kind = Literal["position", "record", "claim", "scoresheet", "move"]

# The top-level keys that only a document of each kind has (docs/json-format.md,
# docs/audit.md), in the order they are looked for.
_SIGNS: Final[Mapping[Kind, frozenset[str]]] = {
    "move": frozenset({"type"}),
    "position": frozenset({"factories"}),
    "record": frozenset({"moves"}),
    "scoresheet": frozenset({"rounds"}),
    "claim": frozenset({"scores", "boards"}),
}

_NAMES: Final[Mapping[Kind, str]] = {
    "position": "a position",
    "record": "a game record",
    "claim": "an audit claim",
    "scoresheet": "a scoresheet",
    "move": "a move",
}

_READERS: Final[Mapping[Kind, str]] = {
    "position": "show, check and audit read positions",
    "record": "replay and audit-game read game records",
    "claim": "audit reads a claim as its second file",
    "scoresheet": "audit-game reads a scoresheet as its second file",
    "move": "check reads a move as its second argument",
}


def wrong_kind(doc: object, expected: Kind) -> str | None:
    """``"a game record, not a position (replay and audit-game read game records)"``
    when ``doc`` (a document as ``jsontext.load`` read it: the file is parsed once) is a
    JSON object of another kind than ``expected``; ``None`` when it may be of the
    expected kind (then its reader's errors say what is wrong) or is not an object at
    all."""
    if not isinstance(doc, dict) or doc.keys() & _SIGNS[expected]:
        return None
    for kind, signs in _SIGNS.items():
        if doc.keys() & signs:
            return f"{_NAMES[kind]}, not {_NAMES[expected]} ({_READERS[kind]})"
    return None
