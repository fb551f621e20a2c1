"""Reading what the commands are given: files (``-``: standard input), positions, moves.

Every input is bounded (``MAX_INPUT_BYTES`` of UTF-8) and every problem with one is an
:class:`~azul_rules.cli._common.InputError`, its lines naming the file, the place in it
and, for an impossible position, the rule it breaks (the S, T, P and F rules of
docs/rules.md).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import IO, TypeVar

from azul_rules.cli._common import STDIN, InputError, UsageError, name, one_line
from azul_rules.core.errors import FormatError, InvalidStateError
from azul_rules.core.messages import phrase
from azul_rules.core.moves import Move, parse_move
from azul_rules.core.state import GameState
from azul_rules.formats._documents import Kind, wrong_kind
from azul_rules.formats._files import open_input
from azul_rules.formats.jsonio import from_dict, move_from_dict, move_from_json
from azul_rules.formats.jsontext import MAX_INPUT_BYTES, load
from azul_rules.formats.serialization import position_at_offer_end_from_dict
from azul_rules.formats.unseen import complete_unseen

__all__ = [
    "from_file",
    "from_text",
    "input_stream",
    "is_notation",
    "judged",
    "load_move",
    "load_state",
    "one_stdin",
    "read",
    "reading",
    "reading_bytes",
    "say_inferred",
    "text_of",
]

T = TypeVar("T")


def one_stdin(*paths: str) -> None:
    """Standard input holds one document: ``-`` may stand for one input of a command."""
    if paths.count(STDIN) > 1:
        raise UsageError("- (standard input) stands for one file only: give the others by name")


def read(path: str) -> str:
    """A file's text (``-``: standard input's): at most ``MAX_INPUT_BYTES`` of UTF-8 (a
    byte order mark allowed), read without holding more than that in memory."""
    with input_stream(path) as source:
        return text_of(path, reading_bytes(path, lambda: source.read(MAX_INPUT_BYTES + 1)))


@contextlib.contextmanager
def input_stream(path: str) -> Iterator[IO[bytes]]:
    """An input file opened for reading (``-``: standard input, left open): a named pipe
    that no process writes is refused at once (``_files.open_input``), as any file
    that cannot be opened, in one line."""
    if path == STDIN:
        if sys.stdin is None:  # closed by the caller (``<&-``)
            raise InputError([f"{STDIN}: cannot read: standard input is closed"])
        yield sys.stdin.buffer
        return
    try:
        stream = open_input(path)
    except (OSError, ValueError) as error:  # ValueError: a name with a null character
        raise _cannot_read(path, error) from None
    with stream:
        yield stream


def reading_bytes(path: str, read: Callable[[], T]) -> T:
    """``read()``, an ``OSError`` (a directory, a device failing) told as the file that
    cannot be read, in one line."""
    try:
        return read()
    except OSError as error:
        raise _cannot_read(path, error) from None


def _cannot_read(path: str, error: OSError | ValueError) -> InputError:
    reason = error.strerror if isinstance(error, OSError) else None
    return InputError([f"{name(path)}: cannot read: {reason or error}"])


def text_of(path: str, data: bytes) -> str:
    """A file's bytes as text: at most ``MAX_INPUT_BYTES`` of UTF-8 (a byte order mark
    allowed)."""
    quoted = name(path)
    if len(data) > MAX_INPUT_BYTES:
        raise InputError([f"{quoted}: more than {MAX_INPUT_BYTES} bytes: not a file this reads"])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError([f"{quoted}: not UTF-8 text (byte {error.start})"]) from None


def from_file(path: str, read_data: Callable[[object], T], lang: str = "en",
              kind: Kind | None = None) -> T:  # fmt: skip
    """``read_data`` (a ``from_dict`` reader) applied to the JSON document in ``path``,
    its errors told with the file's name (an impossible position's problems in
    ``lang``); a document of another kind than ``kind`` (a record given for a position)
    is told so, in one line.  The text is parsed once (``jsontext.load``, as
    ``from_json`` does), so a refused file costs no more than a read one."""
    return from_text(path, read(path), read_data, lang, kind)


def from_text(path: str, text: str, read_data: Callable[[object], T], lang: str = "en",
              kind: Kind | None = None) -> T:  # fmt: skip
    """:func:`from_file` once the file is read."""
    data = reading(path, lambda: load(text), lang)
    try:
        return reading(path, lambda: read_data(data), lang)
    except InputError:
        wrong = None if kind is None else wrong_kind(data, kind)
        if wrong is None:
            raise
        raise InputError([f"{name(path)}: {wrong}"]) from None


def reading(source: str, read_data: Callable[[], T], lang: str = "en") -> T:
    """``read_data()``, its ``FormatError`` told line by line (in English: the readers
    word them so), its ``InvalidStateError`` problem by problem in ``lang``, each with
    the rule the position breaks."""
    source = name(source)
    try:
        return read_data()
    except FormatError as error:
        raise InputError(
            [one_line(f"{source}: unreadable: {what}" if path == "$" and what == str(error)
             else f"{source}: unreadable at {path}: {what}") for path, what in error.errors]
        ) from None  # fmt: skip
    except InvalidStateError as error:
        raise InputError(
            [one_line(phrase("impossible_position", lang, source=source, code=p.code.value,
                             rule=p.rule, path=p.path, message=p.message_in(lang)))
             for p in error.problems]
        ) from None  # fmt: skip


def judged(judge: Callable[[], T], claim: str, base: str, base_path: str | None = None) -> T:
    """``judge()``, whose ``FormatError`` says that the ``claim`` file (a claim, a
    scoresheet) does not fit the ``base`` file (the position, the record) -- or, at
    ``base_path`` (``$.factories``: the offer is not over), that the fault is the base's."""
    try:
        return judge()
    except FormatError as error:
        claim, base = name(claim), name(base)
        raise InputError(
            [one_line(f"{base}: cannot be audited at {path}: {what}"
             if base_path is not None and path.startswith(base_path)
             else f"{claim}: does not fit {base} at {path}: {what}") for path, what in error.errors]
        ) from None  # fmt: skip


