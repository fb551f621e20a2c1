"""The reader of the catalogues: the ``.po`` format, strictly, and the checks of a
catalogue against English.  Imported on the first lookup only (never by ``import
azul_rules``).

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
from typing import Final

__all__ = [
    "Catalogue", "CatalogueError", "PoEntry", "PoFile", "placeholders", "read_catalogue",
    "read_po",
]  # fmt: skip

_ESCAPES: Final = {
    "\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f",
    "v": "\v",
}  # fmt: skip
_ESCAPE: Final = re.compile(r"\\(.)")
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


class PoEntry:
    """One entry of a ``.po`` file: its ``msgid`` (with ``msgctxt``, if any, before a
    ``\\x04`` as gettext keys it), its ``msgstr`` (``msgstr[0]``... for a plural entry),
    its flags (``fuzzy``, ``python-brace-format``...) and the line of its ``msgid``.
    (Plain slotted classes rather than named tuples here: those cost a compilation each
    when this module is imported, on the first lookup.)"""

    __slots__ = ("flags", "line", "msgid", "msgstr", "plural")

    def __init__(self, msgid: str, msgstr: tuple[str, ...], plural: bool,
                 flags: frozenset[str], line: int) -> None:  # fmt: skip
        self.msgid = msgid
        self.msgstr = msgstr
        self.plural = plural
        self.flags = flags
        self.line = line


class PoFile:
    """A ``.po`` file read: its header's fields (``Plural-Forms``...) and its entries by
    ``msgid``, in the file's order."""

    __slots__ = ("entries", "header", "path")

    def __init__(self, path: str, header: Mapping[str, str],
                 entries: Mapping[str, PoEntry]) -> None:  # fmt: skip
        self.path = path
        self.header = header
        self.entries = entries


class Catalogue:
    """One language's phrases, checked: by key, with the line of each (for errors), the
    number of plural forms and the ``Plural-Forms`` rule choosing among them."""

    __slots__ = ("lang", "lines", "nplurals", "path", "plural", "texts")

    def __init__(self, lang: str, path: str, texts: Mapping[str, str],
                 lines: Mapping[str, int], nplurals: int,
                 plural: Callable[[int], int]) -> None:  # fmt: skip
        self.lang = lang
        self.path = path
        self.texts = texts
        self.lines = lines
        self.nplurals = nplurals
        self.plural = plural


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
    body = found.group(1)
    if "\\" not in body:
        return body
    for escaped in _ESCAPE.findall(body):
        if escaped not in _ESCAPES:
            raise CatalogueError(path, number, f"unknown escape \\{escaped}")
    return _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], body)


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


def read_catalogue(path: str, source: Catalogue | None = None) -> Catalogue:
    """The catalogue in the file ``path`` (its language is its name, ``de.po``: ``de``),
    checked, and against ``source`` (English) when given.  Translators check a new file
    with it (``python -m azul_rules.text de.po``)."""
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
    if source is not None and lang != source.lang:
        _check_against(catalogue, source)
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


_PLAIN_SPECS: Final = frozenset({"", "g"})
"""The formats a placeholder may give besides a counted word's forms: none, or ``g``
(a number of seconds, ``1.5``).  A width or a precision could make one phrase of any
size (``{digits:>99999999}``: 100 MB), and a type code fails on the words a message
fills in (``{count:d}``: ``ValueError: Unknown format code``)."""


def _check_entries(po: PoFile, nplurals: int) -> None:
    """Every entry usable: translated, not fuzzy, a single phrase, a valid template
    whose placeholders give no format but a counted word's forms and ``g``."""
    for key, entry in po.entries.items():
        if "fuzzy" in entry.flags:
            raise CatalogueError(po.path, entry.line, f"{key}: fuzzy (review the phrase, "
                                 "then remove the flag)")  # fmt: skip
        if entry.plural:
            raise CatalogueError(po.path, entry.line, f"{key}: a plural entry; counted words "
                                 "are chosen inside the phrase ({n:tile|tiles})")  # fmt: skip
        if not entry.msgstr[0]:
            raise CatalogueError(po.path, entry.line, f"{key}: not translated (empty msgstr)")
        for name, spec in _fields(entry.msgstr[0], po.path, entry.line, key):
            if "|" not in spec and spec not in _PLAIN_SPECS:
                raise CatalogueError(po.path, entry.line, f"{key}: {{{name}:{spec[:40]}}} "
                                     "gives a format the messages never use (only a counted "
                                     "word's forms, {n:tile|tiles}, or :g)")  # fmt: skip
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
        english = set(_fields(source.texts[key], source.path, source.lines[key], key))
        for name, spec in _fields(text, catalogue.path, line, key):
            if "|" not in spec and (name, spec) not in english:
                raise CatalogueError(catalogue.path, line, f"{key}: {{{name}:{spec}}}, but "
                                     f"English never writes {name} so")  # fmt: skip


def _fields(text: str, path: str, line: int, key: str) -> Iterator[tuple[str, str]]:
    """The ``{name:spec}`` fields of a template (a broken one: :class:`CatalogueError`)."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as error:
        raise CatalogueError(path, line, f"{key}: {error} (a literal brace is doubled)") from None
    for _, name, spec, conversion in parsed:
        if name is not None:
            if not name.isidentifier():
                raise CatalogueError(path, line, f"{key}: {{{name[:40]}}} is not a name")
            if conversion is not None:
                raise CatalogueError(path, line, f"{key}: {{{name}!{conversion}}}: a "
                                     "placeholder takes no conversion")  # fmt: skip
            yield name, spec or ""


def placeholders(text: str, path: str = "?", line: int = 0, key: str = "?") -> set[str]:
    """The names of a template's placeholders (``{count:tile|tiles}`` counts ``count``)."""
    return {name for name, _ in _fields(text, path, line, key)}


def _counted(text: str, path: str, line: int, key: str) -> Iterator[tuple[str, int]]:
    """The counted words of a template: the name, and how many forms it gives."""
    for name, spec in _fields(text, path, line, key):
        if "|" in spec:
            yield name, spec.count("|") + 1




class Fraction(int):
    """A count with a fraction (``1.5`` seconds), as a ``Plural-Forms`` rule reads it:
    compared, and taken modulo, by its real value."""

    real_value: float

    def __new__(cls, value: float) -> Fraction:
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


