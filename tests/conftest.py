"""How much the suite runs: a quick default, and the thorough run that CI makes.

* The default (the README's test command): Hypothesis's ``quick`` profile (15 examples a
  test, where a test does not set its own count) and no test marked ``slow``.
* ``AZUL_TESTS=thorough`` (what ``.ci/run`` sets): the ``thorough`` profile (40 examples)
  and every test, the slow ones included.
* ``HYPOTHESIS_PROFILE=long`` for a long local hunt (2,000 examples a test); ``-m slow``
  runs the slow tests alone.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

THOROUGH = os.environ.get("AZUL_TESTS") == "thorough"

for _name, _examples in (("quick", 15), ("thorough", 40), ("long", 2000)):
    settings.register_profile(
        _name, max_examples=_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "thorough" if THOROUGH else "quick"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the ``slow`` tests out of the quick run, unless they are asked for by a mark
    expression (``-m slow``)."""
    if THOROUGH or "slow" in (config.option.markexpr or ""):
        return
    kept = [item for item in items if item.get_closest_marker("slow") is None]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
