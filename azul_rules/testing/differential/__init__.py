"""Differential testing of an engine against the referee (``azul-rules differential``).

:func:`run` starts the engine (any program speaking the engine protocol, in any
language), and lets Hypothesis play games through the referee and the engine side by
side: the same first player, the same factories (external draws, drawn by Hypothesis
from the bag and then the lid, R2), the same moves.  After every step it compares the
engine's view, its legal moves (when it lists them) and its refusals with the referee's;
on the first disagreement Hypothesis shrinks the game, and the shortest disagreeing
game found is reported as a game record (replayable with ``azul-rules replay``), with
the position, what differed and the rules broken.

Three modules, each importing only those below it:

* :mod:`~azul_rules.testing.differential.command_line`: the command, its options read
  (:func:`parse_players`, S1; :func:`parse_variants`; :func:`parse_duration`), the report
  printed, the game record saved (:func:`command`);
* :mod:`~azul_rules.testing.differential.report`: the report in words and as JSON
  (:func:`report_text`, :func:`report_dict`, :func:`record_json`);
* :mod:`~azul_rules.testing.differential.search`: the search, every game played to its
  end (E1, R6, R7), to ``MAX_MOVES`` or to a disagreement, and its shrinking
  (:func:`run`, :class:`Report`, :class:`Disagreement`, ``CHOICES``).

Their names are all here, as before the split.  A test that replaces a module's constant
replaces it where it is read: ``monkeypatch.setattr(differential.search, "CHOICES", ...)``
(setting ``differential.CHOICES`` would change nothing the search reads).

Needs Hypothesis, the ``testing`` extra (``pip install -e '.[testing]'`` in the project's
checkout).
"""

from __future__ import annotations

from azul_rules.testing.differential.command_line import UsageError as UsageError
from azul_rules.testing.differential.command_line import command
from azul_rules.testing.differential.command_line import parse_duration as parse_duration
from azul_rules.testing.differential.command_line import parse_players as parse_players
from azul_rules.testing.differential.command_line import parse_variants as parse_variants
from azul_rules.testing.differential.report import record_json, report_dict, report_text
from azul_rules.testing.differential.search import CHOICES as CHOICES
from azul_rules.testing.differential.search import (
    DEFAULT_GAMES,
    MAX_MOVES,
    Disagreement,
    Report,
    run,
)

__all__ = [
    "DEFAULT_GAMES",
    "MAX_MOVES",
    "Disagreement",
    "Report",
    "command",
    "record_json",
    "report_dict",
    "report_text",
    "run",
]
