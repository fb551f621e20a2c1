"""The engine protocol (docs/engine-protocol.md): the reference engine, the shipped JSON
Schema, the documented transcript, and the comparisons that name the rule broken."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.engine import ReferenceEngine, serve
from azul_rules.testing import refills
from azul_rules.testing.conformance import Step, move_set_differences, view_differences
from azul_rules.testing.engine_process import EngineProcess, Refusal
from azul_rules.testing.protocol import (
    MAX_LINE_BYTES,
    ProtocolError,
    comparable,
    read_hello,
    read_view,
    referee_view,
    schema,
)
from tests.extras import needs

jsonschema = needs("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = schema()
B, Y, R, K, W = az.Color.BLUE, az.Color.YELLOW, az.Color.RED, az.Color.BLACK, az.Color.WHITE
DEAL = ((B, B, Y, R), (Y, Y, Y, K), (R, R, K, W), (B, K, K, W), (W, W, W, R))
NEW_GAME = {
    "type": "new_game", "id": 2, "players": 2, "variant": "colored", "first_player": 0,
    "factories": [["blue", "blue", "yellow", "red"], ["yellow", "yellow", "yellow", "black"],
                  ["red", "red", "black", "white"], ["blue", "black", "black", "white"],
                  ["white", "white", "white", "red"]],
}  # fmt: skip


def valid(document: object, definition: str) -> bool:
    schema = {**SCHEMA, "$ref": f"#/$defs/{definition}"}
    schema.pop("anyOf")
    return not list(jsonschema.Draft202012Validator(schema).iter_errors(document))


def started() -> ReferenceEngine:
    engine = ReferenceEngine()
    assert engine.handle(NEW_GAME) == {"id": 2, "ok": True}
    return engine


# -- the reference engine ----------------------------------------------------------------


def test_hello_names_the_protocol_version_and_what_the_engine_supports() -> None:
    reply = ReferenceEngine().handle({"type": "hello", "id": 1, "protocol": 1})
    assert reply == {"id": 1, "ok": True, "protocol": 1, "engine": "azul_rules reference engine",
                     "legal_moves": True, "variants": ["colored", "grey"]}  # fmt: skip
    assert valid(reply, "hello_reply")
    refused = ReferenceEngine().handle({"type": "hello", "protocol": 2})
    assert refused["error"]["code"] == "unsupported_protocol"


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"garbage", "bad_json"),
        (b"\xff\xfe not utf-8", "bad_json"),
        (b"", "bad_json"),
        (b"[1, 2]", "bad_request"),
        (b'{"id": 3}', "unknown_type"),
        (b'{"type": "fly"}', "unknown_type"),
        (b'{"type": "state"}', "no_game"),
        (b"[" * 100_000 + b"]" * 100_000, "bad_json"),
    ],
)
def test_garbage_lines_get_an_error_object_and_the_engine_reads_on(line: bytes, code: str) -> None:
    engine = ReferenceEngine()
    reply = engine.handle_line(line)
    assert reply["ok"] is False and reply["error"]["code"] == code
    assert valid(reply, "error")
    assert engine.handle({"type": "hello"})["ok"] is True


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        (b'\xef\xbb\xbf{"type": "hello", "id": 1}', {"ok": False, "error": {
            "code": "bad_json", "message": "not a JSON object: the line starts with a byte "
            "order mark (U+FEFF); send UTF-8 without one"}}),
        (b'{"type": "hello", "type": "quit", "id": 4}', {"id": 4, "ok": False, "error": {
            "code": "bad_request", "message": "$: the same key given twice: 'type'"}}),
        (b'{"type": "apply", "move": {"type": "take", "color": "red", "color": "blue"}}',
         {"ok": False, "error": {"code": "bad_request",
                                 "message": "$.move: the same key given twice: 'color'"}}),
        (b'{"type": "new_game", "players": NaN}', {"ok": False, "error": {
            "code": "bad_json", "message": "not a JSON object: NaN is not a JSON number"}}),
        (b"garbage", {"ok": False, "error": {"code": "bad_json", "message":
                      "not a JSON object: Expecting value: line 1 column 1 (char 0)"}}),
    ],
    ids=["byte-order-mark", "type-twice", "move-key-twice", "nan", "garbage"],
)  # fmt: skip
def test_a_line_is_read_as_strictly_as_any_document(line: bytes, reply: dict[str, Any]) -> None:
    """A byte order mark got Python's advice ("decode using utf-8-sig") and a key given
    twice was taken last-wins (a ``quit`` hidden behind a ``hello``): each is refused in
    the protocol's words, and the engine reads on."""
    engine = ReferenceEngine()
    assert engine.handle_line(line) == reply
    assert valid(reply, "error")
    assert not engine.finished and engine.handle({"type": "hello"})["ok"] is True


