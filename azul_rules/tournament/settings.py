"""What a tournament is: its bots (entrants), seats, variant, seeds and limits."""

from __future__ import annotations

import pickle
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from azul_rules.core.bots import BotFactory, BotSpecError, bot_factory
from azul_rules.core.phases import Variant
from azul_rules.tournament.schedule import GameSpec, cycle_length, game_spec

__all__ = ["FORMAT_VERSION", "Entrant", "Option", "Settings", "TournamentError", "entrants"]

FORMAT_VERSION: Final = 1
"""The version of the JSON-lines game line (``"tournament": {"format": 1, ...}``)."""


class TournamentError(ValueError):
    """A tournament that cannot run as asked: bad settings, bots that cannot be sent to
    worker processes, a missing backend, or an output file that cannot be continued
    (written with other settings, corrupt, in use).  One line naming what and where.

    A message naming a setting names it as ``run``'s parameter (``resume=True``);
    :attr:`command_line` is the same message naming the command's option instead
    (``--resume``).  Such a message is a ``str.format`` template whose :class:`Option`
    fields are named as each entry point (``run`` or the command line) names them and other
    fields are shown as given."""

    def __init__(self, message: str, **fields: object) -> None:
        self.template = message if fields else None
        self.fields = fields
        super().__init__(self._said("python") if fields else message)

    @property
    def command_line(self) -> str:
        """The message as ``azul-rules tournament`` says it (its options)."""
        return self._said("command") if self.template is not None else str(self)

    def _said(self, entry: str) -> str:
        assert self.template is not None
        words = {name: getattr(value, entry) if isinstance(value, Option) else value
                 for name, value in self.fields.items()}  # fmt: skip
        return self.template.format(**words)


@attrs.frozen
class Option:
    """A setting as each entry point names it: ``python`` (``run``'s parameter, ``resume=True``)
    and ``command`` (the option of ``azul-rules tournament``, ``--resume``)."""

    python: str
    command: str

    @classmethod
    def named(cls, parameter: str) -> Option:
        """``time_limit`` and ``--time-limit``."""
        return cls(parameter, "--" + parameter.replace("_", "-"))


RESUME: Final = Option("resume=True", "--resume")
OUT: Final = Option("out=...", "--out FILE")
RAY_BACKEND: Final = Option("backend='ray'", "--backend ray")


@attrs.frozen
class Entrant:
    """A bot taking part: its unique ``name`` and its ``source``, a spec for
    :func:`azul_rules.core.bots.bot_factory` or a factory object.

    Raises nothing when built: a record whose fields are not checked (the tournament builds it).
    """

    name: str
    source: str | BotFactory

    def factory(self) -> BotFactory:
        """The factory (a spec is resolved by :func:`azul_rules.core.bots.bot_factory`)."""
        return bot_factory(self.source) if isinstance(self.source, str) else self.source


def entrants(bots: Sequence[str | BotFactory] | Mapping[str, str | BotFactory]) -> tuple[
    Entrant, ...
]:
    """The entrants for ``bots``: a sequence of specs (each named by its spec) or
    factories (named ``module:qualname``), or a mapping from names to either.  A name met
    twice gets ``#2``, ``#3``... (``random,random`` is ``random`` against ``random#2``).
    Every spec is resolved here, so an unknown bot raises :class:`BotSpecError` at once."""
    pairs: list[tuple[str, str | BotFactory]]
    if isinstance(bots, Mapping):
        pairs = [(str(name), source) for name, source in bots.items()]
    elif isinstance(bots, str):
        raise BotSpecError(f"bots must be a list of bots, not the string {bots!r}")
    else:
        pairs = [(_name_of(source), source) for source in bots]
    if not pairs:
        raise BotSpecError("a tournament needs at least one bot")
    seen: dict[str, int] = {}
    result = []
    for name, source in pairs:
        if isinstance(source, str):
            bot_factory(source)
        elif not callable(source):
            raise BotSpecError(
                f"bot {name!r} is a {type(source).__name__}: give a spec (random, greedy, "
                "package.module:Factory) or a factory returning a bot"
            )
        seen[name] = seen.get(name, 0) + 1
        unique = name if seen[name] == 1 else f"{name}#{seen[name]}"
        result.append(Entrant(unique, source))
    return tuple(result)


def _name_of(source: object) -> str:
    if isinstance(source, str):
        return source.strip()
    module = getattr(source, "__module__", None)
    qualname = getattr(source, "__qualname__", None) or type(source).__qualname__
    return f"{module}:{qualname}" if module else str(qualname)


@attrs.frozen
class Settings:
    """Everything a game's result depends on.  ``seeds`` (one per deal) replaces the
    seeds derived from ``seed`` when given.

    Raises nothing when built: a record whose fields are not checked (the tournament builds it).
    """

    entrants: tuple[Entrant, ...]
    players: int = 2
    variant: Variant = Variant.COLORED
    seed: int = 0
    seeds: tuple[int, ...] | None = None
    time_limit: float | None = None
    max_rounds: int = 100
    lang: str = "en"
    """The language of the referee's messages in a forfeit's ``violations`` (``"en"`` or
    ``"fr"``): it changes no result, so it is not in the :meth:`header`."""

    @property
    def cycle(self) -> int:
        """Games in one cycle of lineups (see :mod:`azul_rules.tournament.schedule`)."""
        return cycle_length(len(self.entrants), self.players)

    @property
    def names(self) -> tuple[str, ...]:
        """The entrants' names, in order."""
        return tuple(e.name for e in self.entrants)

    def spec(self, index: int) -> GameSpec:
        """Game ``index`` of the schedule."""
        return game_spec(
            index, bots=len(self.entrants), players=self.players, seed=self.seed,
            seeds=self.seeds,
        )  # fmt: skip

    def max_games(self) -> int | None:
        """The number of games the explicit ``seeds`` allow (``None``: no limit)."""
        return None if self.seeds is None else len(self.seeds) * self.cycle

    def header(self) -> dict[str, Any]:
        """The ``"tournament"`` object of every game line: the settings a file must
        share to be continued (``--resume``)."""
        return {
            "format": FORMAT_VERSION,
            "bots": list(self.names),
            "players": self.players,
            "variant": self.variant.value,
            "seed": None if self.seeds is not None else self.seed,
            "time_limit": self.time_limit,
            "max_rounds": self.max_rounds,
        }

    def check_picklable(self, backend: str) -> None:
        """Raise :class:`TournamentError` naming the first bot that cannot be sent to
        another process (a lambda, a local class...)."""
        interactive = not hasattr(sys.modules.get("__main__"), "__file__")
        for entrant in self.entrants:
            if isinstance(entrant.source, str):
                continue
            if interactive and getattr(entrant.source, "__module__", None) == "__main__":
                raise TournamentError(
                    f"bot {entrant.name!r} is defined in an interactive session, where the "
                    f"{backend} backend's workers cannot import it: define it in a module, "
                    "or use the local or ray backend"
                )
            try:
                pickle.dumps(entrant.source)
            except Exception as error:
                raise TournamentError(
                    f"bot {entrant.name!r} cannot be sent to the {backend} backend's workers "
                    f"({type(error).__name__}: {error}): give it as a spec "
                    "'package.module:Factory' or a module-level class or function"
                ) from None
