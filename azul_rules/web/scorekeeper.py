"""The scorekeeper of a game played with the real box: ``POST /api/v1/scorekeeper``.

The players enter, round by round, the wall spaces they laid tiles on and what lies on
their floor lines (:mod:`azul_rules.web.sheet`); the judge gives each placement's points
(W3, :func:`~azul_rules.core.scoring.score_placement`), the floor penalties (F1, F3, F4),
the running totals (W4) and, once a row is complete (E1; on the grey wall also once no
row can ever be, R7), the end bonuses (E2) and the winners (E4).  On the grey wall
(V1-V5) each space laid names its colour, and the column chosen is checked as a
``PlaceTile`` is: a free space (V1), a colour not yet in its column (V2) nor its row
(V5, P3).  Entries no game can give are refused with their reason and rule (422).
A total the players wrote is judged as :func:`~azul_rules.audit_game` judges a
scoresheet: from the totals written before it, by the audit of the round's tiling
(:func:`~azul_rules.adjudication.auditing.audit_checked`), so a mistake is named once
with the audit's codes.  The service keeps nothing: each request carries the whole sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from azul_rules.adjudication.auditing import audit_checked
from azul_rules.adjudication.claims import Claim, ClaimedBoard
from azul_rules.adjudication.miscount import TILE_MISTAKES
from azul_rules.adjudication.scoresheet import Scoresheet, judge_end
from azul_rules.core.board import EMPTY_WALL, PlayerBoard, Wall, pattern_line
from azul_rules.core.colors import COLORS, MARKER, Color, FloorItem, wall_color
from azul_rules.core.errors import ErrorCode, FormatError, Violation
from azul_rules.core.grey import walls_can_end
from azul_rules.core.phases import Phase
from azul_rules.core.position import build, new_context
from azul_rules.core.rulebook import rule
from azul_rules.core.scoring import (
    Bonuses,
    WallPlacement,
    decide_outcome,
    end_bonuses,
    floor_penalty,
    score_placement,
)
from azul_rules.core.state import GameState
from azul_rules.text import template
from azul_rules.web.errors import ApiProblem, from_format_error
from azul_rules.web.judge import read_request, violation_document
from azul_rules.web.sheet import Entry, Sheet, sheet_from_data, sheet_to_dict, sheet_to_notation
from azul_rules.web.words import say

__all__ = ["FACTORIES", "scorekeeper", "tally"]

FACTORIES: Final = {2: 5, 3: 7, 4: 9}
"""The factory displays of a game (S2): each holds four tiles a round (R2)."""

Document = dict[str, Any]


@attrs.frozen
class _Refusal:
    """One impossible entry: where, why (a ``web.scorekeeper.*`` key and its figures)."""

    path: str
    key: str
    rule: str
    params: tuple[tuple[str, object], ...]

    def entry(self, lang: str) -> Document:
        """The refusal as an entry of the problem's ``errors``, in ``lang``."""
        params = {name: template(lang, f"color.{say_color(value)}") if isinstance(value, Color)
                  else value for name, value in self.params}  # fmt: skip
        return {
            "path": self.path,
            "problem": say("scorekeeper." + self.key, lang, **params),
            "rule": self.rule,
            "rule_title": rule(self.rule).title_in(lang),
            "rule_text": rule(self.rule).text(lang),
        }


class _Impossible(Exception):
    def __init__(self, refusals: list[_Refusal]) -> None:
        super().__init__(refusals)
        self.refusals = refusals


def _refusal(path: str, key: str, rule_id: str, **params: object) -> _Refusal:
    return _Refusal(path, key, rule_id, tuple(params.items()))


# -- one round -----------------------------------------------------------------------------


@attrs.frozen
class _Tiled:
    """One player's round as the rules score it."""

    placements: tuple[WallPlacement, ...]
    penalty: int
    before: int
    after: int
    wall: Wall


