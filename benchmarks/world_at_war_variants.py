"""World at War rule baselines changed at one decision: what that decision is worth to the rule.

    wargym eval --ruleset world_at_war --scenario pacific --decisions full --games 200 --seed 5000 \
        --a py:benchmarks.world_at_war_variants:AlwaysRetreat --b rule --a-side japan

``AlwaysRetreat``: the side's rule, except that its defender always answers "voluntary retreat
(yes)" where the rule stands.  A learned policy that drifts onto that answer (benchmarks/
agreement.py shows it) plays about as this agent does there; benchmarks/README.md, "World at War
learnability", gives both.
"""

from __future__ import annotations

import numpy as np

from wargym.agents.base import make_agent, reset_agent
from wargym.world_at_war import actions as act
from wargym.world_at_war.state import P_STAND


class AlwaysRetreat:
    def __init__(self, side: str, seed: int | None = None):
        self.rule = make_agent("rule", "world_at_war", side, seed)

    def reset(self, seed: int | None) -> None:
        reset_agent(self.rule, seed)

    def act(self, core, state, player: int) -> np.ndarray:
        actions = np.asarray(self.rule.act(core, state, player), dtype=np.int64).copy()
        actions[state.phase == P_STAND] = core.scenario.num_hexes + act.YES
        return actions
