"""Error codes, violations, results and the library's exceptions.

Three layers of "wrong" are kept apart:

* unreadable input (bad notation, bad JSON, wrong types) raises :class:`FormatError`;
* a well-formed but illegal move is answered by a :class:`Result` listing
  :class:`Violation` objects (``state.validate``), or by :class:`IllegalMoveError`
  (``state.apply``);
* a well-formed state that cannot exist raises :class:`InvalidStateError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

import attrs

from azul_rules.core.codes import ErrorCode, StateProblem
from azul_rules.core.messages import LANGUAGES, render, render_problem
from azul_rules.core.rulebook import rule
from azul_rules.core.shown import shown

__all__ = [
    "OK",
    "ErrorCode",
    "FormatError",
    "IllegalMoveError",
    "InvalidStateError",
    "Problem",
    "Result",
    "StateProblem",
    "Violation",
]


Param = tuple[str, object]


@attrs.frozen
class Violation:
    """One broken rule: a stable ``code``, the ``rule`` id (``docs/rules.md``), and
    parameters.

    ``params`` holds the figures of the case (0-based indices, colours, counts); the
    message catalogue turns them into words, in English (``message``) or in another
    language (``message_in``).

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    What reads it checks it: :func:`azul_rules.svg.board` a ``highlight`` (``FormatError``).
    """

    code: ErrorCode
    rule: str
    params: tuple[Param, ...] = ()

    @classmethod
    def of(cls, code: ErrorCode, rule: str, **params: object) -> Violation:
        """Build a violation from keyword parameters."""
        return cls(code, rule, tuple(params.items()))

    @property
    def param_dict(self) -> Mapping[str, object]:
        """The parameters as a mapping."""
        return dict(self.params)

    @property
    def message(self) -> str:
        """The English message."""
        return self.message_in("en")

    def message_in(self, lang: str) -> str:
        """The message in ``lang`` (one of ``LANGUAGES``, a catalogue each: ``"en"``,
        ``"fr"``...); ``ValueError`` for others."""
        return render(self.code, dict(self.params), lang)

    def rule_text(self, lang: str = "en") -> str:
        """The text of the broken rule (``rule``) from the rule book, in ``lang``."""
        return rule(self.rule).text(lang)

    def __str__(self) -> str:
        return f"{self.code.value} ({self.rule}): {self.message}"


@attrs.frozen
class Result:
    """The referee's verdict on a move: ``ok``, or every violation found.

    ``code`` is the first violation's code: violations are listed from the most
    fundamental (``GAME_OVER``, ``WRONG_PHASE``, ``NOT_YOUR_TURN``, the source, the
    line) to the most specific.

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    What reads it checks it: :func:`azul_rules.svg.board` a ``highlight`` (``FormatError``).
    """

    violations: tuple[Violation, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the move is legal."""
        return not self.violations

    @property
    def code(self) -> ErrorCode | None:
        """The most fundamental violation's code, or ``None`` when legal."""
        return self.violations[0].code if self.violations else None

    @property
    def codes(self) -> tuple[ErrorCode, ...]:
        """Every violation's code, in order."""
        return tuple(v.code for v in self.violations)

    def __bool__(self) -> bool:
        return not self.violations

    def __str__(self) -> str:
        if not self.violations:
            return "legal"
        return "; ".join(str(v) for v in self.violations)

    @classmethod
    def of(cls, violations: Iterable[Violation]) -> Result:
        """A result from violations (``OK`` when there are none)."""
        found = tuple(violations)
        return cls(found) if found else OK


OK: Final = Result()
"""The verdict on every legal move (shared: legal moves build no object)."""


@attrs.frozen
class Problem:
    """One reason a state cannot exist: a stable ``code``, the ``rule`` id it contradicts
    (``docs/rules.md``), the JSON ``path`` of the place and the ``message`` in English.

    ``params`` holds the figures of the case (0-based indices, colours, counts; ``reason``
    picks one of a code's wordings), from which the message catalogue words it in
    another language (``message_in``).  Build one with :meth:`of`.

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    """

    code: StateProblem
    rule: str
    path: str
    message: str
    params: tuple[Param, ...] = ()

    @classmethod
    def of(cls, code: StateProblem, rule: str, path: str, **params: object) -> Problem:
        """A problem from keyword parameters, its English message from the catalogue."""
        return cls(code, rule, path, render_problem(code, params, "en"), tuple(params.items()))

    def message_in(self, lang: str) -> str:
        """The message in ``lang`` (one of ``LANGUAGES``; ``ValueError`` for others).  A
        problem built without ``params`` has its English ``message`` only."""
        if lang not in LANGUAGES:
            choices = ", ".join(LANGUAGES)
            raise ValueError(f"unknown language {shown(lang)}: choose one of {choices}")
        if lang == "en" or not self.params:
            return self.message
        return render_problem(self.code, dict(self.params), lang)

    def rule_text(self, lang: str = "en") -> str:
        """The text of the contradicted rule (``rule``) from the rule book, in ``lang``."""
        return rule(self.rule).text(lang)

    def __str__(self) -> str:
        return f"{self.code.value} ({self.rule}) at {self.path}: {self.message}"



class FormatError(ValueError, TypeError):
    """Unreadable input: bad notation, bad JSON, wrong types.

    The message names where (a JSON path such as ``$.players[1].floor``) and what.
    ``errors`` lists every problem found as ``(path, problem)`` pairs.
    """

    def __init__(self, message: str, errors: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(message)
        self.errors = errors or (("$", message),)


class IllegalMoveError(ValueError):
    """``state.apply`` was given an illegal move; ``result`` says why."""

    def __init__(self, result: Result) -> None:
        super().__init__(f"illegal move: {result}")
        self.result = result


class InvalidStateError(ValueError):
    """A well-formed state that cannot exist; ``problems`` lists every reason (each a
    :class:`~azul_rules.core.problems.Problem` with a code, a rule id, a path and a message)."""

    def __init__(self, problems: tuple[Problem, ...]) -> None:
        text = "; ".join(str(p) for p in problems)
        super().__init__(f"impossible state: {text}")
        self.problems = problems
