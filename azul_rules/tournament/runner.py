"""``run``: a whole tournament, from its settings to its results (and its JSON-lines file)."""

from __future__ import annotations

import math
import multiprocessing
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Protocol

import attrs

from azul_rules.core.bots import BotFactory
from azul_rules.core.messages import LANGUAGES
from azul_rules.core.phases import Variant
from azul_rules.core.shown import number, shown, too_long
from azul_rules.formats.jsontext import MAX_DIGITS
from azul_rules.tournament.backends import BACKENDS, Batch, Lost, cpu_count, import_ray, stream
from azul_rules.tournament.cluster import check_ray_address
from azul_rules.tournament.lines import Existing, OutFile, check_new_file, read_existing
from azul_rules.tournament.settings import (
    OUT,
    RAY_BACKEND,
    RESUME,
    Option,
    Settings,
    TournamentError,
    entrants,
)
from azul_rules.tournament.stats import ENDS, Z95, BotStats, Tally

__all__ = ["Results", "run"]

Bots = Sequence[str | BotFactory] | Mapping[str, str | BotFactory]


def _all_ends(ends: Mapping[str, int]) -> dict[str, int]:
    """``ends`` with every way a game ends as a key, in the order of :data:`ENDS`
    (``{"finished": n, "forfeit": n, "unfinished": n}``, zeros included)."""
    return {**dict.fromkeys(ENDS, 0), **ends}


@attrs.frozen
class Results:
    """A tournament's results: one :class:`BotStats` a bot (same order as the bots
    given), how the games ended, the games lost by a backend, and the run's figures.

    ``games`` counts every game of the results, ``played`` those played by this call,
    ``resumed`` those read back from the file.  ``ends`` counts the games by how they
    ended, always with the three keys ``"finished"``, ``"forfeit"`` and
    ``"unfinished"`` (0 when no game ended so)."""

    settings: Settings
    bots: tuple[BotStats, ...]
    games: int
    played: int
    resumed: int
    ends: Mapping[str, int] = attrs.field(converter=_all_ends)
    lost: tuple[Lost, ...]
    elapsed: float
    out: str | None = None
    cut_bytes: int = 0

    @property
    def games_per_second(self) -> float:
        """Games played by this call per second of wall time."""
        return self.played / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def balanced(self) -> bool:
        """True when each bot sat in each seat equally often (always so after whole
        cycles of lineups)."""
        return all(len(set(b.seats)) <= 1 for b in self.bots)

    @property
    def lost_games(self) -> int:
        """The number of games a backend could not play."""
        return sum(len(lost.games) for lost in self.lost)

    def table(self) -> str:
        """The results table as text (see :mod:`azul_rules.tournament.stats`)."""
        return format_table(self)

    def to_dict(self) -> dict[str, Any]:
        """The results as JSON-ready data."""
        return {
            "tournament": self.settings.header(),
            "games": self.games,
            "played": self.played,
            "resumed": self.resumed,
            "ends": dict(self.ends),
            "balanced": self.balanced,
            "elapsed": round(self.elapsed, 3),
            "bots": [_bot_doc(b) for b in self.bots],
            "lost": [{"games": list(x.games), "error": x.error} for x in self.lost],
        }


def _bot_doc(stats: BotStats) -> dict[str, Any]:
    low, high = stats.win_rate_interval
    return {
        "name": stats.name, "games": stats.games, "wins": stats.wins,
        "shared_wins": stats.shared_wins, "losses": stats.losses,
        "forfeits": stats.forfeits, "unfinished": stats.unfinished,
        "points": stats.points, "win_rate": stats.win_rate, "win_rate_95": [low, high],
        "mean_score": stats.mean_score, "mean_margin": stats.mean_margin,
        "rating": stats.rating.rating, "rating_error": stats.rating.error,
        "seats": list(stats.seats),
    }  # fmt: skip


