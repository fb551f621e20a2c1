"""The web judge's own words, in every language of the catalogues (``web.*`` in
``azul_rules/text/*.po``): every sentence the service writes itself (the envelope of a
request, its options, the HTTP refusals), by key.

The rule texts, the violations and the impossible positions are worded by the library
(:mod:`azul_rules.core.rulebook`, :mod:`azul_rules.core.messages`).  The problems of unreadable
documents (:class:`~azul_rules.FormatError`) are worded by the library's readers in
English only: :func:`framed` gives them, in another language, a sentence saying which
document could not be read, the English text quoted.
"""

from __future__ import annotations

import json
from typing import Final

from azul_rules.core.messages import LANGUAGES, says
from azul_rules.core.shown import shown, too_long
from azul_rules.text import table, template

__all__ = [
    "DOCUMENTS", "TEXTS", "choices", "describe", "document_of", "framed", "quoted", "say", "short",
]

TEXTS: Final = table("web.")
"""Every sentence of the service's own, by key, each ``{lang: template}`` (the catalogues'
``web.*`` phrases)."""

DOCUMENTS: Final = ("$", "state", "move", "record", "claim", "scoresheet")
"""The documents a request carries, by member; their names are ``web.document.MEMBER``
(alone) and ``web.document.MEMBER.the`` (with the article; ``body`` for ``$``)."""

_QUOTED: Final = 40
"""The most characters of a value quoted in a message."""


def say(key: str, lang: str, **params: object) -> str:
    """The sentence ``key`` of :data:`TEXTS` in ``lang`` (English for a language no
    catalogue has)."""
    lang = lang if lang in LANGUAGES else "en"
    return says(lang, "web." + key, **params)


def choices(lang: str, quote: str = "{}") -> str:
    """The languages the judge speaks, as a refusal lists them in ``lang``: ``"en" or
    "fr"`` (each written by ``quote``), one per catalogue."""
    names = [quote.format(code) for code in LANGUAGES]
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} {say('or', lang)} {names[-1]}"


def short(text: str, limit: int = 60) -> str:
    """``text``, cut to ``limit`` characters (with ``...``) when longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe(value: object, lang: str) -> str:
    """A JSON value as a message quotes it (``got ...``): ``null``, ``true``, the number
    itself (``10``; ``an integer of 50 digits`` past 40 digits), ``the string "..."``,
    ``the array [...]``, ``the object {...}``, its JSON text cut to 40 characters."""
    lang = lang if lang in LANGUAGES else "en"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) >= 10**_QUOTED:
        return _long_integer(value, lang)
    if isinstance(value, (int, float)):
        kind = "number"
    elif isinstance(value, str):
        kind = "string"
    else:
        kind = "array" if isinstance(value, list) else "object"
    return template(lang, f"web.value.{kind}").format(text=quoted(value))


def _long_integer(value: int, lang: str) -> str:
    """An integer too long to quote: its number of digits."""
    try:
        digits = len(str(abs(value)))
    except ValueError:  # past Python's limit of digits
        return too_long(lang)
    return template(lang, "web.long_integer").format(digits=digits)


def quoted(value: object, limit: int = _QUOTED) -> str:
    """``value``'s JSON text, cut to ``limit`` characters; what it is when it cannot be
    written (a number past Python's limit of digits)."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):
        return shown(value, limit)
    return short(text, limit)


def document_of(under: str) -> str:
    """The member of the request a path lies under (``$.state.round``: ``state``;
    ``$`` itself or an unknown member: ``$``)."""
    head = under.removeprefix("$.").split(".")[0].split("[")[0]
    return head if under.startswith("$.") and head in DOCUMENTS[1:] else "$"


def _document(member: str, lang: str, article: bool = False) -> str:
    """The name of the document at ``member`` in ``lang``, alone or with its article."""
    key = f"web.document.{'body' if member == '$' else member}"
    return template(lang, key + ".the" if article else key)


def framed(text: str, under: str, lang: str, *, unfit_with: str | None = None) -> str:
    """A problem the library words in English only (``text``), about the document at
    ``under``: itself in English; in another language, a sentence naming the document
    (and, for a document that does not fit another, ``unfit_with``: that other's member)
    with the English text quoted."""
    if lang not in LANGUAGES or lang == "en":
        return text
    document = _document(document_of(under), lang)
    if unfit_with is None:
        return say("unreadable_document", lang, document=document, text=text)
    other = _document(document_of(unfit_with), lang, article=True)
    return say("unfit_document", lang, document=document, other=other, text=text)
