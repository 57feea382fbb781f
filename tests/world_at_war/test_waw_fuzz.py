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

import collections
import dataclasses

import numpy as np
import pytest

from wargym import IllegalActionError
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
    agent = WorldAtWarRuleAgent() if rule else None
    rng = np.random.default_rng(5)
    batch = 64
    state = core.init(batch, seed=9)
    endings = collections.Counter()
    played = 0
    episode = np.arange(batch)
    next_episode = batch
    while played < DECISIONS_PER_CASE:
        mask = state.legal_action_mask
        done = state.terminated | state.truncated
        assert (mask.any(axis=1) | done).all(), "a live game without a legal action"
        assert not mask[done].any(), "a finished game with a legal action"
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else -1 for m in mask])
        if agent is not None:
            actions = np.where(state.current_player == 0, agent.act(core, state, 0), actions)
        if played % 3000 < batch:   # now and then: a masked-out action is refused, the state unchanged
            g = int(np.flatnonzero(~done)[0])
            wrong = actions.copy()
            wrong[g] = int(np.flatnonzero(~mask[g])[0])
            before = state.copy()
            with pytest.raises(IllegalActionError):
                core.step(state, wrong)
            for f in dataclasses.fields(state):
                assert np.array_equal(getattr(before, f.name), getattr(state, f.name)), f.name
        figures = state.p_figures.copy()
        state = core.step(state, actions)
        played += int((~done).sum())
        errors = core.check_state(state)
        assert not errors, errors[:3]
        assert (state.p_figures <= figures).all(), "figures grew"
        finished = state.terminated | state.truncated
        for g in np.flatnonzero(finished):
            if state.truncated[g] and state.decisions[g] < CAP:
                pytest.fail(f"dead end in phase {PHASE_NAMES[int(state.phase[g])]!r}")
            if state.terminated[g]:
                w = int(state.winner[g])
                assert w >= 0 and state.rewards[g].tolist() == ([1.0, -1.0] if w == 0 else [-1.0, 1.0])
            endings["terminated" if state.terminated[g] else "cap"] += 1
        if finished.any():
            episode[finished] = np.arange(next_episode, next_episode + int(finished.sum()))
            next_episode += int(finished.sum())
            state = core.reset_done(state, 9, episode)
    assert played >= DECISIONS_PER_CASE
    assert endings["terminated" if rule else "cap"] > 0, endings
