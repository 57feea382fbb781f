"""Gymnasium, vector, PettingZoo and SB3 front doors, generic over the Core protocol.

    import wargym.envs, gymnasium
    env = gymnasium.make("wargym/IslandWar-v0", side="us", opponent="rule")
    venv = gymnasium.make_vec("wargym/IslandWar-v0", num_envs=64, vectorization_mode="vector_entry_point")
    aec = wargym.envs.island_war_v0.env()

Importing this package registers the ids of ``ENV_IDS`` with gymnasium (or name the module in
the id: ``gymnasium.make("wargym.envs:wargym/IslandWar-v0")``).  Adding a ruleset is one line in
``ENV_IDS``; a core built elsewhere (a test's toy ruleset, a variant) is registered with
``register_core``.
"""

from __future__ import annotations

from typing import Any, Callable

import gymnasium

from wargym.core import Core

# gymnasium id -> ruleset name (wargym.registry)
ENV_IDS: dict[str, str] = {
    "wargym/IslandWar-v0": "island_war",
    "wargym/Attu-v0": "attu",
}

ENTRY_POINT = "wargym.envs.single:WargymEnv"
VECTOR_ENTRY_POINT = "wargym.envs.vector:WargymVectorEnv"

CoreFactory = Callable[..., Core]
_CORE_FACTORIES: dict[str, CoreFactory] = {}


def make_core(ruleset: str, scenario: str | None = None, decisions: str | None = None, **options: Any) -> Core:
    """A core for ``ruleset`` (a name registered with ``register_core`` or in wargym.registry);
    ``options`` go to the core (e.g. Attu's ``solitaire=True``)."""
    kwargs: dict[str, Any] = dict(options) if decisions is None else {"decisions": decisions, **options}
    factory = _CORE_FACTORIES.get(ruleset)
    if factory is not None:
        return factory(scenario=scenario, **kwargs)
    from wargym.registry import make_core as make_registered_core

    return make_registered_core(ruleset, scenario, **kwargs)


def register_env(env_id: str, ruleset: str, **kwargs: Any) -> None:
    """Register gymnasium id ``env_id`` (single and native vector env) for ``ruleset``; ``kwargs``
    become the id's default env kwargs.  Registering an id again replaces it."""
    gymnasium.registry.pop(env_id, None)
    gymnasium.register(id=env_id, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT,
                       kwargs={"ruleset": ruleset, **kwargs})


def register_core(env_id: str, factory: CoreFactory, *, ruleset: str | None = None, **kwargs: Any) -> None:
    """Register a core factory ``factory(scenario=None, [decisions=...]) -> Core`` under the
    ruleset name ``ruleset`` (default: ``env_id``) and the gymnasium id ``env_id``."""
    name = ruleset or env_id
    _CORE_FACTORIES[name] = factory
    register_env(env_id, name, **kwargs)


for _env_id, _ruleset in ENV_IDS.items():
    register_env(_env_id, _ruleset)


def __getattr__(name: str) -> Any:
    # the front-door classes load on first use, so `import wargym.envs` stays light
    lazy = {"WargymEnv": "single", "WargymVectorEnv": "vector", "WargymAECEnv": "pettingzoo_env",
            "SB3VecEnv": "sb3", "island_war_v0": None, "attu_v0": None}
    if name not in lazy:
        raise AttributeError(f"module 'wargym.envs' has no attribute {name!r}")
    from importlib import import_module

    if lazy[name] is None:
        return import_module(f"wargym.envs.{name}")
    return getattr(import_module(f"wargym.envs.{lazy[name]}"), name)


__all__ = ["ENV_IDS", "make_core", "register_core", "register_env",
           "WargymEnv", "WargymVectorEnv", "WargymAECEnv", "SB3VecEnv"]