def format_table(results: Results) -> str:
    """The table: one line a bot, best rating first."""
    width = min(40, max(3, *(len(b.name) for b in results.bots)))
    head = (f"{'bot':<{width}} {'games':>6} {'wins':>6} {'shared':>6} {'forfeits':>8} "
            f"{'win rate (95% CI)':>22} {'mean score':>10} {'mean margin':>11} "
            f"{'rating ± 95%':>14}")  # fmt: skip
    rows = [head, "-" * len(head)]
    for b in sorted(results.bots, key=lambda s: -s.rating.rating):
        low, high = b.win_rate_interval
        rate = f"{100 * b.win_rate:.1f}% ({100 * low:.1f}–{100 * high:.1f})"
        score = "-" if b.mean_score is None else f"{b.mean_score:.1f}"
        margin = "-" if b.mean_margin is None else f"{b.mean_margin:+.1f}"
        error = b.rating.error * Z95
        rating = f"{b.rating.rating:.0f} ± {error:.0f}" if math.isfinite(error) else "-"
        name = b.name[:width]
        rows.append(
            f"{name:<{width}} {b.games:>6} {b.wins:>6} {b.shared_wins:>6} {b.forfeits:>8} "
            f"{rate:>22} {score:>10} {margin:>11} {rating:>14}"
        )
    ends = results.ends
    rows.append(
        f"{results.games} game{'' if results.games == 1 else 's'}: "
        f"{ends['finished']} finished, "
        f"{ends['forfeit']} forfeited, {ends['unfinished']} unfinished "
        f"(round cap {results.settings.max_rounds}); seats "
        + ("balanced" if results.balanced else "not balanced (a partial cycle of lineups)")
    )
    return "\n".join(rows)


class _Progress(Protocol):
    def update(self, n: int) -> object: ...
    def close(self) -> None: ...


class _Quiet:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(wanted: bool | None, total: int, done: int) -> _Progress:
    """A ``tqdm`` bar on standard error (games done, games/s, time left) when wanted, or
    when ``wanted`` is ``None`` and standard error is a terminal; quiet without tqdm."""
    if wanted is False or (wanted is None and not _is_terminal()):
        return _Quiet()
    try:
        from tqdm import tqdm
    except ImportError:
        return _Quiet()
    bar: _Progress = tqdm(
        total=total, initial=done, unit="game", desc="games", file=sys.stderr,
        dynamic_ncols=True, smoothing=0.05, mininterval=0.5,
    )  # fmt: skip
    return bar


def _is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _chunks(indices: Iterable[int], size: int) -> Iterator[Batch]:
    chunk: list[int] = []
    for index in indices:
        chunk.append(index)
        if len(chunk) == size:
            yield tuple(chunk)
            chunk = []
    if chunk:
        yield tuple(chunk)


