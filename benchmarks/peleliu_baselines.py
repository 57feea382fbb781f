"""The Peleliu baselines (rule, random) over seeded games: results, last turn, positions secured.

    python benchmarks/peleliu_baselines.py --scenario sept15 --games 200 --seed 0

Game j is dealt as ``wargym eval`` deals it (``core.init(1, seed + j)``), all games in one batch,
``decisions="major"``.  Per agent it prints the count of each result (state.RESULTS), the mean
last turn, and the positions secured at the end (15.2: victory.tallies' total) mean / max, plus
the mean Infantry Loss Box.  In Bloody Nose Ridge (``--scenario bnr``) the "secured" columns count
the Japanese units eliminated of the 16 (18.42) and the loss box the infantry units eliminated
(18.41).  ``--no-catastrophic`` switches 15.1 off (a what-if for calibration).
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from wargym.agents.base import make_agent
from wargym.peleliu.core import PeleliuCore
from wargym.peleliu.scenario import load_scenario
from wargym.peleliu.state import JP_MAP, JP_RESERVE, RESULTS
from wargym.peleliu.victory import tallies
from wargym.rng import game_keys


def play(scenario: str, agent_name: str, games: int, seed: int, no_catastrophic: bool = False) -> dict:
    sc = load_scenario(scenario)
    if no_catastrophic:
        sc.catastrophic[:] = 0
    core = PeleliuCore(sc, decisions="major")
    agent = make_agent(agent_name, "peleliu", "us", seed=seed)
    keys = np.array([game_keys(seed + j, 1)[0] for j in range(games)], dtype=np.uint64)
    state = core._init(keys)
    t0 = time.time()
    while not np.all(state.terminated | state.truncated):
        actions = agent.act(core, state, 0)
        actions[state.terminated | state.truncated] = -1
        core._step_in_place(state, actions)
    wall = time.time() - t0
    T, S = core.tables, core.kernel_state(state)
    if sc.spec.kind == "bnr":  # 18.42: the Japanese units eliminated (of 16) stand for "secured"
        alive = ((state.jp_loc == JP_MAP) | (state.jp_loc == JP_RESERVE)) & ~sc.jp_fort[None, :]
        secured = 16 - alive.sum(axis=1)
    else:
        secured = np.array([tallies(T, S, g)[6] for g in range(games)])
    counts = collections.Counter(RESULTS[int(r)] for r in state.result)
    return {"scenario": scenario, "agent": agent_name, "games": games, "seed": seed,
            "results": dict(counts), "truncated": int(state.truncated.sum()),
            "mean_last_turn": float(state.turn.mean()), "secured_mean": float(secured.mean()),
            "secured_max": int(secured.max()), "loss_box_mean": float(state.loss_box.mean()), "seconds": wall}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="sept15")
    ap.add_argument("--agents", default="rule,random")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-catastrophic", action="store_true")
    a = ap.parse_args()
    print("| scenario | agent | results | truncated | mean last turn | secured mean / max | loss box | s |")
    print("|---|---|---|---|---|---|---|---|")
    for name in a.agents.split(","):
        r = play(a.scenario, name, a.games, a.seed, a.no_catastrophic)
        res = ", ".join(f"{k} {v}" for k, v in sorted(r["results"].items()))
        print(f"| {r['scenario']} | {name} | {res} | {r['truncated']} | {r['mean_last_turn']:.2f} | "
              f"{r['secured_mean']:.2f} / {r['secured_max']} | {r['loss_box_mean']:.1f} | {r['seconds']:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
