"""Random masked play with invariant checks after every step.

CI plays >= 100,000 decisions over both shipped scenarios and both decision modes; the ``slow``
variant plays more.  Invariants, each a rule:

* 5.31  no two units in one hex at a decision point
* 2.1   on-map units stand on passable hexes; status and hex agree
* 5.12  no unit shares a hex with an enemy
* 9.14  ground support points never negative
* 4.0   a live game always offers at least one legal action; a finished one none
* 3.0   rewards are +1/-1/0, zero-sum, and only set at the end
* mask  = what step accepts: a sampled masked-out action raises IllegalActionError, state unchanged
* endings: a game stops only by the rules or at the decision cap (a dead end fails with its phase)
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from masked_play import play_masked
from wargym.island_war.core import IslandWarCore
from wargym.island_war.state import PHASE_NAMES


def check_invariants(core, state):
    sc = core.scenario
    on = state.unit_status == 1
    assert ((state.unit_hex >= 0) == on).all(), "status and hex disagree"
    for g in range(state.batch_size):
        hexes = state.unit_hex[g][on[g]]
        assert len(np.unique(hexes)) == len(hexes), f"game {g}: stacked units (5.31)"
        assert (sc.hex_move_cost[hexes] > 0).all(), f"game {g}: unit on impassable hex"
    assert (state.gs_points >= 0).all()
    live = ~(state.terminated | state.truncated)
    assert state.legal_action_mask[live].any(axis=1).all(), "live game without a legal action"
    assert not state.legal_action_mask[~live].any()
    assert np.isin(state.rewards, (-1.0, 0.0, 1.0)).all()
    assert (state.rewards.sum(axis=1) == 0).all()
    assert (state.rewards[live] == 0).all()
    assert np.isin(state.current_player, (0, 1)).all()


def fuzz(core, batch, decisions, seed, refuse_every=400):
    """Random masked play (tests/masked_play.py) with the invariants checked after every step;
    returns the finished games by how they ended ("terminated" by the rules or at the "cap")."""
    return play_masked(core, core.init(batch, seed=seed), np.random.default_rng(seed), decisions=decisions,
                       cap=int(core.tables.max_decisions), seed=seed + 1, refuse_every=refuse_every,
                       phase_names=PHASE_NAMES, check=lambda before, after: check_invariants(core, after),
                       ended=lambda state, g: None)


@pytest.mark.parametrize("scenario,decisions,n", [
    ("saipan", "full", 40_000), ("saipan", "major", 25_000),
    ("bloody_ridge", "full", 25_000), ("bloody_ridge", "major", 10_000),
])
def test_fuzz_random_masked_play_keeps_invariants(scenario, decisions, n):
    endings = fuzz(IslandWarCore(scenario, decisions=decisions), batch=8, decisions=n, seed=17)
    assert sum(endings.values()) >= 1, endings


@pytest.mark.slow
def test_fuzz_long():
    endings = fuzz(IslandWarCore("saipan"), batch=256, decisions=1_000_000, seed=5, refuse_every=128_000)
    assert endings["terminated"] > 0, endings


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(1, 150))
def test_property_random_prefix_keeps_invariants_and_replays(seed, steps):
    core = IslandWarCore("bloody_ridge")
    rng = np.random.default_rng(seed)
    state = core.init(2, seed=seed)
    actions = []
    for _ in range(steps):
        a = (rng.random(state.legal_action_mask.shape) * state.legal_action_mask).argmax(1)
        actions.append(a)
        state = core.step(state, a)
        check_invariants(core, state)
    replay = core.init(2, seed=seed)
    for a in actions:
        replay = core.step(replay, a)
    for name, arr in state.arrays().items():
        assert np.array_equal(arr, getattr(replay, name)), name
