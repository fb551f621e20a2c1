"""Deprecated: this module moved to the package :mod:`azul_rules.ai.pgx`, and its
``differential`` to :func:`azul_rules.testing.batched.pgx_differential` (this path works,
with a ``DeprecationWarning``, until the next release; import the new ones)."""

import warnings

from azul_rules.ai.actions import Disagreement
from azul_rules.ai.pgx import *  # noqa: F403
from azul_rules.ai.pgx import __all__ as _moved
from azul_rules.testing.batched import pgx_differential as differential

__all__ = [*_moved, "Disagreement", "differential"]

warnings.warn(
    "azul_rules.pgx moved to azul_rules.ai.pgx (its differential to "
    "azul_rules.testing.batched.pgx_differential); the old path goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
