"""The engine protocol, version 1, for the engine-testing kit: the names of
:mod:`azul_rules.formats.engine_protocol`, where the protocol lives (it needs no optional
extra, so that the reference engine runs without Hypothesis)."""

from __future__ import annotations

from azul_rules.formats.engine_protocol import (
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    REQUEST_TYPES,
    EngineInfo,
    ProtocolError,
    comparable,
    factories_doc,
    move_doc,
    read_hello,
    read_moves,
    read_view,
    referee_view,
    schema,
)

__all__ = [
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "REQUEST_TYPES",
    "EngineInfo",
    "ProtocolError",
    "comparable",
    "factories_doc",
    "move_doc",
    "read_hello",
    "read_moves",
    "read_view",
    "referee_view",
    "schema",
]
