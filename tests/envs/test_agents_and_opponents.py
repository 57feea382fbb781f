"""Opponent specs, the Agent protocol, the baselines registry and front-door details, on the toy."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from pettingzoo.test import api_test

import toy_core
from wargym.agents import FunctionAgent, RandomAgent, baselines, make_agent
from wargym.envs import WargymEnv, WargymVectorEnv
from wargym.registry import RULESETS
from wargym.envs.pettingzoo_env import aec_factories


def first_legal(core, state, player):
    return np.argmax(core.legal_mask(state), axis=1)


def test_registered_ids_have_both_entry_points():
    for ruleset, record in RULESETS.items():
        spec = gymnasium.spec(record.env_id)
        assert spec.kwargs["ruleset"] == ruleset
        assert spec.entry_point == "wargym.envs.single:WargymEnv"
        assert spec.vector_entry_point == "wargym.envs.vector:WargymVectorEnv"


def test_callable_opponent_is_asked_only_for_its_own_decisions():
    calls = []

    def opponent(core, state, player):
        calls.append(player)
        assert (core.current_player(state) == player).any()
        return first_legal(core, state, player)

    env = WargymEnv(core=toy_core.ToyCore(), side="red", opponent=opponent)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            break
    assert calls and set(calls) == {1}


@pytest.mark.parametrize("opponent", ["random", "rule", "rule:rule", RandomAgent(3), FunctionAgent(first_legal)])
def test_opponent_specs(opponent):
    env = WargymEnv(core=toy_core.ToyCore(), side=1, opponent=opponent)
    _, info = env.reset(seed=2)
    assert toy_core.ToyCore().players[int(env.state.current_player[0])] == "blue"  # red moved first
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_unknown_and_unimplemented_specs():
    with pytest.raises(ValueError, match="registered for 'toy'.*red:rule"):
        make_agent("rule:clever", "toy", "red")
    pytest.importorskip("sb3_contrib")
    with pytest.raises(FileNotFoundError, match="model.zip"):
        make_agent("sb3:model.zip", "toy", "red")
    with pytest.raises((FileNotFoundError, ValueError), match="policy.onnx"):
        make_agent("onnx:policy.onnx", "toy", "red")
    with pytest.raises(ValueError, match="unknown agent spec"):
        make_agent("smart", "toy", "red")
    with pytest.raises(ValueError, match="side"):
        WargymEnv(core=toy_core.ToyCore(), side="green")


def test_baselines_registry():
    assert ("toy", "blue", "rule") in baselines.registered("toy")
    assert isinstance(baselines.get("toy", "blue"), toy_core.ToyRuleAgent)
    with pytest.raises(ValueError, match="registered"):
        baselines.get("no_such_ruleset", "us")
    # the Island War module is looked up lazily; while it does not exist the error lists nothing
    with pytest.raises(ValueError, match="island_war"):
        baselines.get("island_war", "us", "no_such_name")


def test_random_agent_is_seeded_uniform_and_legal():
    core = toy_core.ToyCore()
    state = core.init(256, 0)
    first = RandomAgent(5).act(core, state, 0)
    assert np.array_equal(first, RandomAgent(5).act(core, state, 0))
    assert core.legal_mask(state)[np.arange(256), first].all()
    assert set(first) == set(np.flatnonzero(core.legal_mask(state)[0]))  # every legal action drawn


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 1000), st.integers(0, 2**32 - 1), st.floats(0.0, 0.99))
def test_sample_legal_draws_the_ranked_legal_action(width, seed, density):
    """The random draw is the legal action of rank int(u * count) (the seeded results of every
    benchmark and test rest on this): checked against numpy, widths on both sides of a block."""
    from wargym.agents.random_agent import sample_legal

    mask = np.random.default_rng(seed).random((5, width)) >= density
    mask[0] = False  # a finished game: no legal action, 0
    u = np.random.default_rng(seed + 1).random(5)
    drawn = sample_legal(np.random.default_rng(seed + 1), mask)
    for g in range(5):
        legal = np.flatnonzero(mask[g])
        assert drawn[g] == (legal[int(u[g] * len(legal))] if len(legal) else 0)


def test_vector_lose_mode_forfeits_only_the_bad_games():
    venv = WargymVectorEnv(num_envs=3, core=toy_core.ToyCore(), illegal_action="lose")
    venv.reset(seed=0)
    masks = venv.action_masks()
    actions = np.argmax(masks, axis=1)
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    _, rewards, terminated, _, info = venv.step(actions)
    assert terminated.tolist() == [False, True, False] and rewards[1] == -1.0
    assert info["final_obs"][1] is not None and venv.action_masks().any(axis=1).all()


def test_vector_illegal_action_raises_and_keeps_the_batch():
    from wargym import IllegalActionError

    venv = WargymVectorEnv(num_envs=3, core=toy_core.ToyCore(), opponent="random", illegal_action="raise")
    venv.reset(seed=0)
    before = venv.action_masks()
    actions = np.argmax(before, axis=1)
    actions[2] = int(np.flatnonzero(~before[2])[0])
    with pytest.raises(IllegalActionError, match="game 2"):
        venv.step(actions)
    assert np.array_equal(before, venv.action_masks())
    venv.step(np.argmax(before, axis=1))


def test_vector_partial_reset():
    venv = WargymVectorEnv(num_envs=2, core=toy_core.ToyCore())
    obs0, _ = venv.reset(seed=0)
    venv.step(np.argmax(venv.action_masks(), axis=1))
    obs, _ = venv.reset(options={"reset_mask": np.array([True, False])})
    assert np.array_equal(obs["spatial"][0], obs0["spatial"][0])


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_render(mode):
    env = gymnasium.make("wargym/Toy-v0", render_mode=mode)
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, str) if mode == "ansi" else frame.ndim == 3 and frame.dtype == np.uint8
    venv = gymnasium.make_vec("wargym/Toy-v0", num_envs=2, vectorization_mode="vector_entry_point", render_mode=mode)
    venv.reset(seed=0)
    assert len(venv.render()) == 2


@pytest.mark.parametrize("scenario", ["duel", "solo"])
def test_ruleset_module_factories(scenario):
    env, raw_env = aec_factories("toy")
    wrapped = env(scenario=scenario, render_mode="ansi")
    api_test(wrapped, num_cycles=100)
    raw = raw_env(scenario=scenario)
    raw.reset(seed=0)
    assert raw.metadata["name"] == "toy_v0" and raw.agents == list(raw.core.players)
