"""The web judge's own words, in English and French: every sentence the service writes
itself (the envelope of a request, its options, the HTTP refusals), by key.

The rule texts, the violations and the impossible positions are worded by the library
(:mod:`azul_rules.core.rulebook`, :mod:`azul_rules.core.messages`).  The problems of unreadable
documents (:class:`~azul_rules.FormatError`) are worded by the library's readers in
English only: :func:`framed` gives them a French sentence saying which document could
not be read, the English text quoted.  Standard library and :mod:`azul_rules.core.shown` only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

from azul_rules.core.shown import fill, shown, too_long

__all__ = ["DOCUMENTS", "TEXTS", "describe", "document_of", "framed", "quoted", "say", "short"]

TEXTS: Final[Mapping[str, Mapping[str, str]]] = {
    # the envelope of a request
    "not_object": {
        "en": "expected a JSON object with {names}, got {kind}",
        "fr": "attendu : un objet JSON avec {names} ; reçu : {kind}",
    },
    "bad_lang": {
        "en": 'expected "en" or "fr", got {kind}',
        "fr": 'attendu : "en" ou "fr" ; reçu : {kind}',
    },
    "bad_query_lang": {
        "en": "expected en or fr, got {shown}",
        "fr": "attendu : en ou fr ; reçu : {shown}",
    },
    "given_twice": {"en": "given twice", "fr": "donné deux fois"},
    "unknown_member": {
        "en": "unknown member (expected {known}, lang)",
        "fr": "membre inconnu (membres possibles : {known}, lang)",
    },
    "missing_member": {"en": "required member missing", "fr": "membre obligatoire absent"},
    # the members and options
    "not_a_move": {
        "en": 'expected a move object or the notation such as "3B2", got {kind}',
        "fr": 'attendu : un objet coup ou sa notation, comme "3B2" ; reçu : {kind}',
    },
    "integer_range": {
        "en": "expected an integer from {low} to {high}, got {kind}",
        "fr": "attendu : un entier de {low} à {high} ; reçu : {kind}",
    },
    "boolean": {
        "en": "expected true or false, got {kind}",
        "fr": "attendu : true ou false ; reçu : {kind}",
    },
    "player_range": {
        "en": "players are numbered 0 to {last}, got {kind}",
        "fr": "les joueurs sont numérotés de 0 à {last} ; reçu : {kind}",
    },
    "no_tiling": {
        "en": "this position records no wall tiling (no last_scoring) to mark",
        "fr": "cette position n'enregistre aucune décoration du mur (pas de last_scoring) "
        "à marquer",
    },
    "move_and_tiling": {
        "en": "a picture marks a move or the last wall tiling, not both: leave out move or tiling",
        "fr": "une image marque un coup ou la dernière décoration du mur, pas les deux : "
        "retirez move ou tiling",
    },
    "record_length": {
        "en": "the record holds {count} {count:move|moves}, got {kind}",
        "fr": "la partie enregistrée compte {count} {count:coup|coups} ; reçu : {kind}",
    },
    # the library's English-only texts, framed in French
    "unreadable_document": {
        "en": "{text}",
        "fr": "{document} illisible à cet endroit ; raison (en anglais) : « {text} »",
    },
    "unfit_document": {
        "en": "{text}",
        "fr": "{document} incompatible avec {other} à cet endroit ; raison (en anglais) : "
        "« {text} »",
    },
    # the details of the problems
    "entry": {"en": "{path}: {problem}", "fr": "{path} : {problem}"},
    "separator": {"en": "; ", "fr": " ; "},
    "violation": {"en": "{code} ({rule}): {message}", "fr": "{code} ({rule}) : {message}"},
    "impossible_one": {
        "en": "this position cannot exist (1 problem): see errors",
        "fr": "cette position ne peut pas exister (1 problème) : voir errors",
    },
    "impossible_many": {
        "en": "this position cannot exist ({count} problems): see errors",
        "fr": "cette position ne peut pas exister ({count} problèmes) : voir errors",
    },
    "no_rule": {
        "en": "no rule {rule} in the rule book: the ids are {ranges}",
        "fr": "pas de règle {rule} dans le livre de règles : les identifiants sont {ranges}",
    },
    "no_schema": {
        "en": "no schema {name}: the schemas are {names}",
        "fr": "pas de schéma {name} : les schémas sont {names}",
    },
    # HTTP
    "media_type": {
        "en": "send the body as JSON with the header Content-Type: application/json "
        "(UTF-8); got {shown}",
        "fr": "envoyez le corps en JSON avec l'en-tête Content-Type: application/json "
        "(UTF-8) ; reçu : {shown}",
    },
    "no_media_type": {"en": "none", "fr": "aucun"},
    "media_type_twice": {
        "en": "the header Content-Type is given {count} times: give it once, "
        "Content-Type: application/json",
        "fr": "l'en-tête Content-Type est donné {count} fois : donnez-le une seule fois, "
        "Content-Type: application/json",
    },
    "content_encoding": {
        "en": "the body is sent with Content-Encoding: {shown}; send it as it is, "
        "without Content-Encoding",
        "fr": "le corps est envoyé avec Content-Encoding: {shown} ; envoyez-le tel quel, "
        "sans Content-Encoding",
    },
    "body_timeout": {
        "en": "the body did not arrive within {seconds:g} {seconds:second|seconds} of the "
        "headers: send it at once",
        "fr": "le corps n'est pas arrivé dans le délai de {seconds:g} {seconds:seconde|secondes} "
        "après les en-têtes : envoyez-le d'un seul coup",
    },
    "bad_length": {
        "en": "the Content-Length header is not a number",
        "fr": "l'en-tête Content-Length n'est pas un nombre",
    },
    "too_large": {
        "en": "{size} bytes: a request body holds at most {limit} bytes",
        "fr": "{size} octets : le corps d'une requête fait au plus {limit} octets",
    },
    "more_than": {"en": "more than {limit}", "fr": "plus de {limit}"},
    "no_route": {
        "en": "no such page or endpoint: {path}",
        "fr": "aucune page ni aucun point d'accès à cette adresse : {path}",
    },
    "bad_method": {
        "en": "{method} is not allowed here: use {allowed}",
        "fr": "{method} n'est pas permis ici : utilisez {allowed}",
    },
    "another_method": {"en": "another method", "fr": "une autre méthode"},
    "unwritable_answer": {
        "en": "the answer would hold, at {path}, {what}: JSON text holds at most that many",
        "fr": "la réponse contiendrait, en {path}, {what} : le texte JSON n'en admet pas plus",
    },
    "unwritable_detail": {
        "en": "the answer holds a number too long for JSON text (a score grown past "
        "{digits} digits)",
        "fr": "la réponse contient un nombre trop long pour le texte JSON (un score devenu "
        "plus long que {digits} chiffres)",
    },
    "internal": {
        "en": "the judge failed on this request: this is a bug of azul_rules, please report "
        "it with the request",
        "fr": "le juge a échoué sur cette requête : c'est un bogue d'azul_rules, merci de le "
        "signaler avec la requête",
    },
}
"""Every sentence of the service's own, by key: ``{"en": ..., "fr": ...}`` templates."""

