"""The PettingZoo AEC environment (azul_rules.ai.pettingzoo), with PettingZoo's own tests."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import pickle
import warnings
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tests.extras import needs

pettingzoo_test = needs("pettingzoo.test")
np = needs("numpy")

import azul_rules as az  # noqa: E402
from azul_rules.ai import actions  # noqa: E402
from azul_rules.ai.pettingzoo import env, raw_env  # noqa: E402

COMBINATIONS = [(p, v) for p in (2, 3, 4) for v in ("colored", "grey")]

# api_test warns about every dict observation space (PettingZoo lists its own classic
# games as exceptions); any other warning is a finding.
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def random_episode(game: Any, seed: int) -> int:
    """Masked random actions to the end; the number of steps."""
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _agent in game.agent_iter():
        observation, _, termination, truncation, _ = game.last()
        action = None
        if not (termination or truncation):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        game.step(action)
        steps += 1
    return steps


@pytest.mark.parametrize(("players", "variant"), COMBINATIONS)
def test_api_test_and_seed_test(players: int, variant: str) -> None:
    """PettingZoo's conformance tests, with no warning but the two about dict
    observations."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env(players=players, variant=variant), num_cycles=400)
        pettingzoo_test.seed_test(lambda: env(players=players, variant=variant), num_cycles=400)
    assert {str(w.message) for w in caught} <= EXPECTED_WARNINGS


def test_api_test_on_the_raw_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_test.api_test(raw_env(players=3, variant="grey"), num_cycles=400)


def test_spaces() -> None:
    game = env(players=3, variant="grey")
    game.reset(seed=1)
    assert game.possible_agents == ["player_0", "player_1", "player_2"]
    assert game.action_space("player_1").n == 265
    space = game.observation_space("player_0")
    assert space["observation"].shape == (actions.observation_size(3),)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (265,)
    assert space["action_mask"].dtype == np.int8
    assert game.unwrapped.metadata["name"] == "azul_v0"


def test_seeded_reset_plays_the_referees_seeded_game() -> None:
    """reset(seed=s) is azul_rules.new_game(players, seed=s, variant=...)."""
    game = env(players=4, variant="grey")
    game.reset(seed=12)
    expected = az.new_game(4, seed=12, variant=az.Variant.GREY)
    assert game.unwrapped.game == expected
    agent = game.agent_selection
    assert agent == f"player_{expected.current_player}"
    observation = game.observe(agent)
    assert observation["observation"].tolist() == actions.observation(
        expected, expected.current_player
    )
    assert observation["action_mask"].tolist() == actions.legal_action_mask(expected)
    for other in game.agents:
        if other != agent:
            assert not game.observe(other)["action_mask"].any()  # off turn: all zeros


def test_unseeded_resets_follow_the_last_seed() -> None:
    first, second = env(), env()
    first.reset(seed=3)
    second.reset(seed=3)
    first.reset()
    second.reset()
    assert first.unwrapped.game == second.unwrapped.game
    assert first.unwrapped.game != az.new_game(2, seed=3)


def test_illegal_action_ends_the_game_with_the_verdict() -> None:
    """The wrapped env: -1 for the player, 0 for the others, the verdict in infos."""
    game = env(players=3)
    game.reset(seed=5)
    agent = game.agent_selection
    state = game.unwrapped.game
    color = next(c for c in az.Color if c not in state.factories[0])
    illegal = actions.action_id(az.Take(0, color, az.FLOOR), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's own notice of an illegal move
        game.step(illegal)
    verdict = game.infos[agent]["illegal_move"]
    assert verdict["code"] == "COLOR_NOT_IN_SOURCE"
    assert verdict["rule"] == "T2"
    assert verdict["message"] == f"factory 1 holds no {color.name.lower()} tile"
    assert verdict["move"] == str(az.Take(0, color, az.FLOOR))
    assert verdict["action"] == illegal
    assert game.rewards[agent] == -1.0
    assert all(game.terminations.values())
    assert sum(game.rewards.values()) == -1.0
    for _ in list(game.agents):
        assert game.agent_selection in game.agents
        game.step(None)
    assert game.agents == []


def test_illegal_action_on_the_raw_env() -> None:
    """Without the wrappers: the same verdict; a placement id on the coloured wall is
    out of range (ValueError)."""
    game = raw_env(players=2)
    game.reset(seed=5)
    agent = game.agent_selection
    wrong_phase = actions.action_id(az.Take(az.CENTER, az.Color.RED, 0), 2)
    game.step(wrong_phase)
    assert game.infos[agent]["illegal_move"]["code"] == "EMPTY_SOURCE"
    assert game.infos[agent]["illegal_move"]["rule"] in ("T2", "T3")
    assert game.rewards[agent] == -1.0
    assert game.terminations == {"player_0": True, "player_1": True}
    fresh = raw_env(players=2)
    fresh.reset(seed=5)
    with pytest.raises(ValueError, match="out of range"):
        fresh.step(180)


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (10**5000, "action id an integer of more than 4300 digits is out of range"),
        ([10**5000], "not a list holding an integer of more than 4300 digits"),
        ("x" * 5000, "an action is an integer id, not 'xxx"),
    ],
    ids=["5000 digits", "a list", "a long string"],
)
def test_a_hostile_action_on_the_raw_env_is_a_value_error_in_words(
    action: object, words: str
) -> None:
    """An action Python refuses to write (5,000 digits) is quoted in words: the message
    itself once raised Python's ValueError about the limit of digits."""
    game = raw_env(players=2)
    game.reset(seed=5)
    with pytest.raises(ValueError, match=words):
        game.step(action)


