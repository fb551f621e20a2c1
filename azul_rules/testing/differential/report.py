"""The report of ``azul-rules differential``: what the search found
(:class:`~azul_rules.testing.differential.search.Report`) in words (:func:`report_text`, in
each language of the catalogues: the sentences ``differential.*`` and the broken rule's id
and title) and as JSON (:func:`report_dict`, ``--json``); the disagreeing game as a game
record, one move a line (:func:`record_json`, ``--record``; ``azul-rules replay`` reads it).
"""

from __future__ import annotations

import json
from typing import Any, Final

from azul_rules.core.messages import LANGUAGES, says
from azul_rules.core.rulebook import rule
from azul_rules.core.shown import clipped, shown
from azul_rules.formats.jsonio import to_dict
from azul_rules.formats.record import GameRecord
from azul_rules.testing.conformance import RULE_TITLES
from azul_rules.testing.differential.search import Report
from azul_rules.text import table, template

__all__ = ["record_json", "report_dict", "report_text"]

_TEXTS: Final = table("differential.")
"""The report's sentences, by key, each in every language of the catalogues."""


def _say(key: str, lang: str, **params: object) -> str:
    return says(lang, "differential." + key, **params)


def _count(n: int, noun: str, lang: str = "en") -> str:
    """``1 game``, ``1,580 moves``; ``1 partie``, ``1 580 coups`` (a narrow space)."""
    return _say(f"count.{noun}", lang, number=_number(n, lang), count=n)


def _number(n: int, lang: str) -> str:
    return f"{n:,}".replace(",", template(lang, "differential.thousands"))


def _rule_title(rule_id: str, lang: str) -> str:
    if lang == "en":
        return RULE_TITLES.get(rule_id) or _say("see_rules", lang)
    try:
        return rule(rule_id).title_in(lang)
    except ValueError:
        return _say("see_rules", lang)


def report_text(report: Report, lang: str = "en") -> str:
    """The report in words (what ``azul-rules differential`` prints), in ``lang``
    (``"en"``, ``"fr"``...): its sentences and the rule's title; the facts that differ
    are written as :mod:`azul_rules.testing.conformance` names them (in English, quoting the
    referee's verdicts in the language :func:`run` was given)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {shown(lang)}: expected one of {', '.join(LANGUAGES)}")
    lines = []
    if report.failure is not None:
        failure = report.failure
        lines.append(_say("failed", lang, failure=failure))
        if failure.line is not None:
            lines.append(_say("line", lang, line=failure.line))
        if failure.stderr:
            lines.append(_say("stderr", lang))
            lines.extend(f"    {line}" for line in failure.stderr.splitlines())
        return "\n".join(lines)
    info = report.engine
    name = info.name if info is not None else clipped(report.command)
    replayed = report.shrink_games
    shrinking = _say("shrinking", lang, games=_number(replayed, lang)) if replayed else ""
    seconds = f"{report.elapsed:.1f}".replace(".", template(lang, "differential.decimal"))
    played = _say("played", lang, games=_count(report.games, "game", lang), shrinking=shrinking,
                  moves=_count(report.moves, "compared", lang), seconds=seconds)  # fmt: skip
    found = report.disagreement
    if found is None:
        lines.append(_say("agrees", lang, name=name, played=played, seed=report.seed))
        return "\n".join(lines)
    step = found.step
    lines.append(_say("disagrees", lang, name=name))
    lines.append(_say("rule", lang, rule=found.rule, title=_rule_title(found.rule, lang)))
    first = _say("first", lang, moves=report.first_found) if report.first_found else ""
    lines.append(_say("shortest", lang, moves=_count(found.moves, "move", lang), first=first,
                      played=played, seed=report.seed))  # fmt: skip
    if step.before is None:
        lines.append(_say("at_deal", lang, move=step.move))
    else:
        lines.append(_say("at_move", lang, number=found.moves,
                          player=step.before.current_player + 1, move=step.move))  # fmt: skip
    lines.append(_say("differs", lang))
    lines.extend(f"  {difference}" for difference in found.differences)
    lines.append(_say("position", lang))
    lines.append(json.dumps(to_dict(step.after), separators=(",", ":")))
    lines.append(_say("record", lang))
    lines.append(record_json(found.record))
    return "\n".join(lines)


def record_json(record: GameRecord) -> str:
    """A game record as JSON text, one move a line (what the report prints and
    ``--record`` saves; ``azul-rules replay`` reads it)."""
    doc = record.to_dict()
    moves = doc.pop("moves")
    lines = [json.dumps(doc)[:-1] + ', "moves": [']
    for index, move in enumerate(moves):
        lines.append(f"  {json.dumps(move)}" + ("," if index < len(moves) - 1 else ""))
    lines.append("]}")
    return "\n".join(lines)


def report_dict(report: Report) -> dict[str, Any]:
    """The report as JSON-ready data (``azul-rules differential --json``)."""
    doc: dict[str, Any] = {
        "status": ["agrees", "disagrees", "protocol_failure"][report.status],
        "engine": report.engine.name if report.engine else None,
        "command": report.command,
        "seed": report.seed,
        "games": report.games,
        "cut": report.cut,
        "abandoned": report.abandoned,
        "shrink_games": report.shrink_games,
        "moves_compared": report.moves,
        "played": [{"players": n, "variant": v.value, "games": k} for n, v, k in report.played],
        "seconds": round(report.elapsed, 3),
    }
    if report.failure is not None:
        failure = report.failure
        doc["failure"] = {"message": failure.message, "request": failure.request,
                          "line": failure.line, "stderr": failure.stderr,
                          "exit_status": failure.status}  # fmt: skip
    found = report.disagreement
    if found is not None:
        doc["disagreement"] = {
            "rule": found.rule,
            "moves": found.moves,
            "first_found_moves": report.first_found,
            "move": to_dict(found.step.move),
            "differences": [d.to_dict() for d in found.differences],
            "position": to_dict(found.step.after),
            "record": found.record.to_dict(),
        }
    return doc
