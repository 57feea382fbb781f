"""``SB3VecEnv``: a ``WargymVectorEnv`` as a stable-baselines3 ``VecEnv`` (MaskablePPO ready).

    from sb3_contrib import MaskablePPO
    venv = SB3VecEnv(gymnasium.make_vec("wargym/IslandWar-v0", num_envs=16,
                                        vectorization_mode="vector_entry_point"))
    MaskablePPO("MultiInputPolicy", venv).learn(100_000)

The observation is the vector env's flat Dict ``{"spatial": float32[C, rows, cols], "global":
float32[G]}``; the action mask is served by ``action_masks()`` (sb3-contrib's convention, also
through ``env_method("action_masks")``).  A single env from ``gymnasium.make`` needs no adapter:
MaskablePPO wraps it in its own DummyVecEnv (README, "Train with Stable-Baselines3").
The vector env resets games in the same step, as SB3 expects: a finished game's last
observation is in its info as ``"terminal_observation"``, with ``"TimeLimit.truncated"`` and
``"result"`` (+1/-1/0 for the agent's side, unshaped).

Requires the ``train`` extra (stable-baselines3); the rest of wargym does not import this module.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from wargym.envs.vector import WargymVectorEnv


class SB3VecEnv(VecEnv):
    """stable-baselines3 view of a ``WargymVectorEnv`` (which may be wrapped by gymnasium)."""

    def __init__(self, venv: WargymVectorEnv):
        self.venv = venv
        self.wargym_env: WargymVectorEnv = venv.unwrapped
        if not isinstance(self.wargym_env, WargymVectorEnv):
            raise TypeError(f"SB3VecEnv needs a WargymVectorEnv, got {type(self.wargym_env).__name__}")
        self._actions: np.ndarray | None = None
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    def reset(self) -> VecEnvObs:
        obs, _ = self.venv.reset(seed=self._seeds[0], options=self._options[0] or None)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for g in np.flatnonzero(dones):
            infos[g]["terminal_observation"] = info["final_obs"][g]
            infos[g]["TimeLimit.truncated"] = bool(truncated[g])
            infos[g]["result"] = float(info["final_info"]["result"][g])
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """bool[N, A] for sb3-contrib's MaskablePPO."""
        return self.wargym_env.action_masks()

    def close(self) -> None:
        self.venv.close()

    # -- the per-env attribute API of VecEnv (one vector env stands behind every index) ----------
    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name) if attr_name == "action_masks" else getattr(self.wargym_env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.wargym_env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> list[Any]:
        """``action_masks`` gives each env's own row; other methods run once on the vector env and
        their result is repeated per index."""
        games = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[g] for g in games]
        result = getattr(self.wargym_env, method_name)(*method_args, **method_kwargs)
        return [result for _ in games]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        if self.render_mode != "rgb_array":
            return [None for _ in range(self.num_envs)]
        return list(self.venv.render())
