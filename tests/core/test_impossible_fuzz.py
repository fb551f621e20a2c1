"""Fuzz the holes the readers once had (seconds here; ``benchmarks/impossible_fuzz.py``
runs the same for minutes): impossible positions shaped like them are named with their
``StateProblem`` by every reader; states changed behind the constructors get an
exception, at once, never a hang; a catalogue with hostile placeholders is refused, or
words every phrase."""

from __future__ import annotations

import random
from contextlib import suppress
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.text.po import CatalogueError, read_catalogue
from tests.impossible_inputs import (
    FAMILIES,
    deadline,
    hostile_catalogue,
    impossible,
    tampered,
)


@pytest.mark.parametrize("family", list(FAMILIES))
@settings(max_examples=12)
@given(rnd=st.randoms(use_true_random=False))
def test_every_reader_names_an_impossible_position_of_each_family(
    family: str, rnd: random.Random
) -> None:
    """E1, R6, R7, E2, W3, T2, T3, R4, S6, R2, F2: ``problems()``, the JSON reader and
    the notation's reader refuse the position, naming its family's problem."""
    state, code = impossible(rnd, family)
    assert code in [p.code for p in state.problems()], az.to_json(state)
    with pytest.raises(az.InvalidStateError) as raised:
        az.from_json(az.to_json(state), az.GameState)
    assert code in [p.code for p in raised.value.problems]
    with pytest.raises(az.InvalidStateError) as raised:
        az.from_notation(az.to_notation(state))
    assert code in [p.code for p in raised.value.problems]


@settings(max_examples=20)
@given(rnd=st.randoms(use_true_random=False))
def test_g2_s4_a_state_changed_behind_the_constructors_gets_an_answer_at_once(
    rnd: random.Random,
) -> None:
    """G2, S4: a starting player off the table, a line of 2**31 tiles or of 5 spaces on
    the top row: every move gets an answer (a state, a verdict or an exception) within
    seconds, and no exception but a ``ValueError`` or a ``TypeError`` of the changed
    parts."""
    state, moves = tampered(rnd)
    with deadline(20):
        for move in moves[:8]:
            with suppress(ValueError, TypeError, IndexError, KeyError, AttributeError):
                state.apply(move)


@settings(max_examples=25)
@given(rnd=st.randoms(use_true_random=False))
def test_a_hostile_catalogue_is_refused_or_words_every_phrase_briefly(
    rnd: random.Random, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A width, a type code, a conversion, a nested field, an attribute or an index in
    a placeholder: the catalogue is refused with its file and line; one that is
    accepted words every phrase of its kind with the figures English gives them."""
    path = hostile_catalogue(rnd, tmp_path_factory.mktemp("po"))
    source = read_catalogue(str(Path(az.__file__).parent / "text" / "en.po"))
    try:
        catalogue = read_catalogue(str(path), source)
    except CatalogueError as error:
        assert error.path == str(path) and error.line >= 1
        return
    from azul_rules.core.shown import fill

    figures = {"count": 10**5000, "seconds": 1.5, "digits": 99, "player": "1"}
    for key, text in catalogue.texts.items():
        if not key.startswith(("problem.", "web.body_timeout")):
            continue
        names = {name for name in figures if "{" + name in text}
        if "{" in text.replace("{{", "") and names:
            words = fill(text, "en", **{n: figures[n] for n in names},
                         **_other_figures(text, names))  # fmt: skip
            assert len(words) < 5_000, key


def _other_figures(text: str, known: set[str]) -> dict[str, object]:
    """A plain figure for every other placeholder of ``text``."""
    from string import Formatter

    return {name: 3 for _, name, _, _ in Formatter().parse(text)
            if name and name not in known}  # fmt: skip