def test_out_of_bounds_actions_fail_the_assertion() -> None:
    game = env()
    game.reset(seed=1)
    with pytest.raises(AssertionError, match="action is not in action space"):
        game.step(10_000)


def test_rewards_at_the_end_e4() -> None:
    for players, variant in COMBINATIONS:
        game = raw_env(players=players, variant=variant)
        random_episode(game, seed=players)
        outcome = game.game.outcome
        if outcome is None:  # stopped at the round cap
            continue
        assert (
            game.rewards
            == {f"player_{i}": r for i, r in enumerate(actions.utilities(outcome.winners, players))}
            or game.agents == []
        )


def test_cumulative_rewards_through_last() -> None:
    game = env(players=2)
    game.reset(seed=8)
    totals = {}
    rng = np.random.default_rng(0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        if termination or truncation:
            totals[agent] = reward
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    winners = game.unwrapped.game.outcome.winners
    assert totals == {f"player_{i}": r for i, r in enumerate(actions.utilities(winners, 2))}


def test_round_cap_truncates() -> None:
    game = raw_env(players=2, max_rounds=1)
    steps = random_episode(game, seed=2)
    assert steps > 0
    assert game.game.round == 2
    assert not game.game.is_over


def test_truncation_flags() -> None:
    game = raw_env(players=2, max_rounds=1)
    game.reset(seed=2)
    rng = np.random.default_rng(1)
    while not any(game.truncations.values()):
        observation = game.observe(game.agent_selection)
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert game.truncations == {"player_0": True, "player_1": True}
    assert game.terminations == {"player_0": False, "player_1": False}
    assert game.rewards == {"player_0": 0.0, "player_1": 0.0}
    observation = game.observe("player_0")
    assert observation["observation"][-8 - 1] == 2.0  # round 2, within the space
    assert game.observation_space("player_0").contains(observation)


def test_render_ansi() -> None:
    game = env(players=2, render_mode="ansi")
    game.reset(seed=4)
    text = game.render()
    assert text.startswith("round 1, factory offer")
    assert "player 0: score 0" in text  # numbered as the agents are
    assert raw_env().render() is None


@pytest.mark.skipif(
    importlib.util.find_spec("azul_rules.svg") is None,
    reason="azul_rules.svg (pictures) is not part of this installation",
)
def test_render_svg() -> None:
    game = env(players=2, render_mode="svg")
    game.reset(seed=4)
    picture = game.render()
    assert picture.lstrip().startswith(("<svg", "<?xml"))
    assert "tile" in picture


def test_pettingzoo_render_modes_in_the_metadata() -> None:
    """The contract's four modes, and a positive ``render_fps`` (Gymnasium's check)."""
    metadata = raw_env.metadata
    assert metadata["render_modes"] == ["human", "ansi", "svg", "rgb_array"]
    assert isinstance(metadata["render_fps"], int) and metadata["render_fps"] > 0


@pytest.mark.parametrize(("players", "variant"), [(2, "colored"), (4, "grey")])
def test_pettingzoo_render_test_passes(players: int, variant: str) -> None:
    """PettingZoo's own ``render_test`` asks for ``render_mode="human"`` first, then
    every mode of the metadata; the environment used to refuse ``"human"``."""
    render_test = needs("pettingzoo.test.render_test").render_test

    def make(render_mode: str | None = None) -> Any:
        return env(players=players, variant=variant, render_mode=render_mode)

    def svg_document(picture: object) -> bool:
        return isinstance(picture, str) and picture.startswith("<svg")

    render_test(make, custom_tests={"svg": svg_document})


@pytest.mark.parametrize("mode", ["human", "ansi", "svg", "rgb_array"])
def test_pettingzoo_render_passes_gymnasium_s_render_check(mode: str) -> None:
    """Gymnasium's passive check of ``render`` (the metadata, and what each mode
    returns: ``None`` for human, a string for ansi, an H×W×3 uint8 array) warns of
    nothing."""
    checker = needs("gymnasium.utils.passive_env_checker")
    game = env(players=3, render_mode=mode)
    game.reset(seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        checker.env_render_passive_checker(game)


def test_pettingzoo_render_human_prints_the_text_board(capsys: pytest.CaptureFixture[str]) -> None:
    """``"human"``: the text board (the ``"ansi"`` text) printed at each reset, step and
    ``render()``, which returns ``None``, as PettingZoo's classic games do."""
    game = env(players=2, render_mode="human")
    game.reset(seed=4)
    assert capsys.readouterr().out == actions.table_string(game.unwrapped.game) + "\n"
    assert game.render() is None
    assert capsys.readouterr().out == actions.table_string(game.unwrapped.game) + "\n"
    observation, *_ = game.last()
    game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    printed = capsys.readouterr().out
    assert printed == actions.table_string(game.unwrapped.game) + "\n"
    assert "player 1" in printed and "player 2" not in printed


# The picture's paper and the faces of the tiles (azul_rules/svg/_parts.py).
PAPER = (0xFF, 0xFD, 0xF8)
FACES = {
    az.Color.BLUE: (0x2A, 0x6F, 0xDB),
    az.Color.YELLOW: (0xF5, 0xC5, 0x18),
    az.Color.RED: (0xD9, 0x30, 0x25),
    az.Color.BLACK: (0x2B, 0x2B, 0x2B),
    az.Color.WHITE: (0xF4, 0xF1, 0xEA),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_render_rgb_array_is_the_svg_picture(players: int) -> None:
    """``"rgb_array"``: the SVG picture rasterised, H×W×3 uint8 at the picture's own size
    (at least 200×200): its paper in the corner, and a tile face of each colour (on the
    factories and in the legend) filled with that colour exactly."""
    from azul_rules import svg

    game = env(players=players, render_mode="rgb_array")
    game.reset(seed=6)
    image = game.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    picture = str(svg.board(game.unwrapped.game))
    width = float(picture.split('width="')[1].split('"')[0])
    height = float(picture.split('height="')[1].split('"')[0])  # 807.43 for 3 players
    rows, columns, channels = image.shape
    assert (abs(rows - height) < 1, abs(columns - width) < 1, channels) == (True, True, 3)
    assert min(rows, columns) >= 200
    assert tuple(image[1, 1]) == tuple(image[-2, -2]) == PAPER
    drawn = {tuple(int(v) for v in pixel) for pixel in image.reshape(-1, 3)}
    for color, face in FACES.items():
        assert face in drawn, color


def check_render(game: Any, mode: str) -> None:
    """One ``render()`` in ``mode``, checked: ``human`` prints the ``ansi`` text and
    returns ``None``; ``svg`` is an SVG document; ``rgb_array`` an H×W×3 uint8 array of
    at least 200×200, its paper in the corner.  (``benchmarks/framework_fuzz.py`` calls it on
    thousands of positions.)"""
    text = actions.table_string(game.unwrapped.game)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        result = game.render()
    if mode == "human":
        assert result is None and printed.getvalue() == text + "\n"
        return
    assert printed.getvalue() == ""
    if mode == "ansi":
        assert result == text
    elif mode == "svg":
        assert ET.fromstring(result).tag == "{http://www.w3.org/2000/svg}svg"
    else:
        assert isinstance(result, np.ndarray) and result.dtype == np.uint8
        rows, columns, channels = result.shape
        assert channels == 3 and min(rows, columns) >= 200
        assert tuple(result[1, 1]) == PAPER


@pytest.mark.parametrize("mode", ["human", "ansi", "svg", "rgb_array"])
def test_pettingzoo_render_random_positions(mode: str) -> None:
    """The positions of two random games (both walls, 2 and 4 players, to the end) and
    the position after the end, rendered in ``mode``: every one as text, every 10th as
    SVG, every 60th as pixels (a picture takes milliseconds, pixels a tenth of a
    second)."""
    rng = np.random.default_rng(len(mode))
    every = {"svg": 10, "rgb_array": 60}.get(mode, 1)
    for players, variant in ((2, "grey"), (4, "colored")):
        game = env(players=players, variant=variant, render_mode=mode)
        with contextlib.redirect_stdout(io.StringIO()):
            game.reset(seed=len(mode) + players)
        for step, _agent in enumerate(game.agent_iter()):
            observation, _, terminated, truncated, _ = game.last()
            if step % every == 0:
                check_render(game, mode)
            legal = np.flatnonzero(observation["action_mask"])
            action = None if terminated or truncated else int(rng.choice(legal))
            with contextlib.redirect_stdout(io.StringIO()):
                game.step(action)
        assert not game.agents
        check_render(game, mode)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        raw_env(players=5)
    with pytest.raises(ValueError, match="variant"):
        raw_env(variant="blue")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb")
    with pytest.raises(ValueError, match="max_rounds"):
        raw_env(max_rounds=0)


def test_pickle() -> None:
    game = raw_env(players=4, variant="grey", render_mode="ansi", max_rounds=7)
    copy = pickle.loads(pickle.dumps(game))
    assert (copy.max_rounds, copy.render_mode, copy.possible_agents) == (
        7, "ansi", game.possible_agents,
    )  # fmt: skip
    copy.reset(seed=1)
    assert random_episode(copy, seed=1) > 0


def test_examples_play_an_episode() -> None:
    """examples/pettingzoo_random.py runs and prints the result."""
    import runpy
    from contextlib import redirect_stdout
    from io import StringIO
    from pathlib import Path

    out = StringIO()
    script = Path(__file__).resolve().parents[2] / "examples" / "pettingzoo_random.py"
    example = runpy.run_path(str(script))
    with redirect_stdout(out):
        example["main"](players=4, variant="grey", seed=3)
    text = out.getvalue()
    assert "final scores: player_0" in text
    assert "rewards: player_0" in text


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"illegal_reward": "x"}, az.FormatError, "illegal_reward must be a number, not 'x'"),
        ({"illegal_reward": True}, az.FormatError, "illegal_reward must be a number, not True"),
        ({"illegal_reward": float("nan")}, ValueError, "illegal_reward must be a finite number"),
        ({"illegal_reward": 10**400}, ValueError, "a finite number, not an integer of 401 digits"),
        ({"illegal_reward": 10**5000}, ValueError, "illegal_reward must be a finite number, not "
         "an integer of more than 4300 digits"),
        ({"variant": 10**5000}, ValueError, "variant must be 'colored' or 'grey', not an integer "
         "of more than 4300 digits"),
        ({"render_mode": 10**5000}, ValueError, "not an integer of more than 4300 digits"),
        ({"max_rounds": True}, az.FormatError, "max_rounds must be an int, not True"),
        ({"max_rounds": 0}, ValueError, "max_rounds must be 1 or more, not 0"),
    ],
    ids=["reward-str", "reward-bool", "reward-nan", "reward-400-digits", "reward-5000-digits",
         "variant-5000-digits", "render-mode-5000-digits", "rounds-bool", "rounds-zero"],
)
def test_raw_env_names_a_bad_argument(kwargs: dict[str, Any], error: type[Exception],
                                      words: str) -> None:  # fmt: skip
    """The environment refuses its options in words that name them (a string reward once
    failed in float() without saying which argument; an integer of 5,000 digits raised
    Python's own ValueError, one past a float's range an OverflowError)."""
    with pytest.raises(error, match=words):
        raw_env(players=2, **kwargs)


