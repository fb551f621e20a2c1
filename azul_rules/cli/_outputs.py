"""What the commands write: files and pictures (refused in one line when they cannot be
written), JSON documents, violations with their rules, and a game's final scores (E2,
E4)."""

from __future__ import annotations

import argparse
import json
import os
import textwrap
import weakref
from collections.abc import Sequence

from azul_rules.cli._common import STDIN, InputError, UsageError, name
from azul_rules.core.colors import Color, Marker
from azul_rules.core.errors import Violation
from azul_rules.core.messages import phrase
from azul_rules.core.rulebook import Rule, rule
from azul_rules.core.scoring import Outcome
from azul_rules.core.state import GameState
from azul_rules.formats._files import open_output, write_all
from azul_rules.formats.record import GameRecord
from azul_rules.formats.serialization import long_integers
from azul_rules.svg import Highlight, board
from azul_rules.svg.game import iter_record_pictures

__all__ = [
    "Destination",
    "draw",
    "draw_record",
    "not_stdin",
    "print_json",
    "print_violations",
    "say_drawn",
    "scores_and_winners",
    "violation_doc",
    "write",
]


class Destination:
    """A file a command writes, opened for writing (and emptied) when it is named, so
    that one that cannot be written -- a missing folder, a directory, a named pipe that
    no process reads (``_files.open_output``) -- is refused at once, in one line, before
    the work; a pipe's reader then waits for the text, whenever it comes."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            fd = open_output(path)
        except (OSError, ValueError) as error:  # ValueError: a name with a null character
            raise _cannot_write(path, error) from None
        self._close = weakref.finalize(self, os.close, fd)  # also when the command fails
        self._fd = fd

    def write(self, text: str) -> None:
        """Write ``text`` (UTF-8) and close the file."""
        try:
            write_all(self._fd, text.encode("utf-8"))
        except OSError as error:  # a full disk, a pipe whose reader has gone...
            raise _cannot_write(self.path, error) from None
        finally:
            self._close()


def _cannot_write(path: str, error: OSError | ValueError) -> UsageError:
    reason = error.strerror if isinstance(error, OSError) else None
    return UsageError(f"cannot write {name(path)}: {reason or error}")


def write(path: str, text: str) -> None:
    """``path`` holding ``text`` (:class:`Destination`: a FIFO nobody reads is refused)."""
    Destination(path).write(text)


def not_stdin(option: str, path: str, what: str = "file") -> None:
    """``UsageError`` for ``-`` given where a file is written: ``-`` is standard input
    for every input file, and standard output already carries the command's text, so
    a file named ``-`` is never what was meant."""
    if path == STDIN:
        raise UsageError(f"{option} -: '-' stands for standard input, and standard output "
                         f"carries the command's text: name a {what} to write into")  # fmt: skip


def draw(path: str | None, state: GameState, lang: str,
         highlight: Highlight | None = None) -> None:  # fmt: skip
    """``--svg``: the picture of ``state`` (and of ``highlight``) to ``path``."""
    if path is not None:
        not_stdin("--svg", path)
        write(path, board(state, highlight=highlight, lang=lang))


def draw_record(directory: str | None, record: GameRecord, lang: str) -> int:
    """``--svg-dir``: the pictures of a recorded game; returns how many were written."""
    if directory is None:
        return 0
    not_stdin("--svg-dir", directory, "folder")
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise UsageError(f"cannot write pictures to {name(directory)}: not a directory")
    try:
        os.makedirs(directory, exist_ok=True)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) else None
        raise UsageError(f"cannot write {name(directory)}: {reason or error}") from None
    written = 0
    for file_name, picture in iter_record_pictures(record, lang=lang):  # one at a time
        write(os.path.join(directory, file_name), picture)
        written += 1
    return written


def say_drawn(drawn: int, args: argparse.Namespace) -> None:
    """How many pictures ``--svg-dir`` wrote, and where (nothing when none)."""
    if drawn:
        print(phrase("pictures", args.lang, count=drawn, where=name(args.svg_dir)))


def print_json(doc: dict[str, object]) -> None:
    """``--json``: ``doc`` on standard output; an integer past 4,300 digits, which
    Python refuses to write (a score of 4,300 digits grown by a tiling), is one line
    naming its place in the output, exit 2."""
    try:
        text = json.dumps(doc, indent=2, ensure_ascii=False)
    except ValueError:
        found = long_integers(doc) or [("$", "a value JSON text cannot hold")]
        raise InputError([f"cannot write the JSON output at {path}: {what}"
                          for path, what in found]) from None  # fmt: skip
    print(text)


def violation_doc(violation: Violation, lang: str, explain: bool = False) -> dict[str, object]:
    """A violation as ``--json`` writes it: its code, rule id, message and parameters
    (with ``explain``, the rule's text)."""
    doc: dict[str, object] = {
        "code": violation.code.value,
        "rule": violation.rule,
        "message": violation.message_in(lang),
        "params": {k: _plain(v) for k, v in violation.params},
    }
    if explain:
        doc["rule_text"] = violation.rule_text(lang)
    return doc


def _plain(value: object) -> object:
    if isinstance(value, Color):
        return value.name.lower()
    if isinstance(value, Marker):
        return "marker"
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def print_violations(violations: Sequence[Violation], lang: str, explain: bool,
                     indent: str = "  ") -> None:  # fmt: skip
    """Each violation on a line (its code, rule id and message); with ``explain``, its
    rule's text beneath it."""
    for violation in violations:
        print(phrase("violation", lang, indent=indent, code=violation.code.value,
                     rule=violation.rule, message=violation.message_in(lang)))  # fmt: skip
        if explain:
            print(_wrapped(rule(violation.rule), lang, indent + "    "))


def _wrapped(entry: Rule, lang: str, indent: str) -> str:
    text = f"{entry.id} {entry.title_in(lang)}. {entry.text(lang)}"
    return textwrap.fill(text, width=92, initial_indent=indent, subsequent_indent=indent)


def scores_and_winners(outcome: Outcome, lang: str) -> list[str]:
    """The final scores and the winners (E4: the highest score, then the most complete
    rows), two lines."""
    scores = ", ".join(
        phrase("player_score", lang, player=i + 1, score=s) for i, s in enumerate(outcome.scores)
    )
    winners = phrase("and", lang).join(
        phrase("player", lang, player=w + 1) for w in outcome.winners
    )
    result = phrase("shared" if outcome.is_shared else "winner", lang)
    return [phrase("final_scores", lang, scores=scores),
            phrase("result", lang, result=result, winners=winners)]  # fmt: skip
