"""``py:package.module:Name`` agent specs (wargym.agents.base.load_py_agent) and docs/agents.md:
a class, a factory, an agent object and an act function are each made into an agent; a spec that
names no agent says why; the page's python blocks run (from the checkout and from an empty
folder) and its ``wargym eval --a py:...`` command runs with the page's module on PYTHONPATH."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from wargym.agents.base import AgentSpecError, FunctionAgent, make_agent
from wargym.agents.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "agents.md"

MODULE = textwrap.dedent('''
    import numpy as np

    class Lowest:
        """The lowest legal action; remembers how it was built."""
        def __init__(self, side, seed=None):
            self.side, self.seed, self.resets = side, seed, []
        def reset(self, seed):
            self.resets.append(seed)
        def act(self, core, state, player):
            return np.asarray(core.legal_mask(state), dtype=bool).argmax(axis=1).astype(np.int64)

    class Bare:
        def __init__(self):
            self.resets = []
        def reset(self, seed):
            self.resets.append(seed)
        def act(self, core, state, player):
            return np.zeros(state.batch_size, dtype=np.int64)

    def make(ruleset, side):
        agent = Lowest(side)
        agent.ruleset = ruleset
        return agent

    def lowest(core, state, player):
        return np.asarray(core.legal_mask(state), dtype=bool).argmax(axis=1).astype(np.int64)

    SHARED = Bare()
    NUMBER = 7

    class NeedsPath:
        def __init__(self, model_path):
            pass
        def act(self, core, state, player):
            return None

    def not_an_agent():
        return "nothing"
''')


@pytest.fixture
def module(tmp_path, monkeypatch):
    (tmp_path / "pyagents_under_test.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "pyagents_under_test"
    sys.modules.pop("pyagents_under_test", None)


def test_py_class_is_built_per_side_with_the_keywords_it_takes(module):
    agent = make_agent(f"py:{module}:Lowest", "island_war", "japan", seed=4)
    assert type(agent).__name__ == "Lowest" and (agent.side, agent.seed, agent.resets) == ("japan", 4, [])
    bare = make_agent(f"py:{module}:Bare", "island_war", "us", seed=9)  # takes no seed: reset(seed) instead
    assert bare.resets == [9]


def test_py_factory_object_and_act_function_are_agents(module):
    made = make_agent(f"py:{module}:make", "attu", "us", seed=1)
    assert (made.ruleset, made.side) == ("attu", "us")
    shared = make_agent(f"py:{module}:SHARED", "island_war", "us", seed=2)
    assert shared is sys.modules[module].SHARED and shared.resets == [2]
    function = make_agent(f"py:{module}:lowest", "island_war", "us")
    assert isinstance(function, FunctionAgent) and function.policy is sys.modules[module].lowest


@pytest.mark.parametrize("spec, message", [
    ("py:{m}", r"use py:package\.module:Name"),
    ("py:no_such_module_xyz:Agent", r"no module named 'no_such_module_xyz' on the Python path .*PYTHONPATH"),
    ("py:{m}:Missing", r"module '{m}' \(.*pyagents_under_test\.py\) has no 'Missing'; it defines .*Lowest"),
    ("py:{m}:NUMBER", r"NUMBER is of type int, not an agent"),
    ("py:{m}:NeedsPath",
     r"NeedsPath\(\) needs model_path; a py: agent class or factory takes only ruleset, side, seed"),
    ("py:{m}:not_an_agent", r"not_an_agent\(\.\.\.\) returned a value of type str, not an agent"),
])
def test_py_spec_errors_name_the_problem(module, spec, message):
    spec = spec.format(m=module)
    with pytest.raises(AgentSpecError, match=rf"agent spec '{re.escape(spec)}': " + message.format(m=module)):
        make_agent(spec, "island_war", "us")


def test_py_spec_of_a_module_that_fails_to_import_names_the_module(tmp_path, monkeypatch):
    (tmp_path / "pyagents_broken.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(AgentSpecError, match=r"importing 'pyagents_broken' failed: No module named "
                                             r"'no_such_dependency_xyz'"):
        make_agent("py:pyagents_broken:Agent", "island_war", "us")


def test_evaluate_plays_a_py_spec_on_both_sides(module):
    result = evaluate("island_war", f"py:{module}:Lowest", "random", games=2, seed=0, scenario="bloody_ridge",
                      core_options={"max_decisions": 200})
    assert [g.a_side for g in result.games] == ["us", "japan"] and result.agent_a == f"py:{module}:Lowest"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("where", ["checkout", "empty folder"])
def test_docs_agents_python_blocks_run(where, tmp_path):
    blocks = _blocks("python")
    assert len(blocks) >= 2
    cwd = ROOT if where == "checkout" else tmp_path
    for i, code in enumerate(blocks):
        done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"block {i} of {DOC} failed:\n{done.stderr[-3000:]}"
    assert not list(tmp_path.iterdir())  # the blocks leave no files behind


def test_docs_agents_py_command_runs_with_the_module_on_pythonpath(tmp_path):
    module_dir, cwd = tmp_path / "lib", tmp_path / "elsewhere"
    module_dir.mkdir()
    cwd.mkdir()
    (module_dir / "my_agents.py").write_text(_blocks("python")[0])  # the page's my_agents.py
    command = next(line for block in _blocks("bash") for line in block.splitlines()
                   if line.startswith("wargym eval --a py:"))
    argv = [sys.executable, "-m", "wargym.cli", *shlex.split(command)[1:]]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(module_dir), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "py:my_agents:Tidy (A) vs random (B), 4 games" in done.stdout and "decisions=major" in done.stdout
    assert "A as us" in done.stdout and "A as japan" in done.stdout
    missing = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300,
                             env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")})
    assert missing.returncode == 1 and "no module named 'my_agents'" in missing.stderr


def test_py_spec_is_named_in_the_commands_help():
    from wargym.cli import build_parser

    parser = build_parser()
    for command, option in (("eval", "--a"), ("serve", "--agent"), ("play", "--vs")):
        sub = parser._subparsers._group_actions[0].choices[command]
        helps = {o: a.help for a in sub._actions for o in a.option_strings}
        assert "py:<module>:<Name>" in helps[option], (command, option)
    tournament = parser._subparsers._group_actions[0].choices["tournament"]
    assert "py:<module>:<Name>" in {o: a.help for a in tournament._actions for o in a.option_strings}["--config"]
