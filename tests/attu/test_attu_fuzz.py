"""Random masked play of Attu with invariant checks after every step.

CI plays >= 100,000 decisions over the campaign (historic and free set-ups), solitaire play and a
short scenario.  Invariants, each a rule:

* 4.1/4.2  U.S. stacking by steps and battalion, at most three Japanese Infantry/Artillery a hex
* 8.0      no hex holds units of both sides at a decision point
* 5.7/15.0 on-map units stand on land hexes in play (never beyond a cliff or off the island)
* 2.4      on-map units have between one step and their printed steps; status and hex agree
* 8.4      the Casualty Track stays within 0..30, and 30 ends the game for Japan (3.8.2)
* 11.0     each hero is used at most once (a flag, never reset)
* mask     a live game offers at least one legal action, a finished one none, and a sampled
           masked-out action raises IllegalActionError leaving the state unchanged
* 3.8      rewards are +1/-1/0, zero-sum, and only set at the end
* endings  a game ends only by the book's victory rules (terminated) or by the decision cap: every
           finished game is counted by how it ended, and one that stopped for want of a legal
           action (a dead end, truncated before the cap) fails the fuzz with its phase
"""

from __future__ import annotations

import collections
import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from attu_board import make_core
from masked_play import play_masked
from wargym.attu.board import us_stack_ok
from wargym.attu.scenario import JAPAN, UNKNOWN, US
from wargym.attu.state import LOC_MAP, PHASE_NAMES, as_arrays
from wargym.rng import game_keys


def check_invariants(core, state):
    T = core.tables
    sc = core.scenario
    on = state.unit_loc == LOC_MAP
    assert ((state.unit_hex >= 0) | ~on).all(), "on the map without a hex"
    assert ((state.unit_steps >= 1) | ~on).all(), "a unit on the map with no step"
    assert (state.unit_steps <= sc.unit_steps).all()
    arrays = as_arrays(state)
    side = np.where(state.captured, JAPAN, sc.unit_side)
    for g in range(state.batch_size):
        hexes = state.unit_hex[g][on[g]]
        assert T.land[hexes].all(), f"game {g}: a unit off the land"
        us_hexes = set(state.unit_hex[g][on[g] & (side[g] == US)])
        jp = on[g] & (side[g] == JAPAN)
        jp_hexes = set(state.unit_hex[g][jp])
        assert not us_hexes & jp_hexes, f"game {g}: both sides in one hex"
        counted = jp & ((sc.unit_type != UNKNOWN) | state.captured[g])
        if counted.any():
            assert np.bincount(state.unit_hex[g][counted]).max() <= 3, f"game {g}: Japanese stack (4.2)"
        for h in us_hexes:
            assert us_stack_ok(T, arrays, g, h, -1, 0), f"game {g}: U.S. stack in {sc.grid.number(h)} (4.1)"
    assert (state.casualties >= 0).all() and (state.casualties <= sc.casualty_max).all()
    over = state.casualties >= sc.casualty_max
    assert (state.terminated[over] & (state.rewards[over, JAPAN] > 0)).all(), "30 casualties and no Japanese win"
    live = ~(state.terminated | state.truncated)
    assert state.legal_action_mask[live].any(axis=1).all(), "live game without a legal action"
    assert not state.legal_action_mask[~live].any()
    assert np.isin(state.rewards, (-1.0, 0.0, 1.0)).all()
    assert (state.rewards.sum(axis=1) == 0).all() and (state.rewards[live] == 0).all()
    assert np.isin(state.current_player, (0, 1)).all()


def fuzz(core, batch, decisions, seed, refuse_every=1600, check_every=1):
    """Random masked play (tests/masked_play.py) of ``decisions`` decisions with the invariants
    checked every ``check_every`` steps and the heroes after every step; returns the finished games
    by how they ended: "terminated" (3.8, 12.1, 14.0) or at the decision "cap".  A game stopped for
    want of a legal action fails the fuzz with its phase."""
    steps = itertools.count()

    def check(before, after):
        if next(steps) % check_every == 0:
            check_invariants(core, after)
        assert (after.heroes_used >= before.heroes_used).all(), "a hero came back (11.0)"

    def ended(state, g):
        assert state.rewards[g].tolist() in ([1.0, -1.0], [-1.0, 1.0]), "a victory without a winner (3.8)"

    return play_masked(core, core.init(batch, seed=seed), np.random.default_rng(seed), decisions=decisions,
                       cap=int(core.tables.max_decisions), seed=seed + 1, refuse_every=refuse_every,
                       phase_names=PHASE_NAMES, check=check, ended=ended)


