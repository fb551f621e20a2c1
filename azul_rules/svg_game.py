"""Pictures of a recorded game, round by round (``azul-rules replay --svg-dir``)."""

from __future__ import annotations

from azul_rules.errors import FormatError
from azul_rules.phases import Phase
from azul_rules.record import GameRecord
from azul_rules.scoring import RoundScoring
from azul_rules.state import GameState
from azul_rules.svg import Svg, board

__all__ = ["record_pictures"]


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
    whose start cannot be built, or a move that is not a move.
    """
    board(_start_of(record), lang=lang, size=size)  # checks the arguments once, early
    replay = record.replay()
    pictures: list[tuple[str, Svg]] = []
    for index, state in enumerate(replay.states):
        before = replay.states[index - 1] if index else None
        scoring = _tiling_done(before, state)
        if scoring is not None:
            name = f"round-{scoring.round:02d}-tiled.svg"
            pictures.append((name, board(state, highlight=scoring, lang=lang, size=size)))
        start = _start_name(before, state)
        if start is not None:
            pictures.append((start, board(state, lang=lang, size=size)))
    if replay.failed_at is not None and replay.failure is not None:
        move = record.moves[replay.failed_at]
        name = f"move-{replay.failed_at + 1:03d}-illegal.svg"
        pictures.append(
            (name, board(replay.final, highlight=(move, replay.failure), lang=lang, size=size))
        )
    return pictures


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
