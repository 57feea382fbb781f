"""Registry of rule-based baselines, by (ruleset, side, name).

A ruleset's baselines live in their own module and register themselves::

    from wargym.agents import baselines

    @baselines.register("island_war", "us")          # name="rule" by default
    class UsRuleAgent: ...

    agent = baselines.get("island_war", "us")         # a fresh Agent instance

``get`` imports the ruleset's module (``BASELINE_MODULES``) on first use, so the registry is
complete without importing every ruleset up front.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Callable, TypeVar

from wargym.agents.base import Agent

# ruleset -> module that registers its baselines when imported
BASELINE_MODULES: dict[str, str] = {
    "island_war": "wargym.agents.island_war_rule",
    "attu": "wargym.agents.attu_rule",
    "peleliu": "wargym.agents.peleliu_rule",
    "world_at_war": "wargym.agents.world_at_war_rule",
}

_REGISTRY: dict[tuple[str, str, str], Callable[..., Agent]] = {}
F = TypeVar("F", bound=Callable[..., Agent])


def register(ruleset: str, side: str, name: str = "rule") -> Callable[[F], F]:
    """Decorator registering an Agent class (or factory) as baseline ``name`` for ``side``."""

    def decorate(factory: F) -> F:
        _REGISTRY[(ruleset, side, name)] = factory
        return factory

    return decorate


def _load(ruleset: str) -> None:
    module = BASELINE_MODULES.get(ruleset)
    if module is None:
        return
    try:
        import_module(module)
    except ModuleNotFoundError as err:
        if err.name != module:  # a real import error inside the module: do not hide it
            raise


def registered(ruleset: str | None = None) -> list[tuple[str, str, str]]:
    """The registered (ruleset, side, name) keys, for one ruleset or all."""
    if ruleset is not None:
        _load(ruleset)
    return sorted(k for k in _REGISTRY if ruleset is None or k[0] == ruleset)


def get(ruleset: str, side: str, name: str = "rule", **kwargs: Any) -> Agent:
    """A new instance of baseline ``name`` playing ``side`` of ``ruleset``."""
    _load(ruleset)
    try:
        factory = _REGISTRY[(ruleset, side, name)]
    except KeyError:
        known = ", ".join(f"{s}:{n}" for _, s, n in registered(ruleset)) or "none"
        raise ValueError(f"no baseline {name!r} for side {side!r} of ruleset {ruleset!r}; "
                         f"registered for {ruleset!r} (side:name): {known}") from None
    return factory(**kwargs)
