"""The catalogues: a strict reader of the gettext ``.po`` files beside this module, and the
lookup of a phrase by language and key.

Each language is one file, ``LANG.po`` (``en.po``, ``fr.po``...); the languages are the
files present (:func:`languages`), English (:data:`SOURCE`) first.  A phrase is found by
a stable key (the ``msgid``, such as ``code.LINE_FULL``) and is a ``str.format`` template
(``python-brace-format``): ``{player}`` is a figure, ``{count:tile|tiles}`` the word
``count`` takes, one form per plural form of the file's ``Plural-Forms`` header, in the
order its ``plural`` expression numbers them.

A catalogue is read on its first use, once (nothing is read at import), and checked
against English: the same keys, none empty, none extra, the same placeholders, as many
forms in each counted word as the language has plural forms.  Anything else is a
:class:`CatalogueError` naming the file and the line.

Of the ``.po`` format this reads what the catalogues use, correctly: comments (``#``,
``#.``, ``#:``, ``#|``, obsolete ``#~`` entries skipped), the ``fuzzy`` flag (refused: a
phrase to review is not served), ``msgctxt``, strings over several lines with their C
escapes, and plural entries (``msgid_plural``, ``msgstr[N]``), read but refused, as the
counted words are chosen inside a phrase.
"""

from __future__ import annotations

import os
import re
import string
from collections.abc import Callable, Iterator, Mapping
from typing import Final, NamedTuple

__all__ = [
    "FOLDER", "SOURCE", "Catalogue", "CatalogueError", "PoEntry", "PoFile", "check_language",
    "keys", "languages", "load", "plural_index", "read_po", "table", "template",
]  # fmt: skip

SOURCE: Final = "en"
"""The source catalogue: every other one has exactly its keys and placeholders."""

FOLDER: Final = os.path.dirname(os.path.abspath(__file__))
"""Where the catalogues are: ``LANG.po`` files beside this module."""
_NAME: Final = re.compile(r"[a-z]{2,3}(?:_[A-Z]{2})?\.po")
_ESCAPES: Final = {
    "\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f",
    "v": "\v",
}  # fmt: skip
_STRING: Final = re.compile(r'"((?:[^"\\]|\\.)*)"')
_KEYWORD: Final = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(.*)")
_PLURAL_FORMS: Final = re.compile(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+);?\s*")


class CatalogueError(ValueError):
    """A catalogue that cannot be used: ``path:line: problem``."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        super().__init__(f"{path}:{line}: {problem}")
        self.path = path
        self.line = line
        self.problem = problem


class PoEntry(NamedTuple):
    """One entry of a ``.po`` file: its ``msgid`` (with ``msgctxt``, if any, before a
    ``\\x04`` as gettext keys it), its ``msgstr`` (``msgstr[0]``... for a plural entry),
    its flags (``fuzzy``, ``python-brace-format``...) and the line of its ``msgid``."""

    msgid: str
    msgstr: tuple[str, ...]
    plural: bool
    flags: frozenset[str]
    line: int


class PoFile(NamedTuple):
    """A ``.po`` file read: its header's fields (``Plural-Forms``...) and its entries by
    ``msgid``, in the file's order."""

    path: str
    header: Mapping[str, str]
    entries: Mapping[str, PoEntry]


class Catalogue(NamedTuple):
    """One language's phrases, checked: by key, with the line of each (for errors), the
    number of plural forms and the ``Plural-Forms`` rule choosing among them."""

    lang: str
    path: str
    texts: Mapping[str, str]
    lines: Mapping[str, int]
    nplurals: int
    plural: Callable[[int], int]


# -- reading a .po file ------------------------------------------------------------------


class _Draft:
    """The entry being read: its keywords and strings so far."""

    def __init__(self) -> None:
        self.parts: dict[str, list[str]] = {}
        self.last: str | None = None
        self.flags: set[str] = set()
        self.first = 0  # the line of its first keyword
        self.line = 0  # the line of its msgid


def read_po(text: str, path: str) -> PoFile:
    """The entries of a ``.po`` file's ``text`` (``path`` names it in errors)."""
    entries: dict[str, PoEntry] = {}
    draft = _Draft()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if draft.parts:
                _finish(draft, entries, path)
                draft = _Draft()
            if line.startswith("#,"):
                draft.flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            continue
        _read_line(line, number, draft, path)
    if draft.parts:
        _finish(draft, entries, path)
    header = entries.pop("", None)
    if header is None:
        raise CatalogueError(path, 1, 'no header (the entry msgid "" with Plural-Forms)')
    return PoFile(path, _header_fields(header, path), entries)


def _read_line(line: str, number: int, draft: _Draft, path: str) -> None:
    """One line of an entry: a keyword and its string, or a string continuing the last."""
    if line.startswith('"'):
        if draft.last is None:
            raise CatalogueError(path, number, "a string with no keyword before it")
        draft.parts[draft.last].append(_string(line, path, number))
        return
    found = _KEYWORD.fullmatch(line)
    if found is None:
        raise CatalogueError(path, number, f"not a .po line: {line[:60]!r}")
    keyword, rest = found.groups()
    if not draft.parts:
        draft.first = number
    if keyword in draft.parts:
        raise CatalogueError(path, number, f"{keyword} twice in one entry")
    if keyword == "msgid":
        draft.line = number
    draft.parts[keyword] = [_string(rest, path, number)]
    draft.last = keyword


