"""The judge's page, ``index.html``, in the words of the catalogues (``web.page.*`` and
``language.name`` in ``azul_rules/text/*.po``).

The page is written once, when the application is made: its visible words in English
(the source catalogue; what a browser without JavaScript shows), one language button per
catalogue, and every language's words for ``static/app.js`` as a JSON data block,
``<script type="application/json" id="words">``, that the script reads instead of
asking for them (no request more; a data block runs nothing, so the page's
Content-Security-Policy is unchanged).  ``docs/web.md`` says more.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import Final

from azul_rules.text import SOURCE, keys, languages, plural_index, template

__all__ = [
    "ASK_PREFIX", "PLAY_PREFIX", "PREFIX", "SCOREKEEPER_PREFIX", "page_words", "render",
    "words_block",
]  # fmt: skip

PREFIX: Final = "web.page."
"""The catalogue keys of the page's words; ``app.js`` names each by the rest of its key
(``web.page.open`` is ``t("open")``)."""

SCOREKEEPER_PREFIX: Final = "web.scorekeeper."
"""The catalogue keys of the scorekeeper's words (``static/scorekeeper.js``), written into
the page as their own data block, ``<script type="application/json"
id="scorekeeper-words">``."""

PLAY_PREFIX: Final = "web.play."
"""The catalogue keys of the words of *Play a game* (``static/play.js``), written into the
page as their own data block, ``<script type="application/json" id="play-words">``."""

ASK_PREFIX: Final = "web.ask.page."
"""The catalogue keys of the words of the question box (``static/ask.js``), written into
the page as their own data block, ``<script type="application/json" id="ask-words">``."""

_SLOT: Final = re.compile(r"\{\{(t:)?([\w.]+)\}\}")
"""A slot of ``index.html``: ``{{t:KEY}}`` is the English word ``web.page.KEY``,
``{{NAME}}`` one of the slots :func:`render` fills."""

_UNSAFE: Final = str.maketrans({
    "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029",
})  # fmt: skip
"""What JSON may hold but an HTML data block may not show as is: ``</script>`` or
``<!--`` would end or bend the block; written as JSON escapes, they read the same."""


def page_words(prefix: str = PREFIX) -> dict[str, dict[str, str]]:
    """Every language's words of the page, ``{lang: {key: template}}``, languages in the
    catalogues' order (English first), keys without ``prefix`` (:data:`PREFIX`, or
    :data:`SCOREKEEPER_PREFIX` for the scorekeeper's, :data:`PLAY_PREFIX` for *Play a game*'s)."""
    names = [key.removeprefix(prefix) for key in keys(prefix)]
    return {
        lang: {PLURALS: _plurals(lang), **{name: template(lang, prefix + name) for name in names}}
        for lang in languages()
    }


PLURALS: Final = "_plural"
"""The member of each language's words that tells the script which form of a counted word
(``{n:tile|tiles}``) a count takes: one digit a count from 0 to 199, the form's index by
the catalogue's ``Plural-Forms`` (a count past 199 reads the digit of 100 + count % 100,
which the plural rules of gettext's languages repeat)."""


def _plurals(lang: str) -> str:
    return "".join(str(plural_index(lang, n)) for n in range(200))


def words_block(words: dict[str, dict[str, str]]) -> str:
    """``words`` as the JSON text of a ``<script type="application/json">`` element,
    nothing in it able to close the element (``<``, ``>`` and ``&`` as JSON escapes)."""
    text = json.dumps(words, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_UNSAFE)


def _tag(lang: str) -> str:
    """A catalogue's language as HTML names it (``pt_BR``: ``pt-BR``)."""
    return lang.replace("_", "-")


def _buttons() -> str:
    """One button per catalogue, named in its own language (``language.name``); English
    pressed until the script chooses."""
    return "\n    ".join(
        f'<button type="button" id="lang-{escape(lang)}" data-lang="{escape(lang)}" '
        f'lang="{escape(_tag(lang))}" aria-pressed="{str(lang == SOURCE).lower()}">'
        f"{escape(template(lang, 'language.name'))}</button>"
        for lang in languages()
    )


def render(page: str, version: str) -> bytes:
    """``index.html`` (``page``) with its slots filled: ``{{t:KEY}}`` by the English
    word, ``{{version}}``, ``{{buttons}}`` (:func:`_buttons`), ``{{languages}}`` (the word
    ``language`` of every catalogue, joined by ``" / "``: the buttons' label) and
    ``{{words}}`` (:func:`words_block`), ``{{scorekeeper_words}}``, ``{{play_words}}`` and
    ``{{ask_words}}`` (the same of :data:`SCOREKEEPER_PREFIX`, :data:`PLAY_PREFIX` and
    :data:`ASK_PREFIX`); ``KeyError`` for any other slot."""
    label = " / ".join(template(lang, PREFIX + "language") for lang in languages())
    slots = {
        "version": escape(version),
        "buttons": _buttons(),
        "languages": escape(label),
        "words": words_block(page_words()),
        "scorekeeper_words": words_block(page_words(SCOREKEEPER_PREFIX)),
        "play_words": words_block(page_words(PLAY_PREFIX)),
        "ask_words": words_block(page_words(ASK_PREFIX)),
    }

    def fill(slot: re.Match[str]) -> str:
        if slot.group(1):
            return escape(template(SOURCE, PREFIX + slot.group(2)))
        return slots[slot.group(2)]

    return _SLOT.sub(fill, page).encode()
