"""The rule book: every rule and ruling the referee enforces, by id, in every language.

The ids (``G1``, ``P3``, ``R7``...) are the ones every :class:`~azul_rules.Violation`,
every :class:`~azul_rules.Problem`, the error-code tables and the tests cite.  This module
holds the book's order and which rules each error code cites; the titles and texts live in
the catalogues (``rule.P3.title``, ``rule.P3.text`` in ``azul_rules/text/*.po``) and
nowhere else: ``docs/rules.md`` (English) and ``docs/regles.md`` (French) are generated
from them by ``python -m azul_rules.cli.make_docs`` (``--check`` only compares), and a
test keeps the committed pages equal to what :func:`markdown` writes.

>>> import azul_rules as az
>>> az.rule("P3").title
'No colour twice beside a wall row'
>>> az.rule("p3").text("fr").startswith("On ne peut pas")
True
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Mapping
from typing import Final

import attrs

from azul_rules.core.messages import LANGUAGES, check_language
from azul_rules.core.shown import shown
from azul_rules.text import template

__all__ = [
    "CODE_RULES", "LANGUAGES", "PROBLEM_RULES", "RULES", "SECTIONS", "Rule", "code_description",
    "id_ranges", "markdown", "problem_description", "rule", "rules", "section_title",
]  # fmt: skip


class _Words(Mapping[str, str]):
    """One text of the catalogues (``rule.P3.title``...) in every language, read when
    asked: a rule's titles and texts."""

    def __init__(self, key: str) -> None:
        self._key = key

    def __getitem__(self, lang: str) -> str:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        return template(lang, self._key)

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Words) and other._key == self._key


@attrs.frozen
class Rule:
    """One rule (or ruling) of the book: ``id`` such as ``"P3"``, its ``section`` letter,
    whether it is a ``ruling`` (a decision where the printed rules are silent or
    unclear), and its title and text in each language."""

    id: str
    ruling: bool
    titles: Mapping[str, str] = attrs.field(repr=False)
    texts: Mapping[str, str] = attrs.field(repr=False)

    @property
    def section(self) -> str:
        """The letter of the rule's section (``"P"`` for ``P3``)."""
        return self.id[0]

    @property
    def title(self) -> str:
        """The English title."""
        return self.titles["en"]

    def title_in(self, lang: str) -> str:
        """The title in ``lang`` (one of :data:`LANGUAGES`)."""
        return self.titles[_lang(lang)]

    def text(self, lang: str = "en") -> str:
        """The rule's text in ``lang`` (one of :data:`LANGUAGES`).

        :raises ValueError: for an unknown language.
        """
        return self.texts[_lang(lang)]

    def __str__(self) -> str:
        return f"{self.id} {self.title}: {self.text('en')}"

    def __repr__(self) -> str:
        """Short, with the English title: ``<Rule P3 'No colour twice beside a wall
        row'>`` (``str`` gives the text too)."""
        kind = "Ruling" if self.ruling else "Rule"
        return f"<{kind} {self.id} {self.title!r}>"


def _lang(lang: str) -> str:
    return check_language(lang)


_SECTION_LETTERS: Final = "GSTPFWREV"
"""The sections, in the book's order; their titles are ``section.G``... in the catalogues."""

# The rules and rulings, in the book's order: id, and whether it is a ruling.
_BOOK: Final[tuple[tuple[str, bool], ...]] = (
    ("G1", False), ("G2", False),
    ("S1", False), ("S2", False), ("S3", False), ("S4", False), ("S5", False), ("S6", False),
    ("S7", False),
    ("T1", False), ("T2", False), ("T3", False), ("T4", False),
    ("P1", False), ("P2", False), ("P3", False), ("P4", False), ("P5", False), ("P6", False),
    ("P7", False),
    ("F1", False), ("F2", False), ("F3", False), ("F4", True),
    ("W1", False), ("W2", False), ("W3", False), ("W4", False), ("W5", False),
    ("R1", False), ("R2", False), ("R3", False), ("R4", False), ("R5", True), ("R6", True),
    ("R7", True),
    ("E1", False), ("E2", False), ("E3", False), ("E4", False),
    ("V1", False), ("V2", False), ("V3", False), ("V4", False), ("V5", True),
)  # fmt: skip

RULES: Final[Mapping[str, Rule]] = {
    rule_id: Rule(rule_id, ruling, _Words(f"rule.{rule_id}.title"), _Words(f"rule.{rule_id}.text"))
    for rule_id, ruling in _BOOK
}
"""Every rule of the book, by id, in the book's order."""