def load_state(path: str, lang: str = "en", *, offer_ended: bool = False) -> GameState:
    """A position argument: a position's notation (docs/notation.md) or a JSON file
    holding one, read by every command that takes a POSITION.  A JSON position typed
    without its bag, lid or marker holder has them read as ``complete_unseen`` fills
    them in ("every other tile", docs/json-format.md), and one line on standard error
    says so.  ``offer_ended``: the position may sit at the end of a factory offer, as
    an audit's does (``show`` reads what ``audit`` reads)."""
    def read_data(data: object) -> GameState:
        state: GameState = (position_at_offer_end_from_dict(data) if offer_ended
                            else from_dict(data, GameState))  # fmt: skip
        return state

    if is_notation(path):
        return reading("STATE", lambda: read_data(path), lang)
    inferred: list[tuple[dict[str, object], tuple[str, ...]]] = []

    def completed(data: object) -> GameState:
        doc, parts = complete_unseen(data)
        if isinstance(doc, dict):
            inferred.append((doc, parts))
        return read_data(doc)

    state = from_file(path, completed, lang, "position")
    for doc, parts in inferred:
        say_inferred(path, doc, parts, lang)
    return state


def say_inferred(path: str, doc: dict[str, object], parts: tuple[str, ...], lang: str) -> None:
    """One line on standard error for the unseen parts a position was read without
    (nothing when none): the bag and lid as every other tile, the marker's holder from
    the floors."""
    source = name(path)
    unseen = [part for part in parts if part in ("bag", "lid")]
    if unseen:
        key = "unseen_both" if len(unseen) == 2 else f"unseen_{unseen[0]}"
        print(f"azul-rules: {phrase(key, lang, source=source)}", file=sys.stderr)
    if "marker_holder" in parts:
        holder = doc["marker_holder"]
        assert isinstance(holder, int)
        print(f"azul-rules: {phrase('marker_read', lang, source=source, player=holder + 1)}",
              file=sys.stderr)  # fmt: skip


def is_notation(text: str) -> bool:
    """A position argument that is no file and starts as a notation does (the variant,
    the players, the phase: ``c2f``) is read as one; anything else is a file's name,
    so that a missing file is told as missing."""
    return (not os.path.exists(text) and len(text) > 3 and text[0] in "cg"
            and text[1] in "234" and text[2] in "fwre")  # fmt: skip


def load_move(text: str) -> Move:
    """MOVE: a JSON move, a file holding one, or notation.  A name that looks like a
    file's (a path separator, a ``.json`` suffix) is read as a file, so that a missing
    file is told as missing rather than as bad notation."""
    if text.lstrip().startswith("{"):
        return reading("MOVE", lambda: move_from_json(text))
    if text == STDIN:
        given = read(STDIN)
        if given.lstrip().startswith("{"):
            return reading(STDIN, lambda: move_from_json(given))
        return reading(STDIN, lambda: parse_move(given.strip()))
    if os.path.exists(text) or _looks_like_a_file(text):
        return from_file(text, move_from_dict, kind="move")
    return reading("MOVE", lambda: parse_move(text))


def _looks_like_a_file(text: str) -> bool:
    separators = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    return any(s in text for s in separators) or text.lower().endswith(".json")
