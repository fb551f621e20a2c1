"""The web judge's errors: RFC 9457 problem details (``application/problem+json``).

Every refusal is an :class:`ApiProblem`: an HTTP status, a problem ``type`` (a URN of
:data:`TYPES`), a ``title`` and a ``detail`` in the request's language, and ``errors``:
one entry per thing wrong, each with the JSON ``path`` inside the request body and the
``problem`` in words (an impossible position's entries add the ``code``, the ``rule`` id
and the rule's title and text; in French, a problem the library words in English only
keeps its English in ``problem_en``).  Standard library only: the HTTP layer
(:mod:`azul_rules.web.app`) turns a problem into a response.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import Final

from azul_rules.core.errors import FormatError, InvalidStateError, Problem
from azul_rules.core.rulebook import rule
from azul_rules.core.shown import too_long
from azul_rules.web.words import framed, say

__all__ = [
    "PROBLEM_MEDIA_TYPE",
    "TYPES",
    "ApiProblem",
    "from_format_error",
    "from_invalid_state",
    "library_entry",
    "problem_entry",
    "rebased",
    "rule_fields",
    "unreadable",
    "unwritable_answer",
]

PROBLEM_MEDIA_TYPE: Final = "application/problem+json"

_URN: Final = "urn:azul-rules:problem:"

TYPES: Final[Mapping[str, int]] = {
    "unreadable-input": 400,
    "not-found": 404,
    "method-not-allowed": 405,
    "request-timeout": 408,
    "too-large": 413,
    "unsupported-media-type": 415,
    "impossible-position": 422,
    "illegal-move": 422,
    "no-move": 422,
    "unwritable-answer": 422,
    "internal-error": 500,
}
"""Every problem type the service answers with, and its HTTP status; its title in each
language is ``web.problem.<slug>`` in the catalogues.  The ``type`` member is
``urn:azul-rules:problem:<slug>``."""

_MAX_DETAIL_ITEMS: Final = 3


class ApiProblem(Exception):
    """A request the judge refuses, as RFC 9457 problem details.

    ``errors`` lists ``{"path": ..., "problem": ...}`` entries (paths inside the request
    body, ``$`` for the whole of it); ``extra`` adds members (``violations`` of an
    illegal move).
    """

    def __init__(
        self,
        slug: str,
        detail: str,
        errors: Iterable[Mapping[str, object]] = (),
        *,
        lang: str = "en",
        extra: Mapping[str, object] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        if slug not in TYPES:
            raise ValueError(f"no problem type {slug!r}")
        self.slug = slug
        self.detail = detail
        self.errors = [dict(e) for e in errors]
        self.lang = lang
        self.extra = dict(extra or {})
        self.headers = dict(headers or {})

    @property
    def status(self) -> int:
        """The HTTP status."""
        return TYPES[self.slug]

    def document(self, instance: str | None = None) -> dict[str, object]:
        """The problem details as JSON-ready data (``instance``: the request's path)."""
        doc: dict[str, object] = {
            "type": _URN + self.slug,
            "title": say(f"problem.{self.slug}", self.lang),
            "status": TYPES[self.slug],
            "detail": self.detail,
        }
        if instance is not None:
            doc["instance"] = instance
        if self.errors:
            doc["errors"] = self.errors
        doc.update(self.extra)
        return doc


def rebased(path: str, under: str) -> str:
    """A library path (``$.players[1]``) made a path inside the request body, where the
    document lies at ``under`` (``$.state`` gives ``$.state.players[1]``)."""
    return under + path.removeprefix("$") if path.startswith("$") else f"{under} ({path})"


def library_entry(
    path: str, text: str, under: str, lang: str, *, unfit_with: str | None = None
) -> dict[str, object]:
    """One problem a library reader words in English only (``text``), at ``path`` of the
    request, in the document at ``under``: ``problem`` is ``text`` itself in English; in
    another language (French) it is a sentence naming the document, the English quoted,
    and ``problem_en`` keeps the English alone (see :func:`azul_rules.web.words.framed`)."""
    entry: dict[str, object] = {
        "path": path,
        "problem": framed(text, under, lang, unfit_with=unfit_with),
    }
    if entry["problem"] != text:
        entry["problem_en"] = text
    return entry


def from_format_error(error: FormatError, under: str, lang: str) -> ApiProblem:
    """400 for an unreadable document found at ``under`` in the request."""
    errors = [library_entry(rebased(path, under), what, under, lang) for path, what in error.errors]
    return unreadable(errors, lang)


def unreadable(errors: list[dict[str, object]], lang: str) -> ApiProblem:
    """400 listing ``errors`` (``path`` and ``problem`` each); the detail repeats the
    first three."""
    shown = say("separator", lang).join(
        say("entry", lang, path=e["path"], problem=e["problem"]) for e in errors[:_MAX_DETAIL_ITEMS]
    )
    more = len(errors) - _MAX_DETAIL_ITEMS
    if more > 0:
        shown += f" (+{more})"
    return ApiProblem("unreadable-input", shown, errors, lang=lang)


def rule_fields(code: str, rule_id: str, lang: str) -> dict[str, object]:
    """The members every verdict and problem opens with: the ``code``, and the ``rule``
    broken with its title and text in ``lang``."""
    entry = rule(rule_id)
    return {
        "code": code,
        "rule": rule_id,
        "rule_title": entry.title_in(lang),
        "rule_text": entry.text(lang),
    }


def problem_entry(problem: Problem, under: str, lang: str) -> dict[str, object]:
    """One reason a position cannot exist, as the service writes it: the ``code``, the
    ``rule`` with its title and text, the ``path`` inside the request (the position
    lying at ``under``) and the ``message``, all in ``lang``."""
    return {
        **rule_fields(problem.code.value, problem.rule, lang),
        "path": rebased(problem.path, under),
        "message": problem.message_in(lang),
    }


def from_invalid_state(error: InvalidStateError, under: str, lang: str) -> ApiProblem:
    """422 for a readable position, found at ``under`` in the request, that cannot
    exist: every problem with its code, rule and path (``problem`` repeats the
    ``message``, as in every entry of ``errors``)."""
    errors = []
    for found in error.problems:
        entry = problem_entry(found, under, lang)
        errors.append({"path": entry["path"], "problem": entry["message"], **entry})
    count = len(errors)
    detail = say("impossible_one" if count == 1 else "impossible_many", lang, count=count)
    return ApiProblem("impossible-position", detail, errors, lang=lang)


def unwritable_answer(paths: Iterable[str], lang: str) -> ApiProblem:
    """422 for an answer holding an integer past 4,300 digits (Python writes none, no
    JSON reader of the library reads one): a score of 4,300 digits in the request that
    grew by a tiling.  ``paths`` are inside the answer; the request as a whole (``$``)
    is what cannot be answered."""
    what = too_long(lang)
    errors = [{"path": "$", "problem": say("unwritable_answer", lang, path=p, what=what)}
              for p in paths]  # fmt: skip
    detail = say("unwritable_detail", lang, digits=sys.get_int_max_str_digits())
    return ApiProblem("unwritable-answer", detail, errors, lang=lang)
