"""Gymnasium, vector, PettingZoo and SB3 front doors, generic over the Core protocol.

    import wargym.envs, gymnasium
    env = gymnasium.make("wargym/IslandWar-v0", side="us", opponent="rule")
    venv = gymnasium.make_vec("wargym/IslandWar-v0", num_envs=64, vectorization_mode="vector_entry_point")
    aec = wargym.envs.island_war_v0.env()

Importing this package registers, for every ruleset of wargym.registry (and every one registered
later), its gymnasium id ``wargym/<Name>-v0`` (single env and native vector env) and its
PettingZoo module ``wargym.envs.<ruleset>_v0`` (``env`` and ``raw_env``); nothing here names a
ruleset.  (Or name the module in the id: ``gymnasium.make("wargym.envs:wargym/IslandWar-v0")``.)
"""

from __future__ import annotations

import sys
import types
from typing import Any

import gymnasium

from wargym.registry import Ruleset, on_register

ENTRY_POINT = "wargym.envs.single:WargymEnv"
VECTOR_ENTRY_POINT = "wargym.envs.vector:WargymVectorEnv"


def register_env(env_id: str, ruleset: str, **kwargs: Any) -> None:
    """Register gymnasium id ``env_id`` (single and native vector env) for ``ruleset``; ``kwargs``
    become the id's default env kwargs.  Registering an id again replaces it."""
    gymnasium.registry.pop(env_id, None)
    gymnasium.register(id=env_id, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT,
                       kwargs={"ruleset": ruleset, **kwargs})


class _PettingZooModule(types.ModuleType):
    """``wargym.envs.<ruleset>_v0``: ``env(**kwargs)`` (wrapped) and ``raw_env``, built on first use
    (so ``import wargym.envs`` does not import PettingZoo)."""

    def __init__(self, record: Ruleset):
        super().__init__(record.pettingzoo_module, f"{record.title} for PettingZoo: env(**kwargs), raw_env.")
        self.ruleset = record.name

    def __getattr__(self, name: str) -> Any:
        if name not in ("env", "raw_env"):
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        from wargym.envs.pettingzoo_env import aec_factories

        self.env, self.raw_env = aec_factories(self.ruleset)
        return getattr(self, name)


def _register(record: Ruleset) -> None:
    register_env(record.env_id, record.name)
    module = _PettingZooModule(record)
    sys.modules[record.pettingzoo_module] = module
    setattr(sys.modules[__name__], module.__name__.rpartition(".")[2], module)


on_register(_register)


def __getattr__(name: str) -> Any:
    # the front-door classes load on first use, so `import wargym.envs` stays light
    lazy = {"WargymEnv": "single", "WargymVectorEnv": "vector", "WargymAECEnv": "pettingzoo_env", "SB3VecEnv": "sb3"}
    if name not in lazy:
        raise AttributeError(f"module 'wargym.envs' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"wargym.envs.{lazy[name]}"), name)


__all__ = ["register_env", "WargymEnv", "WargymVectorEnv", "WargymAECEnv", "SB3VecEnv"]
