"""How a trained Attu U.S. command policy (configs/train/attu_us.yaml: refit 9.0, night 3.2,
retreat 8.2.1.3, the U.S. rule playing the units) decides, against the U.S. rule in the same
states.

    python benchmarks/attu_command.py runs/attu/us/checkpoints/model_800000_steps.zip --games 200

The policy (as ``PhaseAgent``) plays ``--games`` games against the Japanese section-13 rule,
dealt by ``core.init(games, seed)``.  At each of its decisions the U.S. rule is asked too.
Prints, per phase, how often each answered YES, and the Casualty Track (8.4) at the refit
decisions each side answered YES.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

PHASES = ("refit decision", "night decision", "retreat option")


def compare(checkpoint: str, games: int = 200, seed: int = 10_000) -> dict:
    """{"phases": {phase: {"decisions", "policy_yes", "rule_yes"}}, "refit_casualties":
    {"policy": int[31], "rule": int[31]} (YES answers by Casualty Track box), "wins": policy's}."""
    from wargym.agents.base import PhaseAgent, make_agent
    from wargym.agents.sb3_agent import SB3Agent
    from wargym.attu.actions import YES
    from wargym.registry import make_core

    core = make_core("attu", "campaign", decisions="major")
    rule, japan = make_agent("rule", "attu", "us"), make_agent("rule", "attu", "japan")
    policy = PhaseAgent(SB3Agent(checkpoint, run_phases=False), rule, PHASES)
    yes = core.tables.nbr.shape[0] + YES
    ids = [core.phase_names.index(p) for p in PHASES]
    counts = {p: {"decisions": 0, "policy_yes": 0, "rule_yes": 0} for p in PHASES}
    boxes = {"policy": np.zeros(31, dtype=np.int64), "rule": np.zeros(31, dtype=np.int64)}
    refit = core.phase_names.index("refit decision")
    state = core.init(games, seed)
    while True:
        done = np.asarray(core.terminated(state) | core.truncated(state))
        if done.all():
            break
        player = np.asarray(state.current_player)
        ours, theirs = policy.act(core, state, 0), rule.act(core, state, 0)
        here = ~done & (player == 0) & np.isin(state.phase, ids)
        for phase_id, name in zip(ids, PHASES):
            rows = here & (state.phase == phase_id)
            counts[name]["decisions"] += int(rows.sum())
            counts[name]["policy_yes"] += int((rows & (ours == yes)).sum())
            counts[name]["rule_yes"] += int((rows & (theirs == yes)).sum())
        at_refit = here & (state.phase == refit)
        casualties = np.minimum(state.casualties, 30)
        np.add.at(boxes["policy"], casualties[at_refit & (ours == yes)], 1)
        np.add.at(boxes["rule"], casualties[at_refit & (theirs == yes)], 1)
        state = core.step(state, np.where(player == 0, ours, japan.act(core, state, 1)), active=~done)
    wins = float((np.asarray(core.rewards(state))[:, 0] > 0).mean())
    return {"phases": counts, "refit_casualties": {k: v.tolist() for k, v in boxes.items()}, "wins": wins}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoint", help="a MaskablePPO checkpoint trained with configs/train/attu_us.yaml")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=10_000, help="the games are core.init(games, seed)")
    args = p.parse_args(argv)
    result = compare(args.checkpoint, args.games, args.seed)
    print(f"{args.games} games (core.init({args.games}, {args.seed})); the policy won {result['wins']:.1%}")
    for name, c in result["phases"].items():
        print(f"  {name:16} {c['decisions']:6} decisions: policy YES {c['policy_yes']:6}, "
              f"U.S. rule YES {c['rule_yes']:6}")
    for who, boxes in result["refit_casualties"].items():
        print(f"  refit YES by Casualty Track box, {who:6}: {boxes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