def _tiles(entry: Entry) -> list[tuple[int, int, Color]]:
    """Each space laid with its colour: the one named on the grey wall, the space's own
    on the coloured wall (S5)."""
    return [(r, c, wall_color(r, c) if color is None else color) for r, c, color in entry.laid()]


def _laid(entry: Entry) -> list[tuple[int, int, Color]]:
    """The tiles laid in the tiling order of W1 and V3: row by row from the top (a row
    gets one tile a round), whatever the order they were entered in."""
    return sorted(_tiles(entry))


def _check_entry(entry: Entry, wall: Wall, player: int, k: int, grey: bool) -> list[_Refusal]:
    """What makes player ``player``'s entry of round ``k`` (from 0) impossible on their
    wall as it stood before it."""
    path = f"$.sheet.rounds[{k}][{player}]"
    check = _check_grey if grey else _check_colored
    found = check(entry, wall, player, path, k + 1)
    if entry.floor > 7:
        found.append(_refusal(f"{path}.floor", "floor_full", "F2", player=player + 1,
                              count=entry.floor))  # fmt: skip
    return found


def _check_colored(entry: Entry, wall: Wall, player: int, path: str, number: int
                   ) -> list[_Refusal]:  # fmt: skip
    """The coloured wall's spaces: one tile a row (W1), a space not filled yet (its
    colour already in the row, P3)."""
    found = []
    rows_seen: set[int] = set()
    for i, (r, c) in enumerate(entry.placed):
        at = f"{path}.placed[{i}]"
        if r in rows_seen:
            found.append(_refusal(at, "same_row", "W1", player=player + 1, row=r + 1,
                                  round=number))
        elif wall[r][c] is not None:
            found.append(_refusal(at, "occupied", "P3", player=player + 1, row=r + 1,
                                  column=c + 1, color=wall_color(r, c)))
        rows_seen.add(r)
    return found


def _check_grey(entry: Entry, wall: Wall, player: int, path: str, number: int
                ) -> list[_Refusal]:  # fmt: skip
    """The grey wall's spaces, tile by tile in the tiling order (V3), each on the wall as
    the tiles above it left it: one tile a row (W1), a free space (V1), a colour not yet
    in its row (V5: P3 applies) nor in its column (V2)."""
    rows = [list(row) for row in wall]
    found = []
    seen: set[int] = set()
    tiles = _tiles(entry)
    for i in sorted(range(len(tiles)), key=lambda i: tiles[i]):
        r, c, color = tiles[i]
        at = f"{path}.placed[{i}]"
        said = {"player": player + 1, "row": r + 1, "column": c + 1, "color": color}
        if r in seen:
            found.append(_refusal(at, "same_row", "W1", player=player + 1, row=r + 1,
                                  round=number))  # fmt: skip
        elif (held := rows[r][c]) is not None:
            found.append(_refusal(at, "grey_occupied", "V1", **{**said, "color": held}))
        elif color in rows[r]:
            found.append(_refusal(at, "grey_row", "V5", **said))
        elif color in [row[c] for row in rows]:
            found.append(_refusal(at, "grey_column", "V2", **said))
        else:
            rows[r][c] = color
        seen.add(r)
    return found


def say_color(color: Color) -> str:
    """A colour's name as the catalogues' messages place it (``{color}``)."""
    return color.name.lower()


def _check_round(sheet: Sheet, k: int, walls: Sequence[Wall]) -> list[_Refusal]:
    """Every impossible entry of round ``k`` (from 0), the walls as they stood before it."""
    entries = sheet.rounds[k]
    found = []
    for p, entry in enumerate(entries):
        found += _check_entry(entry, walls[p], p, k, sheet.grey)
    markers = sum(e.marker for e in entries)
    if markers > 1:
        found.append(_refusal(f"$.sheet.rounds[{k}]", "markers", "T3", count=markers,
                              round=k + 1))
    return found or _check_supply(sheet, k, walls)


