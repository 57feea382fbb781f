"""Which rulesets exist and how to build their cores.

Adding a ruleset adds one line here (and one registration line in wargym.envs)."""

from __future__ import annotations

from importlib import import_module

# ruleset -> (module, Core class, gymnasium id stem, default scenario)
RULESETS: dict[str, tuple[str, str, str, str]] = {
    "island_war": ("wargym.island_war.core", "IslandWarCore", "IslandWar", "saipan"),
    "attu": ("wargym.attu.core", "AttuCore", "Attu", "campaign"),
}


def core_class(ruleset: str) -> type:
    """The Core class of ``ruleset``."""
    try:
        module, cls, _, _ = RULESETS[ruleset]
    except KeyError:
        raise ValueError(f"unknown ruleset {ruleset!r}; known: {sorted(RULESETS)}") from None
    return getattr(import_module(module), cls)


def make_core(ruleset: str, scenario: str | None = None, **kwargs):
    """A Core for ``ruleset`` on ``scenario`` (its default when None)."""
    return core_class(ruleset)(scenario=scenario or RULESETS[ruleset][3], **kwargs)
