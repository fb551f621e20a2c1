"""Every folder of examples/audits through the command line, against the verdicts that
examples/README.md lists (exit code and codes named), and the JSON Schemas against the
examples and the strict readers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.adjudication import claims, scoresheet
from azul_rules.adjudication.scoresheet import Scoresheet, scoresheet_from_dict
from tests.extras import needs

jsonschema = needs("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
AUDITS = ROOT / "examples" / "audits"
ROW = re.compile(r"^\| `([a-z0-9-]+)` \| .* \| (.*) \|$")


def listed() -> dict[str, tuple[int, list[str]]]:
    """folder -> (exit code, codes) from the tables of examples/README.md."""
    found: dict[str, tuple[int, list[str]]] = {}
    for line in (ROOT / "examples" / "README.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            verdict = match.group(2)
            status = int(re.findall(r"exit (\d)", verdict)[0])
            found[match.group(1)] = (status, re.findall(r"`([A-Z_]+)` \(([A-Z][0-9])\)", verdict))
    return found


def run(*args: str) -> tuple[int, dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "azul_rules", *args, "--json"],
                          capture_output=True, text=True, check=False, cwd=ROOT)  # fmt: skip
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(done.stdout)


def test_every_folder_is_listed_with_its_verdict() -> None:
    folders = {p.name for p in AUDITS.iterdir() if p.is_dir()}
    assert folders == set(listed())
    assert len(folders) >= 25


@pytest.mark.parametrize("folder", sorted(listed()))
def test_each_example_gives_its_listed_verdict(folder: str) -> None:
    """The exit code and the (code, rule) pairs named, as examples/README.md says."""
    status, expected = listed()[folder]
    path = AUDITS / folder
    if (path / "claim.json").exists():
        code, doc = run("audit", str(path / "position.json"), str(path / "claim.json"))
        named = [(v["code"], v["rule"]) for v in doc["violations"]]
    else:
        code, doc = run("audit-game", str(path / "record.json"), str(path / "scoresheet.json"))
        named = [(v["code"], v["rule"]) for r in doc["rounds"] for v in r["violations"]]
        named += [(v["code"], v["rule"]) for v in doc["end"]]
    assert code == status
    assert named == [tuple(pair) for pair in expected]


def validator(kind: str) -> Any:
    schema = claims.schema() if kind == "claim" else scoresheet.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_examples_follow_the_schemas() -> None:
    claim_schema, sheet_schema = validator("claim"), validator("scoresheet")
    for path in AUDITS.glob("*/claim.json"):
        assert not list(claim_schema.iter_errors(json.loads(path.read_text()))), path
    for path in AUDITS.glob("*/scoresheet.json"):
        assert not list(sheet_schema.iter_errors(json.loads(path.read_text()))), path


MALFORMED_CLAIMS: list[object] = [
    {}, {"scores": []}, {"scores": [1.5]}, {"scores": [True]}, {"scores": [[1]]},
    {"scores": [1], "extra": 0}, {"scores": [1], "lid": {"pink": 1}}, {"scores": [1], "lid": []},
    {"boards": [{"score": 1, "wall": [[None] * 5] * 4}]}, {"boards": [None]},
    {"scores": [1], "boards": [{"floor": ["marker"] * 8}]}, {"scores": [1], "winners": [4]},
    {"scores": [1], "boards": [{"pattern_lines": [["red", "red"], [], [], [], []]}]},
    {"scores": [1], "game_over": "yes"}, {"scores": [10**7]}, [], "claim",
]  # fmt: skip


@pytest.mark.parametrize("doc", MALFORMED_CLAIMS, ids=str)
def test_schema_and_reader_refuse_the_same_malformed_claims(doc: object) -> None:
    assert list(validator("claim").iter_errors(doc))
    with pytest.raises(az.FormatError):
        claims.claim_from_dict(doc)


colors = st.sampled_from(["blue", "yellow", "red", "black", "white", "pink", 3, None])
figures = st.one_of(st.integers(-5, 200), st.booleans(), st.none(), st.text(max_size=2))
json_values = st.recursive(st.one_of(figures, colors),
                           lambda inner: st.lists(inner, max_size=6), max_leaves=30)  # fmt: skip
boards = st.fixed_dictionaries({}, optional={
    "score": figures,
    "wall": st.lists(st.lists(colors, min_size=4, max_size=6), min_size=4, max_size=6),
    "pattern_lines": st.lists(st.lists(colors, max_size=6), min_size=4, max_size=6),
    "floor": st.lists(st.one_of(colors, st.just("marker")), max_size=8),
})  # fmt: skip
claim_docs = st.fixed_dictionaries({}, optional={
    "scores": st.lists(figures, max_size=5), "boards": st.lists(st.one_of(st.none(), boards),
                                                                max_size=5),
    "lid": st.dictionaries(st.sampled_from(["red", "blue", "pink"]), figures, max_size=3),
    "game_over": st.one_of(st.booleans(), figures), "winners": st.lists(figures, max_size=5),
    "bonuses": json_values,
})  # fmt: skip


def test_null_is_not_claimed_for_the_reader_and_the_schema_alike() -> None:
    """An optional field given as null is not claimed: the readers take it as left out,
    and the published schemas accept it (Hypothesis found ``"bonuses": null`` refused
    by the claim schema)."""
    claim = {"scores": [3, 0], "boards": None, "pattern_lines": None, "lid": None,
             "game_over": None, "bonuses": None, "winners": None}  # fmt: skip
    assert claims.claim_from_dict(claim) == az.Claim(scores=(3, 0))
    assert not list(validator("claim").iter_errors(claim))
    sheet = {"rounds": [[3, 0]], "bonuses": None, "final": None, "winners": None}
    assert scoresheet_from_dict(sheet) == Scoresheet(((3, 0),))
    assert not list(validator("scoresheet").iter_errors(sheet))
    assert list(validator("claim").iter_errors({"boards": None}))  # no score given at all
    with pytest.raises(az.FormatError):
        claims.claim_from_dict({"boards": None})


@given(claim_docs)
def test_whatever_the_reader_accepts_the_schema_accepts(doc: dict[str, object]) -> None:
    """The strict reader never accepts a claim the published schema refuses, and never
    fails other than with FormatError."""
    try:
        claims.claim_from_dict(doc)
    except az.FormatError:
        return
    assert not list(validator("claim").iter_errors(doc))
