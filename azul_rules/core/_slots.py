"""Building frozen attrs instances on the hot paths.

The ``__init__`` that attrs writes for a frozen slotted class sets every field through
``object.__setattr__``, which looks the name up each time.  Setting the slots through
their descriptors builds the very same object (equal, same hash, same repr) in about
half the time.  Used only for values the library has computed itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs

__all__ = ["new_instance", "slot_setters"]

new_instance: Final = object.__new__
"""``new_instance(cls)``: an instance of ``cls`` whose slots are not set yet."""


def slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each attrs field's slot of ``cls``, in field order."""
    return tuple(getattr(cls, field.name).__set__ for field in attrs.fields(cls))
