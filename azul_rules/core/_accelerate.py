"""The compiled core: which one runs, the C twin or the Python reference.

``azul_rules.core._speedups`` (``azul_rules/core/_speedups.c``, compiled at install by the build
hook ``hatch_build.py``) is a twin of the hot functions of the Python core, used when it
imports.  Each twin mirrors one Python function, which stays the reference and the
fallback:

======================================  ==================================================
compiled twin                           Python reference (and fallback)
======================================  ==================================================
``GameState.legal_moves``               ``GameState.legal_moves`` (the takes, and the grey
                                        wall's placements)
``GameState._take``                     ``GameState._take`` (T2-T4, P1-P6, F1-F4)
``GameState._end_offer``                ``GameState._end_offer`` (the coloured tiling of
                                        every board; the grey tiling's start)
``GameState._close_round``              ``GameState._close_round`` with ``_next_round``
                                        (R1-R5, seeded draws)
``GameState._place_tile``               ``GameState._place_tile`` with ``_place`` (V1-V3)
``GameState._grey_tiling``              ``GameState._grey_tiling`` (V3, V4)
``GameState._tilings_so_far``           ``GameState._tilings_so_far``
``GameState._settle_grey_round``        ``GameState._settle_grey_round`` (W4, W5, E1, R7)
``_speedups.draw_factories``            ``rounds.draw_factories`` (R2, the seeded draws)
``_speedups.tile_colored``              ``rounds.tile_colored`` (W1-W5)
``_speedups.place_on_wall``             ``rounds.place_on_wall`` (W1, W3)
``_speedups.settle_floor``              ``rounds.settle_floor`` (W4, W5)
``_speedups.walls_can_end``             ``grey.walls_can_end`` (R7)
======================================  ==================================================

and, for the AI doors (the OpenSpiel game and the PettingZoo environment), in a section
of their own of the same file:

======================================  ==================================================
compiled twin                           Python reference (and fallback)
======================================  ==================================================
``_speedups.legal_actions``             ``actions.legal_actions``
``_speedups.observe_into``              ``actions.observe_into``
``_speedups.deal_outcomes``             ``deals.deal_outcomes``
``_speedups.spiel_step``                ``spiel._step`` (``python_azul``'s hot paths)
======================================  ==================================================

(``actions.PYTHON_TWINS``, ``deals.PYTHON_TWINS`` and ``spiel.PYTHON_STEP`` keep the
references; ``tests/test_compiled_doors.py`` and ``tests/test_spiel.py`` hold the twins
to them.)

Everything else — ``validate`` and every check and message, the end of the game (E2-E4,
R6), the table's draws (``Refill``), ``TableTake``, JSON, the views — is Python only.
The twins build the very same frozen attrs objects (through their slots, as
``azul_rules.core._slots`` does) and hand any part they do not expect (a slot replaced
through ``object.__setattr__``, a score past 60 bits, a bag past 65,535 tiles...) back to
the Python function, so both cores give the same games, verdicts and records, and odd
input the same answer.  ``state.PYTHON_TWINS`` holds the Python references by name.

**A rule change** is made in the Python function first (it is the reference: its tests
must pass with ``AZUL_RULES_PURE_PYTHON=1``), then in its C twin;
``tests/test_compiled_core.py`` holds the two together (a Hypothesis test comparing them
call for call, and digests of seeded games), and CI runs the whole suite on both cores.

``AZUL_RULES_PURE_PYTHON=1`` in the environment, when ``azul_rules`` is imported, forces
the Python core; so does a compiled module built from another version of the C source
(an editable checkout edited since its install), with a warning saying how to rebuild.
"""

from __future__ import annotations

import os
import warnings
import zlib
from types import ModuleType

__all__ = ["PURE_PYTHON_VARIABLE", "load_speedups", "source_digest"]

PURE_PYTHON_VARIABLE = "AZUL_RULES_PURE_PYTHON"
# os.path rather than pathlib: pathlib costs the import of azul_rules 6 ms.
_SOURCE = os.path.join(os.path.dirname(__file__), "_speedups.c")


def source_digest(path: str | os.PathLike[str] = _SOURCE) -> str:
    """The CRC-32 of the C source, as the build hook compiles it into the module (it
    tells an edited source from the one built; cheaper to import than hashlib)."""
    with open(path, "rb") as source:
        return f"{zlib.crc32(source.read()):08x}"


def load_speedups() -> ModuleType | None:
    """The compiled twin, or ``None`` for the Python core: when
    ``AZUL_RULES_PURE_PYTHON`` is set (to anything but ``0`` or nothing), when the module
    was not built (no C compiler at install), or when it was built from another source."""
    if os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None
    try:
        from azul_rules.core import _speedups
    except ImportError:
        return None
    if os.path.isfile(_SOURCE) and source_digest(_SOURCE) != _speedups.SOURCE_DIGEST:
        warnings.warn(
            "azul_rules: the compiled core was built from another version of "
            f"{os.path.basename(_SOURCE)}; the Python core is used.  Rebuild it with "
            "`pip install -e .` (or set AZUL_RULES_PURE_PYTHON=1 to silence this).",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return _speedups