def default_batch(games: int, workers: int) -> int:
    """Games a task when ``batch`` is not given: enough batches for 8 a worker (so the
    last ones balance the load), at most 100 games (so results stream back)."""
    return max(1, min(100, games // (8 * max(1, workers))))


def run(
    bots: Bots,
    *,
    players: int = 2,
    games: int | None = None,
    seed: int = 0,
    seeds: Sequence[int] | None = None,
    variant: Variant | str = Variant.COLORED,
    backend: str = "local",
    batch: int | None = None,
    workers: int | None = None,
    time_limit: float | None = None,
    max_rounds: int = 100,
    out: str | None = None,
    resume: bool = False,
    ray_address: str | None = None,
    retries: int = 2,
    progress: bool | None = None,
    lang: str = "en",
) -> Results:
    """Play a refereed tournament and return its :class:`Results`.

    ``bots``: specs (``"random"``, ``"greedy"``, ``"package.module:Factory"``), factories
    (callables returning a bot; given ``seed=`` when they take it), or a mapping from
    names to either.  ``games`` games are played (by default one cycle of lineups a
    seed of ``seeds``), on deals derived from ``seed``, or ``seeds[deal]`` when given.
    ``time_limit`` is seconds a move; ``max_rounds`` ends a longer game as unfinished.
    ``out`` is the JSON-lines file (appended game by game); ``resume=True`` continues
    it, skipping the games it holds.  ``backend`` is ``"local"``, ``"process"`` (with
    ``workers`` processes, default one a core) or ``"ray"`` (the current Ray connection,
    or ``ray_address``, or a new local cluster); ``batch`` is games a task.  ``lang``
    (``"en"``, ``"fr"``...) is the language of the referee's messages in the forfeits
    the file records.

    ``KeyboardInterrupt`` leaves the file with every finished game.  Games a backend
    could not play are in ``Results.lost``, not raised.  Everything it raises is a
    ``ValueError``.

    :raises ~azul_rules.core.bots.BotSpecError: for a bot that names nothing.
    :raises TournamentError: for settings that cannot run (bad numbers, bots that cannot
        be sent to workers, Ray missing, a file that cannot be continued).
    :raises ~azul_rules.tournament.cluster.RayClusterError: (a ``TournamentError``) for a
        Ray cluster that cannot be reached or started (checked in a few seconds before
        any game or file).
    """
    _not_in_a_starting_worker()
    settings = _settings(bots, players, seed, seeds, variant, time_limit, max_rounds, lang)
    total = _game_count(games, settings)
    _check_run(settings, backend, batch, workers, retries, out, resume, ray_address)
    writer = OutFile(out) if out is not None else None  # first: a path it cannot write
    try:
        existing = _existing(out, resume, settings, total)
    except BaseException:
        if writer is not None:
            writer.close()
        raise
    tally = Tally(len(settings.entrants), settings.players)
    for summary in existing.summaries:
        tally.add(summary)
    todo = (i for i in range(total) if i not in existing.indices)
    remaining = total - len(existing.summaries)
    size = batch or default_batch(remaining, workers or cpu_count())
    lost: list[Lost] = []
    played = 0
    bar = _progress(progress, total, len(existing.summaries))
    start = time.perf_counter()
    outcomes = stream(
        backend, settings, _chunks(todo, size), workers=workers, retries=retries,
        ray_address=ray_address,
    )  # fmt: skip
    try:
        for _batch, outcome in outcomes:
            if isinstance(outcome, Lost):
                lost.append(outcome)
                continue
            if writer is not None:
                writer.write([game.line for game in outcome])
            for game in outcome:
                tally.add(game.summary)
            played += len(outcome)
            bar.update(len(outcome))
    finally:
        close = getattr(outcomes, "close", None)
        if close is not None:  # stops the pool or the Ray tasks at once on any error
            close()
        bar.close()
        if writer is not None:
            writer.close()
    return Results(
        settings=settings, bots=tally.stats(settings.names), games=tally.games, played=played,
        resumed=len(existing.summaries), ends=dict(tally.ends), lost=tuple(lost),
        elapsed=time.perf_counter() - start, out=out, cut_bytes=existing.cut_bytes,
    )  # fmt: skip


def _not_in_a_starting_worker() -> None:
    """End a process started with ``spawn`` (the process backend's workers) that calls
    ``run`` while it imports the main script again, as each such process does before
    it works: a script calling ``run`` at its top level, without the ``if __name__ ==
    "__main__":`` guard.  One line, and the worker exits (1) -- where multiprocessing
    would raise its own error for the process backend, and every worker would play
    the whole tournament again for the others."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise SystemExit(
            "azul-rules: run() was called while a worker process was importing the main "
            "script again (spawn): call it under if __name__ == '__main__':"
        )


def _existing(out: str | None, resume: bool, settings: Settings, total: int) -> Existing:
    """The games ``out`` holds when ``resume`` continues it (none otherwise: a file
    holding games is then refused, being append-only)."""
    if out is None:
        return Existing()
    if resume:
        return read_existing(out, settings, total)
    check_new_file(out)
    return Existing()


def _settings(
    bots: Bots, players: int, seed: int, seeds: Sequence[int] | None,
    variant: Variant | str, time_limit: float | None, max_rounds: int, lang: str = "en",
) -> Settings:  # fmt: skip
    if type(players) is not int or players not in (2, 3, 4):
        raise TournamentError(f"players must be 2, 3 or 4, not {shown(players)} (S1)")
    if type(seed) is not int:
        raise TournamentError(f"seed must be an integer, not {shown(seed)}")
    if seeds is not None and (
        isinstance(seeds, str | bytes) or not all(type(s) is int for s in seeds) or not seeds
    ):
        raise TournamentError("seeds must be a non-empty sequence of integers (one a deal)")
    _check_written("seed", seed)
    for deal, deal_seed in enumerate(seeds or ()):
        _check_written(f"seeds[{deal}]", deal_seed)
    try:
        variant = Variant(variant)
    except ValueError:
        raise TournamentError(f"variant must be colored or grey, not {shown(variant)}") from None
    if time_limit is not None and (
        not isinstance(time_limit, int | float) or not 0 < time_limit < _MAX_SECONDS
    ):
        raise TournamentError("{time_limit} must be a positive number of seconds, not {value}",
                              time_limit=Option.named("time_limit"), value=shown(time_limit))
    if type(max_rounds) is not int or max_rounds < 1:
        raise TournamentError("{max_rounds} must be a positive integer, not {value}",
                              max_rounds=Option.named("max_rounds"), value=shown(max_rounds))
    _check_written("max_rounds", max_rounds)
    if lang not in LANGUAGES:
        raise TournamentError(f"lang must be one of {', '.join(LANGUAGES)}, not {shown(lang)}")
    return Settings(
        entrants(bots), players, variant, seed, None if seeds is None else tuple(seeds),
        None if time_limit is None else float(time_limit), max_rounds, lang,
    )  # fmt: skip


_MAX_SECONDS: Final = 1e9
"""A longer time limit (some 30 years) is no limit: a float holds it, an integer past
it may not."""


def _check_written(name: str, value: int) -> None:
    """Refuse an integer JSON text cannot hold (past 4,300 digits): every game line
    writes the settings and the seeds, and ``replay`` reads them back."""
    if number(value) == too_long():
        raise TournamentError(
            f"{name} must be an integer of at most {MAX_DIGITS} digits, which a game line "
            f"can hold as JSON, not {too_long()}"
        )


def _game_count(games: int | None, settings: Settings) -> int:
    limit = settings.max_games()
    if games is None:
        if limit is None:
            raise TournamentError("give the number of games (games=N), or seeds= to play them")
        return limit
    if type(games) is not int or games < 0:
        raise TournamentError(f"games must be a number of games (0 or more), not {shown(games)}")
    if limit is not None and games > limit:
        raise TournamentError(
            f"{_needs(games, -(-games // settings.cycle))} "
            f"({settings.cycle} game{'' if settings.cycle == 1 else 's'} a deal), "
            f"but seeds= gives {len(settings.seeds or ())}"
        )
    return games


def _needs(games: int, seeds: int) -> str:
    """``1 game needs 1 deal seed``, ``5 games need 3 deal seeds``."""
    if games == 1:
        return "1 game needs 1 deal seed"
    return f"{number(games)} games need {number(seeds)} deal seed{'' if seeds == 1 else 's'}"


def _check_run(
    settings: Settings, backend: str, batch: int | None, workers: int | None, retries: int,
    out: str | None, resume: bool, ray_address: str | None,
) -> None:  # fmt: skip
    if backend not in BACKENDS:
        raise TournamentError(f"unknown backend {shown(backend)}: choose local, process or ray")
    for name, value in (("batch", batch), ("workers", workers)):
        if value is not None and (type(value) is not int or value < 1):
            raise TournamentError("{name} must be a positive integer, not {value}",
                                  name=Option.named(name), value=shown(value))
    if type(retries) is not int or retries < 0:
        raise TournamentError("{retries} must be 0 or more, not {value}",
                              retries=Option.named("retries"), value=shown(retries))
    if resume and out is None:
        raise TournamentError("{resume} needs the file to continue ({out})", resume=RESUME,
                              out=OUT)
    if ray_address is not None and backend != "ray":
        raise TournamentError(
            "{ray_address} is for the ray backend, not {backend} ({ray})",
            ray_address=Option.named("ray_address"), backend=backend, ray=RAY_BACKEND,
        )
    if backend == "process":
        settings.check_picklable("process")
    elif backend == "ray":
        ray = sys.modules.get("ray")  # Ray takes a second to import: not before the check
        if ray is None or not ray.is_initialized():  # a connection made is used as it is
            check_ray_address(ray_address)
        _check_ray_picklable(import_ray(), settings)


def _check_ray_picklable(ray: Any, settings: Settings) -> None:
    for entrant in settings.entrants:
        if isinstance(entrant.source, str):
            continue
        try:
            ray.cloudpickle.dumps(entrant.source)
        except Exception as error:
            raise TournamentError(
                f"bot {entrant.name!r} cannot be sent to Ray workers "
                f"({type(error).__name__}: {error})"
            ) from None