# -- a hostile user's pass ------------------------------------------------------------------


def test_a_bool_action_is_refused_in_words_with_or_without_wrappers() -> None:
    """Discrete spaces take True for 1, so env().step(True) reached PettingZoo's wrapper
    and failed in numpy ("The truth value of an array ... is ambiguous")."""
    for game in (env(), raw_env()):
        game.reset(seed=3)
        agent = game.agent_selection
        with pytest.raises(ValueError, match="an action is an integer id, not True"):
            game.step(True)
        assert game.agent_selection == agent
        assert not any(game.terminations.values())


def test_array_actions_on_the_raw_env() -> None:
    """A 0-d integer array is an id (as Discrete.contains says); a 1-d one is refused with
    ValueError, not numpy's TypeError."""
    game = raw_env()
    game.reset(seed=3)
    with pytest.raises(ValueError, match=r"an action is an integer id, not array\(\[1\]\)"):
        game.step(np.array([1]))
    legal = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0])
    game.step(np.array(legal))
    assert not any(game.terminations.values())
    assert game.unwrapped.game.round == 1 and game.agent_selection == "player_1"


def test_an_illegal_action_terminates_without_truncating_as_raw_env_does() -> None:
    """PettingZoo's wrapper set truncations too (and int rewards): a learner reads a
    truncation as a game cut short, to bootstrap from."""
    outcomes = []
    for game in (env(), raw_env()):
        game.reset(seed=5)
        illegal = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"] == 0)[0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            game.step(illegal)
        outcomes.append((dict(game.terminations), dict(game.truncations), dict(game.rewards)))
        assert all(type(r) is float for r in game.rewards.values())
    wrapped, raw = outcomes
    assert wrapped == raw
    assert wrapped == (
        {"player_0": True, "player_1": True},
        {"player_0": False, "player_1": False},
        {"player_0": -1.0, "player_1": 0.0},
    )


