"""``GET /api/v1/ask?q=...&lang=...``: a question in words, answered by the rules that
settle it (:func:`azul_rules.ask`), without HTTP.

The answer is ``{"lang", "question", "answers": [...]}``, each answer as
:meth:`azul_rules.Answer.to_dict` writes it (what ``azul-rules ask --json`` prints).  A
missing question, one given twice, or one over :data:`~azul_rules.core.ask.MAX_QUESTION`
characters is a 400 at ``?q``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from azul_rules.core.ask import MAX_QUESTION, ask
from azul_rules.web.errors import unreadable
from azul_rules.web.words import say

__all__ = ["answer_document", "ask_document"]


def answer_document(question: str, lang: str) -> dict[str, Any]:
    """The answer to ``question`` in ``lang`` as JSON-ready data (the question already
    within its bound)."""
    answers = ask(question, lang)
    return {"lang": lang, "question": question, "answers": [a.to_dict() for a in answers]}


def ask_document(asked: Sequence[str], lang: str) -> dict[str, Any]:
    """The answer to the values of ``?q`` (``asked``): a 400 unless there is one, of at
    most :data:`~azul_rules.core.ask.MAX_QUESTION` characters."""
    if not asked:
        problem = say("ask.missing", lang)
    elif len(asked) > 1:
        problem = say("given_twice", lang)
    elif len(asked[0]) > MAX_QUESTION:
        problem = say("ask.too_long", lang, count=len(asked[0]), limit=MAX_QUESTION)
    else:
        return answer_document(asked[0], lang)
    raise unreadable([{"path": "?q", "problem": problem}], lang)