@pytest.mark.parametrize(
    ("request_", "path"),
    [
        ({**NEW_GAME, "players": 5}, "$.players"),
        ({**NEW_GAME, "variant": "gray"}, "$.variant"),
        ({**NEW_GAME, "first_player": 2}, "$.first_player"),
        ({**NEW_GAME, "factories": [["purple"]]}, "$.factories"),
    ],
)
def test_misshapen_new_game_names_the_field(request_: dict[str, Any], path: str) -> None:
    reply = ReferenceEngine().handle(request_)
    assert reply["error"]["code"] == "bad_request"
    assert reply["error"]["message"].startswith(path)


def test_an_impossible_deal_is_refused_with_the_referees_verdict_R2() -> None:
    reply = ReferenceEngine().handle({**NEW_GAME, "factories": [["blue"] * 4] * 5 + [[]]})
    assert reply["error"]["code"] == "illegal_move"
    assert reply["error"]["violations"][0] == {
        "code": "FILL_IMPOSSIBLE", "rule": "R2",
        "message": reply["error"]["violations"][0]["message"],
    }  # fmt: skip


def test_an_illegal_move_is_refused_with_every_violation_T2() -> None:
    engine = started()
    reply = engine.handle({"type": "apply", "move": {"type": "take", "source": 0, "color": "white",
                                                     "line": 0, "player": 1}})  # fmt: skip
    codes = [v["code"] for v in reply["error"]["violations"]]
    assert codes == ["NOT_YOUR_TURN", "COLOR_NOT_IN_SOURCE"]
    assert [v["rule"] for v in reply["error"]["violations"]] == ["T1", "T2"]
    bad = engine.handle({"type": "apply", "move": {"type": "take", "source": -3}})
    assert bad["error"]["code"] == "bad_request" and bad["error"]["message"].startswith("$.move")


def test_a_legal_take_changes_the_engines_view_T2_P5() -> None:
    engine = started()
    take = {"type": "take", "source": 1, "color": "yellow", "line": 1}
    assert engine.handle({"type": "apply", "move": take})["ok"]
    view = engine.handle({"type": "state"})["state"]
    assert view["players"][0]["pattern_lines"][1] == ["yellow", "yellow"]
    assert view["players"][0]["floor"] == ["yellow"]
    assert view["center"] == ["black"] and view["current_player"] == 1
    assert valid({"ok": True, "state": view}, "state_reply")


def test_serve_answers_every_line_and_skips_overlong_ones_in_bounded_memory() -> None:
    source = io.BytesIO(
        b'{"type":"hello","id":1}\n' + b"x" * (MAX_LINE_BYTES + 10) + b"\n"
        + b"not json\n" + b'{"type":"quit","id":2}\n' + b'{"type":"hello","id":3}\n'
    )  # fmt: skip
    sink = io.StringIO()
    assert serve(ReferenceEngine(), source, sink) == 0
    replies = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [r.get("id") for r in replies] == [1, None, None, 2]  # nothing after quit
    assert [r["ok"] for r in replies] == [True, False, False, True]
    assert replies[1]["error"]["code"] == "line_too_long"