def test_rewards_stay_floats_through_a_game() -> None:
    """AECEnv._clear_rewards set the int 0 after every step."""
    game = raw_env()
    game.reset(seed=2)
    for _ in range(5):
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(np.flatnonzero(mask)[0]))
        assert all(type(r) is float for r in game.rewards.values())


def test_numpy_arguments_and_seeds() -> None:
    """numpy integers are ints here as in azul_rules.ai.actions: players, max_rounds, seeds
    (reset(seed=np.int64(3)) raised random's TypeError); a numpy reward is a number."""
    game = env(players=np.int64(3), max_rounds=np.int64(5), illegal_reward=np.float32(-2))
    game.reset(seed=np.int64(3))
    assert game.unwrapped.game == az.new_game(3, seed=3)
    assert game.unwrapped.max_rounds == 5 and game.unwrapped.illegal_reward == -2.0
    assert game.possible_agents == ["player_0", "player_1", "player_2"]


def test_a_bad_seed_is_refused_and_changes_nothing() -> None:
    """A bad seed raised only after the seed sequence had been replaced."""
    game = raw_env()
    game.reset(seed=7)
    game.reset()
    expected = game.game
    game.reset(seed=7)
    for seed in ("x", 3.0, True):
        with pytest.raises(az.FormatError, match="seed must be an int"):
            game.reset(seed=seed)  # type: ignore[arg-type]
    game.reset()
    assert game.game == expected


