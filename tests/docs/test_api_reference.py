"""The API reference (``docs/api.md`` and its pages by topic, ``docs/api-*.md``, built by
Sphinx's autodoc) documents every public name, each on one page only, and each entry
point says in its docstring what it raises, once, as ``:raises X:`` fields ("Raises
nothing" where it raises nothing): the README's table of exceptions moved into the
docstrings.  Each raise a docstring promises is checked against the code here, on one
bad call per exception."""

from __future__ import annotations

import ast
import inspect
import json
import re
from array import array
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

import azul_rules as az
from azul_rules.ai import actions
from azul_rules.core.rulebook import Rule
from azul_rules.svg import board

ROOT = Path(__file__).resolve().parents[2]
API_PAGES = sorted((ROOT / "docs").glob("api*.md"))
DIRECTIVE = re.compile(r"^\.\. auto\w+:: ([\w.]+)\b", re.MULTILINE)
ENTRIES = [(page.name, name) for page in API_PAGES
           for name in DIRECTIVE.findall(page.read_text(encoding="utf-8"))]  # fmt: skip
DOCUMENTED = {name for _, name in ENTRIES}
MODULES = [
    "svg", "ai.actions", "ai.spiel", "ai.pettingzoo", "ai.pgx", "ai.vector", "testing",
    "testing.batched", "tournament", "web", "engine",
]  # fmt: skip
RAISES = re.compile(r":raises (\w+):")


def test_the_reference_documents_every_public_name_and_module() -> None:
    """Every name of ``azul_rules.__all__`` has its autodoc directive, and so has each
    public module (their members come with them)."""
    missing = sorted(set(az.__all__) - {n.removeprefix("azul_rules.") for n in DOCUMENTED})
    assert not missing, f"not in docs/api-*.md: {missing}"
    assert {f"azul_rules.{m}" for m in MODULES} <= DOCUMENTED


def test_each_name_has_one_entry_in_the_reference() -> None:
    """The reference is split by topic (``api-core.md``, ``api-ai.md``...): each name has
    its directive on one page only, once, and every topic page is in the index's list."""
    pages: dict[str, list[str]] = {}
    for page, name in ENTRIES:
        pages.setdefault(name, []).append(page)
    twice = {name: where for name, where in pages.items() if len(where) > 1}
    assert not twice, f"documented more than once: {twice}"
    index = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    topics = [p.name for p in API_PAGES if p.name != "api.md"]
    assert len(topics) >= 8 and all(f"]({name})" in index for name in topics)
    assert not DIRECTIVE.findall(index), "api.md is the index: the entries are on the topics"


def _attribute_docs(module: ModuleType) -> set[str]:
    """The names given a docstring under their assignment in ``module``'s own source."""
    body = ast.parse(inspect.getsource(module)).body
    return {
        target.id
        for statement, after in pairwise(body)
        if isinstance(statement, (ast.Assign, ast.AnnAssign))
        and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
        for target in getattr(statement, "targets", [getattr(statement, "target", None)])
        if isinstance(target, ast.Name)
    }


@pytest.mark.parametrize("name", MODULES)
def test_each_constant_a_module_exports_reaches_the_reference(name: str) -> None:
    """autodoc documents a module's classes and functions, and the constants with a
    docstring in that module; a constant it re-exports from another (``svg.WIDTH``) is
    named on the page, or it would be left out silently."""
    module = pytest.importorskip(f"azul_rules.{name}")
    values = {n: getattr(module, n) for n in module.__all__}
    constants = [n for n, v in values.items()
                 if not isinstance(v, type) and not inspect.isroutine(v)]  # fmt: skip
    documented = _attribute_docs(module)
    missing = [n for n in constants if n not in documented
               and f"azul_rules.{name}.{n}" not in DOCUMENTED]  # fmt: skip
    assert not missing, f"add to docs/api-*.md: .. autodata:: azul_rules.{name}.{missing[0]}"


def _docstring(entry: object) -> str:
    """The docstring of an entry point, the Python reference's where a compiled version
    stands in front of it (``GameState.legal_moves``, ``actions.legal_actions``), as the
    site shows it."""
    entry = getattr(entry, "__wrapped__", entry)  # a compiled version: its reference
    return " ".join((inspect.getdoc(entry) or "").split())