def _check_supply(sheet: Sheet, k: int, walls: Sequence[Wall]) -> list[_Refusal]:
    """The tiles the round's complete lines and floors needed, against what the game
    holds: in round 1 every tile of a complete line was taken this round, later at least
    one (the rest may have waited in the line, W2); floor tiles were all taken this round.
    The factories hold four tiles each (S2, R2); each colour has 20 tiles (S3), less
    those already on the walls."""
    entries = sheet.rounds[k]
    first = k == 0
    needed = sum((r + 1 if first else 1) for e in entries for r, _ in e.placed)
    needed += sum(min(e.floor, 7) for e in entries)
    held = 4 * FACTORIES[sheet.players]
    path = f"$.sheet.rounds[{k}]"
    found = []
    if needed > held:
        found.append(_refusal(path, "supply", "R2", round=k + 1, needed=needed, held=held))
    for color in COLORS:
        lines = sum(r + 1 for e in entries for r, _, laid in _tiles(e) if laid is color)
        walled = sum(row.count(color) for wall in walls for row in wall)
        if lines > 20 - walled:
            found.append(_refusal(path, "color_supply", "S3", round=k + 1,
                                  color=color, needed=lines, left=20 - walled))  # fmt: skip
    return found


def _tile(entry: Entry, wall: Wall, before: int) -> _Tiled:
    """W1, W3, W4: the tiles laid one by one, each scored on the wall as it then is;
    the floor paid once (F1; the marker's space too, F3; past 7 spaces nothing, F2/F4)."""
    rows = [list(row) for row in wall]
    placements = []
    for r, c, color in _laid(entry):
        rows[r][c] = color
        scored = score_placement(rows, r, c)
        placements.append(WallPlacement(r, c, color, scored.horizontal, scored.vertical,
                                        scored.points))  # fmt: skip
    penalty = floor_penalty(entry.floor + entry.marker)
    gained = sum(p.points for p in placements)
    after = max(0, before + gained - penalty)
    return _Tiled(tuple(placements), penalty, before, after, tuple(tuple(r) for r in rows))


# -- the written figures -------------------------------------------------------------------


def _offer_end(sheet: Sheet, k: int, walls: Sequence[Wall], scores: Sequence[int]) -> GameState:
    """The position just before round ``k``'s tiling that the entries describe: each
    wall as it stood, a full pattern line of the space's colour beside each space laid,
    the floor tiles (their colours play no part in the scoring) after the marker.  It is
    only ever audited, not played: what no entry says (bag, lid, unfinished lines) is
    left empty."""
    boards = []
    holder = None
    for p, (entry, wall) in enumerate(zip(sheet.rounds[k], walls, strict=True)):
        lines = [pattern_line(i, None, 0) for i in range(5)]
        for r, _, color in _tiles(entry):
            lines[r] = pattern_line(r, color, r + 1)
        floor: tuple[FloorItem, ...] = ((MARKER,) if entry.marker else ()) + (Color.BLUE,) * min(
            entry.floor, 7)
        if entry.marker:
            holder = p
        boards.append(PlayerBoard(scores[p], tuple(lines), wall, floor))
    context = new_context((), (), 0, Phase.FACTORY_OFFER, k + 1, sheet.wall, None, None,
                          None)  # fmt: skip
    factories = ((),) * FACTORIES[sheet.players]
    return build(GameState, tuple(boards), factories, (), 0, holder, context)


def _walls_claimed(sheet: Sheet, after: Sequence[Wall]) -> tuple[ClaimedBoard, ...] | None:
    """On the grey wall the walls as laid: the columns the players chose (V1)."""
    return tuple(ClaimedBoard(wall=w) for w in after) if sheet.grey else None


# -- the whole sheet -----------------------------------------------------------------------