def _string(token: str, path: str, number: int) -> str:
    """A quoted C string of a ``.po`` line, its escapes read."""
    found = _STRING.fullmatch(token.strip())
    if found is None:
        raise CatalogueError(path, number, f"not a quoted string: {token[:60]!r}")
    out = []
    body = iter(found.group(1))
    for char in body:
        if char == "\\":
            escaped = next(body)
            if escaped not in _ESCAPES:
                raise CatalogueError(path, number, f"unknown escape \\{escaped}")
            char = _ESCAPES[escaped]
        out.append(char)
    return "".join(out)


def _finish(draft: _Draft, entries: dict[str, PoEntry], path: str) -> None:
    """The entry read, checked for its keywords and added to ``entries``."""
    parts = {k: "".join(v) for k, v in draft.parts.items()}
    line = draft.line or draft.first
    if "msgid" not in parts:
        raise CatalogueError(path, line, "an entry without msgid")
    plural = "msgid_plural" in parts
    forms = sorted((k for k in parts if k.startswith("msgstr[")), key=lambda k: int(k[7:-1]))
    complete = (bool(forms) and "msgstr" not in parts) if plural else ("msgstr" in parts
                                                                        and not forms)
    if not complete:
        raise CatalogueError(path, line, "msgstr (or, after msgid_plural, msgstr[N]) missing")
    if plural and [int(k[7:-1]) for k in forms] != list(range(len(forms))):
        raise CatalogueError(path, line, "msgstr[N] not numbered 0, 1, 2...")
    msgid = parts["msgid"]
    if "msgctxt" in parts:
        msgid = f"{parts['msgctxt']}\x04{msgid}"
    if msgid in entries:
        raise CatalogueError(path, line, f"msgid {msgid[:60]!r} twice (first at line "
                             f"{entries[msgid].line})")  # fmt: skip
    msgstr = tuple(parts[k] for k in forms) if plural else (parts["msgstr"],)
    entries[msgid] = PoEntry(msgid, msgstr, plural, frozenset(draft.flags), line)


def _header_fields(header: PoEntry, path: str) -> dict[str, str]:
    """The ``Name: value`` lines of the header entry."""
    fields = {}
    for offset, field in enumerate(header.msgstr[0].splitlines()):
        name, colon, value = field.partition(":")
        if not colon:
            raise CatalogueError(path, header.line, f"header line {offset + 1} is not "
                                 f"'Name: value': {field[:60]!r}")  # fmt: skip
        fields[name.strip()] = value.strip()
    return fields


# -- the catalogues, checked -------------------------------------------------------------

_LANGUAGES: list[tuple[str, ...]] = []
_LOADED: dict[str, Catalogue] = {}


def languages() -> tuple[str, ...]:
    """The languages, one per catalogue file present (``en`` first, then by name); the
    folder is listed once, on the first call."""
    if not _LANGUAGES:
        found = sorted(name[:-3] for name in os.listdir(FOLDER) if _NAME.fullmatch(name))
        _LANGUAGES.append((SOURCE, *(lang for lang in found if lang != SOURCE)))
    return _LANGUAGES[0]


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
        found = _LOADED[lang] = read_catalogue(os.path.join(FOLDER, f"{check_language(lang)}.po"))
    return found


def read_catalogue(path: str) -> Catalogue:
    """The catalogue in the file ``path`` (its language is its name, ``de.po``: ``de``),
    checked: against English unless it is English itself.  Translators check a new
    file with it (``python -m azul_rules.text de.po``)."""
    lang = os.path.basename(path).removesuffix(".po")
    with open(path, "rb") as file:
        data = file.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise CatalogueError(path, line, "not UTF-8 text") from None
    po = read_po(text, path)
    nplurals, plural = _plural_rule(po)
    catalogue = Catalogue(
        lang, path, {k: e.msgstr[0] for k, e in po.entries.items()},
        {k: e.line for k, e in po.entries.items()}, nplurals, plural,
    )  # fmt: skip
    _check_entries(po, nplurals)
    if lang != SOURCE:
        _check_against(catalogue, load(SOURCE))
    return catalogue


def _plural_rule(po: PoFile) -> tuple[int, Callable[[int], int]]:
    """The header's ``Plural-Forms``: how many forms, and the rule choosing one."""
    found = _PLURAL_FORMS.fullmatch(po.header.get("Plural-Forms", ""))
    if found is None:
        raise CatalogueError(po.path, 1, "the header has no 'Plural-Forms: nplurals=N; "
                             "plural=EXPRESSION;' line")  # fmt: skip
    import gettext  # only when a catalogue is read: it costs the import of locale

    try:
        rule = gettext.c2py(found.group(2))
    except ValueError as error:
        raise CatalogueError(po.path, 1, f"Plural-Forms: {error}") from None
    return int(found.group(1)), rule


