"""Entry points that raised other than their documentation says, found by following the
docs literally: ``expected_boards`` and ``claim_to_dict`` given something else than a
position or a claim (an ``AttributeError``), and ``azul_rules.testing``'s strategies
given a ``stage`` they do not know (silently taken) or a bare player count (a
``TypeError`` at the first draw, not at the call)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import azul_rules as az
from azul_rules import testing as azt
from azul_rules.adjudication.auditing import expected_boards
from azul_rules.adjudication.claims import Claim, claim_to_dict


@pytest.mark.parametrize("state", [5, None, {}, "position"])
def test_expected_boards_of_something_else_than_a_position_is_a_format_error(
    state: object,
) -> None:
    """W1: the boards after the tiling are asked of a GameState, as ``audit`` does."""
    with pytest.raises(az.FormatError, match=r"\$: expected a GameState, got "):
        expected_boards(state)  # type: ignore[arg-type]


@pytest.mark.parametrize("claim", [5, None, {"scores": [1, 2]}])
def test_claim_to_dict_of_something_else_than_a_claim_is_a_format_error(claim: object) -> None:
    with pytest.raises(az.FormatError, match=r"\$: expected a Claim, got "):
        claim_to_dict(claim)  # type: ignore[arg-type]
    assert claim_to_dict(Claim(scores=(1, 2))) == {"scores": [1, 2]}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"stage": "near-end"}, "stage is one of 'any', 'near_end', 'starved', not 'near-end'"),
        ({"stage": None}, "stage is one of"),
        ({"players": 4}, "players is a list such as (2, 3), not 4"),
        ({"players": [5]}, "players lists 2, 3 or 4 players (S1)"),
        ({"players": []}, "players lists 2, 3 or 4 players (S1), at least one"),
        ({"variants": "grey"}, "variants is a list such as ('colored',), not 'grey'"),
        ({"variants": ["blue"]}, "variants lists 'colored' or 'grey'"),
        ({"include_over": 1}, "include_over is True or False, not 1"),
    ],
)
def test_game_states_refuses_bad_arguments_at_the_call(
    arguments: dict[str, object], message: str
) -> None:
    """S1 and the stages of the docs: a typo (``near-end``) gave random positions of
    any stage, silently; a bare count failed inside Hypothesis at the first draw."""
    with pytest.raises(ValueError) as caught:
        azt.game_states(**arguments)  # type: ignore[arg-type]
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"players": 2}, "players is a list such as (2, 3), not 2"),
        ({"variants": [az.Variant.GREY, "purple"]}, "variants lists 'colored' or 'grey'"),
        ({"finished": "yes"}, "finished is True or False, not 'yes'"),
    ],
)
def test_game_records_refuses_bad_arguments_at_the_call(
    arguments: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        azt.game_records(**arguments)  # type: ignore[arg-type]
    assert message in str(caught.value)


@settings(max_examples=3)
@given(
    state=azt.game_states(players=[4], variants=["grey"], stage="near_end"),
    record=azt.game_records(players=(3,), variants=(az.Variant.COLORED,)),
)
def test_the_strategies_still_draw_what_they_are_asked_for(
    state: az.GameState, record: az.GameRecord
) -> None:
    """Variant names are taken as ``Variant`` values, as the other AI entry points do."""
    assert len(state.players) == 4 and state.variant is az.Variant.GREY
    assert state.problems() == ()
    assert record.players == 3 and record.replay().ok