SCENARIOS = ("campaign", "campaign_free", "hogs_back", "holtz_bay_jarmin_pass", "linkup")
# every core option against its default: solitaire (13.0), VP chits (14.0), heroes (11.0) and the
# minor decisions taken by defaults
OPTIONS = [dict(zip(("solitaire", "vp_chits", "heroes", "decisions"), values))
           for values in itertools.product((False, True), (False, True), (True, False), ("full", "major"))]


@pytest.mark.parametrize("scenario,options,n", [
    ("campaign", {}, 30_000),
    ("campaign_free", {}, 20_000),
    ("campaign", {"solitaire": True}, 20_000),
    ("hogs_back", {"vp_chits": True}, 10_000),
    ("holtz_bay_jarmin_pass", {"vp_chits": True, "heroes": False}, 10_000),
    ("linkup", {"solitaire": True, "decisions": "major"}, 10_000),
])
def test_attu_fuzz_random_masked_play_keeps_invariants(scenario, options, n):
    endings = fuzz(make_core(scenario, **options), batch=16, decisions=n, seed=23)
    assert sum(endings.values()) >= 1, endings


@pytest.mark.slow
def test_attu_fuzz_long_every_scenario_and_option():
    """>= 10^6 decisions over every scenario and every combination of options (5 x 16 cores);
    prints the endings by cause (``pytest -m slow -s`` shows them)."""
    per_core = 1_000_000 // (len(SCENARIOS) * len(OPTIONS)) + 1
    ended = collections.Counter()
    for scenario in SCENARIOS:
        for options in OPTIONS:
            out = fuzz(make_core(scenario, **options), batch=8, decisions=per_core, seed=5,
                       refuse_every=4000, check_every=2)
            ended += out
            print(f"{scenario:22s} {options}: {per_core} decisions, {dict(out)}")
            assert sum(out.values()) >= 1, "no game of this core finished"
    print(f"all: {per_core * len(SCENARIOS) * len(OPTIONS)} decisions, {sum(ended.values())} games: {dict(ended)}")
    assert ended["terminated"] > 0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(1, 120))
def test_attu_random_prefix_replays_exactly(seed, steps):
    """Determinism: the same seed and actions give the same state, array for array."""
    core = make_core("campaign")
    rng = np.random.default_rng(seed)
    state = core.init(2, seed=seed)
    actions = []
    for _ in range(steps):
        a = (rng.random(state.legal_action_mask.shape) * state.legal_action_mask).argmax(1)
        actions.append(a)
        state = core.step(state, a)
    replay = core.init(2, seed=seed)
    for a in actions:
        replay = core.step(replay, a)
    for name, arr in state.arrays().items():
        assert np.array_equal(arr, getattr(replay, name)), name


def test_attu_save_and_load_mid_game_continues_identically():
    """to_dict/from_dict restore a game exactly: the restored and the original games, given the
    same actions, stay equal array for array (hidden chits and dice keys included)."""
    core = make_core("campaign", solitaire=True)
    rng = np.random.default_rng(4)
    state = core.init(2, seed=4)
    for _ in range(300):
        state = core.step(state, (rng.random(state.legal_action_mask.shape) * state.legal_action_mask).argmax(1))
    restored = core.from_dict([core.to_dict(state, g) for g in range(2)])
    for _ in range(200):
        a = (rng.random(state.legal_action_mask.shape) * state.legal_action_mask).argmax(1)
        state, restored = core.step(state, a), core.step(restored, a)
    for name, arr in state.arrays().items():
        assert np.array_equal(arr, getattr(restored, name)), name


def test_attu_reset_done_replaces_only_the_finished_games():
    """Auto-reset: a finished game becomes the fresh game of its (seed, episode) key; the other
    games are left exactly as they were, and the input state is not modified."""
    core = make_core("campaign")
    rng = np.random.default_rng(5)
    state = core.init(6, seed=5)
    for _ in range(60):
        state = core.step(state, (rng.random(state.legal_action_mask.shape) * state.legal_action_mask).argmax(1))
    done = np.array([False, True, False, False, True, False])
    ended = dataclasses.replace(state, terminated=done)
    before = ended.copy()
    out = core.reset_done(ended, seed=9, episode=np.arange(100, 106))
    for name, arr in before.arrays().items():
        assert np.array_equal(arr, getattr(ended, name)), name
    for g in (1, 4):
        new = core._init(game_keys(9, 1, first_game=100 + g))
        for name, arr in new.arrays().items():
            assert np.array_equal(arr[0], getattr(out, name)[g]), (g, name)
    for g in (0, 2, 3, 5):
        for name, arr in state.arrays().items():
            assert np.array_equal(arr[g], getattr(out, name)[g]), (g, name)