def _check_entries(po: PoFile, nplurals: int) -> None:
    """Every entry usable: translated, not fuzzy, a single phrase, a valid template."""
    for key, entry in po.entries.items():
        if "fuzzy" in entry.flags:
            raise CatalogueError(po.path, entry.line, f"{key}: fuzzy (review the phrase, "
                                 "then remove the flag)")  # fmt: skip
        if entry.plural:
            raise CatalogueError(po.path, entry.line, f"{key}: a plural entry; counted words "
                                 "are chosen inside the phrase ({n:tile|tiles})")  # fmt: skip
        if not entry.msgstr[0]:
            raise CatalogueError(po.path, entry.line, f"{key}: not translated (empty msgstr)")
        for name, forms in _counted(entry.msgstr[0], po.path, entry.line, key):
            if forms != nplurals:
                raise CatalogueError(po.path, entry.line, f"{key}: {{{name}:...}} has {forms} "
                                     f"forms, the language {nplurals}")  # fmt: skip


def _check_against(catalogue: Catalogue, source: Catalogue) -> None:
    """The same keys as English, and in each phrase the same placeholders."""
    for key in source.texts:
        if key not in catalogue.texts:
            raise CatalogueError(catalogue.path, 1, f"{key}: missing (it is in "
                                 f"{source.path}, line {source.lines[key]})")  # fmt: skip
    for key, text in catalogue.texts.items():
        line = catalogue.lines[key]
        if key not in source.texts:
            raise CatalogueError(catalogue.path, line, f"{key}: not a key of {source.path}")
        mine = placeholders(text, catalogue.path, line, key)
        theirs = placeholders(source.texts[key], source.path, source.lines[key], key)
        if mine != theirs:
            raise CatalogueError(catalogue.path, line, f"{key}: placeholders "
                                 f"{sorted(mine)}, English has {sorted(theirs)}")  # fmt: skip


def _fields(text: str, path: str, line: int, key: str) -> Iterator[tuple[str, str]]:
    """The ``{name:spec}`` fields of a template (a broken one: :class:`CatalogueError`)."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as error:
        raise CatalogueError(path, line, f"{key}: {error} (a literal brace is doubled)") from None
    for _, name, spec, _ in parsed:
        if name is not None:
            if not name.isidentifier():
                raise CatalogueError(path, line, f"{key}: {{{name}}} is not a name")
            yield name, spec or ""


def placeholders(text: str, path: str = "?", line: int = 0, key: str = "?") -> set[str]:
    """The names of a template's placeholders (``{count:tile|tiles}`` counts ``count``)."""
    return {name for name, _ in _fields(text, path, line, key)}


def _counted(text: str, path: str, line: int, key: str) -> Iterator[tuple[str, int]]:
    """The counted words of a template: the name, and how many forms it gives."""
    for name, spec in _fields(text, path, line, key):
        if "|" in spec:
            yield name, spec.count("|") + 1


# -- lookup ------------------------------------------------------------------------------


def template(lang: str, key: str) -> str:
    """The phrase ``key`` in ``lang``, as a template (``KeyError`` for an unknown key)."""
    return load(lang).texts[key]


def keys(prefix: str = "") -> tuple[str, ...]:
    """The keys of the source catalogue starting with ``prefix``, in its order."""
    return tuple(k for k in load(SOURCE).texts if k.startswith(prefix))


class _Fraction(int):
    """A count with a fraction (``1.5`` seconds), as a ``Plural-Forms`` rule reads it:
    compared, and taken modulo, by its real value."""

    real_value: float

    def __new__(cls, value: float) -> _Fraction:
        self = super().__new__(cls, int(value))
        self.real_value = value
        return self

    def __eq__(self, other: object) -> bool:
        return self.real_value == other

    def __ne__(self, other: object) -> bool:
        return self.real_value != other

    def __lt__(self, other: int) -> bool:
        return self.real_value < other

    def __le__(self, other: int) -> bool:
        return self.real_value <= other

    def __gt__(self, other: int) -> bool:
        return self.real_value > other

    def __ge__(self, other: int) -> bool:
        return self.real_value >= other

    def __mod__(self, other: int) -> float:  # type: ignore[override]
        return self.real_value % other

    __hash__ = int.__hash__


def plural_index(lang: str, count: object) -> int:
    """Which form of a counted word ``count`` takes in ``lang`` (0 the first), by the
    catalogue's ``Plural-Forms`` rule on ``abs(count)``; a ``float`` with a fraction is
    read as it is; what is not a number (hostile input) takes the last form."""
    catalogue = load(lang)
    if type(count) is int:
        return catalogue.plural(abs(count))
    if type(count) is float and count == count and abs(count) != float("inf"):
        whole = abs(count)
        return catalogue.plural(int(whole) if whole.is_integer() else _Fraction(whole))
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
