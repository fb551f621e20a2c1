"""Pictures of a recorded game, round by round (``azul-rules replay --svg-dir``)."""

from __future__ import annotations

from collections.abc import Iterator

from azul_rules.core.errors import FormatError
from azul_rules.core.phases import Phase
from azul_rules.core.scoring import RoundScoring
from azul_rules.core.state import GameState
from azul_rules.formats.record import GameRecord, Replay
from azul_rules.svg import Svg, board

__all__ = ["iter_record_pictures", "record_pictures"]


def record_pictures(
    record: GameRecord, *, lang: str = "en", size: int | None = None
) -> list[tuple[str, Svg]]:
    """Pictures of a recorded game, each with a file name, in the order of play.

    ``round-NN-start.svg``: the table when round NN's factory offer begins (a record
    starting in another phase starts with ``round-NN-refill.svg`` or
    ``round-NN-wall-tiling.svg``); ``round-NN-tiled.svg``: the table after round
    NN's wall tiling, the tiles it placed marked and its points written under the
    table; ``move-NNN-illegal.svg``: the first illegal move (numbered from 1), drawn
    with its verdict, where the replay stops.  Raises like :func:`board` for ``lang``
    and ``size``; ``FormatError`` for a ``record`` that is not a ``GameRecord``, one
    whose start cannot be built, or a move that is not a move.  The list holds every
    picture at once (about 40 KB each); :func:`iter_record_pictures` gives them one
    at a time.
    """
    return list(iter_record_pictures(record, lang=lang, size=size))


def iter_record_pictures(
    record: GameRecord, *, lang: str = "en", size: int | None = None
) -> Iterator[tuple[str, Svg]]:
    """:func:`record_pictures` one picture at a time, each drawn when asked for, so
    that writing them (``azul-rules replay --svg-dir``) holds one picture in memory,
    not the thousands of a long record.  The arguments are checked, and the record
    replayed, when it is called, before the first picture: it raises as
    :func:`record_pictures` does."""
    board(_start_of(record), lang=lang, size=size)  # checks the arguments once, early
    return _pictures(record, record.replay(), lang, size)


def _pictures(
    record: GameRecord, replay: Replay, lang: str, size: int | None
) -> Iterator[tuple[str, Svg]]:
    for index, state in enumerate(replay.states):
        before = replay.states[index - 1] if index else None
        scoring = _tiling_done(before, state)
        if scoring is not None:
            name = f"round-{scoring.round:02d}-tiled.svg"
            yield name, board(state, highlight=scoring, lang=lang, size=size)
        start = _start_name(before, state)
        if start is not None:
            yield start, board(state, lang=lang, size=size)
    if replay.failed_at is not None and replay.failure is not None:
        move = record.moves[replay.failed_at]
        name = f"move-{replay.failed_at + 1:03d}-illegal.svg"
        yield name, board(replay.final, highlight=(move, replay.failure), lang=lang, size=size)


def _start_of(record: object) -> GameState:
    """The state ``record`` starts from; ``FormatError`` when there is none."""
    if not isinstance(record, GameRecord):
        raise FormatError(
            f"record_pictures() pictures a GameRecord, not {type(record).__name__} "
            "(GameRecord.from_json or from_dict reads one)"
        )
    try:
        return record.start()
    except FormatError as error:  # a setting the reader refuses, with its path
        raise FormatError(f"the record cannot start: {error}", error.errors) from None
    except (TypeError, ValueError) as error:
        raise FormatError(f"the record cannot start: {error}") from None


def _start_name(before: GameState | None, state: GameState) -> str | None:
    """``round-NN-start.svg`` when a round's factory offer begins (R4); the position a
    record starts from in another phase is pictured too (``round-NN-refill.svg``...)."""
    offer = Phase.FACTORY_OFFER
    if state.phase is offer and (
        before is None or before.phase is not offer or before.round != state.round
    ):
        return f"round-{state.round:02d}-start.svg"
    if before is None:
        return f"round-{state.round:02d}-{state.phase.value.replace('_', '-')}.svg"
    return None


def _tiling_done(before: GameState | None, state: GameState) -> RoundScoring | None:
    """The record of a wall tiling that ``state`` has just finished (W1-W5), if any."""
    if before is None or state.phase is Phase.WALL_TILING:
        return None
    scoring = state.last_scoring
    if scoring is None or scoring is before.last_scoring:
        return None
    return scoring