def tally(sheet: Sheet, lang: str = "en") -> Document:
    """The sheet scored (see the module's docstring): the answer's document.

    :raises ApiProblem: 422 ``impossible-position`` naming every impossible entry of
        the first round that has one."""
    walls: list[Wall] = [EMPTY_WALL] * sheet.players
    totals = [0] * sheet.players
    counted = _Counted([0] * sheet.players, [None] * sheet.players)
    rounds = []
    over_at = None
    for k, entries in enumerate(sheet.rounds):
        if over_at is not None:
            stuck = not any(None not in row for wall in walls for row in wall)
            refusal = _refusal(f"$.sheet.rounds[{k}]", "after_stuck" if stuck else "after_end",
                               "R7" if stuck else "E1", round=k + 1, ended=over_at)  # fmt: skip
            raise _impossible([refusal], lang)
        refusals = _check_round(sheet, k, walls)
        if refusals:
            raise _impossible(refusals, lang)
        tiled = [_tile(e, w, t) for e, w, t in zip(entries, walls, totals, strict=True)]
        verdicts = counted.judge(sheet, k, walls, tiled)
        rounds.append(_round_document(sheet, k, tiled, verdicts, lang))
        walls = [t.wall for t in tiled]
        totals = [t.after for t in tiled]
        if _game_ends(sheet, walls):
            over_at = k + 1
    end = _end_document(sheet, walls, totals, counted.figures, lang) if over_at else None
    return {
        "players": sheet.players,
        "wall": sheet.wall.value,
        "sheet": sheet_to_dict(sheet),
        "notation": sheet_to_notation(sheet),
        "rounds": rounds,
        "totals": totals,
        "game_over": over_at is not None,
        "end": end,
        "scoresheet": _scoresheet(rounds, end),
        "correct": all(p["verdict"] in (None, "right") for r in rounds for p in r["players"])
        and not (end or {}).get("violations"),
    }


def _game_ends(sheet: Sheet, walls: Sequence[Wall]) -> bool:
    """E1: a complete wall row; R7 on the grey wall: no row can ever be completed."""
    if any(None not in row for wall in walls for row in wall):
        return True
    return sheet.grey and not walls_can_end([PlayerBoard(wall=w) for w in walls])


# -- the figures written ------------------------------------------------------------------


_GUESSED: Final = frozenset({*TILE_MISTAKES, ErrorCode.MARKER_PENALTY_FORGOTTEN,
                             ErrorCode.FLOOR_OVERFLOW_PENALIZED})  # fmt: skip
"""The codes the audit finds by trying each usual slip until one gives the figure
written: the entries show the figure wrong, not which slip made it (a guess)."""


@attrs.frozen
class _Verdict:
    """One written total judged: ``kind`` is ``None`` (nothing written), ``"right"``
    (the rules' total, counted on from a right one), ``"corrected"`` (the rules' total
    after a wrong one: the miscount of round ``since`` put right), ``"carried"`` (this
    round counted right from a wrong total, whose miscount of round ``since`` it
    carries) or ``"wrong"`` (a new miscount, the audit's violations guessing at it);
    ``before`` and ``expected``: the total counted from and the one this round's points
    give from it."""

    kind: str | None
    before: int
    expected: int
    since: int | None = None
    violations: tuple[Violation, ...] = ()


