"""``WargymAECEnv``: any ruleset as a PettingZoo AEC game, every player an agent.

Agents are ``core.players`` (one agent for a single-player ruleset); ``agent_selection`` is the
player who must decide, which may be the same agent several times in a row, or the non-phasing
player answering a decision inside the other's turn.

Observation of an agent (PettingZoo classic layout)::

    {"observation": {"spatial": float32[C, rows, cols], "global": float32[G]},   core.observe(agent)
     "action_mask": int8[A]}        legal actions if the agent is to decide now, else all 0

Rewards: ``core.rewards`` of each player at the step where the game ends (+1/-1/0), 0 before.
A ruleset's module is one line: ``env, raw_env = aec_factories("island_war")``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from wargym.core import BaseState, Core
from wargym.envs.single import RENDER_MODES, build_core, game_slice, observation_space, observe

_SEED_BOUND = 2**31


class WargymAECEnv(AECEnv):
    """A game of ``ruleset`` (or of ``core``) for PettingZoo; kwargs as in ``WargymEnv``.
    ``max_decisions`` truncates after that many decisions of all players together."""

    metadata = {"render_modes": RENDER_MODES, "name": "wargym_v0", "is_parallelizable": False, "render_fps": 4}
    default_ruleset: str | None = None

    def __init__(self, ruleset: str | None = None, scenario: str | None = None, render_mode: str | None = None,
                 decisions: str | None = None, max_decisions: int | None = None, core: Core | None = None,
                 core_options: dict[str, Any] | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}")
        self.core = build_core(core, ruleset or self.default_ruleset, scenario, decisions, core_options=core_options)
        self.metadata = {**self.metadata, "name": f"{self.core.name}_v0"}
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.possible_agents = list(self.core.players)
        self._player = {agent: i for i, agent in enumerate(self.possible_agents)}
        space = spaces.Dict({"observation": observation_space(self.core),
                             "action_mask": spaces.Box(0, 1, (self.core.num_actions,), np.int8)})
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.core.num_actions) for agent in self.possible_agents}
        self.state: BaseState | None = None
        self._decisions = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        elif getattr(self, "_np_random", None) is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        core_seed = seed if seed is not None else int(self._np_random.integers(_SEED_BOUND))
        self.state = self.core.init(1, core_seed)
        self._decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._end_if_over()
        self.agent_selection = self._current_agent()

    def observe(self, agent: str) -> dict[str, Any]:
        player = self._player[agent]
        mine = bool(self.core.current_player(self.state)[0] == player)
        return {"observation": game_slice(observe(self.core, self.state, player), 0),
                "action_mask": (np.asarray(self.core.legal_mask(self.state)[0], dtype=np.int8) if mine
                                else np.zeros(self.core.num_actions, np.int8))}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state = self.core.step(self.state, np.asarray([action]))  # IllegalActionError: unchanged
        self._decisions += 1
        self._cumulative_rewards[agent] = 0.0
        rewards = self.core.rewards(self.state)[0]
        self.rewards = {a: float(rewards[self._player[a]]) for a in self.agents}
        self._end_if_over()
        self.agent_selection = self._current_agent()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None or self.state is None:
            return None
        return self.core.render(self.state, 0, self.render_mode, viewer=None)

    def close(self) -> None:
        pass

    def _current_agent(self) -> str:
        return self.possible_agents[int(self.core.current_player(self.state)[0])]

    def _end_if_over(self) -> None:
        terminated = bool(self.core.terminated(self.state)[0])
        truncated = not terminated and (bool(self.core.truncated(self.state)[0]) or (
            self.max_decisions is not None and self._decisions >= self.max_decisions))
        if terminated or truncated:
            self.terminations = {a: terminated for a in self.agents}
            self.truncations = {a: truncated for a in self.agents}


def aec_factories(ruleset: str) -> tuple[Callable[..., AECEnv], type[WargymAECEnv]]:
    """``(env, raw_env)`` for a ruleset module: ``raw_env`` is the bare AEC env class,
    ``env(**kwargs)`` the same wrapped as PettingZoo classic envs are (bounds and order checks)."""
    raw_env = type("raw_env", (WargymAECEnv,), {"default_ruleset": ruleset,
                                                "__doc__": f"The {ruleset} AEC env (see WargymAECEnv)."})

    def env(**kwargs: Any) -> AECEnv:
        return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))

    env.__doc__ = f"The {ruleset} AEC env, wrapped; kwargs as WargymAECEnv."
    return env, raw_env
