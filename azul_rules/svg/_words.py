"""The words of :mod:`azul_rules.svg` pictures, in every language of the catalogues
(``svg.*`` in ``azul_rules/text/*.po``): the title, the moves, the verdict and the tiling
written under the table.

Private: ``azul_rules.svg`` is the public entry point.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Final

from azul_rules.core.colors import CENTER, FLOOR, Color, Marker
from azul_rules.core.errors import Violation
from azul_rules.core.messages import color_name, phase_name, says
from azul_rules.core.moves import Move, PlaceTile, TableTake, Take
from azul_rules.core.position import Position
from azul_rules.core.render import variant_name
from azul_rules.core.scoring import RoundScoring
from azul_rules.svg._parts import NOTES_WIDTH, Audit, Verdict


def word(key: str, lang: str, **params: object) -> str:
    """A phrase of the picture in ``lang``, its figures filled in (a number past 40
    digits said to be one) and the words they count in the singular or the plural
    (:func:`~azul_rules.core.shown.fill`)."""
    return says(lang, "svg." + key, **params)


def title_of(state: Position, lang: str, *, audited: bool = False) -> str:
    """The ``<title>``: round, phase, players, wall, turn or result, in one line (for an
    audit, that the tiling is audited: no one is to move)."""
    title = word("title", lang, round=state.round, phase=phase_name(state.phase.value, lang))
    subtitle = word("audit_subtitle", lang) if audited else subtitle_of(state, lang)
    return f"{title} · {subtitle}"


def subtitle_of(state: Position, lang: str) -> str:
    """Players, wall variant, and whose turn it is (or who won)."""
    text = word(
        "players", lang, players=len(state.players), variant=variant_name(state.variant, lang)
    )
    if state.outcome is not None:
        return f"{text} · {result_text(state, lang)}"
    return f"{text} · {word('to_move', lang, player=state.current_player + 1)}"


def result_text(state: Position, lang: str) -> str:
    """The winner, or the players sharing the victory (E4)."""
    outcome = state.outcome
    assert outcome is not None
    names = word("and", lang).join(str(w + 1) for w in outcome.winners)
    if outcome.is_shared:
        return word("shared", lang, players=word("players_n", lang, players=names))
    return word("winners", lang, players=word("player", lang, player=names).lower())


def describe_move(move: Move, lang: str) -> str:
    """A move in words (``lang``), naming places from 1 as players do."""
    if isinstance(move, Take):
        text = word(
            "take",
            lang,
            notation=move,
            color=_color_word(move.color, lang),
            source=_source_word(move.source, lang),
            line=_line_word(move.line, lang),
        )
    elif isinstance(move, TableTake):
        text = _describe_table_take(move, lang)
    elif isinstance(move, PlaceTile):
        text = word("place_tile", lang, line=move.line + 1, column=move.column + 1)
    else:
        text = str(move)
    if move.player is not None:
        return word("by_player", lang, player=move.player + 1, move=text)
    return text


def _describe_table_take(move: TableTake, lang: str) -> str:
    colors = move.color if isinstance(move.color, tuple) else (move.color,)
    where = ", ".join(
        word("placed_in", lang, count=count, line=_line_word(line, lang))
        for line, count in sorted(move.placements.items(), key=lambda p: (p[0] == FLOOR, p[0]))
    )
    return word(
        "table_take",
        lang,
        count=move.count,
        color=word("and", lang).join(_color_word(c, lang) for c in colors),
        source=_source_word(move.source, lang),
        where=where or word("nowhere", lang, count=move.count),
    )


def _color_word(color: Color | Marker, lang: str) -> str:
    return color_name(color, lang) if isinstance(color, Color) else word("marker", lang)


def _source_word(source: int, lang: str) -> str:
    return word("the_centre", lang) if source == CENTER else word("factory_n", lang, n=source + 1)


def _line_word(line: int, lang: str) -> str:
    return word("the_floor", lang) if line == FLOOR else word("line_n", lang, n=line + 1)


# -- the verdict's text ----------------------------------------------------------------

Note = tuple[str, str]  # (CSS class, text)


def verdict_notes(verdict: Verdict, lang: str) -> list[Note]:
    """The lines written under the table: the move and its verdict, or the tiling."""
    notes: list[Note] = []
    if verdict.audit is not None:
        notes.extend(_audit_notes(verdict.audit, lang))
    if verdict.result is not None:
        notes.append(_verdict_head(verdict, lang))
        notes.extend(("violation", _violation_text(v, lang)) for v in verdict.result.violations)
    if verdict.scoring is not None:
        notes.extend(_scoring_notes(verdict.scoring, lang))
    return notes


def _verdict_head(verdict: Verdict, lang: str) -> Note:
    assert verdict.result is not None
    ok = verdict.result.ok
    kind = "legal" if ok else "illegal"
    if verdict.move is None:
        return f"verdict-head {kind}", word(f"{kind}_alone", lang)
    return f"verdict-head {kind}", word(kind, lang, move=describe_move(verdict.move, lang))


def _audit_notes(audit: Audit, lang: str) -> list[Note]:
    """An audit's heading ("Audit: the claim is correct" or how many mistakes it holds),
    what was claimed, then each mistake with its code and rule."""
    mistakes = len(audit.result.violations)
    kind = "correct" if audit.result.ok else "wrong"
    head = word(f"audit_{kind}", lang, count=mistakes)
    notes: list[Note] = [(f"verdict-head audit {kind}", head)]
    if audit.scores is not None:
        claimed = word("and", lang).join(
            word("audit_score", lang, player=p + 1, score=s) for p, s in enumerate(audit.scores)
        )
        notes.append(("claimed", word("audit_claimed", lang, scores=claimed)))
    notes.extend(("violation", _violation_text(v, lang)) for v in audit.result.violations)
    return notes


def _violation_text(violation: Violation, lang: str) -> str:
    return f"{violation.code.value} ({violation.rule}): {violation.message_in(lang)}"


def _scoring_notes(scoring: RoundScoring, lang: str) -> list[Note]:
    notes: list[Note] = [("verdict-head tiling", word("tiling", lang, round=scoring.round))]
    for tiling in scoring.players:
        bonus = tiling.bonuses.points if tiling.bonuses is not None else 0
        text = word(
            "tiling_player",
            lang,
            player=tiling.player + 1,
            placed=tiling.placement_points,
            penalty=tiling.floor_penalty,
            before=tiling.score_before,
            after=tiling.score_after - bonus,
        )
        notes.append(("scoring", text))
        if tiling.bonuses is not None:
            notes.append(("scoring", word("bonuses", lang, player=tiling.player + 1, points=bonus)))
    return notes


NOTE_SIZE: Final = 12
NOTE_STEP: Final = 16


def wrap(text: str, width: float, font_size: float) -> list[str]:
    """``text`` in lines that fit ``width`` px (an average glyph is under 0.56 em wide)."""
    return textwrap.wrap(text, max(10, int(width / (0.56 * font_size)))) or [""]


def notes_height(notes: Sequence[Note], width: float = NOTES_WIDTH) -> float:
    """The height of the verdict's box (none without notes), its lines ``width`` wide."""
    if not notes:
        return 0
    lines = sum(len(wrap(text, width, NOTE_SIZE)) for _, text in notes)
    return lines * NOTE_STEP + 18
