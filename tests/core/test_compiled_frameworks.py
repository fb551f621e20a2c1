"""The compiled functions of the AI adapters against their Python references.

``azul_rules.ai.actions.legal_actions``, ``azul_rules.ai.actions.observe_into`` and
``azul_rules.ai.deals.deal_outcomes`` have compiled versions
(``azul_rules/core/_engine/frameworks.c`` over the engine; see ``azul_rules.core._accelerate``).
Each call here is made through the compiled version
and through the Python reference (``REFERENCES``) and the results compared: the same
value, the same bytes written, or the same exception, on reachable, mutated and tampered
positions, odd buffers and odd counts.  With the pure-Python core the compiled functions are the
references themselves, which the last test checks.
"""

from __future__ import annotations

import contextlib
import random
from array import array
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import testing
from azul_rules.ai import actions, deals
from tests.core.test_compiled_core import printed_with_switch, python_core, tampered_states
from tests.core.test_possible_successors import mutated_position
from tests.extras import needs

np = needs("numpy")

compiled = pytest.mark.skipif(
    not az.accelerated, reason="the compiled core is not in use (AZUL_RULES_PURE_PYTHON=1)"
)
PY_LEGAL_ACTIONS: Callable[..., Any] = actions.REFERENCES["legal_actions"]
PY_OBSERVE_INTO: Callable[..., Any] = actions.REFERENCES["observe_into"]
PY_DEAL_OUTCOMES: Callable[..., Any] = deals.REFERENCES["deal_outcomes"]
# The functions in use (the compiled functions, or the references with the Python core), called
# here with arguments of any type.
LEGAL_ACTIONS: Callable[..., Any] = actions.legal_actions
OBSERVE_INTO: Callable[..., Any] = actions.observe_into
DEAL_OUTCOMES: Callable[..., Any] = deals.deal_outcomes


@contextlib.contextmanager
def python_references() -> Iterator[None]:
    """The adapters' Python references in place of their compiled versions, and the Python
    core, for the time of a call (``observe_into``'s reference reads ``legal_actions``)."""
    saved = actions.legal_actions
    try:
        actions.legal_actions = PY_LEGAL_ACTIONS
        with python_core():
            yield
    finally:
        actions.legal_actions = saved


def outcome(call: Callable[[], object]) -> tuple[str, object]:
    """What a call gives: its value, or its exception's type and text."""
    try:
        return "value", call()
    except Exception as error:
        return "raised", (type(error), str(error))


def observed(state: object, player: object, vector: object, mask: object, *, compiled: bool) -> Any:
    """``observe_into`` through the compiled version or the reference, on fresh copies of the
    buffers (``vector`` and ``mask`` may be functions making them): what it gave, and
    the bytes of the buffers after it."""
    copies = [_fresh(vector), _fresh(mask)]
    if compiled:
        result = outcome(lambda: OBSERVE_INTO(state, player, copies[0], copies[1]))
    else:
        with python_references():
            result = outcome(lambda: PY_OBSERVE_INTO(state, player, copies[0], copies[1]))
    return result, [_contents(c) for c in copies]


def _fresh(buffer: object) -> object:
    if callable(buffer):
        return buffer()
    if isinstance(buffer, np.ndarray):
        return buffer.copy()
    return buffer


def _contents(buffer: object) -> object:
    if isinstance(buffer, np.ndarray):
        return buffer.tobytes()
    if isinstance(buffer, (bytearray, array)):
        return bytes(buffer)
    return buffer


def buffers(state: az.GameState) -> tuple[Any, Any]:
    """A float32 vector and an int8 mask of the sizes ``state`` needs, filled with junk
    (both functions write every entry)."""
    players = len(state.players)
    vector = np.full(actions.observation_size(players), -7.0, np.float32)
    mask = np.full(actions.num_actions(players, state.variant), 9, np.int8)
    return vector, mask


def assert_same_observation(
    state: az.GameState, player: object, like: az.GameState | None = None
) -> None:
    """The same answer and bytes from both, with the buffers ``like`` needs (the state
    itself when it is not a tampered copy)."""
    vector, mask = buffers(like or state)
    for given_mask in (mask, None):
        found = observed(state, player, vector, given_mask, compiled=True)
        assert found == observed(state, player, vector, given_mask, compiled=False)