@settings(max_examples=60)
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                              lambda inner: st.lists(inner, max_size=4)
                              | st.dictionaries(st.sampled_from(["type", "move", "id",
                                                                 "factories", "players"]),
                                                inner, max_size=4),
                              max_leaves=12).map(lambda v: json.dumps(v).encode())))  # fmt: skip
def test_no_line_makes_the_reference_engine_fail(line: bytes) -> None:
    """Fuzz: every line, bytes or JSON of any shape, gets one reply object."""
    for engine in (ReferenceEngine(), started()):
        reply = engine.handle_line(line)
        assert isinstance(reply["ok"], bool)
        assert reply["ok"] or isinstance(reply["error"]["code"], str)
        assert reply.get("error", {}).get("code") != "internal_error", reply
        json.dumps(reply)


def test_the_reference_engine_as_a_process_ends_at_the_end_of_its_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "azul_rules.engine"], input=b'{"type":"hello","id":1}\nxx\n',
        capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0
    assert [json.loads(line)["ok"] for line in done.stdout.splitlines()] == [True, False]


# -- the schema and the documented transcript ------------------------------------------------


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def transcript() -> list[str]:
    done = subprocess.run([sys.executable, str(ROOT / "examples/engine_transcript.py")],
                          capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
    return done.stdout.splitlines()


def test_the_documented_transcript_is_what_the_reference_engine_says_and_fits_the_schema() -> None:
    lines = transcript()
    docs = (ROOT / "docs/engine-protocol.md").read_text()
    for line in lines:
        assert line in docs, f"docs/engine-protocol.md lacks the transcript line {line[:80]}"
    kinds = {"hello": "hello_reply", "legal_moves": "legal_moves_reply", "state": "state_reply"}
    pending = ""
    for line in lines:
        if line.startswith("> "):
            request = json.loads(line[2:])
            assert valid(request, "request"), line
            pending = request["type"]
        elif line.startswith("< "):
            reply = json.loads(line[2:])
            definition = kinds.get(pending, "ok") if reply["ok"] else "error"
            assert valid(reply, definition), line


def test_a_view_with_only_scores_is_valid_and_compared_on_scores_alone() -> None:
    state = az.new_game(2, first_player=0, external_draws=True).apply(az.Refill(DEAL))
    minimal = {"ok": True, "state": {"players": [{"score": 0}, {"score": 0}], "extra": 1}}
    assert valid(minimal, "state_reply")
    facts = read_view(minimal, 2)
    assert facts == {"$.players[0].score": 0, "$.players[1].score": 0}
    assert view_differences(Step(None, az.Refill(DEAL), state), facts) == []


@pytest.mark.parametrize(
    ("view", "path"),
    [
        ({"players": [{"score": 0}]}, "$.state.players"),
        ({"players": [{"score": True}, {"score": 0}]}, "$.state.players[0].score"),
        ({"players": [{"score": 0, "wall": [[None] * 5] * 4}, {"score": 0}]},
         "$.state.players[0].wall"),
        ({"players": [{"score": 0, "floor": ["mark"]}, {"score": 0}]}, "$.state.players[0].floor"),
        ({"players": [{"score": 0}, {"score": 0}], "phase": "over"}, "$.state.phase"),
        ({"players": [{"score": 0}, {"score": 0}], "center": ["blue", 3]}, "$.state.center[1]"),
        ({"players": [{"score": 0}, {"score": 0}], "bag": {"blue": -1}}, "$.state.bag"),
    ],
)  # fmt: skip
def test_a_misshapen_view_is_a_protocol_error_naming_the_field(
    view: dict[str, Any], path: str
) -> None:
    with pytest.raises(ProtocolError) as caught:
        read_view({"ok": True, "state": view}, 2)
    assert caught.value.message.startswith(path)


def test_hello_defaults_and_refusals() -> None:
    info = read_hello({"ok": True, "protocol": 1})
    assert (info.legal_moves, info.variants, info.name) == (False, (az.Variant.COLORED,), "engine")
    for reply in ({"ok": True}, {"ok": True, "protocol": 2},
                  {"ok": True, "protocol": 1, "variants": ["hexagonal"]}):  # fmt: skip
        with pytest.raises(ProtocolError):
            read_hello(reply)


# -- comparisons: which rule ----------------------------------------------------------------


def after_take() -> Step:
    state = az.new_game(2, first_player=0, external_draws=True).apply(az.Refill(DEAL))
    move = az.Take(1, Y, 1)
    return Step(state, move, state.apply(move))


def test_a_lot_put_in_the_wrong_place_names_P1_P5_and_F1() -> None:
    step = after_take()
    view = referee_view(step.after)
    view["players"][0]["pattern_lines"][1] = ["yellow"]
    view["players"][0]["floor"] = ["yellow", "yellow"]
    found = view_differences(step, comparable(view))
    assert [(d.what, d.rules[0]) for d in found] == [
        ("$.players[0].pattern_lines[1]", "P1"), ("$.players[0].floor", "P5"),
    ]  # fmt: skip
    assert found[0].referee == "[yellow, yellow]" and found[0].engine == "[yellow]"


def test_the_other_tiles_of_a_factory_name_T2_and_the_turn_G2() -> None:
    step = after_take()
    view = referee_view(step.after)
    view["center"] = []
    view["current_player"] = 0
    found = view_differences(step, comparable(view))
    assert [(d.what, d.rules[0]) for d in found] == [
        ("$.center", "T2"), ("$.current_player", "G2"),
    ]  # fmt: skip


def test_legal_move_sets_extra_moves_named_by_the_verdict_missing_by_the_rule() -> None:
    state = after_take().after
    legal = list(state.legal_moves())
    listed = [*legal[1:], az.Take(0, W, 0), az.Take(az.CENTER, K, 0, player=1)]
    found = move_set_differences(state, listed)
    assert {(d.rules[0], d.note.split(":")[0]) for d in found if d.note} == {
        ("T2", "COLOR_NOT_IN_SOURCE")
    }
    missing = [d for d in found if d.engine.startswith("leaves out")]
    assert len(missing) == 1 and missing[0].rules == ("P2", "P3")
    assert str(legal[0]) in missing[0].referee


def test_a_legal_table_take_counts_as_its_take() -> None:
    state = after_take().after
    listed = [m for m in state.legal_moves() if m != az.Take(0, B, 0)]
    as_table = az.TableTake(0, B, 2, {0: 1, az.FLOOR: 1})  # the excess to the floor: legal
    assert move_set_differences(state, [*listed, as_table]) == []
    split = az.TableTake(0, B, 2, {1: 1, az.FLOOR: 1})  # line 1 had room for both: P5
    found = move_set_differences(state, [*listed, az.Take(0, B, 0), split])
    assert [(d.rules, d.note.split(":")[0]) for d in found] == [(("P5",), "FLOOR_WHILE_ROOM")]


def test_the_refill_strategy_follows_R2() -> None:
    """Draws from the bag first; the lid only once the bag is empty."""

    @settings(max_examples=30)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        state = az.new_game(4, first_player=0, external_draws=True)
        for _ in range(3):
            refill = data.draw(refills(state))
            assert state.validate(refill).ok
            state = state.apply(refill)
            while state.phase is az.Phase.FACTORY_OFFER:
                state = state.apply(data.draw(st.sampled_from(state.legal_moves())))
            if state.phase is not az.Phase.REFILL:
                return
            drawn = sum(len(f) for f in data.draw(refills(state)).factories)
            assert drawn == min(36, len(state.bag) + len(state.lid))

    check()


def test_engine_process_refusals_and_replies() -> None:
    with EngineProcess([sys.executable, "-m", "azul_rules.engine"], timeout=30) as engine:
        assert engine.hello().legal_moves is True
        engine.new_game(2, az.Variant.COLORED, 0, DEAL)
        with pytest.raises(Refusal) as refused:
            engine.apply(az.Take(0, W, 0), player=0)
        assert refused.value.code == "illegal_move"
        assert "COLOR_NOT_IN_SOURCE" in refused.value.message
        assert engine.request("frob", {})["error"]["code"] == "unknown_type"
        assert len(engine.legal_moves()) == len(az.new_game(2, first_player=0, external_draws=True)
                                                .apply(az.Refill(DEAL)).legal_moves())  # fmt: skip
    assert not engine.running


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from(
        ["blue", "red", "marker", "floor", "center", "take", "colored", "x"]
    ),
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.sampled_from(["players", "score", "wall", "floor", "pattern_lines",
                                       "factories", "center", "bag", "lid", "phase", "winners",
                                       "marker_holder", "type", "source", "color", "line",
                                       "protocol", "variants", "moves", "state"]),
                      inner, max_size=6),
    max_leaves=25,
)  # fmt: skip


