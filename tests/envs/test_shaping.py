"""The envs' optional shaped reward (``reward_shaping=c``): each step pays c x the change of the
side's ``core.score``, so a whole game's rewards sum to result + c x (last score - first score);
the result itself is still reported unshaped (``info["final_info"]["result"]``)."""

from __future__ import annotations

import numpy as np
import pytest

import toy_core
from wargym.agents.random_agent import RandomAgent
from wargym.envs.single import WargymEnv
from wargym.envs.vector import WargymVectorEnv

C = 0.05


def test_single_env_rewards_sum_to_result_plus_score_change():
    env = WargymEnv(ruleset="island_war", scenario="saipan", side="japan", opponent="rule", decisions="major",
                    reward_shaping=C)
    obs, _ = env.reset(seed=4)
    first = float(env.core.score(env.state)[0, 1])
    agent, total, done, steps = RandomAgent(seed=2), 0.0, False, 0
    while not done:
        action = int(agent.act(env.core, env.state, env.side)[0])
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        done, steps = terminated or truncated, steps + 1
    result = float(env.core.rewards(env.state)[0, 1])
    last = float(env.core.score(env.state)[0, 1])
    assert result in (-1.0, 1.0) and last != first      # the US rule baseline takes objectives
    assert total == pytest.approx(result + C * (last - first), abs=1e-6)


def test_vector_env_shapes_each_game_and_reports_the_plain_result():
    venv = WargymVectorEnv(3, ruleset="island_war", scenario="saipan", side="us", opponent="rule",
                           decisions="major", reward_shaping=C, max_decisions=200)
    obs, _ = venv.reset(seed=1)
    first = venv.core.score(venv.state)[:, 0].astype(float)
    agent, totals = RandomAgent(seed=0), np.zeros(3)
    for _ in range(200):
        obs, rewards, terminated, truncated, info = venv.step(agent.act(venv.core, venv.state, 0))
        totals += rewards
    assert truncated.all() and not terminated.any()    # max_decisions=200 ends all three together
    assert np.allclose(info["final_info"]["result"], 0.0)  # truncated games have no result
    # the last step pays up to the end of the old game (its last observation's global[26] is the
    # margin / 20), not into the restarted one
    last = np.array([info["final_obs"][g]["global"][26] * 20 for g in range(3)])
    assert np.allclose(totals, C * (last - first), atol=1e-4) and (last != first).any()
    assert np.allclose(venv.core.score(venv.state)[:, 0], -32)   # the new games start at -32


def test_the_score_is_the_victory_margin():
    from wargym.island_war.state import as_arrays
    from wargym.island_war.victory import margin

    env = WargymEnv(ruleset="island_war", scenario="saipan", side="us", opponent="rule", decisions="major")
    env.reset(seed=0)
    for _ in range(300):
        env.step(int(RandomAgent(seed=1).act(env.core, env.state, 0)[0]))
    score = env.core.score(env.state)
    assert score[0, 0] == margin(env.core.tables, as_arrays(env.state), 0) == -score[0, 1]


def test_shaping_needs_a_score():
    with pytest.raises(ValueError, match="reward_shaping=0.1 needs a score: ruleset 'toy' has none"):
        WargymEnv(core=toy_core.ToyCore(), reward_shaping=0.1)
    WargymEnv(core=toy_core.ToyCore(), reward_shaping=0.0)  # off: no score needed
