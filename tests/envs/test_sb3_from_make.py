"""A researcher's first hour: sb3-contrib's MaskablePPO trains on every shipped ruleset's env
exactly as ``gymnasium.make`` creates it (its ``MultiInputPolicy`` on the flat Dict observation,
the mask from ``action_masks()`` through gymnasium's wrappers), and never takes a masked action."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.registry import RULESETS, shipped

pytest.importorskip("sb3_contrib")


class Watch(gymnasium.Wrapper):
    """Counts the agent's steps and the illegal actions the env reported (it ends such a game as a
    loss, ``info["illegal_action"]``); changes nothing."""

    def __init__(self, env):
        super().__init__(env)
        self.steps, self.illegal = 0, []

    def step(self, action):
        out = self.env.step(action)
        self.steps += 1
        if "illegal_action" in out[4]:
            self.illegal.append(out[4]["illegal_action"])
        return out


@pytest.mark.parametrize("ruleset", shipped())
def test_maskable_ppo_trains_on_the_env_as_gymnasium_makes_it(ruleset):
    from sb3_contrib import MaskablePPO

    env = gymnasium.make(RULESETS[ruleset].env_id)
    assert isinstance(env.observation_space, gymnasium.spaces.Dict)
    assert not any(isinstance(s, gymnasium.spaces.Dict) for s in env.observation_space.spaces.values())
    watched = Watch(env)
    model = MaskablePPO("MultiInputPolicy", watched, n_steps=1024, batch_size=256, n_epochs=1, seed=0,
                        device="cpu")
    model.learn(total_timesteps=2048)
    assert watched.steps >= 2048 and watched.illegal == []
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
    assert info["action_mask"][int(action)]
    assert np.array_equal(info["action_mask"], env.get_wrapper_attr("action_masks")())