def assert_same_legal_actions(state: object) -> None:
    found = outcome(lambda: LEGAL_ACTIONS(state))
    with python_references():
        assert found == outcome(lambda: PY_LEGAL_ACTIONS(state))


def check_position(state: az.GameState) -> None:
    assert_same_legal_actions(state)
    for player in range(len(state.players)):
        assert_same_observation(state, player)


@compiled
@settings(max_examples=80)
@given(state=testing.game_states())
def test_both_cores_agree_on_reachable_positions(state: az.GameState) -> None:
    """The same legal action ids (sorted), observation vector and mask, bit for bit,
    from every seat, on both walls and every player count."""
    check_position(state)
    vector, mask = buffers(state)
    actions.observe_into(state, state.current_player, vector, mask)
    assert vector.tolist() == actions.observation(state, state.current_player)
    assert mask.tolist() == actions.legal_action_mask(state)


@compiled
@settings(max_examples=60)
@given(rnd=st.randoms(), variant=st.sampled_from(az.Variant), tiling=st.booleans())
def test_both_cores_agree_on_mutated_positions(
    rnd: random.Random, variant: az.Variant, tiling: bool
) -> None:
    """The same on positions built by mutation, possible or not."""
    grey_tiling = tiling and variant is az.Variant.GREY
    phase = az.Phase.WALL_TILING if grey_tiling else az.Phase.FACTORY_OFFER
    check_position(mutated_position(rnd, variant, phase))


@compiled
def test_both_cores_agree_through_whole_games() -> None:
    """Every position of seeded random games, refills (external draws) and ends
    included, 2-4 players, both walls."""
    for seed in range(12):
        rnd = random.Random(seed)
        for variant in az.Variant:
            players = 2 + seed % 3
            state = az.new_game(players, seed=seed, variant=variant)
            while not state.is_over and state.round <= 12:
                check_position(state)
                state = state.apply(rnd.choice(state.legal_moves()))
            check_position(state)
            table = az.new_game(players, first_player=1, external_draws=True, variant=variant)
            check_position(table)  # waiting for the table's Refill: no legal action


@compiled
@pytest.mark.parametrize("seed", range(4))
def test_a_tampered_state_gets_the_same_answer_from_both(seed: int) -> None:
    """Slots replaced behind the constructors' back (a score past 2**24 or 2**64, a
    floor of nine tiles, the marker in the centre, a current player out of range...):
    the compiled version hands the call to the reference, which answers or raises; never a crash."""
    rnd = random.Random(seed)
    for state, copy in tampered_states(rnd, seed, past_the_engine=True):
        assert_same_legal_actions(copy)
        for seat in range(len(state.players)):
            assert_same_observation(copy, seat, like=state)


@compiled
def test_odd_arguments_get_the_same_answer_from_both() -> None:
    """Buffers of another type, size, format or layout, read-only ones, numpy integers
    and bools as players, a non-state: the same value or exception, the same bytes."""
    state = az.new_game(3, seed=4)
    size = actions.observation_size(3)
    count = actions.num_actions(3)
    def read_only() -> Any:
        vector = np.zeros(size, np.float32)
        vector.flags.writeable = False
        return vector

    vectors: list[object] = [
        lambda: np.zeros(size, np.float32), lambda: np.zeros(size, np.float64),
        lambda: np.zeros(size, np.int32), lambda: np.zeros(size + 1, np.float32),
        lambda: np.zeros((size, 2), np.float32)[:, 0], lambda: np.zeros((1, size), np.float32),
        lambda: np.zeros(size, np.dtype(">f4")), lambda: array("f", [0.0] * size),
        lambda: bytearray(4 * size), bytes(4 * size), [0.0] * size, None, read_only,
    ]  # fmt: skip
    masks: list[object] = [
        None, lambda: np.zeros(count, np.int8), lambda: np.zeros(count, np.uint8),
        lambda: np.zeros(count, np.bool_), lambda: np.zeros(count + 25, np.int8),
        lambda: bytearray(count), bytes(count), [0] * count, lambda: np.zeros(count, np.int16),
    ]  # fmt: skip
    players: list[object] = [0, 2, 3, -1, np.int64(1), True, 1.0, "0", None, 2**70]
    for vector in vectors:
        for mask in masks:
            found = observed(state, 1, vector, mask, compiled=True)
            assert found == observed(state, 1, vector, mask, compiled=False)
    for player in players:
        assert_same_observation(state, player)
    for odd in (None, "state", state.players[0], 3):
        assert_same_legal_actions(odd)
        found = observed(odd, 0, vectors[0], masks[1], compiled=True)
        assert found == observed(odd, 0, vectors[0], masks[1], compiled=False)
    assert outcome(lambda: OBSERVE_INTO(state, 0)) == outcome(
        lambda: PY_OBSERVE_INTO(state, 0)
    )
    keyword = np.zeros(size, np.float32)
    actions.observe_into(state, 0, vector=keyword, mask=None)
    assert keyword.tolist() == actions.observation(state, 0)