def section_title(letter: str, lang: str = "en") -> str:
    """The title of the section ``letter`` (``"P"``) in ``lang``."""
    return template(_lang(lang), f"section.{letter}")


class _Sections(Mapping[str, tuple[str, ...]]):
    """The sections' titles, by letter, in the order of :data:`LANGUAGES`."""

    def __getitem__(self, letter: str) -> tuple[str, ...]:
        if not isinstance(letter, str) or len(letter) != 1 or letter not in _SECTION_LETTERS:
            raise KeyError(letter)
        return tuple(section_title(letter, lang) for lang in LANGUAGES)

    def __iter__(self) -> Iterator[str]:
        return iter(_SECTION_LETTERS)

    def __len__(self) -> int:
        return len(_SECTION_LETTERS)


SECTIONS: Final[Mapping[str, tuple[str, ...]]] = _Sections()
"""The sections, in the book's order: letter -> its titles, in the order of
:data:`LANGUAGES` (:func:`section_title` for one)."""


def rule(rule_id: str) -> Rule:
    """The rule or ruling ``rule_id`` (``"P3"``, case-insensitive).

    :raises ValueError: for an unknown id (naming the ids that exist).
    :raises TypeError: for an id that is not a string.
    """
    if not isinstance(rule_id, str):
        raise TypeError(f"a rule id is a string such as 'P3', not {shown(rule_id)}")
    found = RULES.get(rule_id.strip().upper())
    if found is None:
        raise ValueError(f"no rule {shown(rule_id)} in the rule book: the ids are {id_ranges()}")
    return found


def rules(section: str | None = None) -> tuple[Rule, ...]:
    """Every rule of the book in order, or those of one ``section`` letter."""
    return tuple(r for r in RULES.values() if section is None or r.section == section.upper())


def id_ranges() -> str:
    """The ids of the book, section by section: ``G1-G2, S1-S7, ...``."""
    parts = []
    for letter in SECTIONS:
        ids = [r.id for r in rules(letter)]
        parts.append(f"{ids[0]}-{ids[-1]}")
    return ", ".join(parts)


# -- which rules each error code cites -----------------------------------------------------

CODE_RULES: Final[Mapping[str, tuple[str, ...]]] = {
    "PARTIAL_TAKE": ("T2", "T3"),
    "SPLIT_LOT": ("P1",),
    "WALL_COLOR_CONFLICT": ("P3", "V5"),
    "INCOMPLETE_LINE_CLEARED": ("W2",),
    "DIAGONAL_COUNTED": ("W3",),
    "GAP_COUNTED": ("W3",),
    "MARKER_PENALTY_FORGOTTEN": ("F3",),
    "GAME_ENDED_EARLY": ("E1",),
    "GAME_OVER": ("E1",),
    "WRONG_PHASE": ("G1", "W1", "W2", "V3", "V4"),
    "NOT_YOUR_TURN": ("T1",),
    "NO_SUCH_SOURCE": ("S2",),
    "EMPTY_SOURCE": ("T2", "T3"),
    "COLOR_NOT_IN_SOURCE": ("T2", "T3"),
    "TOO_MANY_TAKEN": ("T2", "T3"),
    "TWO_COLORS": ("T4",),
    "MARKER_ALONE": ("T4",),
    "NO_SUCH_LINE": ("S4",),
    "LINE_COLOR_MISMATCH": ("P2",),
    "LINE_FULL": ("P4", "P5"),
    "FLOOR_WHILE_ROOM": ("P5",),
    "TILE_COUNT_MISMATCH": ("P1", "S3", "W1", "W5"),
    "COLUMN_COLOR_CONFLICT": ("V2", "V4"),
    "SPACE_OCCUPIED": ("V1", "V4"),
    "NOT_WALL_COLOR_SPACE": ("S5", "W1", "V1"),
    "FILL_IMPOSSIBLE": ("R2",),
    "EMPTY_DIRECTION_COUNTED": ("W3",),
    "CROSS_COUNTED_ONCE": ("W3",),
    "SCORE_MISCOUNT": ("W3", "W4", "E2"),
    "FLOOR_OVERFLOW_PENALIZED": ("F2",),
    "SCORE_BELOW_ZERO": ("W4",),
    "BONUS_MISCOUNT": ("E2",),
    "WRONG_WINNER": ("E4",),
}
"""``ErrorCode`` value -> the rule ids its table row cites (its description in a
language: :func:`code_description`)."""