def _entry_points() -> dict[str, object]:
    """The public functions and classes (not the exceptions, nor the ``Move`` union),
    and the methods and functions of the other modules the table covered."""
    found: dict[str, object] = {}
    for name in az.__all__:
        value = getattr(az, name)
        if isinstance(value, type) and issubclass(value, BaseException):
            continue
        if callable(value) and name != "Move":
            found[name] = value
    state, record = az.GameState, az.GameRecord
    for method in ("legal_moves", "problems", "is_legal", "validate", "apply", "make",
                   "replace"):  # fmt: skip
        found[f"GameState.{method}"] = getattr(state, method)
    for method in ("from_json", "from_dict", "to_json", "to_dict", "replay", "start"):
        found[f"GameRecord.{method}"] = getattr(record, method)
    found["Rule.text"] = Rule.text
    found["svg.board"] = board
    for name in ACTIONS:
        found[f"actions.{name}"] = getattr(actions, name)
    return found


# The functions of azul_rules.ai.actions held to the same standard.
ACTIONS = ("factory_count", "num_take_actions", "num_actions", "action_id",
           "move_from_action", "action_to_string", "legal_actions", "legal_action_mask",
           "utilities", "observation", "observation_string", "observation_size",
           "observation_layout", "table_string", "observe_into")  # fmt: skip


ENTRY_POINTS = _entry_points()


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_every_entry_point_says_what_it_raises_once(name: str) -> None:
    doc = _docstring(ENTRY_POINTS[name])
    named = RAISES.findall(doc)
    assert named or "Raises nothing" in doc, f"{name} does not say what it raises"
    assert len(named) == len(set(named)), f"{name} names an exception twice: {named}"
    assert not re.search(r"(?<!:)\bRaises (?!nothing)", doc), f"{name}: say it in :raises:"


def _state() -> az.GameState:
    return az.new_game(2, seed=1)


def _bad_state_data() -> dict[str, object]:
    data = az.to_dict(_state())
    data["current_player"] = 1 - data["current_player"]  # not the starting player's turn
    data["factories"] = []  # and no factory at all (S2): the state cannot exist
    return data


EMPTY_WALL = ((None,) * 5,) * 5
WALL_WITH_A_TILE = ((az.Color.BLUE, None, None, None, None),) + ((None,) * 5,) * 4

