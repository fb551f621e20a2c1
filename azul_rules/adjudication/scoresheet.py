"""A whole game's scoresheet, checked against the game's record: :func:`audit_game`.

Players keep running totals: after each round's wall tiling every player writes their new
score, and at the end the bonuses, the final totals and the winner.  The record gives
every move (seeded, or with the table's ``Refill`` moves); the referee replays it and
checks the sheet round by round.  Each round is judged from the totals the sheet itself
had written before it, so a mistake is named once, in the round where it was made (a
figure carried on from a wrong one is not a new mistake), with the same codes as
:func:`~azul_rules.adjudication.auditing.audit`.  The JSON form is documented in
``docs/audit.md`` and
described by ``azul_rules/formats/schemas/scoresheet.schema.json`` (:func:`schema`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from azul_rules.adjudication.auditing import audit_checked
from azul_rules.adjudication.claims import Claim, ClaimedBoard
from azul_rules.core.board import PlayerBoard, new_board
from azul_rules.core.colors import COLORS
from azul_rules.core.errors import ErrorCode, FormatError, IllegalMoveError, Result, Violation
from azul_rules.core.moves import Move, TableTake, Take
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.position import build
from azul_rules.core.scoring import Outcome, end_bonuses
from azul_rules.core.shown import fill
from azul_rules.core.state import GameState
from azul_rules.formats import schemas
from azul_rules.formats._reading import Reader, plain
from azul_rules.formats.jsontext import load
from azul_rules.formats.record import GameRecord, check_replayable

__all__ = [
    "GameAudit",
    "RoundVerdict",
    "Scoresheet",
    "audit_game",
    "judge_end",
    "offer_end_positions",
    "schema",
    "scoresheet_from_dict",
    "scoresheet_from_json",
]

E = ErrorCode
_KEYS: Final = ("format_version", "rounds", "bonuses", "final", "winners")


@attrs.frozen
class Scoresheet:
    """What the players wrote: ``rounds[k][p]`` is player ``p``'s total after the wall
    tiling of the record's ``k``-th round (floor included, bonuses not); ``bonuses``,
    ``final`` (totals with bonuses) and ``winners`` (from 0) are optional."""

    rounds: tuple[tuple[int, ...], ...]
    bonuses: tuple[int, ...] | None = None
    final: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None


@attrs.frozen
class RoundVerdict:
    """One round of the sheet: the ``written`` totals, the ``correct`` ones (the rules'
    totals from the start of the game), and the mistakes first made in this round."""

    round: int
    written: tuple[int, ...]
    correct: tuple[int, ...]
    violations: tuple[Violation, ...]

    @property
    def ok(self) -> bool:
        """True when every figure of this round is right."""
        return self.written == self.correct and not self.violations


@attrs.frozen
class GameAudit:
    """The verdict on a scoresheet: each round's, then the end's (bonuses, final totals,
    winners).  ``failed_at`` and ``failure`` name an illegal move of the record (the
    rounds after it are not judged)."""

    rounds: tuple[RoundVerdict, ...]
    end: tuple[Violation, ...] = ()
    final_scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    failed_at: int | None = None
    failure: Result | None = None

    @property
    def violations(self) -> tuple[Violation, ...]:
        """Every mistake, round by round, then those of the end."""
        return tuple(v for r in self.rounds for v in r.violations) + self.end

    @property
    def result(self) -> Result:
        """The mistakes as a :class:`~azul_rules.Result` (each has a ``round`` parameter,
        except those of the end)."""
        return Result.of(self.violations)

    @property
    def first_wrong(self) -> tuple[int, int] | None:
        """``(round, player)`` of the first wrong figure on the sheet, or ``None``."""
        for verdict in self.rounds:
            for player, (a, b) in enumerate(zip(verdict.written, verdict.correct, strict=True)):
                if a != b:
                    return verdict.round, player
        return None

    @property
    def ok(self) -> bool:
        """True when the record is legal and every figure of the sheet is right."""
        return self.failure is None and not self.end and all(r.ok for r in self.rounds)


# -- reading ---------------------------------------------------------------------------------


def scoresheet_from_dict(data: object) -> Scoresheet:
    """Read a scoresheet from JSON-like data; ``FormatError`` names every problem's path."""
    reader = Reader()
    doc = reader.document(data, _KEYS)
    rounds: list[tuple[int, ...]] = []
    raw = reader.array(doc.get("rounds"), "$.rounds", most=1000) if "rounds" in doc else None
    if "rounds" not in doc:
        reader.fail("$.rounds", "required field missing")
    for k, row in enumerate(raw or []):
        totals = reader.integers(row, f"$.rounds[{k}]")
        if totals is not None:
            rounds.append(totals)
    fields: dict[str, Any] = {}
    for name in ("bonuses", "final"):
        if doc.get(name) is not None:
            fields[name] = reader.integers(doc[name], f"$.{name}")
    if doc.get("winners") is not None:
        fields["winners"] = reader.players(doc["winners"], "$.winners")
    sheet = Scoresheet(tuple(rounds), **fields)
    widths = {len(r) for r in sheet.rounds} | {len(v) for v in (sheet.bonuses, sheet.final) if v}
    if len(widths) > 1:
        reader.fail("$", "every round, bonuses and final need one figure per player")
    reader.done()
    return sheet


