"""The catalogues: the lookup of a phrase by language and key, in the gettext ``.po``
files beside this module.

Each language is one file, ``LANG.po`` (``en.po``, ``fr.po``...); the languages are the
files present (:func:`languages`), English (:data:`SOURCE`) first.  A phrase is found by
a stable key (the ``msgid``, such as ``code.LINE_FULL``) and is a ``str.format`` template:
``{player}`` is a figure, ``{count:tile|tiles}`` the word ``count`` takes, one form per
plural form of the file's ``Plural-Forms`` header, in the order its ``plural`` expression
numbers them.

A catalogue is read on its first use, once (nothing is read at import; the reader,
:mod:`azul_rules.text.po`, is imported then), and checked against English: the same keys,
none empty, none extra, the same placeholders, as many forms in each counted word as the
language has plural forms.  Anything else is a :class:`~azul_rules.text.po.CatalogueError`
naming the file and the line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from azul_rules.text.po import Catalogue

__all__ = [
    "FOLDER", "SOURCE", "check_language", "keys", "languages", "load", "plural_index", "table",
    "template",
]  # fmt: skip

SOURCE: Final = "en"
"""The source catalogue: every other one has exactly its keys and placeholders."""

FOLDER: Final = os.path.dirname(os.path.abspath(__file__))
"""Where the catalogues are: ``LANG.po`` files beside this module."""

# -- the catalogues, checked -------------------------------------------------------------

_LANGUAGES: list[tuple[str, ...]] = []
_LOADED: dict[str, Catalogue] = {}


def languages() -> tuple[str, ...]:
    """The languages, one per catalogue file present (``en`` first, then by name); the
    folder is listed once, on the first call."""
    if not _LANGUAGES:
        found = sorted(name[:-3] for name in os.listdir(FOLDER) if _is_catalogue(name))
        _LANGUAGES.append((SOURCE, *(lang for lang in found if lang != SOURCE)))
    return _LANGUAGES[0]


def _is_catalogue(name: str) -> bool:
    """Whether a file name is a catalogue's: ``de.po``, ``pt_BR.po``."""
    lang, _, region = name.removesuffix(".po").partition("_")
    return (name.endswith(".po") and 2 <= len(lang) <= 3 and lang.isascii() and lang.isalpha()
            and lang.islower() and (not region or (len(region) == 2 and region.isupper())))


def check_language(lang: object) -> str:
    """``lang`` if a catalogue has it; ``ValueError`` naming the languages otherwise."""
    if isinstance(lang, str) and lang in languages():
        return lang
    shown = repr(lang) if not isinstance(lang, str) or len(lang) <= 40 else repr(lang[:40]) + "..."
    raise ValueError(f"unknown language {shown}: choose one of {', '.join(languages())}")


def load(lang: str) -> Catalogue:
    """The catalogue of ``lang``, read and checked on its first use."""
    found = _LOADED.get(lang)
    if found is None:
        from azul_rules.text.po import read_catalogue

        path = os.path.join(FOLDER, f"{check_language(lang)}.po")
        source = None if lang == SOURCE else load(SOURCE)
        found = _LOADED[lang] = read_catalogue(path, source)
    return found


# -- lookup ------------------------------------------------------------------------------


def template(lang: str, key: str) -> str:
    """The phrase ``key`` in ``lang``, as a template (``KeyError`` for an unknown key)."""
    return load(lang).texts[key]


def keys(prefix: str = "") -> tuple[str, ...]:
    """The keys of the source catalogue starting with ``prefix``, in its order."""
    return tuple(k for k in load(SOURCE).texts if k.startswith(prefix))


def plural_index(lang: str, count: object) -> int:
    """Which form of a counted word ``count`` takes in ``lang`` (0 the first), by the
    catalogue's ``Plural-Forms`` rule on ``abs(count)``; a ``float`` with a fraction is
    read as it is; what is not a number (hostile input) takes the last form."""
    catalogue = load(lang)
    if type(count) is int:
        return catalogue.plural(abs(count))
    if type(count) is float and count == count and abs(count) != float("inf"):
        whole = abs(count)
        if whole.is_integer():
            return catalogue.plural(int(whole))
        from azul_rules.text.po import Fraction

        return catalogue.plural(Fraction(whole))
    return catalogue.nplurals - 1


class _Languages(Mapping[str, str]):
    """One phrase in every language: ``{"en": ..., "fr": ...}``, read when asked."""

    def __init__(self, key: str) -> None:
        self._key = key

    def __getitem__(self, lang: str) -> str:
        if lang not in languages():
            raise KeyError(lang)
        return template(lang, self._key)

    def __iter__(self) -> Iterator[str]:
        return iter(languages())

    def __len__(self) -> int:
        return len(languages())

    def __repr__(self) -> str:
        return f"<phrase {self._key} in {', '.join(languages())}>"


class _Table(Mapping[str, Mapping[str, str]]):
    """The phrases whose keys start with a prefix, by the rest of the key, each in every
    language: the shape of the dictionaries of templates before the catalogues."""

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix

    def __getitem__(self, key: str) -> Mapping[str, str]:
        if self._prefix + key not in load(SOURCE).texts:
            raise KeyError(key)
        return _Languages(self._prefix + key)

    def __iter__(self) -> Iterator[str]:
        return (k[len(self._prefix) :] for k in keys(self._prefix))

    def __len__(self) -> int:
        return len(keys(self._prefix))

    def __repr__(self) -> str:
        return f"<phrases {self._prefix}*>"


def table(prefix: str) -> Mapping[str, Mapping[str, str]]:
    """The phrases under ``prefix`` (``"code."``), by the rest of their key, each a
    mapping from language to template; nothing is read before the first lookup."""
    return _Table(prefix)