@attrs.define
class _Counted:
    """The totals as the sheet counts them (``figures``): each the total written, or
    where none was, the one before it plus the round's points by the rules; ``since[p]``
    the round whose miscount player ``p``'s figure still carries (``None``: none)."""

    figures: list[int]
    since: list[int | None]

    def judge(self, sheet: Sheet, k: int, walls: Sequence[Wall],
              tiled: Sequence[_Tiled]) -> list[_Verdict]:  # fmt: skip
        """Each written total of round ``k`` judged against both the rules' total and
        the figure before it plus the round's points: either is right (a miscount is
        named once, in its round, and not again in a total that carries it or puts it
        right); a total that is neither is a new miscount, which the audit explains
        from the figure before it."""
        entries = sheet.rounds[k]
        expected = [max(0, before + sum(p.points for p in t.placements) - t.penalty)
                    for before, t in zip(self.figures, tiled, strict=True)]  # fmt: skip
        kinds = [_kind(e.written, t.after, x) for e, t, x in zip(entries, tiled, expected,
                                                                  strict=True)]  # fmt: skip
        found: list[Violation] = []
        if "wrong" in kinds:
            position = _offer_end(sheet, k, walls, self.figures)
            boards = _walls_claimed(sheet, [t.wall for t in tiled])
            claimed = tuple(x if kind != "wrong" or e.written is None else e.written
                            for e, kind, x in zip(entries, kinds, expected,
                                                  strict=True))  # fmt: skip
            result = audit_checked(position, Claim(scores=claimed, boards=boards))
            found = [Violation(v.code, v.rule, (*v.params, ("round", k + 1)))
                     for v in result.violations]  # fmt: skip
        verdicts = []
        for p, (e, t, kind) in enumerate(zip(entries, tiled, kinds, strict=True)):
            mine = tuple(v for v in found if v.param_dict.get("player") == p)
            verdicts.append(_Verdict(kind, self.figures[p], expected[p], self.since[p], mine))
            figure = expected[p] if e.written is None else e.written
            self.since[p] = None if figure == t.after else (k + 1 if kind == "wrong"
                                                            else self.since[p])  # fmt: skip
            self.figures[p] = figure
        return verdicts


def _kind(written: int | None, rules: int, expected: int) -> str | None:
    if written is None:
        return None
    if written == rules:
        return "right" if expected == rules else "corrected"
    return "carried" if written == expected else "wrong"


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"\u2212{-n}"


def _verdict_text(verdict: _Verdict, written: int | None, tiled: _Tiled, lang: str) -> str:
    """The verdict in words: what the entries show, and a guess worded as one."""
    if verdict.kind is None or written is None:
        return ""
    if verdict.kind == "right":
        return say("scorekeeper.right", lang)
    if verdict.kind == "corrected":
        return say("scorekeeper.corrected", lang, round=verdict.since)
    if verdict.kind == "carried":
        return say("scorekeeper.carried", lang, before=verdict.before, total=tiled.after,
                   round=verdict.since)  # fmt: skip
    change = sum(p.points for p in tiled.placements) - tiled.penalty
    text = say("scorekeeper.wrong", lang, written=written, before=verdict.before,
               change=_signed(change), expected=verdict.expected)  # fmt: skip
    guesses = [v.message_in(lang) for v in verdict.violations if v.code in _GUESSED]
    if guesses:
        guessed = guesses[0]
        for more in guesses[1:]:
            guessed = say("scorekeeper.also", lang, said=guessed, more=more)
        text = say("scorekeeper.also", lang, said=text,
                   more=say("scorekeeper.perhaps", lang, guess=guessed))  # fmt: skip
    for v in verdict.violations:
        if v.code not in _GUESSED and v.code is not ErrorCode.SCORE_MISCOUNT:
            text = say("scorekeeper.also", lang, said=text, more=v.message_in(lang))
    return text


def _impossible(refusals: list[_Refusal], lang: str) -> ApiProblem:
    errors = [r.entry(lang) for r in refusals]
    count = len(errors)
    detail = say("scorekeeper.impossible", lang, count=count, first=errors[0]["problem"])
    return ApiProblem("impossible-position", detail, errors, lang=lang)


