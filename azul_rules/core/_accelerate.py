"""The compiled engine: which one runs, the C engine or the Python reference.

``azul_rules/core/_engine/`` holds the rules in plain C (``engine.h``: a position as a
struct of counts and bit masks; one file per part of the rules, as the Python modules
are split) and the CPython face that puts it behind the referee's objects
(``adapter.h`` and the files of :data:`FACE`).  The build hook (``hatch_build.py``) compiles them at
install into ``azul_rules.core._compiled``; the batch engine's face
(``azul_rules/ai/_batch/``) into ``azul_rules.ai._vector``.  The Python code is the
reference: ``state.py`` defines each compiled method in front of its Python function,
and the compiled version gives the function every call it does not make itself:

========================================  ==============================================
compiled version (``prefer_compiled(reference, name)``)  Python reference (and fallback)
========================================  ==============================================
``GameState.legal_moves``                 the takes, and the grey wall's placements
``GameState.apply``                       a ``Take`` or a ``PlaceTile``, with the round's
                                          end and the game's (T1-T4, P1-P7, F1-F4, W1-W5,
                                          V1-V4, R1-R7, E1-E4); every other move, and
                                          every illegal one (its verdict), by Python
``GameState._successor``                  ``apply`` without its verdict (``None`` for an
                                          illegal move): the OpenSpiel game's step
``GameState.is_over``                     the phase
``state.new_game``                        a new game with seeded draws (S1-S7, R2); a
                                          variant given as a string and external
                                          draws by Python
``actions.legal_actions``                 the ids of the legal moves
``actions.observe_into``                  the observation vector and the legal mask
``deals.deal_outcomes``                   a factory's fill as chance outcomes (R2)
========================================  ==============================================

Everything else -- ``validate`` and every check and message, ``Refill``, ``TableTake``,
JSON, the views -- is Python only.  A compiled version reads the position into the
engine's struct and builds the very same frozen attrs objects the reference builds
(through their slots, as ``azul_rules.core._slots`` does), sharing every unchanged part;
any part it does not expect (a slot replaced through ``object.__setattr__``, a score past
60 bits, a bag past 65,535 tiles, a multiset out of order...) sends the whole call to
the reference, so both cores give the same games, verdicts, records and exceptions.
The engine reads its tables (floor penalties, the coloured wall, the end bonuses, the
generator's constants, the shared lines and moves) from the Python modules when it is
loaded; it never retypes them.

**A rule change** is made in the Python function first (it is the reference: its tests
must pass with ``AZUL_RULES_PURE_PYTHON=1``), then in the engine's file of the same
name; ``tests/core/test_compiled_core.py`` holds the two together (Hypothesis comparing them
call for call, and digests of seeded games), and CI runs the whole suite on both cores.

``AZUL_RULES_PURE_PYTHON=1`` in the environment, when ``azul_rules`` is imported, forces
the Python core; so does a compiled module built from other sources (an editable
checkout edited since its install), with a warning saying how to rebuild.
"""

from __future__ import annotations

import os
import warnings
import zlib
from collections.abc import Callable
from types import ModuleType
from typing import Any, Final, TypeVar

__all__ = [
    "BATCH",
    "ENGINE",
    "FACE",
    "HEADERS",
    "PURE_PYTHON_VARIABLE",
    "SOURCES",
    "load_compiled",
    "prefer_compiled",
    "prefer_compiled_property",
    "source_digest",
]  # fmt: skip

PURE_PYTHON_VARIABLE: Final = "AZUL_RULES_PURE_PYTHON"

ENGINE: Final = ("tables.c", "takes.c", "draws.c", "wall.c", "grey.c", "rounds.c", "observe.c")
"""The engine's files (``azul_rules/core/_engine/``), in the order they are compiled."""

FACE: Final = (
    "module.c", "read.c", "known.c", "build.c", "records.c", "moves.c", "accelerated.c",
    "frameworks.c",
)
"""The files of its CPython face behind the referee's objects (``adapter.h``)."""

BATCH: Final = ("module.c", "games.c", "threads.c", "playouts.c")
"""The files of its batch face (``azul_rules/ai/_batch/``, ``batch.h``)."""

SOURCES: Final = {
    "azul_rules.core._compiled": (
        *(f"azul_rules/core/_engine/{name}" for name in (*ENGINE, *FACE)),
    ),
    "azul_rules.ai._vector": (
        *(f"azul_rules/core/_engine/{name}" for name in ENGINE),
        *(f"azul_rules/ai/_batch/{name}" for name in BATCH),
    ),
}
"""Each compiled module's sources, relative to the project's root (the build hook reads
this file)."""

HEADERS: Final = {
    "azul_rules.core._compiled": (
        "azul_rules/core/_engine/engine.h", "azul_rules/core/_engine/adapter.h",
    ),
    "azul_rules.ai._vector": (
        "azul_rules/core/_engine/engine.h", "azul_rules/ai/_batch/batch.h",
    ),
}
"""Each compiled module's headers: part of its digest."""

# os.path rather than pathlib: pathlib costs the import of azul_rules 6 ms.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def source_digest(module: str, root: str | None = None) -> str:
    """The CRC-32 of a compiled module's sources and the headers, as the build hook
    compiles it into the module (it tells an edited source from the one built; cheaper
    to import than hashlib)."""
    digest = 0
    for path in (*SOURCES[module], *HEADERS[module]):
        with open(os.path.join(_ROOT if root is None else root, path), "rb") as source:
            digest = zlib.crc32(source.read(), digest)
    return f"{digest:08x}"


def _sources_present(module: str) -> bool:
    return all(os.path.isfile(os.path.join(_ROOT, p)) for p in (*SOURCES[module], *HEADERS[module]))


def load_compiled(
    module: str = "azul_rules.core._compiled", *, switch: bool = True
) -> ModuleType | None:
    """The compiled module, or ``None`` for the Python core: when
    ``AZUL_RULES_PURE_PYTHON`` is set (to anything but ``0`` or nothing; ``switch=False``
    ignores it, for the batch engine, which has no Python version), when the module was not
    built (no C compiler at install), or when it was built from other sources."""
    if switch and os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None
    try:
        import importlib

        compiled = importlib.import_module(module)
    except ImportError:
        return None
    if _sources_present(module) and source_digest(module) != compiled.SOURCE_DIGEST:
        warnings.warn(
            f"azul_rules: the compiled {module} was built from other sources; the Python "
            "code is used.  Rebuild it with `pip install -e .` (or set "
            "AZUL_RULES_PURE_PYTHON=1 to silence this).",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return compiled


F = TypeVar("F", bound=Callable[..., Any])


def prefer_compiled(compiled: ModuleType | None, reference: F, name: str) -> F:
    """``reference`` with the compiled engine in front of it (``compiled.Accelerated``), or
    ``reference`` itself for the Python core.  In a class body, a method: the compiled version
    learns its class there."""
    if compiled is None:
        return reference
    found: F = compiled.Accelerated(name, reference)
    return found


def prefer_compiled_property(
    compiled: ModuleType | None, reference: property, name: str
) -> property:
    """A property's compiled version (``compiled.AcceleratedProperty``), or the property itself."""
    if compiled is None or reference.fget is None:
        return reference
    found: property = compiled.AcceleratedProperty(name, reference.fget)
    return found
