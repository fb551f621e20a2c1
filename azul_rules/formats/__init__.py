"""Formats: positions, moves and game records as JSON, their schemas, and the readers of
hostile input.

``jsontext`` reads JSON text within bounds (depth, size, digits), ``serialization`` turns
states and moves into documents and back (checking every part, ``InvalidStateError`` for a
position that cannot exist), ``record`` is the game record, ``unseen`` fills the bag and
lid of a position typed without them, ``jsonio`` is the public ``to_json``/``from_json``,
``schemas`` the JSON Schemas shipped with the package, and the private helpers read files
and command-line numbers without hanging or reading without end.

May import: ``azul_rules.core`` and the standard library.
"""
