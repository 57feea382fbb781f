"""Games played the same way compiled and interpreted: tests/test_interpreted.py runs ``play`` in its
own process (compiled kernels) and this file as a script under ``NUMBA_DISABLE_JIT=1``.

    python tests/interpreted_games.py RULESET SEED AGENT_A AGENT_B DECISIONS

prints one JSON line: the actions taken and a digest of the final record.
"""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np


def play(ruleset: str, seed: int, specs: tuple[str, str], decisions: int) -> dict:
    """Up to ``decisions`` decisions of one game between two agent specs (both seeded)."""
    from wargym.agents import make_agent
    from wargym.registry import make_core

    core = make_core(ruleset, decisions="major")
    agents = [make_agent(spec, ruleset, p, seed=seed + i) for i, (spec, p) in enumerate(zip(specs, core.players))]
    state = core.init(1, seed)
    actions = []
    while len(actions) < decisions and not (state.terminated[0] or state.truncated[0]):
        player = int(core.current_player(state)[0])
        a = np.asarray(agents[player].act(core, state, player), dtype=np.int64)
        actions.append(int(a[0]))
        state = core.step(state, a)
    record = json.dumps(core.to_dict(state, 0), sort_keys=True, default=str)
    return {"actions": actions, "digest": hashlib.sha256(record.encode()).hexdigest()}


if __name__ == "__main__":
    ruleset, seed, a, b, n = sys.argv[1:6]
    print(json.dumps(play(ruleset, int(seed), (a, b), int(n))))
