"""The Island War rule-based baselines: registered for both sides, legal everywhere, and clearly
better than uniformly random play: >= 90% wins over 100 seeded games on each side of Saipan and
for the US at Bloody Ridge (a draw is not a win)."""

from __future__ import annotations

import numpy as np
import pytest

from wargym.agents import baselines
from wargym.agents.random_agent import RandomAgent
from wargym.island_war.core import IslandWarCore

SIDES = ("us", "japan")
_CORES: dict[str, IslandWarCore] = {}


def core_for(scenario: str) -> IslandWarCore:
    if scenario not in _CORES:
        _CORES[scenario] = IslandWarCore(scenario)
    return _CORES[scenario]


def play(core: IslandWarCore, agents, batch: int, seed: int, max_steps: int = 10_000):
    """Play ``batch`` games at once, each decision by the agent of the side to decide; every
    action is checked against the mask by core.step.  Returns the final state."""
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
        state = core.step(state, actions)
    raise AssertionError(f"games not over after {max_steps} steps")


def rule_vs_random(scenario: str, rule_side: int, seed: int) -> float:
    core = core_for(scenario)
    agents = [None, None]
    agents[rule_side] = baselines.get("island_war", SIDES[rule_side])
    agents[1 - rule_side] = RandomAgent(seed + 1000)
    state = play(core, agents, batch=100, seed=seed)
    assert not state.truncated.any()
    return float((state.rewards[:, rule_side] > 0).mean())


def test_registered_for_both_sides():
    keys = baselines.registered("island_war")
    assert ("island_war", "us", "rule") in keys and ("island_war", "japan", "rule") in keys
    for side in SIDES:
        agent = baselines.get("island_war", side)
        assert callable(getattr(agent, "act"))


@pytest.mark.parametrize("scenario", ["saipan", "bloody_ridge"])
def test_rule_vs_rule_is_legal_and_finishes(scenario):
    core = core_for(scenario)
    agents = [baselines.get("island_war", s) for s in SIDES]
    state = play(core, agents, batch=8, seed=7)
    assert state.terminated.all()
    # the actions of games where the side is not to decide are still in the action space
    out = agents[0].act(core, core.init(4, 0), 1)
    assert out.shape == (4,) and ((0 <= out) & (out < core.num_actions)).all()


# Bloody Ridge's Japanese side is not held to 90%: see the module docstring of
# wargym.agents.island_war_rule (the reconstructed victory threshold, margin <= +2 from +22).
@pytest.mark.parametrize("scenario, rule_side", [("saipan", 0), ("saipan", 1), ("bloody_ridge", 0)],
                         ids=["saipan-us", "saipan-japan", "bloody_ridge-us"])
def test_rule_beats_random(scenario, rule_side):
    rate = rule_vs_random(scenario, rule_side, seed=2024)
    assert rate >= 0.9, f"{scenario}: rule {SIDES[rule_side]} won {rate:.0%} of 100 games against random"
