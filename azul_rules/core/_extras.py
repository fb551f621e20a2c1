"""The optional extras: an import that fails for want of one says which to install.

``import azul_rules.ai.pettingzoo`` without numpy would otherwise end on ``No module named
'numpy'``, which does not say that the ``pettingzoo`` extra brings it, nor how to
install an extra from a checkout.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["extra"]


@contextmanager
def extra(name: str, module: str) -> Iterator[None]:
    """Run the imports of ``module`` that need the extra ``name``: one that fails for a
    package outside azul_rules raises the same kind of ``ImportError``, naming the extra
    and how to install it from the project's checkout (``pip install -e '.[name]'``, as
    the command line's messages say: the project is on no package index).  A module of
    azul_rules itself that cannot be imported is a bug, not a missing extra: its error
    goes through unchanged."""
    try:
        yield
    except ImportError as error:
        missing = error.name
        if not missing or missing.partition(".")[0] == "azul_rules":
            raise
        raise type(error)(
            f"{module} needs the {name} extra, and {missing} cannot be imported ({error}): "
            f"pip install -e '.[{name}]' in the project's checkout",
            name=missing,
            path=error.path,
        ) from error