@settings(max_examples=150)
@given(JSON)
def test_no_reply_makes_the_referee_side_fail_other_than_by_protocol_error(value: object) -> None:
    """Fuzz the reply readers: a value of any shape is read, or a ProtocolError names
    what is wrong; nothing else is raised."""
    from azul_rules.testing.protocol import read_moves

    for reader in (
        lambda reply: read_view(reply, 2),
        read_moves,
        read_hello,
    ):
        for reply in ({"ok": True, "state": value}, {"ok": True, "moves": value},
                      value if isinstance(value, dict) else {"ok": True}):  # fmt: skip
            try:
                reader(reply)
            except ProtocolError as error:
                assert error.message.startswith(("$", "the engine speaks"))


def grey_cross_step() -> Step:
    """A grey placement ending runs across and down (found by playing seeded games)."""
    import random

    for seed in range(500):
        chooser = random.Random(seed)
        state = az.new_game(2, seed=seed, variant=az.Variant.GREY)
        for _ in range(400):
            if state.is_over:
                break
            move = chooser.choice(state.legal_moves())
            after = state.apply(move)
            record = after.last_scoring
            if isinstance(move, az.PlaceTile) and after.phase is az.Phase.WALL_TILING:
                assert record is not None
                placed = record.players[state.current_player].placements[-1]
                if placed.horizontal > 1 and placed.vertical > 1:
                    return Step(state, move, after)
            state = after
    raise AssertionError("no cross placement found")


