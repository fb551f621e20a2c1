"""The tournament's JSON-lines file: one game a line, appended as games finish; reading
it back to continue a run (``--resume``) or to replay one of its games.

A line is ``{"tournament": {...settings...}, "game": i, "deal": d, "seed": s,
"lineup": [...], "bot_seeds": [...], "result": {...}, "record": {...}}`` (documented in
``docs/tournament.md``); ``record`` is a :class:`~azul_rules.GameRecord` document.

Interrupted writes: lines are written whole, each ending with ``\\n``, and flushed after
every game (local) or batch (process, Ray).  A last line without its ``\\n`` is what an
interruption leaves: continuing the file cuts it off (its game is played again).  Any
other unreadable line is an error naming its line number: the file is never "repaired"
by dropping complete lines.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any, Final

import attrs

from azul_rules.core.errors import FormatError, InvalidStateError
from azul_rules.core.shown import listed, shown
from azul_rules.formats._files import kind_of, open_input, open_output, write_all
from azul_rules.formats.jsontext import load, load_unique, repeated_keys
from azul_rules.formats.record import GameRecord
from azul_rules.tournament.readback import checked_summary, record_of, same_json
from azul_rules.tournament.referee import GameSummary
from azul_rules.tournament.settings import RESUME, Settings, TournamentError

__all__ = [
    "MAX_LINE_BYTES",
    "Existing",
    "OutFile",
    "check_new_file",
    "load_record",
    "read_existing",
    "read_record",
]

MAX_LINE_BYTES: Final = 1 << 20
"""The longest line read back (1 MiB; a 100-round grey game takes about 20 KB)."""

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]


@attrs.frozen
class Existing:
    """What a file to continue already holds: the games' summaries (those of the
    schedule's first ``games``), every game index found, and the bytes of an incomplete
    last line (cut off before appending)."""

    summaries: tuple[GameSummary, ...] = ()
    indices: frozenset[int] = frozenset()
    cut_bytes: int = 0


def _lines(stream: IO[bytes], source: str) -> Iterator[tuple[int, bytes, bool]]:
    """``(number from 1, line without newline, complete?)``, each at most 1 MiB."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise TournamentError(f"{source} line {number} is longer than 1 MiB: not a game line")
        complete = raw.endswith(b"\n")
        yield number, raw.rstrip(b"\r\n"), complete


