"""The JSON Schemas of the documents (``azul_rules/formats/schemas/``) against the examples, the
library's readers and the OpenAPI description that refers to them.

The readers are the authority; the schemas must agree with them: every document the
library writes or reads is valid, every document a schema refuses the library refuses
too, and every document a schema accepts the library reads, except for what no schema
can say (a record of the last tiling that does not fit the boards; ``1.0`` where an
integer belongs, which JSON Schema counts as an integer).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import testing as azt
from azul_rules.formats import schemas
from tests.extras import needs
from tests.fuzz_inputs import seed_document

jsonschema = needs("jsonschema")

EXAMPLES = Path("examples")


def validator(name: str) -> Any:
    document = schemas.bundle(name)
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document)


VALIDATORS = {name: validator(name) for name in schemas.NAMES}


def kind_of(doc: object) -> str | None:
    """Which document an example file holds, by its members."""
    if not isinstance(doc, dict):
        return None
    if "moves" in doc:
        return "record"
    if "type" in doc:
        return "move"
    if "rounds" in doc:
        return "scoresheet"
    if "factories" in doc:
        return "position"
    if {"scores", "boards"} & set(doc):
        return "claim"
    return None


def test_every_example_file_follows_its_schema() -> None:
    """Positions, moves, records, claims and scoresheets of examples/, every one."""
    seen: dict[str, int] = dict.fromkeys(schemas.NAMES, 0)
    for path in sorted(EXAMPLES.rglob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        kind = kind_of(doc)
        assert kind is not None, f"{path}: which schema describes it?"
        errors = [e.message for e in VALIDATORS[kind].iter_errors(doc)]
        assert errors == [], f"{path} ({kind}): {errors}"
        seen[kind] += 1
    assert all(seen.values()), seen  # every schema met at least one example


def test_the_bundles_stand_alone_and_embed_the_shipped_files() -> None:
    record = schemas.bundle("record")
    assert record["$defs"]["position"] == schemas.schema("position")
    assert record["$defs"]["move"] == schemas.schema("move")
    with pytest.raises(ValueError, match="no schema 'game'"):
        schemas.schema("game")


def _valid(name: str, doc: object) -> bool:
    return bool(VALIDATORS[name].is_valid(doc))


@settings(deadline=None)
@given(azt.game_states())
def test_every_position_the_library_writes_is_valid_and_read_back(state: az.GameState) -> None:
    doc = az.to_dict(state)
    assert _valid("position", doc)
    assert az.from_dict(json.loads(json.dumps(doc)), az.GameState) == state


@settings(deadline=None)
@given(st.data(), azt.game_states(include_over=False))
def test_every_move_the_library_writes_is_valid_and_read_back(
    data: st.DataObject, state: az.GameState
) -> None:
    moves: list[az.Move] = []
    if state.legal_moves():
        moves.append(data.draw(azt.legal_moves(state)))
        moves.append(
            data.draw(azt.table_takes(state)) if state.phase is az.Phase.FACTORY_OFFER else moves[0]
        )
    moves.append(data.draw(azt.illegal_moves(state))[0])
    for move in moves:
        doc = az.to_dict(move)
        assert _valid("move", doc), doc
        assert az.move_from_dict(json.loads(json.dumps(doc))) == move


@settings(deadline=None, max_examples=15)
@given(azt.game_records(finished=False))
def test_every_record_the_library_writes_is_valid_and_read_back(record: az.GameRecord) -> None:
    doc = record.to_dict()
    assert _valid("record", doc)
    assert az.GameRecord.from_dict(json.loads(json.dumps(doc))) == record


READERS = {
    "position": lambda doc: az.from_dict(doc, az.GameState),
    "move": az.move_from_dict,
    "record": az.GameRecord.from_dict,
}
SEEDS = {"position": "state", "move": "move", "record": "record"}


def _integral_floats(doc: object) -> bool:
    """True when ``doc`` holds a number such as ``1.0``: JSON Schema calls it an integer,
    the library's readers refuse it."""
    stack = [doc]
    while stack:
        value = stack.pop()
        if isinstance(value, float) and value.is_integer():
            return True
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def _beyond_schemas(error: az.FormatError) -> bool:
    """A refusal no schema can express: a last tiling that does not fit the boards."""
    return all(".last_scoring" in path for path, _ in error.errors)


@settings(deadline=None, max_examples=120)
@given(st.sampled_from(sorted(READERS)), st.integers(0, 40), st.integers(0, 2**32))
def test_schema_and_reader_agree_on_mutated_documents(name: str, seed: int, salt: int) -> None:
    """Documents of the fuzz suite, changed at random: the schema accepts exactly what the
    reader reads (an impossible position is readable: it is refused later, with problems)."""
    from tests.fuzz_inputs import mutate

    rng = random.Random(salt)
    doc = mutate(seed_document(SEEDS[name], seed), rng, steps=rng.randint(1, 3))
    try:
        READERS[name](doc)
        readable, refusal = True, None
    except az.InvalidStateError:
        readable, refusal = True, None
    except az.FormatError as error:
        readable, refusal = False, error
    accepted = _valid(name, doc)
    if readable:
        assert accepted, [e.message for e in VALIDATORS[name].iter_errors(doc)]
    elif accepted:
        assert refusal is not None
        assert _integral_floats(doc) or _beyond_schemas(refusal), refusal.errors


