"""Deprecated: this module moved to :mod:`azul_rules.ai.spiel` (this path works, with a
``DeprecationWarning``, until the next release; import the new one)."""

import sys
import warnings

import azul_rules.ai.spiel as _moved
from azul_rules.ai.spiel import *  # noqa: F403  (the names, for type checkers)

warnings.warn(
    "azul_rules.spiel moved to azul_rules.ai.spiel; the old path goes in the next "
    "release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved  # the same module: its private names and state too