def _parse(raw: bytes, where: str) -> dict[str, Any]:
    """A line to continue, read as strictly as any document (``jsontext.load_unique``):
    bad JSON or UTF-8, a number past 4,300 digits, nesting past Python's stack or a key
    given twice anywhere in it is one line naming the line."""
    try:
        doc = load_unique(raw)
    except FormatError as error:  # "not JSON: ...", "$.result: the same key given twice..."
        problems = "; ".join(m if p == "$" and not m.startswith("the same key") else f"{p}: {m}"
                             for p, m in error.errors)  # fmt: skip
        raise TournamentError(f"{where}: {problems}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("tournament"), dict):
        raise TournamentError(f"{where}: not a tournament game line (no \"tournament\" object)")
    return doc


def read_existing(path: str, settings: Settings, games: int) -> Existing:
    """Read a file to continue: check that every line was written with ``settings`` and
    is the game the schedule gives for its index, and cut off an incomplete last line.
    Raises :class:`TournamentError` naming the file, the line and what differs."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return Existing()
    except (OSError, ValueError) as error:
        raise TournamentError(f"cannot read {path}: {getattr(error, 'strerror', error)}") from None
    if not stat.S_ISREG(mode):  # a FIFO would be drained, a device read for ever
        raise TournamentError(
            "cannot continue {path}: {resume} reads back a regular file, and this is {kind}",
            path=path, resume=RESUME, kind=kind_of(mode),
        )
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed below, and may be truncated
    except OSError as error:
        raise TournamentError(f"cannot read {path}: {error.strerror}") from None
    summaries: list[GameSummary] = []
    where_seen: dict[int, int] = {}
    header = settings.header()
    cut_at: int | None = None
    cut_bytes = 0
    with stream:
        offset = 0
        for number, raw, complete in _lines(stream, path):
            if not complete:
                cut_at, cut_bytes = offset, len(raw)
                break
            offset = stream.tell()
            if not raw.strip():
                raise TournamentError(f"{path} line {number}: an empty line")
            where = f"{path} line {number}"
            doc = _parse(raw, where)
            _check_header(doc["tournament"], header, where)
            summary = checked_summary(doc, settings, where)
            if summary.index in where_seen:
                raise TournamentError(
                    f"{where} repeats game {summary.index} (first on line "
                    f"{where_seen[summary.index]})"
                )
            where_seen[summary.index] = number
            if summary.index < games:
                summaries.append(summary)
    if cut_at is not None:
        _truncate(path, cut_at)
    return Existing(tuple(summaries), frozenset(where_seen), cut_bytes)


def _truncate(path: str, size: int) -> None:
    try:
        os.truncate(path, size)
    except OSError as error:
        raise TournamentError(
            f"cannot cut the incomplete last line of {path}: {error.strerror}"
        ) from None


def _check_header(found: dict[str, Any], expected: dict[str, Any], where: str) -> None:
    """The line's settings are these settings: the same keys, the same JSON values
    (``false`` is no seed 0, a missing ``time_limit`` no ``null``)."""
    for key in [*expected, *sorted(set(found) - set(expected))]:
        if key not in found or key not in expected or not same_json(found[key], expected[key]):
            raise TournamentError(
                f"{where} was written with other settings: {_key_name(key)} "
                f"{_setting(found, key)} there, {_setting(expected, key)} here; continue it "
                "with the same settings or write to another file"
            )


def _setting(settings: dict[str, Any], key: str) -> str:
    return shown(settings[key]) if key in settings else "missing"


def _key_name(key: str) -> str:
    """A settings key as written, or quoted and cut when the file's own key is odd (control
    characters, or a key of a megabyte)."""
    return key if key.isidentifier() and len(key) <= 40 else shown(key)


class OutFile:
    """The file games are appended to: opened for appending, locked against a second
    run writing to it at the same time (where ``fcntl`` exists), each :meth:`write`
    handed to the system at once (no buffer: a failed write leaves nothing behind to
    fail again at :meth:`close`).

    Not only a regular file: ``/dev/null``, or a pipe some reader holds open (a FIFO, a
    shell's ``>(gzip > games.jsonl.gz)``); a FIFO that no process reads is refused at
    once (opening it would wait for a reader for ever)."""

    def __init__(self, path: str) -> None:
        self.path = path
        if os.path.isdir(path):
            raise TournamentError(
                f"cannot write games to {path}: it is a directory (name a file in it, such "
                f"as {os.path.join(path, 'games.jsonl')})"
            )
        try:
            self._fd = open_output(path, append=True)
        except (OSError, ValueError) as error:  # ValueError: a null character in the name
            reason = error.strerror if isinstance(error, OSError) else None
            raise TournamentError(f"cannot write {path}: {reason or error}") from None
        if fcntl is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(self._fd)
                raise TournamentError(
                    f"{path} is being written by another tournament run"
                ) from None

    def write(self, lines: list[str]) -> None:
        """Append ``lines`` (each gets its newline); :class:`TournamentError` when the
        file cannot take them (a full disk, a pipe whose reader has gone...).  A write
        cut short leaves a last line without its newline, which ``--resume`` cuts off."""
        try:
            write_all(self._fd, "".join(line + "\n" for line in lines).encode())
        except OSError as error:
            raise TournamentError(f"cannot write {self.path}: {error.strerror}") from None

    def close(self) -> None:
        """Release the lock and close (never raises: nothing is left unwritten)."""
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1


def check_new_file(path: str) -> None:
    """Refuse to start a run over a file that already holds games (append-only)."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return
    if size:
        raise TournamentError(
            "{path} already holds games: continue it with {resume}, or choose another file",
            path=path, resume=RESUME,
        )


def load_record(path: str, game: int | None = None) -> GameRecord:
    """The game record in ``path`` (``-``: standard input): a record file, one tournament
    line, or a tournament's JSON-lines file (then ``game`` picks the game by its number;
    it may be left out when the file holds one game).  Reads a tournament file line by
    line, any size; a record file up to 1 MiB.

    :raises ~azul_rules.FormatError: saying what is wrong.
    :raises ~azul_rules.InvalidStateError: for a record's initial state that cannot exist
        (its paths under ``$.record`` in a game line).
    """
    try:
        if path == "-":
            return read_record(sys.stdin.buffer, "standard input", game)
        with open_input(path) as stream:  # a FIFO nobody writes: refused, not waited for
            return read_record(stream, path, game)
    except (OSError, ValueError) as error:  # ValueError: a file name with a null character
        if isinstance(error, (FormatError, InvalidStateError)):
            raise
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        where = "standard input" if path == "-" else path
        raise FormatError(f"cannot read {where}: {reason}") from None


def read_record(
    stream: IO[bytes], source: str, game: int | None = None,
    plain: Callable[[bytes], GameRecord] = GameRecord.from_json,
) -> GameRecord:  # fmt: skip
    """:func:`load_record` from an open ``stream`` named ``source`` in messages; a file
    that is no tournament file is read by ``plain`` (at most 2 MiB of it: ``plain``
    refuses what is over its own limit)."""
    first = stream.readline(MAX_LINE_BYTES + 1)
    parsed = _parsed(first)  # once: a line of 1 MiB is not read twice
    is_game_line = isinstance(parsed, dict) and "tournament" in parsed and "record" in parsed
    if is_game_line or first.lstrip(b"\xef\xbb\xbf \t").startswith(b'{"tournament"'):
        return _pick(_chain(first, stream), source, game, parsed)
    if game is not None:
        raise FormatError(
            f"--game picks a game of a tournament's JSON-lines file; {source} is not one"
        )
    return plain(first + stream.read(MAX_LINE_BYTES + 1))


def _parsed(raw: bytes) -> object:
    """``jsontext.load(raw)``, or the ``FormatError`` it raised."""
    try:
        return load(raw)
    except FormatError as error:
        return error


def _chain(first: bytes, stream: IO[bytes]) -> Iterator[bytes]:
    yield first
    while line := stream.readline(MAX_LINE_BYTES + 1):
        yield line


def _pick(lines: Iterator[bytes], source: str, game: int | None,
          first: object = None) -> GameRecord:  # fmt: skip
    """The record of game ``game`` (or of the only game) among tournament lines; each
    line is parsed once (``first``: the first line's ``_parsed`` value, if known)."""
    count = 0
    found: dict[str, Any] | None = None
    numbers: list[int] = []
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE_BYTES:
            raise FormatError(f"{source} line {number} is longer than 1 MiB")
        if not raw.strip():
            continue
        parsed = first if number == 1 and first is not None else _parsed(raw)
        if isinstance(parsed, FormatError) and not raw.endswith(b"\n") and count:
            break  # the incomplete last line of an interrupted run
        doc = _game_line(parsed, f"{source} line {number}")
        count += 1
        index = doc.get("game")
        if type(index) is int:
            numbers.append(index)
        if game is None or index == game:
            found = doc
            if game is not None:
                break
    if game is None and count != 1:
        raise FormatError(
            f"{source} holds {count} games: choose one with --game N (numbered from 0)"
        )
    if found is None:
        held = f"games {min(numbers)} to {max(numbers)}" if numbers else "no numbered game"
        raise FormatError(f"no game {game} in {source} (it holds {held})")
    return record_of(found)  # the record's places, as places of its game line


def _game_line(doc: object, where: str) -> dict[str, Any]:
    """A game line (as ``_parsed`` read it) read as strictly as any document (a key
    given twice is refused here and, inside the record, by the record's reader)."""
    if isinstance(doc, FormatError):  # "not JSON: ...", "not acceptable JSON: ..."
        raise FormatError(f"{where}: {'; '.join(m for _, m in doc.errors)}") from None
    if not isinstance(doc, dict) or "record" not in doc:
        raise FormatError(f"{where}: not a tournament game line")
    if repeated := repeated_keys(doc):
        raise FormatError(f"{where}: the same key given twice: {listed(repeated)}")
    return doc
