"""A game played on the interpreted rules (``NUMBA_DISABLE_JIT``, what ``wargym demo`` and ``wargym
play`` use until the kernels are compiled: wargym/warm.py) is the game the compiled kernels play:
the same decisions and the same final record.  numpy's small integers wrap where numba's int64
arithmetic does not; ``wargym.kernel.NumbaScalars`` reads the arrays as numba does.  Before it, an
Attu rule-vs-rule game went another way at decision 412 (an ``int8`` sum of Unknown tables)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreted_games import play

SCRIPT = Path(__file__).resolve().parent / "interpreted_games.py"


@pytest.mark.parametrize("ruleset,seed,agents,decisions", [
    ("island_war", 0, ("rule", "rule"), 2000),
    ("island_war", 3, ("random", "rule"), 600),
    ("attu", 0, ("rule", "rule"), 700),
    ("attu", 5, ("random", "random"), 400),
    ("world_at_war", 0, ("rule", "rule"), 600),
    ("world_at_war", 4, ("random", "random"), 500),
])
def test_interpreted_rules_play_the_compiled_game(ruleset, seed, agents, decisions, tmp_path):
    compiled = play(ruleset, seed, agents, decisions)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, str(SCRIPT), ruleset, str(seed), *agents, str(decisions)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    interpreted = json.loads(done.stdout.strip().splitlines()[-1])
    first = next((i for i, (x, y) in enumerate(zip(compiled["actions"], interpreted["actions"])) if x != y), None)
    assert first is None, f"the games part at decision {first}"
    assert interpreted == compiled