def test_a_grey_placement_scored_one_short_names_CROSS_COUNTED_ONCE_W3() -> None:
    step = grey_cross_step()
    player = step.before.current_player if step.before else 0
    view = referee_view(step.after)
    view["players"][player]["score"] -= 1
    found = view_differences(step, comparable(view))
    assert len(found) == 1 and found[0].rules == ("W3",)
    assert found[0].note.startswith("CROSS_COUNTED_ONCE")
    view["players"][player]["score"] += 1
    view["players"][player]["wall"] = [[None] * 5] * 5
    assert view_differences(step, comparable(view))[0].rules[0] == "V1"


@pytest.mark.parametrize(
    ("timeout", "quoted"),
    [(-1, "-1"), (0.0, "0.0"), (float("nan"), "nan"), (float("inf"), "inf"), (False, "False"),
     ("5", "'5'"), (10**5000, "an integer of more than 4300 digits")],
    ids=["negative", "zero", "nan", "infinity", "bool", "string", "huge"],
)  # fmt: skip
def test_engine_process_refuses_a_timeout_that_is_not_positive(
    timeout: object, quoted: str
) -> None:
    """Checked before the engine starts: a negative timeout used to fail later inside
    a request and again in close() at exit."""
    with pytest.raises(ValueError) as raised:
        EngineProcess([sys.executable, "-m", "azul_rules.engine"], timeout=timeout)  # type: ignore[arg-type]
    assert str(raised.value) == f"timeout must be a positive number of seconds, not {quoted}"


def test_engine_process_takes_an_integer_timeout() -> None:
    with EngineProcess([sys.executable, "-m", "azul_rules.engine"], timeout=30) as engine:
        assert engine.timeout == 30.0 and engine.hello().protocol == 1