def test_env_checks_the_illegal_reward_as_raw_env() -> None:
    """env() passed illegal_reward to the wrapper unchecked (NaN, None, 'x' accepted)."""
    with pytest.raises(ValueError, match="illegal_reward must be a finite number, not nan"):
        env(illegal_reward=float("nan"))
    with pytest.raises(az.FormatError, match="illegal_reward must be a number, not None"):
        env(illegal_reward=None)  # type: ignore[arg-type]
    game = env(illegal_reward=-3)
    game.reset(seed=5)
    agent = game.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game.step(int(np.flatnonzero(game.observe(agent)["action_mask"] == 0)[0]))
    assert game.rewards[agent] == -3.0 and game.unwrapped.illegal_reward == -3.0


def test_a_round_cap_past_float32_leaves_the_round_unbounded() -> None:
    """max_rounds=10**400 raised OverflowError; 10**40 warned of an overflow in a cast."""
    from gymnasium.spaces import Box

    round_offset = next(f.offset for f in actions.observation_layout(2) if f.name == "round")
    for cap in (10**40, 10**400):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            game = raw_env(max_rounds=cap)
        box = game.observation_spaces["player_0"]["observation"]
        assert isinstance(box, Box)
        assert box.high[round_offset] == np.inf


def test_step_after_the_end_warns_with_or_without_wrappers() -> None:
    """raw_env raised KeyError('player_1') where env() warns and does nothing."""
    from pettingzoo.utils.env_logger import EnvLogger

    for game in (env(max_rounds=1), raw_env(max_rounds=1)):
        random_episode(game, seed=4)
        assert game.agents == []
        EnvLogger.flush()
        game.step(0)
        assert any("step() called after all agents" in m for m in EnvLogger.mqueue)
        assert game.agents == []