PROBLEM_RULES: Final[Mapping[str, tuple[str, ...]]] = {
    "PLAYER_COUNT": ("S1",),
    "FACTORY_COUNT": ("S2",),
    "TILE_COUNT": ("S3",),
    "FACTORY_OVERFULL": ("R2",),
    "LINE_OVER_CAPACITY": ("S4",),
    "LINE_MIXED_COLORS": ("P2",),
    "LINE_COLOR_ON_WALL": ("P3",),
    "WALL_TILE_OFF_COLOR": ("S5",),
    "ROW_REPEATED_COLOR": ("P3",),
    "COLUMN_REPEATED_COLOR": ("V2",),
    "FLOOR_TOO_LONG": ("F1",),
    "MARKER_COUNT": ("T3", "F3", "W5"),
    "PLAYER_OUT_OF_RANGE": ("G2", "T3"),
    "NEGATIVE_SCORE": ("W4",),
    "PHASE_MISMATCH": ("P7", "G1", "R2", "V3", "V4"),
    "GAME_SHOULD_HAVE_ENDED": ("E1", "R7"),
    "LINE_NOT_TILED": ("W1",),
    "FLOOR_NOT_CLEARED": ("W5",),
    "TOO_MANY_WALL_TILES": ("W1",),
    "GAME_OVER_WITHOUT_CAUSE": ("E1", "R6", "R7"),
    "SCORE_OUT_OF_REACH": ("W3", "E2"),
    "NO_TAKE_YET": ("T2", "T3", "W1", "W5"),
    "TURN_OUT_OF_ORDER": ("G2", "R4"),
    "FACTORY_SHORT": ("R2",),
    "TILES_FROM_NOWHERE": ("S6", "R2", "F2"),
}
"""``StateProblem`` value -> the rule ids its row of the book's table of impossible
positions cites; each ``Problem`` of that code names one of them (its description in a
language: :func:`problem_description`)."""


def problem_description(code: str, lang: str = "en") -> str:
    """What makes a position impossible with the problem ``code`` (its value,
    ``"SCORE_OUT_OF_REACH"``), as the rule book's table says it in ``lang``."""
    return template(_lang(lang), f"impossible.{code}")


def code_description(code: str, lang: str = "en") -> str:
    """What the error ``code`` (its value, ``"LINE_FULL"``) means, as the rule book's
    table says it in ``lang``."""
    return template(_lang(lang), f"error.{code}")


# -- the generated pages -------------------------------------------------------------------


def markdown(lang: str = "en") -> str:
    """The whole rule book as a Markdown page in ``lang`` (``docs/rules.md`` for English,
    ``docs/regles.md`` for French; the other catalogues' pages are not committed)."""
    page = {key: template(_lang(lang), f"page.{key}")
            for key in ("title", "intro", "generated", "codes", "codes_intro", "head")}
    out = [page["title"], "", *_wrap(page["intro"]), "", *_wrap(page["generated"])]
    for letter in SECTIONS:
        out += ["", f"## {section_title(letter, lang)}", ""]
        for entry in rules(letter):
            head = f"- **{entry.id}** *{entry.title_in(lang)}*. "
            out += _wrap(head + entry.text(lang), indent="  ")
    out += ["", page["codes"], "", *_wrap(page["codes_intro"]), "", page["head"],
            "| --- | --- | --- |"]  # fmt: skip
    for code, ids in CODE_RULES.items():
        out.append(f"| `{code}` | {code_description(code, lang)} | {', '.join(ids)} |")
    return "\n".join(out + _impossible_positions(lang)) + "\n"


def _impossible_positions(lang: str) -> list[str]:
    """The section on impossible positions: the table of ``StateProblem`` codes, then
    the notes on what the less obvious ones infer."""
    page = {key: template(_lang(lang), f"page.{key}")
            for key in ("impossible", "impossible_intro", "impossible_head")}
    out = ["", page["impossible"], "", *_wrap(page["impossible_intro"]), "",
           page["impossible_head"], "| --- | --- | --- |"]  # fmt: skip
    for code, ids in PROBLEM_RULES.items():
        out.append(f"| `{code}` | {problem_description(code, lang)} | {', '.join(ids)} |")
    for note in _NOTES:
        out += ["", *_wrap(template(_lang(lang), f"page.note.{note}"))]
    return out


_NOTES: Final = ("score", "takes", "round_one", "end")
"""The notes after the table of impossible positions, in order (``page.note.*``)."""


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(
        text, width=92, subsequent_indent=indent, break_on_hyphens=False, break_long_words=False
    )
