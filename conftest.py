"""Collection from the project's root: the doctests of a module of an optional extra are
left out when that extra is not installed (as ``tests.extras.needs`` skips its tests),
except under ``AZUL_REQUIRE_EXTRAS=1`` (CI), where a missing extra must fail; so are the
batch engine's when it was not compiled (an install without a C compiler)."""

from __future__ import annotations

import importlib.util
import os

_EXTRA_MODULES = {
    "azul_rules/ai/spiel.py": "pyspiel",
    "azul_rules/ai/pettingzoo.py": "pettingzoo",
    "azul_rules/ai/pgx": "pgx",
    "azul_rules/web": "starlette",
    "azul_rules/ai/vector.py": "numpy",
}

# The deprecated aliases of the AI adapters' old paths hold no example; importing one
# warns.
_ALIASES = ["azul_rules/actions.py", "azul_rules/spiel.py", "azul_rules/pettingzoo.py",
            "azul_rules/pgx.py", "azul_rules/core/deals.py"]  # fmt: skip

collect_ignore = _ALIASES + [
    path
    for path, needed in _EXTRA_MODULES.items()
    if os.environ.get("AZUL_REQUIRE_EXTRAS") != "1" and importlib.util.find_spec(needed) is None
]

if importlib.util.find_spec("azul_rules.ai._vector") is None:  # not compiled
    collect_ignore.append("azul_rules/ai/vector.py")
