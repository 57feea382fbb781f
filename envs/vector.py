"""``WargymVectorEnv``: N games of one ruleset in ONE core state of batch N.

Same per-game observation, action, reward, opponent and delegate (``phases``) rules as
``WargymEnv`` (see wargym.envs.single); everything is batched and stepped together.

Autoreset: ``AutoresetMode.SAME_STEP``.  A game that ends in ``step`` is replaced by a new one in
the same call: the returned observation is already the new game's first decision, the ended
game's last observation is in ``info["final_obs"]`` (an object array, None for running games,
with the bool mask ``info["_final_obs"]``) and its info in ``info["final_info"]``, including
``"result"``: the game's result for the agent's side (+1/-1/0, without any shaped reward).  Chosen so
that every observation returned asks the agent for a decision and its action mask is never
empty: masked policies (MaskablePPO) sample from it directly, and no step is wasted on a reset.

Seeding: ``reset(seed=s)`` plays exactly the games of ``core.init(N, s)``; the k-th game
restarted after that (counting across the batch in game order) gets the key
``SeedSequence([s, N + k])`` through ``core.reset_done_in_place``, so runs are reproducible.

Info: ``info["action_mask"]`` bool[N, A] (with ``"_action_mask"``), as ``action_masks()``.

State: the env owns its core state and advances it in place (``core.step_in_place``,
``core.reset_done_in_place``: no whole-batch copy a step); a caller that wants to keep a
position takes ``venv.state.copy()``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from wargym.agents.base import Agent, Policy, reset_agent
from wargym.core import BaseState, Core
from wargym.envs.single import (MAX_RESTARTS, RENDER_MODES, IllegalActionMode, build_core, check_options,
                                check_shaping, forfeit, illegal_actions, inner_agents, make_delegate, make_opponents,
                                observation_space, observe, play_opponents, resolve_side, shaping_score)

_SEED_BOUND = 2**31


class WargymVectorEnv(VectorEnv):
    """``num_envs`` games against built-in opponents, backed by one batched core state.

    Takes ``num_envs`` and the keyword arguments of ``WargymEnv``.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4, "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int = 1, ruleset: str | None = None, scenario: str | None = None,
                 side: str | int = 0, opponent: str | Agent | Policy = "rule", render_mode: str | None = None,
                 decisions: str | None = None, max_decisions: int | None = None,
                 illegal_action: IllegalActionMode = "lose", reward_shaping: float = 0.0,
                 core: Core | None = None, phases: Sequence[str] | None = None,
                 delegate: str | Agent | Policy = "rule", core_options: dict[str, Any] | None = None):
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        check_options(render_mode, illegal_action)
        self.core = build_core(core, ruleset, scenario, decisions, opponent, core_options)
        self.reward_shaping = check_shaping(self.core, reward_shaping)
        self.num_envs = num_envs
        self.side = resolve_side(self.core, side)
        self.opponents = make_opponents(self.core, self.side, opponent)
        self.delegate = make_delegate(self.core, self.side, phases, delegate)
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.illegal_action = illegal_action
        self.single_observation_space = observation_space(self.core)
        self.single_action_space = spaces.Discrete(self.core.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.state: BaseState | None = None
        self._seed = 0
        self._next_episode = num_envs
        self._decisions = np.zeros(num_envs, dtype=np.int64)
        self._score = np.zeros(num_envs)

    # -- gymnasium API ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start all games (or, with ``options={"reset_mask": bool[N]}``, restart those)."""
        super().reset(seed=seed)
        reset_mask = (options or {}).get("reset_mask")
        if reset_mask is not None:
            if self.state is None:
                raise RuntimeError("reset_mask needs a running batch: call reset() first")
            reset_mask = np.asarray(reset_mask, dtype=bool)
            if reset_mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must have shape ({self.num_envs},), got {reset_mask.shape}")
            self.state = self._restart(dataclasses.replace(self.state, truncated=self.state.truncated | reset_mask))
        else:
            self._seed = seed if seed is not None else int(self.np_random.integers(_SEED_BOUND))
            self._next_episode = self.num_envs
            for agent in inner_agents(self.opponents, self.delegate):
                reset_agent(agent, int(self.np_random.integers(_SEED_BOUND)))
            self._decisions[:] = 0
            self.state = self._restart(play_opponents(self.core, self.core.init(self.num_envs, self._seed),
                                                      self.side, self.opponents, self.delegate))
        self._score = shaping_score(self.core, self.state, self.side, self.reward_shaping)
        return observe(self.core, self.state, self.side), self._mask_info()

    def step(self, actions):
        if self.state is None:
            raise RuntimeError("call reset() first")
        core, state = self.core, self.state
        actions = np.asarray(actions)
        if self.illegal_action == "lose":
            bad = illegal_actions(core, state, actions)
            state = forfeit(core.step(state, actions, active=~bad), self.side, bad)
        else:
            core.step_in_place(state, actions)  # the env owns its state; IllegalActionError: untouched
        state = play_opponents(core, state, self.side, self.opponents, self.delegate)
        self._decisions += 1
        if self.max_decisions is not None:
            out = self._decisions >= self.max_decisions
            state = dataclasses.replace(state, truncated=state.truncated | out)

        terminated = np.asarray(core.terminated(state), dtype=bool).copy()
        truncated = np.asarray(core.truncated(state), dtype=bool) & ~terminated
        results = np.asarray(core.rewards(state)[:, self.side], dtype=np.float64)
        score = shaping_score(core, state, self.side, self.reward_shaping)
        rewards = results + score - self._score
        obs = observe(core, state, self.side)
        infos: dict[str, Any] = {}
        done = terminated | truncated
        if done.any():
            games = np.flatnonzero(done)
            infos["final_obs"], infos["_final_obs"] = self._final_obs(obs, games), done.copy()
            infos["final_info"] = {"action_mask": np.asarray(core.legal_mask(state), dtype=bool).copy(),
                                   "_action_mask": done.copy(),
                                   "result": np.where(done, results, 0.0), "_result": done.copy()}  # unshaped
            infos["_final_info"] = done.copy()
            state = self._restart(state)
            self._observe_games(obs, state, games)
            score = shaping_score(core, state, self.side, self.reward_shaping)  # the new games' start
        self.state = state
        self._score = score
        infos.update(self._mask_info())
        return obs, rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """bool[N, A]: the agent's legal actions in every game now."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return np.asarray(self.core.legal_mask(self.state), dtype=bool).copy()

    def render(self) -> tuple[Any, ...] | None:
        """One frame per game (drawn for the agent's side), or None without a render_mode."""
        if self.render_mode is None or self.state is None:
            return None
        return tuple(self.core.render(self.state, g, self.render_mode, viewer=self.side)
                     for g in range(self.num_envs))

    # -- internals -------------------------------------------------------------------------------
    def _restart(self, state: BaseState) -> BaseState:
        """Replace finished games by new ones and play their opponents up to the agent's first
        decision (again, should a new game end before the agent decides)."""
        for _ in range(MAX_RESTARTS):
            done = np.asarray(self.core.terminated(state) | self.core.truncated(state), dtype=bool)
            if not done.any():
                return state
            count = int(done.sum())
            episode = np.zeros(self.num_envs, dtype=np.int64)
            episode[done] = self._next_episode + np.arange(count)
            self._next_episode += count
            self._decisions[done] = 0
            self.core.reset_done_in_place(state, self._seed, episode)
            state = play_opponents(self.core, state, self.side, self.opponents, self.delegate)
        raise RuntimeError(f"{MAX_RESTARTS} games in a row ended before side {self.side} decided")

    def _observe_games(self, obs: dict[str, Any], state: BaseState, games: np.ndarray) -> None:
        """Overwrite the rows ``games`` of ``obs`` with their observation in ``state``."""
        for key, value in observe(self.core, state.take(games), self.side).items():
            obs[key][games] = value

    def _final_obs(self, obs: dict[str, Any], games: np.ndarray) -> np.ndarray:
        final = np.full(self.num_envs, None, dtype=object)
        for g in games:  # gymnasium's layout: one object per finished game
            final[g] = {k: v[g].copy() for k, v in obs.items()}
        return final

    def _mask_info(self) -> dict[str, np.ndarray]:
        return {"action_mask": self.action_masks(), "_action_mask": np.ones(self.num_envs, dtype=bool)}