def _round_document(sheet: Sheet, k: int, tiled: list[_Tiled], verdicts: list[_Verdict],
                    lang: str) -> Document:  # fmt: skip
    players = []
    for t, e, verdict in zip(tiled, sheet.rounds[k], verdicts, strict=True):
        mine = [{**violation_document(v, lang), "guess": v.code in _GUESSED}
                for v in verdict.violations]  # fmt: skip
        players.append({
            "placements": [{"row": w.row, "column": w.column, "color": say_color(w.color),
                            "horizontal": w.horizontal, "vertical": w.vertical,
                            "points": w.points} for w in t.placements],
            "floor": e.floor,
            "marker": e.marker,
            "floor_penalty": t.penalty,
            "score_before": t.before,
            "score_after": t.after,
            "written": e.written,
            "verdict": verdict.kind,
            "expected": verdict.expected,
            "corrects": verdict.since if verdict.kind == "corrected" else None,
            "carries": verdict.since if verdict.kind == "carried" else None,
            "verdict_text": _verdict_text(verdict, e.written, t, lang),
            "violations": mine,
        })  # fmt: skip
    return {
        "round": k + 1,
        "notation": sheet_to_notation(sheet.upto(k + 1)),
        "players": players,
    }


def _end_document(sheet: Sheet, walls: Sequence[Wall], totals: Sequence[int],
                  written: Sequence[int], lang: str) -> Document:  # fmt: skip
    """E2, E4: the bonuses, the final totals and the winners, and what was written."""
    bonuses = [end_bonuses(w) for w in walls]
    final = [t + b.points for t, b in zip(totals, bonuses, strict=True)]
    boards = tuple(PlayerBoard(score=s, wall=w) for s, w in zip(final, walls, strict=True))
    outcome = decide_outcome(boards)
    end = sheet.end
    written_bonuses = _filled(end.bonuses, [b.points for b in bonuses])
    last = tuple(written)
    written_final = _filled(end.final, [w + b for w, b in zip(last, written_bonuses, strict=True)])
    claim = Scoresheet((last,), written_bonuses if end.bonuses else None,
                       written_final if end.final else None, end.winners)
    violations = judge_end(claim, boards, outcome)
    return {
        "bonuses": [_bonus_document(b) for b in bonuses],
        "final": final,
        "winners": list(outcome.winners),
        "written": {"bonuses": _listed(end.bonuses), "final": _listed(end.final),
                    "winners": _listed(end.winners)},
        "violations": [violation_document(v, lang) for v in violations],
    }


def _filled(figures: tuple[int | None, ...] | None, rules: list[int]) -> tuple[int, ...]:
    """The figures written, the rules' where nothing was written."""
    if figures is None:
        return tuple(rules)
    return tuple(r if f is None else f for f, r in zip(figures, rules, strict=True))


def _listed(value: tuple[Any, ...] | None) -> list[Any] | None:
    return None if value is None else list(value)


def _bonus_document(bonus: Bonuses) -> Document:
    return {"rows": bonus.rows, "columns": bonus.columns, "colors": bonus.colors,
            "points": bonus.points}  # fmt: skip


def _scoresheet(rounds: list[Document], end: Document | None) -> Document:
    """The rules' figures as a scoresheet of ``docs/audit.md``."""
    doc: Document = {
        "format_version": 1,
        "rounds": [[p["score_after"] for p in r["players"]] for r in rounds],
    }
    if end is not None:
        doc["bonuses"] = [b["points"] for b in end["bonuses"]]
        doc["final"] = end["final"]
        doc["winners"] = end["winners"]
    return doc


# -- the endpoint --------------------------------------------------------------------------


def scorekeeper(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/scorekeeper``: ``{"sheet": <JSON sheet or its notation>, "lang"}``
    answered with the sheet scored (:func:`tally`)."""
    doc, gathered = read_request(raw, {"sheet": True}, lang)
    lang = gathered.lang
    sheet = gathered.read(doc, "sheet", lambda: _read_sheet(doc["sheet"], lang))
    gathered.done()
    assert sheet is not None
    return {"lang": lang, **tally(sheet, lang)}


def _read_sheet(value: object, lang: str) -> Sheet:
    try:
        return sheet_from_data(value)
    except FormatError as error:
        raise from_format_error(error, "$.sheet", lang) from None