def scoresheet_from_json(text: str | bytes) -> Scoresheet:
    """Read a scoresheet from JSON text."""
    return scoresheet_from_dict(load(text))


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scoresheet, as shipped in the package."""
    return schemas.schema("scoresheet")


def _validated(sheet: object) -> Scoresheet:
    if isinstance(sheet, Mapping):
        return scoresheet_from_dict(dict(sheet))
    if not isinstance(sheet, Scoresheet):
        raise FormatError(f"$: expected a Scoresheet, got {type(sheet).__name__}",
                          (("$", "expected a Scoresheet"),))  # fmt: skip
    doc = {f.name: plain(getattr(sheet, f.name)) for f in attrs.fields(Scoresheet)
           if getattr(sheet, f.name) is not None}  # fmt: skip
    return scoresheet_from_dict(doc)


# -- replaying the record --------------------------------------------------------------------


@attrs.frozen
class _Round:
    """One round of the record: the position before its factory offer's last take and
    that take (whence :meth:`offer_end`), and the boards after its tiling (scores after
    the floor, before any bonus)."""

    number: int
    before_last_take: GameState
    last_take: Move
    after: tuple[PlayerBoard, ...]

    def offer_end(self) -> GameState:
        """The position when the factory offer ended (worked out only for the rounds
        the sheet has written: a record may tile hundreds more)."""
        return _offer_end(self.before_last_take, self.last_take)


def _offer_end(before: GameState, move: Move) -> GameState:
    """The position just after ``move``, the last take of a factory offer, and before the
    tiling (``apply`` goes on to the tiling at once).  The take is applied with one tile
    of another colour added to the centre, so that the offer is not over, and that tile
    is taken away again."""
    assert isinstance(move, (Take, TableTake))
    spare = next(c for c in COLORS if c != move.color)
    padded = attrs.evolve(before, center=tuple(sorted((*before.center, spare))))
    after = padded.apply(move)
    center = list(after.center)
    center.remove(spare)
    return attrs.evolve(after, center=tuple(center))


def _tiled(state: GameState, offer_round: int) -> bool:
    """True once the tiling of round ``offer_round`` is over."""
    phase = state.phase
    return phase in (Phase.REFILL, Phase.GAME_OVER) or (
        phase is Phase.FACTORY_OFFER and state.round != offer_round
    )


def _without_bonuses(boards: tuple[PlayerBoard, ...], over: bool) -> tuple[PlayerBoard, ...]:
    if not over:
        return boards
    return tuple(PlayerBoard(score=b.score - end_bonuses(b.wall).points,
                             pattern_lines=b.pattern_lines, wall=b.wall, floor=b.floor)
                 for b in boards)  # fmt: skip


def _replay(record: GameRecord) -> tuple[list[_Round], GameState, int | None, Result | None]:
    """Every tiled round of the record, the last state, and the first illegal move.
    Each move is refereed once (``apply``; ``validate`` only for an illegal one)."""
    state = record.start()
    rounds: list[_Round] = []
    pending: tuple[GameState, Move] | None = None  # the offer's last take, not yet tiled
    offer_round = state.round
    offer = Phase.FACTORY_OFFER
    for index, move in enumerate(record.moves):
        try:
            after = state.apply(move)
        except IllegalMoveError:
            return rounds, state, index, state.validate(move)
        if pending is None:
            before, now = state.context, after.context  # (the phase and round live there)
            if before.phase is offer and (now.phase is not offer or now.round != before.round):
                offer_round = before.round
                pending = (state, move)
        if pending is not None and _tiled(after, offer_round):
            boards = _without_bonuses(after.players, after.is_over)
            rounds.append(_Round(offer_round, *pending, boards))
            pending = None
        state = after
    return rounds, state, None, None


# -- the audit -------------------------------------------------------------------------------


def audit_game(record: GameRecord, sheet: Scoresheet | Mapping[str, object]) -> GameAudit:
    """Check a whole game's scoresheet against its record (see the module's docstring).

    ``sheet`` is a :class:`Scoresheet` or its JSON-like form.  An illegal move in the
    record raises nothing: the verdict reports it (``failed_at``, ``failure``).

    :raises FormatError: for a sheet that is malformed or does not fit the record (a
        figure per player, no more rounds than the record tiles, every round when the
        game is over), a record ``GameRecord.replay`` refuses (a setting such as
        ``$.players``, an entry of ``$.moves`` that is not a move), and a ``record`` that
        is not a ``GameRecord``.
    """
    if not isinstance(record, GameRecord):
        raise FormatError(f"$: expected a GameRecord, got {type(record).__name__}",
                          (("$", "expected a GameRecord"),))  # fmt: skip
    check_replayable(record)
    checked = _validated(sheet)
    rounds, final, failed_at, failure = _replay(record)
    _check_fits(checked, record, rounds, final, failed_at is None)
    verdicts = []
    written_before = tuple(b.score for b in record.start().players)
    for played, written in zip(rounds, checked.rounds, strict=False):
        verdicts.append(_judge_round(played, written, written_before))
        written_before = written
    end: list[Violation] = []
    if final.is_over and final.outcome is not None and len(checked.rounds) == len(rounds):
        end = judge_end(checked, rounds[-1].after if rounds else final.players, final.outcome)
    outcome = final.outcome
    return GameAudit(
        tuple(verdicts), tuple(end),
        outcome.scores if outcome is not None else None,
        outcome.winners if outcome is not None else None,
        failed_at, failure,
    )  # fmt: skip


def offer_end_positions(record: GameRecord) -> tuple[GameState, ...]:
    """The position at the end of each tiled round's factory offer, before its tiling
    (the position each round of :func:`audit_game` is audited from), in order; the
    rounds before a first illegal move only.  For the pictures of an audit.

    :raises FormatError: for a record ``GameRecord.replay`` refuses.
    """
    check_replayable(record)
    rounds, _, _, _ = _replay(record)
    return tuple(played.offer_end() for played in rounds)


def _check_fits(sheet: Scoresheet, record: GameRecord, rounds: list[_Round], final: GameState,
                complete: bool) -> None:  # fmt: skip
    errors = []
    n = len(final.players)
    for k, row in enumerate(sheet.rounds):
        if len(row) != n:
            errors.append((f"$.rounds[{k}]", f"expected {n} totals, one per player"))
    for name in ("bonuses", "final"):
        value = getattr(sheet, name)
        if value is not None and len(value) != n:
            errors.append((f"$.{name}", f"expected {n} figures, one per player"))
    if sheet.winners is not None and any(w >= n for w in sheet.winners):
        errors.append(("$.winners", f"players are numbered 0 to {n - 1}"))
    if complete and len(sheet.rounds) > len(rounds):
        errors.append(("$.rounds", fill("{n} {n:round|rounds} written, but the record tiles "
                                        "{tiled}", "en", n=len(sheet.rounds), tiled=len(rounds))))
    elif complete and final.is_over and len(sheet.rounds) < len(rounds):
        errors.append(("$.rounds", fill("{n} {n:round|rounds} written, but the game lasted "
                                        "{lasted}", "en", n=len(sheet.rounds), lasted=len(rounds))))
    if errors:
        raise FormatError("; ".join(f"{p}: {m}" for p, m in errors), tuple(errors))


def _judge_round(played: _Round, written: tuple[int, ...],
                 written_before: tuple[int, ...]) -> RoundVerdict:  # fmt: skip
    """One round, judged from the totals the sheet had before it (a round whose totals
    before and after are the rules' has nothing to name: it is not audited again)."""
    correct = tuple(b.score for b in played.after)
    before = tuple(b.score for b in played.before_last_take.players)
    if written == correct and written_before == before:
        return RoundVerdict(played.number, written, correct, ())
    start = played.offer_end()
    boards = tuple(new_board(s, b.pattern_lines, b.wall, b.floor, b.accepting)
                   for b, s in zip(start.players, written_before, strict=True))  # fmt: skip
    position = build(GameState, boards, start.factories, start.center, start.current_player,
                     start.marker_holder, start.context)  # fmt: skip
    walls = None
    if start.variant is Variant.GREY:  # the columns chosen are in the record
        walls = tuple(ClaimedBoard(wall=b.wall) for b in played.after)
    # The claim is the sheet's, already read strictly, and fits the record (_check_fits).
    result = audit_checked(position, Claim(scores=written, boards=walls))
    found = tuple(Violation(v.code, v.rule, (*v.params, ("round", played.number)))
                  for v in result.violations)  # fmt: skip
    return RoundVerdict(played.number, written, correct, found)


def judge_end(sheet: Scoresheet, tiled: tuple[PlayerBoard, ...],
              outcome: Outcome) -> list[Violation]:  # fmt: skip
    """The end of a finished game's sheet: E2, the bonuses written (``sheet.bonuses``)
    against the walls of ``tiled``, the boards after the last tiling; the final totals
    written (``sheet.final``) against the last round's written totals plus the bonuses
    written; E4, the winners written against ``outcome``, the rules' (the rules' scores
    decide, not the sheet's).  The scorekeeper of the web judge judges its end here too."""
    found = []
    last = sheet.rounds[-1] if sheet.rounds else tuple(0 for _ in tiled)
    for p, board in enumerate(tiled):
        bonus = end_bonuses(board.wall)
        if sheet.bonuses is not None and sheet.bonuses[p] != bonus.points:
            found.append(Violation.of(
                E.BONUS_MISCOUNT, "E2", player=p, claimed=sheet.bonuses[p],
                correct=bonus.points, complete_rows=bonus.rows, complete_columns=bonus.columns,
                complete_colors=bonus.colors,
            ))  # fmt: skip
        written_bonus = sheet.bonuses[p] if sheet.bonuses is not None else bonus.points
        if sheet.final is not None and sheet.final[p] != last[p] + written_bonus:
            found.append(Violation.of(E.SCORE_MISCOUNT, "E2", reason="final", player=p,
                                      claimed=sheet.final[p],
                                      correct=last[p] + written_bonus))  # fmt: skip
    if sheet.winners is not None and tuple(sorted(sheet.winners)) != outcome.winners:
        found.append(Violation.of(E.WRONG_WINNER, "E4", claimed_players=sheet.winners,
                                  correct_players=outcome.winners))  # fmt: skip
    return found
