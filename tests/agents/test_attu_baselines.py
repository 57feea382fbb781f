"""The Attu rule-based baselines: registered for both sides (and as the solitaire opponent), legal
everywhere, and clearly better than uniformly random play: >= 90% wins over 100 seeded campaign
games on each side; the solitaire env (13.0) runs the Japanese by the book."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401  (registers the gymnasium ids)
from wargym.agents import baselines
from wargym.agents.random_agent import RandomAgent
from wargym.attu.core import AttuCore

SIDES = ("us", "japan")
_CORES: dict[tuple, AttuCore] = {}


def core_for(scenario: str = "campaign", **options) -> AttuCore:
    key = (scenario, tuple(sorted(options.items())))
    if key not in _CORES:
        _CORES[key] = AttuCore(scenario, **options)
    return _CORES[key]


def play(core: AttuCore, agents, batch: int, seed: int, max_steps: int = 20_000):
    """``batch`` games at once, each decision by the agent of the side to decide; core.step checks
    every action against the mask.  Returns the final state."""
    state = core.init(batch, seed)
    for _ in range(max_steps):
        done = state.terminated | state.truncated
        if done.all():
            return state
        cur = state.current_player
        actions = np.zeros(batch, dtype=np.int64)
        for side, agent in enumerate(agents):
            if (cur == side).any():
                actions = np.where(cur == side, agent.act(core, state, side), actions)
        state = core.step(state, np.where(done, -1, actions))
    raise AssertionError(f"games not over after {max_steps} steps")


def test_attu_baselines_registered_for_both_sides_and_solitaire():
    keys = baselines.registered("attu")
    for key in [("attu", "us", "rule"), ("attu", "japan", "rule"), ("attu", "japan", "solitaire")]:
        assert key in keys


def test_attu_rule_vs_rule_is_legal_and_finishes():
    core = core_for()
    agents = [baselines.get("attu", s) for s in SIDES]
    state = play(core, agents, batch=4, seed=7)
    assert state.terminated.all()
    out = agents[0].act(core, core.init(3, 0), 1)  # games where the side is not to decide
    assert out.shape == (3,) and ((0 <= out) & (out < core.num_actions)).all()


@pytest.mark.parametrize("rule_side", [0, 1], ids=SIDES)
def test_attu_rule_beats_random(rule_side):
    core = core_for()
    agents = [None, None]
    agents[rule_side] = baselines.get("attu", SIDES[rule_side])
    agents[1 - rule_side] = RandomAgent(1000 + rule_side)
    state = play(core, agents, batch=100, seed=2024)
    assert not state.truncated.any()
    rate = float((state.rewards[:, rule_side] > 0).mean())
    assert rate >= 0.9, f"rule {SIDES[rule_side]} won {rate:.0%} of 100 games against random"


def test_attu_13_solitaire_env_runs_the_japanese_by_the_book():
    env = gymnasium.make("wargym/Attu-v0", side="us", opponent="solitaire", max_decisions=400)
    core = env.unwrapped.core
    assert core.options["solitaire"]
    obs, info = env.reset(seed=3)
    assert env.unwrapped.state.pinned[0].sum() == 6  # 13.2.1: one Unknown on each Victory Hex
    rng = np.random.default_rng(3)
    steps, done = 0, False
    while not done:
        legal = np.nonzero(obs["action_mask"])[0]
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        done = terminated or truncated
        steps += 1
    assert steps > 10
    with pytest.raises(ValueError, match="solitaire"):
        gymnasium.make("wargym/IslandWar-v0", side="us", opponent="solitaire")
