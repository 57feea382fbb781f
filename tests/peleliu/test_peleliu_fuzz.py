"""Random masked play of Peleliu with invariant checks after every step.

CI plays >= 100,000 decisions over both invasion scenarios, with and without the optional rules
(20.1, 20.2) and in both decision modes, and 52,000 more in Bloody Nose Ridge (18.0).  Invariants, each a rule:

* 4.0, 8.6  card conservation: the 54 cards in exactly one pile each (deck, discards, card track,
            close combat piles), places 0..n-1, close combat piles only in a close combat
* 9.23      depth markers: each marker under at most one unit, the units that name it; markers
            never come back (the regular pool + markers in play + markers out = 51 regular
            markers) and a tank never holds a regular one
* 2.21      U.S. units in play have 1..printed steps; on the map they stand on land
* 9.0       at most one Japanese unit a hex (19.0: a fortification marker may share it); and no
            hex outside a close combat holds both sides at a decision point
* 15.1      the Infantry Loss Box never decreases except by Black Angels' restored step (not
            counted here: the box may drop by one at most per step)
* mask      a live game offers at least one legal action, a finished one none; a masked-out
            action raises IllegalActionError and leaves the state unchanged
* endings   a game ends only by the book's victory rules (terminated, with a result) or by the
            decision cap; a dead end (truncated before the cap) fails the fuzz with its phase
"""

from __future__ import annotations

import numpy as np
import pytest

from masked_play import play_masked
from wargym.peleliu.core import PeleliuCore
from wargym.peleliu.state import (
    DM_OUT, DM_POOL, DM_UNIT, JP_MAP, PHASE_NAMES, R_NONE, ST_ACTIONS, ST_CC, US_MAP,
)

CASES = [
    ("sept15", "full", {}),
    ("sept15", "major", {"variable_letters": True}),
    ("assault", "major", {"alt_armor": True}),
    ("assault", "full", {"variable_letters": True, "alt_armor": True}),
    ("bnr", "full", {}),
    ("bnr", "major", {}),
]
DECISIONS_PER_CASE = 26_000  # the four invasion cases: >= 100,000 decisions


def check_invariants(core, state):
    errors = core.check_state(state)
    assert not errors, errors[:3]
    sc = core.scenario
    regular = sc.dm_kind == 0
    for g in range(state.batch_size):
        loc = state.dm_loc[g][regular]
        assert ((loc == DM_POOL) | (loc == DM_UNIT) | (loc == DM_OUT)).all(), "a regular depth marker lost (9.23)"
        live = state.jp_loc[g] == JP_MAP
        for j in np.flatnonzero(live & sc.jp_tank):
            d = state.jp_depth[g, j]
            assert d < 0 or sc.dm_kind[d] == 1, "a tank holding a regular depth marker (9.22)"
        on = state.us_loc[g] == US_MAP
        if state.cc_hex[g] < 0 and not (state.terminated[g] or state.truncated[g]):
            shared = set(state.us_hex[g][on].tolist()) & set(state.jp_hex[g][live].tolist())
            # units entering for close combat wait in the enemy hex until the phase's close combats
            if shared:
                assert state.stage[g] in (ST_ACTIONS, ST_CC), f"game {g}: both sides in hex(es) {shared} outside close combat"


@pytest.mark.parametrize("scenario,decisions,options", CASES, ids=[f"{s}-{d}-{sorted(o)}" for s, d, o in CASES])
def test_peleliu_random_play_keeps_the_invariants(scenario, decisions, options):
    core = PeleliuCore(scenario, decisions=decisions, max_decisions=3000, **options)
    batch = 16 if scenario == "bnr" else 64  # a BNR game takes ~800 decisions: some must end

    def ended(state, g):
        assert state.result[g] != R_NONE
        assert state.rewards[g, 0] in (-1.0, 0.0, 1.0)

    endings = play_masked(core, core.init(batch, seed=7), np.random.default_rng(11), decisions=DECISIONS_PER_CASE,
                          cap=3000, seed=7, refuse_every=2000, phase_names=PHASE_NAMES,
                          check=lambda before, after: check_invariants(core, after), ended=ended)
    assert endings["terminated"] > 0, endings
