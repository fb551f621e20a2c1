"""Copies of the batch engine's game structs, changed by hand and handed to the compiled
core as capsules (through ctypes: Python code has no other way to make one), for the
tests of ``state_of_game`` (tests/ai/test_vector.py)."""

from __future__ import annotations

import ctypes
from typing import Any

NAME = b"azul_rules.engine.az_game"

_new = ctypes.pythonapi.PyCapsule_New
_new.restype, _new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p,
                                                 ctypes.c_void_p]  # fmt: skip
_get = ctypes.pythonapi.PyCapsule_GetPointer
_get.restype, _get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


def struct_bytes(capsule: object, size: int) -> bytearray:
    """The ``size`` bytes of the struct a capsule of ``Games.game(i)`` holds."""
    return bytearray(ctypes.string_at(_get(capsule, NAME), size))


def capsule_of(raw: bytes | bytearray, name: bytes = NAME) -> tuple[object, Any]:
    """A capsule named ``name`` over a copy of ``raw``, and the buffer it points into
    (keep it as long as the capsule)."""
    buffer = ctypes.create_string_buffer(bytes(raw), max(len(raw), 1))
    return _new(ctypes.addressof(buffer), name, None), buffer
