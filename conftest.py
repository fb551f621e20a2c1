"""Collection from the project's root: the doctests of a module of an optional extra are
left out when that extra is not installed (as ``tests.extras.needs`` skips its tests),
except under ``AZUL_REQUIRE_EXTRAS=1`` (CI), where a missing extra must fail."""

from __future__ import annotations

import importlib.util
import os

_EXTRA_MODULES = {
    "azul_rules/spiel.py": "pyspiel",
    "azul_rules/pettingzoo.py": "pettingzoo",
    "azul_rules/pgx.py": "pgx",
    "azul_rules/web": "starlette",
}

collect_ignore = [
    path
    for path, needed in _EXTRA_MODULES.items()
    if os.environ.get("AZUL_REQUIRE_EXTRAS") != "1" and importlib.util.find_spec(needed) is None
]
