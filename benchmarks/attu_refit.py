"""How much the U.S. refit decision (9.0) weighs in Attu: the U.S. rule baseline against the
Japanese section-13 rule, with the rule's Casualty Track threshold for refitting set to other
values (the rest of the rule, "refit every third turn while reinforcements wait", as it is).

    python benchmarks/attu_refit.py --games 512 --thresholds 4 8 12 16 20 24 31

Prints the U.S. win rate (Wilson 95 % interval) for each threshold; the rule baseline's own is 8
(agents/attu_rule.py REFIT_CASUALTIES).  The games are dealt by core.init(1, seed + j), as
``wargym eval`` deals them.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def refit_at(threshold: int):
    """The U.S. rule, refitting once the Casualty Track reaches ``threshold``."""
    from wargym.agents.attu_rule import AttuRuleAgent
    from wargym.attu.actions import NO, YES
    from wargym.attu.scenario import US
    from wargym.attu.state import LOC_RESERVE, REFIT_DECISION

    rule = AttuRuleAgent("us")

    def act(core, state, player):
        actions = rule.act(core, state, player).copy()
        H, T = core.tables.nbr.shape[0], core.tables
        waiting = (state.unit_loc[:, (T.u_side == US) & T.u_in_play] == LOC_RESERVE).any(axis=1)
        refit = (state.casualties >= threshold) | (waiting & (state.turn >= 2) & (state.turn % 3 == 2))
        at = state.phase == REFIT_DECISION
        actions[at] = np.where(refit, H + YES, H + NO)[at]
        return actions

    act.__name__ = f"us_rule_refit_at_{threshold}"
    return act


def main(argv: list[str] | None = None) -> int:
    from wargym.agents.evaluate import evaluate

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=512)
    p.add_argument("--seed", type=int, default=20_000)
    p.add_argument("--thresholds", type=int, nargs="+", default=[4, 8, 12, 16, 20, 24, 31])
    args = p.parse_args(argv)
    print(f"U.S. rule vs Japanese section-13 rule, Attu campaign, {args.games} games (seeds {args.seed}+)")
    for threshold in args.thresholds:
        began = time.perf_counter()
        record = evaluate("attu", refit_at(threshold), "rule", games=args.games, seed=args.seed, a_side="us",
                          decisions="major").all
        lo, hi = record.ci
        print(f"  refit at {threshold:>2} casualties: {record.win_rate:6.1%} [{lo:.1%}, {hi:.1%}]"
              f"  ({time.perf_counter() - began:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
