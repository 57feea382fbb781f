"""Random masked play of The World at War with invariant checks after every step.

CI plays >= 100,000 decisions over the three scenarios, both decision modes and the fastplay
variant.  Invariants (core.check_state, wargym/world_at_war/invariants.py), each a rule:

* command cards: each card in exactly one pile (deck, discards, a hand, the played card), places
  0..n-1; no hand above the scenario's; the card being played on the played pile
* pieces: eliminated exactly when no figures are left; never more figures than the card's
* stacking: one unit a hex, one commander or sniper a hex, never both sides in a hex, nobody on a
  river (moving units, moving commanders or snipers, the terrain sheet)
* platoons: a unit's commander is of its side, alive, in or next to its hex, with two units at most
* victory points never above the enemy pieces destroyed; a game ends only with a winner (the
  quota, +1/-1 rewards) or at the decision cap; a live game offers a legal action, a finished one
  none; a masked-out action raises IllegalActionError and leaves the state unchanged
* figures: the pieces' figures never grow (no rule restores one)
"""

from __future__ import annotations

import numpy as np
import pytest

from masked_play import play_masked
from wargym.agents.world_at_war_rule import WorldAtWarRuleAgent
from wargym.world_at_war.core import WorldAtWarCore
from wargym.world_at_war.state import PHASE_NAMES

# (scenario, decisions, options, whether the first side plays the rule baseline instead of at random:
# random games seldom reach a quota, so one case plays to the end often)
CASES = [
    ("pacific", "full", {}, False),
    ("pacific", "major", {"fastplay": True}, False),
    ("bocage", "full", {"night": True}, False),
    ("ussr_town", "major", {"advanced_vehicles": True}, True),
]
DECISIONS_PER_CASE = 26_000   # >= 100,000 in all
CAP = 300


@pytest.mark.parametrize("scenario,decisions,options,rule", CASES,
                         ids=[f"{s}-{d}-{sorted(o)}{'-rule' if r else ''}" for s, d, o, r in CASES])
def test_waw_random_play_keeps_the_invariants(scenario, decisions, options, rule):
    core = WorldAtWarCore(scenario, decisions=decisions, max_decisions=CAP, **options)
    agent = WorldAtWarRuleAgent()

    def check(before, after):
        errors = core.check_state(after)
        assert not errors, errors[:3]
        assert (after.p_figures <= before.p_figures).all(), "figures grew"

    def ended(state, g):
        w = int(state.winner[g])
        assert w >= 0 and state.rewards[g].tolist() == ([1.0, -1.0] if w == 0 else [-1.0, 1.0])

    def first_side_by_rule(state, actions):
        return np.where(state.current_player == 0, agent.act(core, state, 0), actions)

    endings = play_masked(core, core.init(64, seed=9), np.random.default_rng(5), decisions=DECISIONS_PER_CASE,
                          cap=CAP, seed=9, refuse_every=3000, phase_names=PHASE_NAMES, check=check,
                          ended=ended, choose=first_side_by_rule if rule else None)
    assert endings["terminated" if rule else "cap"] > 0, endings