def test_observe_into_writes_nothing_when_it_refuses() -> None:
    """A mask of the wrong length is refused before the vector is written."""
    state = az.new_game(2, seed=1)
    vector = np.full(actions.observation_size(2), 5.0, np.float32)
    with pytest.raises(ValueError, match="the mask holds 180 bytes"):
        actions.observe_into(state, 0, vector, np.zeros(7, np.int8))
    assert (vector == 5.0).all()
    with pytest.raises(az.FormatError, match="of format 'd'"):
        actions.observe_into(state, 0, np.zeros(364, np.float64))
    with pytest.raises(az.FormatError, match="into a buffer such as a numpy array, not list"):
        actions.observe_into(state, 0, [0.0] * 364)


counts = st.tuples(*[st.integers(0, 25)] * 5)
small_counts = st.tuples(*[st.integers(0, 3)] * 5)


@compiled
@settings(max_examples=500)
@given(bag=st.one_of(counts, small_counts), lid=st.one_of(counts, small_counts))
def test_r2_the_compiled_deals_are_the_python_deals(
    bag: tuple[int, ...], lid: tuple[int, ...]
) -> None:
    """R2: the same deals with the same probabilities, bit for bit, a bag running out
    into the lid and both running out included."""
    assert deals.deal_outcomes(bag, lid) == PY_DEAL_OUTCOMES(bag, lid)


@compiled
def test_odd_counts_get_the_same_answer_from_both() -> None:
    """Counts past 1,000, negative, of another length or type: handed to the reference,
    which answers or refuses them in its words."""
    odd: list[object] = [
        (1000, 0, 0, 0, 0), (1001, 0, 0, 0, 0), (-1, 4, 0, 0, 0), (1, 2, 3), [4, 0, 0, 0, 0],
        (np.int64(4), 0, 0, 0, 0), (True, 4, 0, 0, 0), (4.0, 0, 0, 0, 0), "abcde", None,
        (2**70, 0, 0, 0, 0), (999, 998, 997, 996, 995),
    ]  # fmt: skip
    for bag in odd:
        for lid in ((0, 0, 0, 0, 0), (3, 0, 0, 0, 1), *odd[:3]):
            found = outcome(lambda bag=bag, lid=lid: DEAL_OUTCOMES(bag, lid))  # type: ignore[misc]
            assert found == outcome(lambda bag=bag, lid=lid: PY_DEAL_OUTCOMES(bag, lid))  # type: ignore[misc]
    assert outcome(lambda: DEAL_OUTCOMES((4, 0, 0, 0, 0))) == outcome(
        lambda: PY_DEAL_OUTCOMES((4, 0, 0, 0, 0))
    )


def test_the_switch_gives_the_references_to_the_python_core() -> None:
    """``AZUL_RULES_PURE_PYTHON=1``: the adapters' functions are the Python references."""
    code = (
        "from azul_rules.ai import actions\nfrom azul_rules.ai import deals\n"
        "print(actions.legal_actions is actions.REFERENCES['legal_actions'],"
        " actions.observe_into is actions.REFERENCES['observe_into'],"
        " deals.deal_outcomes is deals.REFERENCES['deal_outcomes'])"
    )
    assert printed_with_switch(code) == ["True", "True", "True"]
    if az.accelerated:
        assert actions.legal_actions.__wrapped__ is PY_LEGAL_ACTIONS  # type: ignore[attr-defined]
        assert actions.observe_into.__wrapped__ is PY_OBSERVE_INTO  # type: ignore[attr-defined]
        assert deals.deal_outcomes.__wrapped__ is PY_DEAL_OUTCOMES  # type: ignore[attr-defined]
