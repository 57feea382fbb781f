"""One record per ruleset (wargym.registry), and everything derived from it.

A shipped ruleset that is registered but missing from any place the record should reach fails
here: its code and data packages (found by setup.py, importable, data present), its gymnasium ids
with both entry points, its PettingZoo module, a rule baseline for every player, the ``--ruleset``
choices of every CLI command and benchmark, the training env id, the contract's cases, and the
Core protocol (everything the envs, agents, CLI and bot protocol use is declared on the core).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from importlib import resources
from pathlib import Path

import gymnasium
import pytest

import wargym.envs  # noqa: F401  (registers the ids)
from wargym.agents import baselines
from wargym.core import Core
from wargym.registry import RULESETS, core_class, make_core, shipped

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = shipped()


def load_script(path: Path):
    spec = importlib.util.spec_from_file_location(f"script_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def ruleset_choices(parser: argparse.ArgumentParser) -> list[list[str]]:
    """The choices of every --ruleset option of a parser and its subcommands."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += ruleset_choices(sub)
        elif "--ruleset" in action.option_strings:
            found.append(list(action.choices or []))
    return found


def test_the_shipped_rulesets_are_registered():
    assert {"island_war", "attu"} <= set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_code_and_data_are_packaged(name):
    record = RULESETS[name]
    setup = load_script(ROOT / "setup.py")
    assert {record.package, record.data_package} <= set(setup.packages())
    importlib.import_module(record.package)
    assert any(p.name.endswith(".yaml") for p in resources.files(record.data_package).iterdir())
    assert record.default_scenario in core_class(name).scenario_names()


@pytest.mark.parametrize("name", SHIPPED)
def test_front_doors_are_registered(name):
    record = RULESETS[name]
    spec = gymnasium.spec(record.env_id)
    assert spec.kwargs["ruleset"] == name
    assert spec.entry_point == "wargym.envs.single:WargymEnv"
    assert spec.vector_entry_point == "wargym.envs.vector:WargymVectorEnv"
    module = importlib.import_module(record.pettingzoo_module)
    assert callable(module.env) and module.raw_env.default_ruleset == name


@pytest.mark.parametrize("name", SHIPPED)
def test_every_player_has_a_rule_baseline_and_the_core_keeps_the_protocol(name):
    core = make_core(name)
    assert isinstance(core, Core)
    for player in core.players:
        assert baselines.get(name, player) is not None
    play = core.system_play
    if play is not None and play.agent:
        kind, _, baseline = play.agent.partition(":")
        assert all(baselines.get(name, side, baseline or "rule") for side in play.sides)
    assert core.phase_names and core.scenario.name == RULESETS[name].default_scenario
    assert set(core.observation_shapes) == set(core.observation_bounds) == {"spatial", "global"}


@pytest.mark.parametrize("name", SHIPPED)
def test_every_command_and_benchmark_offers_the_ruleset(name):
    from wargym.cli import build_parser

    parsers = [build_parser()]
    parsers += [load_script(ROOT / "benchmarks" / f"{script}.py").parser() for script in ("throughput", "learnability")]
    choices = [c for p in parsers for c in ruleset_choices(p)]
    assert len(choices) >= 8  # demo, scenarios, train, eval, export, serve, play + the benchmarks
    assert all(name in c for c in choices), choices


@pytest.mark.parametrize("name", SHIPPED)
def test_training_and_the_contract_take_the_ruleset(name):
    from wargym.agents.train import env_id

    assert env_id(name) == RULESETS[name].env_id
    assert RULESETS[name].contract, "the contract needs at least one env case"


def test_an_unknown_ruleset_names_the_known_ones():
    with pytest.raises(ValueError, match="attu"):
        make_core("atu")
