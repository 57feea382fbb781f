"""The World at War: which victory-point quotas make a scenario's two rule baselines even.

    python benchmarks/world_at_war_balance.py                        # pacific, 200 games
    python benchmarks/world_at_war_balance.py --scenario bocage --games 100

The book ("Objective of the game") ends a game when a side reaches its quota of victory points,
and asks a scenario to keep "the balance and spirit of the original game"; the shipped scenarios'
quotas are reconstructed.  This plays the two sides' rule baselines against each other with
quotas nobody reaches (the scenario's file with ``victory_points`` raised to 999), records both
sides' victory points (core.victory_points: kills and objectives held) after every decision, and
then reads off, for every pair of quotas, who would have reached theirs first: the win rate of
the first side, the draws (neither by ``--max-decisions``) and the mean game length.  The pair
nearest 50 % is the par of the two baselines (Island War's thresholds were set the same way:
benchmarks/README.md, "What made it learnable").  A pair read off here is then checked by real
games (``wargym eval --a rule --b rule``): the check is at the end of a battle or a turn, not
after every decision, and a rule does not look at the quotas.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

from wargym.agents.base import make_agent
from wargym.world_at_war.core import WorldAtWarCore
from wargym.world_at_war.scenario import scenario_path


def trajectories(scenario: str, games: int, seed: int, max_decisions: int, decisions: str) -> np.ndarray:
    """int16[T, games, 2]: both sides' victory points after each decision of rule-vs-rule games
    that no quota ends."""
    data = yaml.safe_load(scenario_path(scenario).read_text())
    data["victory_points"] = {side: 999 for side in data["sides"]}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{scenario}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        core = WorldAtWarCore(path, decisions=decisions, max_decisions=max_decisions)
    agents = [make_agent("rule", "world_at_war", side, seed=seed + i) for i, side in enumerate(core.players)]
    state = core.init(games, seed)
    points = [core.victory_points(state).astype(np.int16)]
    done = core.terminated(state) | core.truncated(state)
    while not done.all():
        cur = np.asarray(core.current_player(state))
        actions = np.zeros(games, dtype=np.int64)
        for side, agent in enumerate(agents):
            mine = ~done & (cur == side)
            if mine.any():
                actions[mine] = np.asarray(agent.act(core, state, side), dtype=np.int64)[mine]
        state = core.step(state, actions)
        points.append(np.where(done[:, None], points[-1], core.victory_points(state)).astype(np.int16))
        done = core.terminated(state) | core.truncated(state)
    return np.stack(points)


def outcomes(points: np.ndarray, quota: tuple[int, int]) -> tuple[float, float, float]:
    """(first side's win rate, draw rate, mean decisions) of the games of ``points`` (int[T, G, 2])
    had the quotas been ``quota``: a game is won by the side at its quota first; both at the same
    decision count half a game each (the book checks the side whose turn it is first); neither by
    the last decision, a draw."""
    steps = points.shape[0]
    reached = points >= np.array(quota, dtype=points.dtype)         # [T, G, 2]
    first = np.where(reached.any(0), reached.argmax(0), steps)      # [G, 2]: the decision each side gets there
    wins0 = (first[:, 0] < first[:, 1]) + 0.5 * ((first[:, 0] == first[:, 1]) & (first[:, 0] < steps))
    draws = first.min(1) == steps
    length = np.minimum(first.min(1), steps - 1)
    return float(wins0.mean()), float(draws.mean()), float(length.mean())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", default="pacific")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-decisions", type=int, default=1500, help="a game stopped there is a draw")
    p.add_argument("--decisions", default="full", choices=("full", "major"))
    p.add_argument("--quotas", default="3:12", help="the range of quotas tried for each side, lo:hi")
    args = p.parse_args(argv)
    start = time.perf_counter()
    points = trajectories(args.scenario, args.games, args.seed, args.max_decisions, args.decisions)
    sides = yaml.safe_load(scenario_path(args.scenario).read_text())["sides"]
    print(f"{args.scenario}: {args.games} rule-vs-rule games, decisions {args.decisions}, "
          f"{time.perf_counter() - start:.0f} s; final points mean {sides[0]} {points[-1, :, 0].mean():.1f}, "
          f"{sides[1]} {points[-1, :, 1].mean():.1f}")
    lo, hi = (int(x) for x in args.quotas.split(":"))
    print(f"{sides[0]} win % (draw %, mean decisions); rows: {sides[0]}'s quota, columns: {sides[1]}'s")
    print("      " + "".join(f"{b:>18}" for b in range(lo, hi + 1)))
    for a in range(lo, hi + 1):
        cells = []
        for b in range(lo, hi + 1):
            win, draw, length = outcomes(points, (a, b))
            cells.append(f"{100 * win:5.1f} ({100 * draw:4.1f}, {length:4.0f})")
        print(f"{a:>6}" + "".join(f"{c:>18}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
