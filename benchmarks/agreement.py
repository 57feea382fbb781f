"""Where an agent plays otherwise than its side's rule baseline, decision phase by decision phase.

    python benchmarks/agreement.py --ruleset world_at_war --side japan sb3:runs/world_at_war/japan/final.zip
    python benchmarks/agreement.py --ruleset attu --side us onnx:policy.onnx --games 64 --seed 10000

The agent plays ``--games`` games of ``--side`` against the other side's rule baseline (a solitaire
ruleset: against the rules' own system), dealt by seeds ``--seed``+, in the scenario and decision
mode of the side's training config (as benchmarks/learnability.py plays them).  Wherever the side
decides between two or more legal actions, its own rule baseline is asked, in the same state, what
it would do; the report gives per phase the decisions counted and how often the two chose alike,
with the agent's win rate over the games.

A policy of the learnability benchmark starts as a clone of that rule (agents/pretrain.py), so the
phases whose agreement falls during training are the play that training changed.  That is how a
collapse shows itself: a World at War run at twice the learning rate lost 98 % of its training
games after 40,000 steps, and this report put it on one yes/no decision (benchmarks/README.md).
A rule breaks ties by order, which a policy may not; agreement is a lower bound on how alike
the two play.

``--rule-decides PHASE`` (repeatable, a phase's full name as the core's ``phase_names`` give it, as
in a training config's ``phases``) lets the rule's choice stand in those phases (still counted, as
agreed): the win rate then shows what the agent's play in them cost.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from learnability import game_options, solitaire  # noqa: E402


class Shadowed:
    """``agent``, shadowed by ``rule`` (its side's rule baseline): counts, per phase, the side's
    decisions with two or more legal actions and those where both chose the same action."""

    def __init__(self, agent, rule, rule_decides: tuple[int, ...] = ()):
        self.agent, self.rule, self.rule_decides = agent, rule, np.asarray(rule_decides, dtype=np.int64)
        self.settings = getattr(agent, "settings", None)
        self.counted: collections.Counter = collections.Counter()
        self.agreed: collections.Counter = collections.Counter()

    def reset(self, seed: int | None) -> None:
        from wargym.agents.base import reset_agent

        reset_agent(self.agent, seed)
        reset_agent(self.rule, seed)

    def act(self, core, state, player: int) -> np.ndarray:
        chosen = np.asarray(self.agent.act(core, state, player))
        taught = np.asarray(self.rule.act(core, state, player))
        live = ~(np.asarray(state.terminated) | np.asarray(state.truncated))
        deciding = live & (np.asarray(core.current_player(state)) == player) & (core.legal_mask(state).sum(1) >= 2)
        self.counted.update(state.phase[deciding].tolist())
        overridden = np.isin(state.phase, self.rule_decides)
        chosen = np.where(overridden, taught, chosen)
        self.agreed.update(state.phase[deciding & (chosen == taught)].tolist())
        return chosen


def agreement(ruleset: str, side: str, spec: str, games: int, seed: int, rule_decides: list[str] = ()) -> dict:
    """The agent's win rate in the games and, per phase (by name), decisions and agreement."""
    from wargym.agents.base import make_agent
    from wargym.agents.evaluate import evaluate
    from wargym.core import phase_ids
    from wargym.registry import core_class

    names = core_class(ruleset).phase_names
    overridden = tuple(sorted(set(phase_ids(names, list(rule_decides), f"--rule-decides: {ruleset}"))))
    shadowed = Shadowed(make_agent(spec, ruleset, side), make_agent("rule", ruleset, side), overridden)
    result = evaluate(ruleset, shadowed, None if solitaire(ruleset) else "rule", games=games, seed=seed,
                      a_side=side, **game_options(ruleset, side))
    phases = [{"phase": names[p], "decisions": n, "agreed": shadowed.agreed[p] / n}
              for p, n in shadowed.counted.most_common()]
    total = sum(shadowed.counted.values())
    return {"ruleset": ruleset, "side": side, "agent": spec, "games": games, "seed": seed,
            "rule_decides": [names[p] for p in overridden],
            "win_rate": result.all.win_rate, "decisions": total,
            "agreed": sum(shadowed.agreed.values()) / max(total, 1), "phases": phases}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("agent", help="an agent spec: sb3:PATH, onnx:PATH, rule, random, py:...")
    p.add_argument("--ruleset", default="world_at_war")
    p.add_argument("--side", required=True, help="the side the agent plays (a player name)")
    p.add_argument("--games", type=int, default=64)
    p.add_argument("--seed", type=int, default=5000, help="the first game's seed (default: the validation games')")
    p.add_argument("--rule-decides", action="append", default=[], metavar="PHASE",
                   help="the rule's choice stands in the phase named PHASE (its full name; repeatable)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON line")
    args = p.parse_args()
    import torch

    torch.set_num_threads(1)
    try:
        out = agreement(args.ruleset, args.side, args.agent, args.games, args.seed, args.rule_decides)
    except ValueError as err:   # an unknown phase: the message names it and lists the phases
        p.error(str(err))
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.agent} ({args.side}) in {args.games} games (seeds {args.seed}+): won {out['win_rate']:.1%}; "
          f"chose as its rule in {out['agreed']:.1%} of {out['decisions']} decisions"
          + (f"; the rule decided: {'; '.join(out['rule_decides'])}" if out["rule_decides"] else ""))
    for row in out["phases"]:
        print(f"  {row['phase'][:60]:60s} {row['decisions']:7d}  {row['agreed']:6.1%}")


if __name__ == "__main__":
    main()
