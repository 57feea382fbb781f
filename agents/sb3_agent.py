"""``SB3Agent``: a trained MaskablePPO policy (``wargym train``'s final.zip) as a wargym Agent.

    agent = SB3Agent("runs/us/final.zip")                 # make_agent("sb3:runs/us/final.zip")
    actions = agent.act(core, state, player)              # int64[B], legal where player decides

The policy sees what it saw in training (``sb3_observation``: ``core.observe(state, player)``) and
picks the most probable action among the legal ones (``deterministic=True``, masked by
``core.legal_mask(state)``).  A policy trained with ``phases`` (the run.json beside the checkpoint
says so) decides only in those phases, and the run's ``delegate`` makes its side's other
decisions, as in training; ``run_phases=False`` plays the network in every phase.  Games where
``player`` does not decide (or that are over) get an action too, as the protocol allows; callers
ignore it.

The run.json also gives the agent its ``settings`` (ruleset, side, scenario, decisions, rule
options, phases, delegate; ``side`` and ``decisions`` as attributes): the commands build the game
from them (wargym.agents.base ``game_settings``), and the agent refuses, naming both values, a
game or side other than the one it was trained for.  A checkpoint without a run.json has no
settings (None) and plays whatever it is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from wargym.agents.policy import sb3_observation
from wargym.core import BaseState, Core


class SB3Agent:
    """Plays a saved sb3-contrib ``MaskablePPO`` model (a .zip path) on batched core states."""

    def __init__(self, path: str | Path, device: str = "cpu", deterministic: bool = True, run_phases: bool = True):
        from sb3_contrib import MaskablePPO

        from wargym.agents.base import checkpoint_path, checkpoint_settings, split_agent

        self.path = checkpoint_path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"no saved policy at {path}")
        self.model = MaskablePPO.load(self.path, device=device)
        self.deterministic = deterministic
        self.settings: dict[str, Any] | None = checkpoint_settings(self.path)
        self.phased = split_agent(self.policy_act, self.settings if run_phases else None)
        if self.settings is not None and not run_phases:
            self.settings = {**self.settings, "phases": None, "delegate": None}
        self._checked: dict[tuple[int, int], Any] = {}  # (id, player) -> core (kept alive: ids stay unique)

    @property
    def side(self) -> str | None:
        """The side the policy was trained for (None without a run.json)."""
        return self.settings.get("side") if self.settings else None

    @property
    def decisions(self) -> str | None:
        """The decision mode the policy was trained with (None without a run.json)."""
        return self.settings.get("decisions") if self.settings else None

    def reset(self, seed: int | None) -> None:
        if self.phased is not None:
            self.phased.reset(seed)

    def act(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        if self.phased is not None:
            return self.phased.act(core, state, player)
        return self.policy_act(core, state, player)

    def policy_act(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        """The network's own action in every game (whatever its phase)."""
        if (id(core), player) not in self._checked:
            from wargym.agents.base import settings_mismatch

            problem = settings_mismatch(self.settings, core, player, str(self.path))
            if problem:
                raise ValueError(problem)
            self._checked[(id(core), player)] = core
        obs = sb3_observation(core, state, player)
        self._check_shapes(obs)
        mask = np.asarray(core.legal_mask(state), dtype=bool)
        if mask.shape[1] != self.model.action_space.n:
            raise ValueError(f"{self.path}: trained for {self.model.action_space.n} actions, this core has "
                             f"{mask.shape[1]} (another ruleset or scenario?)")
        # a finished game has no legal action: let the policy pick anything there (it is ignored)
        mask = mask | ~mask.any(axis=1, keepdims=True)
        actions, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        actions = np.asarray(actions, dtype=np.int64).reshape(state.batch_size)
        # masked logits are -1e8, so this never fires; kept so a masked action cannot leave here
        illegal = ~mask[np.arange(len(actions)), actions]
        actions[illegal] = mask[illegal].argmax(axis=1)
        return actions

    def _check_shapes(self, obs: dict[str, np.ndarray]) -> None:
        space = self.model.observation_space
        for key, value in obs.items():
            if key not in space.spaces or space[key].shape != value.shape[1:]:
                want = {k: s.shape for k, s in space.spaces.items()}
                have = {k: v.shape[1:] for k, v in obs.items()}
                raise ValueError(f"{self.path}: trained on observations {want}, this core gives {have} "
                                 "(another ruleset or scenario?)")

    def __repr__(self) -> str:
        return f"SB3Agent({str(self.path)!r})"