# (entry point, the call, the exception it raises): one bad call for each raise a
# docstring promises.
CALLS: list[tuple[str, Callable[[], object], type[BaseException]]] = [
    ("new_game", lambda: az.new_game(5), ValueError),
    ("new_game", lambda: az.new_game(True), az.FormatError),
    ("new_game", lambda: az.new_game(2, variant="purple"), az.FormatError),
    ("GameState", lambda: _state().replace(round=0), az.FormatError),
    ("GameState", lambda: _state().replace(current_player=7), az.InvalidStateError),
    ("GameState.make", lambda: az.GameState.make(), TypeError),
    ("GameState.make", lambda: az.GameState.make(**{**_parts(), "bag": {az.Color.RED: 21}}),
     az.FormatError),
    ("GameState.make", lambda: az.GameState.make(**{**_parts(), "start_player": 5}),
     az.InvalidStateError),
    ("GameState.replace", lambda: _state().replace(rounds=2), TypeError),
    ("GameState.replace", lambda: _state().replace(players=[1, 2]), az.FormatError),
    ("GameState.replace", lambda: _state().replace(factories=()), az.InvalidStateError),
    ("PatternLine", lambda: az.PatternLine(az.Color.RED, 6, 5), az.FormatError),
    ("PlayerBoard", lambda: az.PlayerBoard(score="1"), az.FormatError),  # type: ignore[arg-type]
    ("GameState.validate", lambda: _state().validate("3B2"), az.FormatError),  # type: ignore[arg-type]
    ("GameState.is_legal", lambda: _state().is_legal(None), az.FormatError),  # type: ignore[arg-type]
    ("GameState.apply", lambda: _state().apply(az.Take(az.CENTER, az.Color.RED, 0)),
     az.IllegalMoveError),
    ("GameState.apply", lambda: _state().apply(None), az.FormatError),  # type: ignore[arg-type]
    ("Take", lambda: az.Take(-2, az.Color.RED, 0), az.FormatError),
    ("TableTake", lambda: az.TableTake(0, az.Color.RED, 2, [(0, 1), (0, 1)]), az.FormatError),
    ("PlaceTile", lambda: az.PlaceTile(-1, 0), az.FormatError),
    ("Refill", lambda: az.Refill("RB"), az.FormatError),  # type: ignore[arg-type]
    ("Placements", lambda: az.Placements(5), az.FormatError),  # type: ignore[arg-type]
    ("parse_move", lambda: az.parse_move("9Z9"), az.FormatError),
    ("to_notation", lambda: az.to_notation("c2f1"), TypeError),  # type: ignore[arg-type]
    ("to_notation", lambda: az.to_notation(_state().replace(players=(
        attrs.evolve(_state().players[0], score=10**100), _state().players[1]))), ValueError),
    ("from_notation", lambda: az.from_notation("c5"), az.FormatError),
    ("from_notation", lambda: az.from_notation(
        az.to_notation(_state()).replace("_0.00000.00000.", "_0.1b0000.g0000.", 1)),
     az.InvalidStateError),
    ("from_json", lambda: az.from_json("[", az.GameState), az.FormatError),
    ("from_json", lambda: az.from_json("{}", int), TypeError),
    ("from_json", lambda: az.from_json(json.dumps(_bad_state_data()), az.GameState),
     az.InvalidStateError),
    ("from_dict", lambda: az.from_dict(_bad_state_data(), az.GameState), az.InvalidStateError),
    ("from_dict", lambda: az.from_dict({}, int), TypeError),
    ("from_dict", lambda: az.from_dict(5, az.GameState), az.FormatError),
    ("complete_unseen", lambda: az.complete_unseen({"factories": [[]] * 101}), az.FormatError),
    ("move_from_json", lambda: az.move_from_json("{}"), az.FormatError),
    ("move_from_dict", lambda: az.move_from_dict(5), az.FormatError),
    ("to_json", lambda: az.to_json(5), TypeError),
    ("to_json", lambda: az.to_json(az.GameRecord(players=9)), az.FormatError),
    ("to_dict", lambda: az.to_dict(5), TypeError),
    ("to_dict", lambda: az.to_dict(az.GameRecord(players=9)), az.FormatError),
    ("GameRecord.to_json", lambda: az.GameRecord(seed="1").to_json(), az.FormatError),  # type: ignore[arg-type]
    ("GameRecord.to_dict", lambda: az.GameRecord(players=9).to_dict(), az.FormatError),
    ("GameRecord.from_json", lambda: az.GameRecord.from_json("[]"), az.FormatError),
    ("GameRecord.from_dict", lambda: az.GameRecord.from_dict(5), az.FormatError),
    ("GameRecord.from_json",
     lambda: az.GameRecord.from_json(json.dumps({"format_version": 1, "moves": [],
                                                 "initial_state": _bad_state_data()})),
     az.InvalidStateError),
    ("GameRecord.from_dict",
     lambda: az.GameRecord.from_dict({"format_version": 1, "moves": [],
                                      "initial_state": _bad_state_data()}),
     az.InvalidStateError),
    ("GameRecord.replay", lambda: az.GameRecord(players=9).replay(), az.FormatError),
    ("GameRecord.start", lambda: az.GameRecord(players=9).start(), az.FormatError),
    ("score_placement", lambda: az.score_placement(EMPTY_WALL, 0, 0), ValueError),
    ("score_placement", lambda: az.score_placement(WALL_WITH_A_TILE, 0, 5), ValueError),
    ("score_placement", lambda: az.score_placement(WALL_WITH_A_TILE, True, 0), az.FormatError),
    ("end_bonuses", lambda: az.end_bonuses("wall"), az.FormatError),  # type: ignore[arg-type]
    ("Color", lambda: az.Color(9), ValueError),
    ("Marker", lambda: az.Marker("token"), ValueError),
    ("Phase", lambda: az.Phase("setup"), ValueError),
    ("Variant", lambda: az.Variant("blue"), ValueError),
    ("ErrorCode", lambda: az.ErrorCode("NO_SUCH_CODE"), ValueError),
    ("StateProblem", lambda: az.StateProblem("NO_SUCH_PROBLEM"), ValueError),
    ("audit", lambda: az.audit(5, az.Claim()), az.FormatError),  # type: ignore[arg-type]
    ("audit_game", lambda: az.audit_game(5, {}), az.FormatError),  # type: ignore[arg-type]
    ("rule", lambda: az.rule("Z9"), ValueError),
    ("rule", lambda: az.rule(5), TypeError),  # type: ignore[arg-type]
    ("Rule.text", lambda: az.rule("P3").text("de"), ValueError),
    ("ask", lambda: az.ask("who starts?", lang="de"), ValueError),
    ("ask", lambda: az.ask("x" * 501), ValueError),
    ("ask", lambda: az.ask(5), TypeError),  # type: ignore[arg-type]
    ("svg.board", lambda: board(_state(), lang="de"), ValueError),
    ("svg.board", lambda: board(_state(), size=0), ValueError),
    ("svg.board", lambda: board(_state(), size="600"), az.FormatError),  # type: ignore[arg-type]
    ("svg.board", lambda: board(_state(), highlight=az.Result("junk")), az.FormatError),  # type: ignore[arg-type]
    ("actions.factory_count", lambda: actions.factory_count(5), ValueError),
    ("actions.factory_count", lambda: actions.factory_count(True), az.FormatError),
    ("actions.num_take_actions", lambda: actions.num_take_actions(1), ValueError),
    ("actions.num_take_actions", lambda: actions.num_take_actions("2"), az.FormatError),  # type: ignore[arg-type]
    ("actions.num_actions", lambda: actions.num_actions(2, "blue"), ValueError),
    ("actions.num_actions", lambda: actions.num_actions(2, 3), az.FormatError),  # type: ignore[arg-type]
    ("actions.action_id", lambda: actions.action_id(az.Take(7, az.Color.RED, 0), 2), ValueError),
    ("actions.action_id", lambda: actions.action_id("3B2", 2), az.FormatError),  # type: ignore[arg-type]
    ("actions.move_from_action", lambda: actions.move_from_action(9999, 2), ValueError),
    ("actions.move_from_action", lambda: actions.move_from_action("1", 2), az.FormatError),  # type: ignore[arg-type]
    ("actions.action_to_string", lambda: actions.action_to_string(0, 5), ValueError),
    ("actions.action_to_string", lambda: actions.action_to_string(1.0, 2), az.FormatError),  # type: ignore[arg-type]
    ("actions.legal_actions", lambda: actions.legal_actions(None), az.FormatError),  # type: ignore[arg-type]
    ("actions.legal_action_mask", lambda: actions.legal_action_mask({}), az.FormatError),  # type: ignore[arg-type]
    ("actions.utilities", lambda: actions.utilities((0, 0), 2), ValueError),
    ("actions.utilities", lambda: actions.utilities(("0",), 2), az.FormatError),  # type: ignore[arg-type]
    ("actions.observation", lambda: actions.observation(_state(), 2), ValueError),
    ("actions.observation", lambda: actions.observation(_state(), True), az.FormatError),
    ("actions.observation_string", lambda: actions.observation_string(_state(), -1), ValueError),
    ("actions.observation_string", lambda: actions.observation_string(None, 0), az.FormatError),  # type: ignore[arg-type]
    ("actions.observation_size", lambda: actions.observation_size(6), ValueError),
    ("actions.observation_size", lambda: actions.observation_size(None), az.FormatError),  # type: ignore[arg-type]
    ("actions.observation_layout", lambda: actions.observation_layout(0), ValueError),
    ("actions.observation_layout", lambda: actions.observation_layout(2.0), az.FormatError),  # type: ignore[arg-type]
    ("actions.table_string", lambda: actions.table_string("table"), az.FormatError),  # type: ignore[arg-type]
    ("actions.observe_into", lambda: actions.observe_into(_state(), 0, array("f", [0.0] * 3)),
     ValueError),
    ("actions.observe_into", lambda: actions.observe_into(_state(), 0, bytearray(364)),
     az.FormatError),
]  # fmt: skip


def _parts() -> dict[str, Any]:
    """Every part ``GameState.make`` needs, from a new game."""
    state = _state()
    names = ("players", "factories", "center", "bag", "lid", "current_player",
             "start_player", "phase")  # fmt: skip
    return {name: getattr(state, name) for name in names}


@pytest.mark.parametrize(("name", "call", "raised"), CALLS, ids=lambda v: getattr(v, "__name__", v))
def test_each_raise_a_docstring_promises_happens(
    name: str, call: Callable[[], object], raised: type[BaseException]
) -> None:
    """The call raises that very class (not a subclass), and the entry point's docstring
    names it in a ``:raises:`` field."""
    with pytest.raises(raised) as caught:
        call()
    assert type(caught.value) is raised, caught.value
    assert raised.__name__ in RAISES.findall(_docstring(ENTRY_POINTS[name])), name


def test_every_raise_a_docstring_promises_is_tried() -> None:
    """Each ``:raises X:`` field of an entry point is exercised above."""
    promised = {(n, x) for n, e in ENTRY_POINTS.items() for x in RAISES.findall(_docstring(e))}
    tried = {(name, raised.__name__) for name, _, raised in CALLS}
    assert promised == tried