def test_turn_based_parallel_conversion_passes_parallel_api_test() -> None:
    """aec_to_parallel refuses a turn-based game (metadata is_parallelizable is False);
    PettingZoo's turn_based_aec_to_parallel converts it and passes parallel_api_test."""
    from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

    with pytest.raises(AssertionError, match="not generally safe"):
        aec_to_parallel(env())
    parallel = turn_based_aec_to_parallel(env(players=3, variant="grey"))
    pettingzoo_test.parallel_api_test(parallel, num_cycles=300)


def test_observe_names_the_agents_for_an_unknown_one() -> None:
    """``observe`` of a name that is no agent is a ValueError naming the agents (it said
    Python's ``'bob' is not in list``)."""
    game = raw_env(players=3)
    game.reset(seed=1)
    for odd in ("bob", "player_3", 0, None):
        with pytest.raises(ValueError, match=r"^unknown agent .*: the agents are "
                           r"player_0, player_1, player_2$"):  # fmt: skip
            game.observe(odd)  # type: ignore[arg-type]
    assert game.observation_space("player_2").contains(game.observe("player_2"))


# -- one observation per position (issue 25) ------------------------------------------------


def test_an_observation_is_built_once_per_position() -> None:
    """Observing an agent again before the next step gives the same two arrays; a step
    or a reset gives new ones; every agent's are the codec's observation and mask."""
    game = raw_env(players=3)
    game.reset(seed=6)
    agent = game.agent_selection
    first = game.observe(agent)
    again = game.observe(agent)
    assert again is not first  # a dict of its own each time...
    assert again["observation"] is first["observation"]  # ...holding the same arrays
    assert again["action_mask"] is first["action_mask"]
    state = game.game
    for seat, name in enumerate(game.possible_agents):
        seen = game.observe(name)
        assert seen["observation"].tolist() == actions.observation(state, seat)
        expected = actions.legal_action_mask(state) if name == agent else [0] * 240
        assert seen["action_mask"].tolist() == expected
        assert game.observation_space(name).contains(seen)
    game.step(int(np.flatnonzero(first["action_mask"])[0]))
    after = game.observe(game.agent_selection)
    assert after["observation"] is not first["observation"]
    assert after["observation"].tolist() == actions.observation(
        game.game, game.possible_agents.index(game.agent_selection)
    )
    before_reset = game.observe(game.agent_selection)["observation"]
    game.reset(seed=6)
    assert game.observe(game.agent_selection)["observation"] is not before_reset


def test_a_mask_follows_the_terminations_even_in_the_same_position() -> None:
    """PettingZoo's own TerminateIllegalWrapper ends the game without a step of the raw
    environment: the position is the same, but the mask of the agent is now all zeros."""
    from pettingzoo.utils import wrappers

    game = wrappers.TerminateIllegalWrapper(raw_env(players=2), illegal_reward=-1)
    game.reset(seed=3)
    agent = game.agent_selection
    mask = game.observe(agent)["action_mask"]
    assert mask.any()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game.step(int(np.flatnonzero(mask == 0)[0]))
    assert game.terminations[agent]
    assert not game.observe(agent)["action_mask"].any()
    assert mask.any()  # the array handed out before is left as it was


def test_the_wrapper_asks_the_referee_only_about_refused_actions() -> None:
    """env() asked the referee for a verdict (GameState.validate) at every step; it asks
    only about an action the mask refuses, whose verdict it records."""
    game = env(players=2)
    game.reset(seed=4)
    raw = game.unwrapped
    asked: list[object] = []
    verdict = raw.verdict

    def counted(action: object) -> object:
        asked.append(action)
        return verdict(action)

    raw.verdict = counted
    for _ in range(10):
        observation, *_ = game.last()
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert asked == []
    observation, *_ = game.last()
    refused = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    agent = game.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game.step(refused)
    assert asked == [refused]
    assert game.infos[agent]["illegal_move"]["action"] == refused


def test_state_is_player_0s_observation() -> None:
    game = raw_env(players=4, variant="grey")
    game.reset(seed=2)
    for _ in range(12):
        game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    whole = game.state()
    assert whole.dtype == np.float32
    assert whole.tolist() == actions.observation(game.game, 0)
