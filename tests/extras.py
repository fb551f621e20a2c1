"""Optional extras in tests: ``needs("pyspiel")`` imports a module of an optional extra.

Without the module the test is skipped, except where ``AZUL_REQUIRE_EXTRAS=1`` is set
(``.ci/run`` sets it): there a missing extra fails the run, so that CI never passes by
skipping the real conformance tests.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

__all__ = ["needs", "required"]


def required() -> bool:
    """True when missing extras must fail rather than skip (CI)."""
    return os.environ.get("AZUL_REQUIRE_EXTRAS") == "1"


def needs(module: str) -> ModuleType:
    """Import ``module`` or skip the calling test module (fail under CI)."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if required():
            raise AssertionError(
                f"{module} is missing but AZUL_REQUIRE_EXTRAS=1: install the extras"
            ) from error
        pytest.skip(f"{module} is not installed (an optional extra)", allow_module_level=True)
