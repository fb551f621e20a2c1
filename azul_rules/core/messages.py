"""The messages: the words of error codes, problems and the command line, in every
language of the catalogues (:mod:`azul_rules.text`, one ``.po`` file per language).

Templates use the game's own words (factory / fabrique, centre, pattern line / ligne de
préparation, wall / mur, floor line / plancher, lid / couvercle, starting player marker /
marqueur premier joueur).  Violations store raw figures (0-based indices, colours); this
module turns them into words, numbering from 1 as players do at the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from azul_rules.core.codes import ErrorCode, StateProblem
from azul_rules.core.colors import CENTER, FLOOR, Color
from azul_rules.core.shown import fill, number, shown
from azul_rules.text import languages, table, template

__all__ = [
    "LANGUAGES", "PHRASES", "PROBLEM_TEMPLATES", "TEMPLATES", "check_language", "color_name",
    "phase_name", "phrase", "render", "render_problem", "says",
]  # fmt: skip

LANGUAGES: Final = languages()
"""The languages of the messages: one per catalogue of :mod:`azul_rules.text` (``en``
first); a new ``.po`` file there adds one."""

TEMPLATES: Final = table("code.")
"""The templates of the error codes, by code (or ``CODE/reason``), then language."""

PROBLEM_TEMPLATES: Final = table("problem.")
"""Why a position cannot exist (``StateProblem``), keyed like :data:`TEMPLATES`."""

PHRASES: Final = table("cli.")
"""Words of the command line's own output (``show``, ``play``, ``replay``...), by key."""


def _says(lang: str, key: str, **params: object) -> str:
    return fill(template(lang, key), lang, **params)


def _source(value: object, lang: str) -> str:
    if value == CENTER:
        return template(lang, "word.the_centre")
    return _says(lang, "word.factory", number=_one_based(value, lang))


def _line(value: object, lang: str) -> str:
    if value == FLOOR:
        return template(lang, "word.the_floor_line")
    return _says(lang, "word.pattern_line", number=_one_based(value, lang))


def _color(value: object, lang: str) -> str:
    if isinstance(value, Color):
        return color_name(value, lang)
    return template(lang, "word.the_marker")


def _join(items: list[str], lang: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {template(lang, 'word.and')} {items[-1]}"


def _one_based(value: object, lang: str) -> str:
    """A 0-based index as players count, from 1 (hostile input may give 10**5000: it is
    then said to be a long number, in brackets)."""
    if not isinstance(value, int):
        return str(value)
    shown = number(int(value) + 1, lang)
    return shown if shown[-1].isdigit() else f"({shown})"


def _lines(value: object, lang: str) -> str:
    assert isinstance(value, tuple)
    return _join([_one_based(v, lang) for v in value], lang)


def _colors(value: object, lang: str) -> str:
    assert isinstance(value, tuple)
    return _join([_color(v, lang) for v in value], lang)


def _phase(value: object, lang: str) -> str:
    return _named(lang, "phase.", value)


def _players(value: object, lang: str) -> str:
    assert isinstance(value, tuple)
    names = [_says(lang, "word.player", number=str(int(v) + 1)) for v in value]
    return _join(names, lang) or "-"


def _kind(value: object, lang: str) -> str:
    return _named(lang, "kind.", value)


def _named(lang: str, prefix: str, value: object) -> str:
    """The word of a value (a phase, a kind of move) in ``lang``; the value itself when
    the catalogue has no word for it."""
    try:
        return template(lang, prefix + str(value))
    except KeyError:
        return str(value)


_FORMATTERS: Final[Mapping[str, Callable[[object, str], str]]] = {
    "player": _one_based,
    "current": _one_based,
    "starter": _one_based,
    "due": _one_based,
    "row": _one_based,
    "column": _one_based,
    "source": _source,
    "line": _line,
    "next": _line,
    "color": _color,
    "line_color": _color,
    "space_color": _color,
    "covered": _color,
    "correct_row": _one_based,
    "correct_column": _one_based,
    "lines": _lines,
    "colors": _colors,
    "phase": _phase,
    "kind": _kind,
    "factory": _source,
    "claimed_players": _players,
    "correct_players": _players,
}

def check_language(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`; ``ValueError`` naming them otherwise."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {shown(lang)}: choose one of {', '.join(LANGUAGES)}")
    return lang


def _fill(prefix: str, code: str, params: Mapping[str, object], lang: str) -> str:
    check_language(lang)
    reason = params.get("reason")
    key = f"{prefix}{code}/{reason}" if reason is not None else prefix + code
    words = {name: _word(name, value, lang) for name, value in params.items()}
    return fill(template(lang, key), lang, **words)


def _word(name: str, value: object, lang: str) -> object:
    """A figure of a message as words (``player`` 0 is ``1``, ``source`` -1 ``the
    centre``...); a count stays a number, for :func:`~azul_rules.core.shown.fill` to write and
    to choose the words it counts by."""
    if name in _FORMATTERS:
        return _FORMATTERS[name](value, lang)
    return value


def render(code: ErrorCode, params: dict[str, object], lang: str) -> str:
    """The message of ``code`` in ``lang``, its figures filled in from ``params``."""
    return _fill("code.", code.value, params, lang)


def render_problem(code: StateProblem, params: Mapping[str, object], lang: str) -> str:
    """Why a position cannot exist (``code``) in ``lang``, its figures filled in from
    ``params`` (0-based indices, colours, counts; ``reason`` picks one of a code's
    wordings)."""
    return _fill("problem.", code.value, params, lang)


def phrase(key: str, lang: str, **params: object) -> str:
    """A phrase of the command line's output (``cli.KEY`` in the catalogues) in ``lang``,
    its numbers written and the words they count in the singular or the plural
    (:func:`~azul_rules.core.shown.fill`)."""
    return _says(lang, "cli." + key, **params)


def says(lang: str, key: str, **params: object) -> str:
    """Any phrase of the catalogues (``svg.title``, ``web.no_route``...) in ``lang``, its
    figures filled in (:func:`~azul_rules.core.shown.fill`)."""
    return _says(lang, key, **params)


def color_name(color: Color, lang: str) -> str:
    """A colour's name in ``lang``."""
    return template(lang, "color." + color.name.lower())


def phase_name(value: str, lang: str) -> str:
    """A phase's name in ``lang``."""
    return _phase(value, lang)
