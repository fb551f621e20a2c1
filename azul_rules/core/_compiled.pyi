"""Types of the compiled engine's CPython face (azul_rules/core/_engine/); see
azul_rules.core._accelerate."""

from collections.abc import Callable
from typing import Any

SOURCE_DIGEST: str

class Accelerated:
    """A Python function with the compiled engine in front of it."""

    __wrapped__: Callable[..., Any]
    def __init__(self, name: str, reference: Callable[..., Any], /) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
    def __get__(self, obj: object, owner: type | None = None) -> Any: ...

class AcceleratedProperty:
    """A property's getter with the compiled engine in front of it."""

    __wrapped__: Callable[..., Any]
    def __init__(self, name: str, reference: Callable[..., Any], /) -> None: ...
    def __get__(self, obj: object, owner: type | None = None) -> Any: ...
    def __set__(self, obj: object, value: object) -> None: ...

def state_of_game(capsule: object, /) -> Any:
    """The GameState of a batch engine's position (a capsule of ``Games.game(i)``);
    ``ValueError`` for anything else."""

def state_of_position(grey: bool, position: object, /) -> Any:
    """The GameState of a position as plain data (``Games.position``'s shape: pgx's
    ``to_state``); ``ValueError`` or ``TypeError`` for anything else."""