STATE: dict[str, Any] = dict(seed_document("state", 1))  # type: ignore[call-overload]
MALFORMED: list[tuple[str, object]] = [
    ("position", {}),
    ("position", []),
    ("position", {**STATE, "extra": 1}),
    ("position", {**STATE, "format_version": True}),
    ("position", {**STATE, "round": 0}),
    ("position", {**STATE, "bag": {"blue": 21}}),
    ("position", {**STATE, "rng_state": 2**64}),
    ("position", {**STATE, "phase": "tiling"}),
    ("move", {"type": "take", "source": -1, "color": "blue", "line": 0}),
    ("move", {"type": "take", "source": 0, "color": "pink", "line": 0}),
    ("move", {"type": "take", "source": 0, "color": "blue", "line": "5"}),
    (
        "move",
        {
            "type": "table_take",
            "source": 0,
            "color": ["blue", "blue"],
            "count": 2,
            "placements": {"0": 2},
        },
    ),
    (
        "move",
        {"type": "table_take", "source": 0, "color": "blue", "count": 2, "placements": {"02": 2}},
    ),
    ("move", {"type": "place_tile", "line": 0}),
    ("move", {"type": "jump"}),
    ("move", "3B2"),
    ("record", {"format_version": 1, "moves": ["3B2", "3Z2"]}),
    ("record", {"format_version": True, "moves": []}),
    (
        "record",
        {"format_version": 1, "moves": [], "seed": 1, "initial_state": seed_document("state", 1)},
    ),
    ("record", {"format_version": 1, "moves": [], "players": 5}),
]


@pytest.mark.parametrize(("name", "doc"), MALFORMED, ids=lambda v: str(v)[:40])
def test_schema_and_reader_refuse_the_same_malformed_documents(name: str, doc: object) -> None:
    assert not _valid(name, doc)
    with pytest.raises(az.FormatError):
        READERS[name](doc)


# -- served ------------------------------------------------------------------------------------


def test_the_service_publishes_the_schemas_and_an_openapi_description() -> None:
    """Every $ref of /api/v1/openapi.json resolves (inside it, or to a schema the service
    serves), and every route of the service is described."""
    needs("starlette")
    needs("httpx2")
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from azul_rules.web import create_app

    app = create_app()
    client = TestClient(app)
    for name in schemas.NAMES:
        reply = client.get(f"/api/v1/schemas/{name}.json")
        assert reply.status_code == 200
        assert reply.json() == schemas.bundle(name)
    description = client.get("/api/v1/openapi.json").json()
    assert description["openapi"] == "3.1.0"
    refs: list[str] = []
    stack: list[object] = [description]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("$ref"), str):
                refs.append(value["$ref"])
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    assert refs
    for ref in set(refs):
        if ref.startswith("#/"):
            target: Any = description
            for part in ref[2:].split("/"):
                target = target[part]
        else:
            assert ref.startswith("schemas/"), ref
            assert client.get(f"/api/v1/{ref}").status_code == 200, ref
    api_routes = {
        r.path.replace("{name}.json", "{name}.json")
        for r in app.routes
        if isinstance(r, Route) and r.path.startswith("/api/")
    }
    assert api_routes == set(description["paths"])


def test_web_openapi_describes_lang_and_its_400_on_every_operation() -> None:
    """Every route refuses a wrong ``?lang=`` with a 400 (docs/web.md): the description
    says so of every operation, as a query parameter ``en`` or ``fr`` and a 400 answer in
    problem details; ``openapi``, ``health`` and ``schema`` used to say nothing of it."""
    needs("starlette")
    needs("httpx2")
    from starlette.testclient import TestClient

    from azul_rules.web import create_app

    description = TestClient(create_app()).get("/api/v1/openapi.json").json()
    operations = [
        (path, method, operation)
        for path, item in description["paths"].items()
        for method, operation in item.items()
    ]
    assert len(operations) == len(description["paths"])  # one method each
    for path, method, operation in operations:
        where = f"{method.upper()} {path}"
        langs = [p for p in operation["parameters"] if p["name"] == "lang"]
        assert len(langs) == 1, where
        assert langs[0]["in"] == "query" and langs[0]["schema"]["enum"] == ["en", "fr"], where
        assert "given twice" in langs[0]["schema"]["description"], where
        refusal = operation["responses"]["400"]
        assert "lang" in refusal["description"], where
        assert list(refusal["content"]) == ["application/problem+json"], where
