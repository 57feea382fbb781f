"""Which rulesets exist: one record each, from which everything else is derived.

    Ruleset("attu", title=..., core="wargym.attu.core:AttuCore", env_name="Attu",
            default_scenario="campaign", baselines="wargym.agents.attu_rule", ...)

From a record come the gymnasium ids (``wargym/<env_name>-v0``, single and native vector env), the
PettingZoo module ``wargym.envs.<name>_v0``, the baselines (the module that registers them), the
``--ruleset`` choices of the CLI and the benchmarks, the ids the training configs name, the
parametrization of the contract tests (``contract``: the env options the front doors are checked
with), and the packaging (the code package ``wargym.<name>`` and the data package
``wargym.configs.<name>``, which setup.py finds).  What a ruleset's core declares about itself
(players, phases, hidden information, invariants) lives on the core (wargym.core.Core).
Adding a ruleset is its package, its data and its record here; tests/test_registry.py fails when a
registered ruleset is missing from any of those places.

A ruleset defined elsewhere (a test's toy ruleset, a variant) is added with ``register``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Ruleset:
    name: str                       # "attu": package wargym.attu, data wargym.configs.attu
    title: str                      # the game's name, for people
    core: str                       # "module:Class" of its Core
    env_name: str                   # gymnasium id wargym/<env_name>-v0
    default_scenario: str
    baselines: str | None = None    # module that registers its rule-based baselines when imported
    #: env keyword arguments the contract runs the front doors with (each a case; max_decisions
    #: keeps real games short enough for the test budget)
    contract: tuple[Mapping[str, Any], ...] = ({},)
    #: the Core class itself, for a ruleset defined outside wargym (a test's toy) instead of ``core``
    factory: Callable[..., Any] | None = field(default=None, compare=False)

    @property
    def env_id(self) -> str:
        return f"wargym/{self.env_name}-v0"

    @property
    def pettingzoo_module(self) -> str:
        return f"wargym.envs.{self.name}_v0"

    @property
    def package(self) -> str:
        return f"wargym.{self.name}"

    @property
    def data_package(self) -> str:
        return f"wargym.configs.{self.name}"


RULESETS: dict[str, Ruleset] = {}
_LISTENERS: list[Callable[[Ruleset], None]] = []


def register(ruleset: Ruleset) -> Ruleset:
    """Add (or replace) a ruleset; the front doors (wargym.envs) register its ids at once."""
    RULESETS[ruleset.name] = ruleset
    for listener in _LISTENERS:
        listener(ruleset)
    return ruleset


def on_register(listener: Callable[[Ruleset], None]) -> None:
    """Call ``listener(ruleset)`` for every ruleset registered now and later (wargym.envs)."""
    _LISTENERS.append(listener)
    for ruleset in list(RULESETS.values()):
        listener(ruleset)


def shipped() -> list[str]:
    """The names of the rulesets wargym ships (its own cores), sorted: not a ruleset a program or a
    test registered beside them."""
    return sorted(name for name, record in RULESETS.items() if record.core.startswith("wargym."))


def get(ruleset: str) -> Ruleset:
    try:
        return RULESETS[ruleset]
    except KeyError:
        raise ValueError(f"unknown ruleset {ruleset!r}; known: {sorted(RULESETS)}") from None


def load(path: str) -> Any:
    """The object a "module:name" path names."""
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


def core_class(ruleset: str) -> type:
    """The Core class of ``ruleset``."""
    record = get(ruleset)
    if record.factory is not None:
        return record.factory
    return load(record.core)


def default_scenario(ruleset: str) -> str:
    return get(ruleset).default_scenario


def make_core(ruleset: str, scenario: str | None = None, **kwargs):
    """A Core for ``ruleset`` on ``scenario`` (its default when None); ``kwargs`` are the core's
    options (``decisions``, ``threads``, Attu's ``solitaire`` ...)."""
    record = get(ruleset)
    scenario = scenario or record.default_scenario
    check_scenario(ruleset, scenario)
    return core_class(ruleset)(scenario=scenario, **kwargs)


def looks_like_path(scenario: str) -> bool:
    """A scenario given as a file of one's own rather than by name: a .yaml/.yml name, a folder in it."""
    from pathlib import PurePath

    return PurePath(scenario).suffix in (".yaml", ".yml") or "/" in scenario or "\\" in scenario


def check_scenario(ruleset: str, scenario: Any) -> None:
    """ValueError naming the ruleset's scenarios when ``scenario`` (a name, or a file of one's own)
    is neither one of them nor an existing file; anything but a string (a compiled Scenario) passes."""
    import difflib
    from pathlib import Path

    if not isinstance(scenario, str):
        return
    names = list(core_class(ruleset).scenario_names())
    if scenario in names:
        return
    shipped = ", ".join(names)
    if Path(scenario).is_file():
        return  # a file of one's own: the ruleset's loader reads it (and names the file in any error)
    if looks_like_path(scenario):
        raise ValueError(f"scenario file {scenario!r} not found (looked for {Path(scenario).resolve()}); "
                         f"{ruleset}'s shipped scenarios: {shipped}")
    close = difflib.get_close_matches(scenario, names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown {ruleset} scenario {scenario!r}{hint}; {ruleset}'s scenarios: {shipped}")


register(Ruleset(
    "island_war", title="Island War (the standard rules of Bloody Ridge, Saipan, Leyte, Okinawa)",
    core="wargym.island_war.core:IslandWarCore", env_name="IslandWar", default_scenario="saipan",
    baselines="wargym.agents.island_war_rule",
    contract=({"decisions": "major", "max_decisions": 60},
              {"scenario": "bloody_ridge", "side": "japan", "opponent": "random", "max_decisions": 60}),
))
register(Ruleset(
    "attu", title="War in the Wind: The Battle for Attu Island",
    core="wargym.attu.core:AttuCore", env_name="Attu", default_scenario="campaign",
    baselines="wargym.agents.attu_rule",
    contract=({"opponent": "rule", "max_decisions": 60},
              {"opponent": "solitaire", "max_decisions": 60},
              {"scenario": "hogs_back", "side": "japan", "opponent": "rule", "decisions": "major", "max_decisions": 60},
              {"scenario": "hogs_back", "core_options": {"vp_chits": True}, "max_decisions": 60}),
))
register(Ruleset(
    "peleliu", title="D-Day at Peleliu (solitaire: the cards play the Japanese)",
    core="wargym.peleliu.core:PeleliuCore", env_name="Peleliu", default_scenario="sept15",
    baselines="wargym.agents.peleliu_rule",
    contract=({"decisions": "major", "max_decisions": 60},
              {"core_options": {"advice": True}, "max_decisions": 60},  # the rule's choice observed: no leak
              {"scenario": "assault", "core_options": {"variable_letters": True, "alt_armor": True},
               "max_decisions": 60},
              {"scenario": "bnr", "max_decisions": 100}),
))
register(Ruleset(
    "world_at_war", title="The World at War (hex-based, card-driven WWII battles)",
    core="wargym.world_at_war.core:WorldAtWarCore", env_name="WorldAtWar", default_scenario="pacific",
    baselines="wargym.agents.world_at_war_rule",
    contract=({"decisions": "major", "max_decisions": 60},
              {"scenario": "bocage", "side": "germany", "opponent": "random", "core_options": {"night": True},
               "max_decisions": 60},
              {"scenario": "ussr_town", "core_options": {"fastplay": True, "advanced_vehicles": True},
               "max_decisions": 100}),
))