DOCUMENTS: Final[Mapping[str, tuple[str, str]]] = {
    "$": ("corps de la requête", "le corps de la requête"),
    "state": ("position (state)", "la position"),
    "move": ("coup (move)", "le coup"),
    "record": ("partie enregistrée (record)", "la partie enregistrée"),
    "claim": ("annonce des scores (claim)", "l'annonce des scores"),
    "scoresheet": ("feuille de score (scoresheet)", "la feuille de score"),
}
"""The documents a request carries, by member, as the French framing names them: alone,
then with the article."""

_KINDS: Final = {
    "en": ("{text}", "the string {text}", "the array {text}", "the object {text}"),
    "fr": ("{text}", "la chaîne {text}", "le tableau {text}", "l'objet {text}"),
}
_QUOTED: Final = 40
"""The most characters of a value quoted in a message."""


def say(key: str, lang: str, **params: object) -> str:
    """The sentence ``key`` of :data:`TEXTS` in ``lang`` (English unless ``"fr"``)."""
    lang = "fr" if lang == "fr" else "en"
    return fill(TEXTS[key][lang], lang, **params)


def short(text: str, limit: int = 60) -> str:
    """``text``, cut to ``limit`` characters (with ``...``) when longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe(value: object, lang: str) -> str:
    """A JSON value as a message quotes it (``got ...``): ``null``, ``true``, the number
    itself (``10``; ``an integer of 50 digits`` past 40 digits), ``the string "..."``,
    ``the array [...]``, ``the object {...}``, its JSON text cut to 40 characters."""
    number, string, array, obj = _KINDS["fr" if lang == "fr" else "en"]
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) >= 10**_QUOTED:
        return _long_integer(value, lang)
    if isinstance(value, (int, float)):
        kind = number
    elif isinstance(value, str):
        kind = string
    else:
        kind = array if isinstance(value, list) else obj
    return kind.format(text=quoted(value))


def _long_integer(value: int, lang: str) -> str:
    """An integer too long to quote: its number of digits."""
    try:
        digits = len(str(abs(value)))
    except ValueError:  # past Python's limit of digits
        return too_long(lang)
    if lang == "fr":
        return f"un entier de {digits} chiffres"
    return f"an integer of {digits} digits"


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
    return head if under.startswith("$.") and head in DOCUMENTS else "$"


def framed(text: str, under: str, lang: str, *, unfit_with: str | None = None) -> str:
    """A problem the library words in English only (``text``), about the document at
    ``under``: itself in English; in French, a sentence naming the document (and, for a
    document that does not fit another, ``unfit_with``: that other's member) with the
    English text quoted."""
    if lang != "fr":
        return text
    document = DOCUMENTS[document_of(under)][0]
    if unfit_with is None:
        return say("unreadable_document", lang, document=document, text=text)
    other = DOCUMENTS[document_of(unfit_with)][1]
    return say("unfit_document", lang, document=document, other=other, text=text)
