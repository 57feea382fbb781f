"""The U.S.'s determinizations (``core.sample_hidden``; wargym/attu/determinize.py) and what the
U.S. remembers (``us_knows``; README "What the U.S. remembers").

Positions are laid out with the position API (wargym.position) on the campaign's start (seed 0:
Japan's historic set-up, 12.3, puts Unknowns 126-141 face down on their sixteen hexes, 136 on
Engineer Hill 2717 and 134 on 2915, and the guns on theirs, 142 a 20mm gun on 1812; the 64
Infantry are in the cup).  Every count is worked out by hand in the test's docstring.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from attu_board import Board, make_core
from wargym.attu.determinize import GUN, INF, unit_kinds
from wargym.attu.fog import anonymous_units, reveal_unknowns
from wargym.attu.scenario import ARTILLERY, INFANTRY, JAPAN, US
from wargym.attu.state import LOC_ELIM, LOC_MAP, LOC_RESERVE, NO_CHIT
from wargym.contract import invariants, mid_game_states
from wargym.core import RecordError
from wargym.position import Position

UNKNOWNS = [f"Unknown {k}" for k in range(126, 142)]


def settled(core, edit) -> object:
    """The campaign's start (seed 0) edited by ``edit(pos)`` and handed to the rules."""
    pos = Position(core, seed=0)
    edit(pos)
    return pos.settle()


def units(core, *names: str) -> list[int]:
    return [core.scenario.unit_names.index(n) for n in names]


def view_of(core, state, game: int = 0) -> dict:
    return core.to_dict(core.view(state.take([game]), US), 0)


def assert_like_the_position(core, real, samples) -> None:
    """Every sample: the U.S. view of the position, the invariants, a legal action to play on."""
    assert invariants(core, samples) == []
    want = view_of(core, real)
    for r in range(samples.batch_size):
        assert view_of(core, samples, r) == want, r
    live = ~(samples.terminated | samples.truncated)
    assert samples.legal_action_mask[live].any(axis=1).all()


def inf_62_face_up_on_1610(pos) -> None:
    """The position edit: Japanese Infantry 62 face up on hex 1610, where the U.S. sees it."""
    pos.set("unit_loc", "map", item="Inf 62").set("unit_hex", "1610", item="Inf 62").set("face_down", False,
                                                                                        item="Inf 62")


# ------------------------------------------------------------------------------ 2.5: the deal
@pytest.mark.parametrize("odd", ["jp_20mm 142", "Inf 62"])
def test_attu_2_5_three_anonymous_counters_of_two_kinds_take_each_of_the_three_deals_alike(odd):
    """Three face-down counters the U.S. cannot tell apart: Unknowns 136 (2717) and 134 (2915), and
    ``odd``: the 20mm gun on 1812, made anonymous by hand, or Infantry 62 laid face down on 1216
    beside Unknown 135.  Every other Japanese counter is known to the U.S. or in the cup.

    With the gun: no counter goes to the cup or the eliminated pile that the rules do not put
    there (a gun never goes to the cup, and none was taken off the map: ``jp_removed`` 0), so the
    three places hold the two Unknowns and the gun, the gun in one of three places: 3 deals.
    With the Infantry: a face-down Infantry unit the U.S. never saw face up is a position the rules
    do not reach (every Infantry unit comes on face up, 2.5), so the deal keeps to the fewest:
    one Infantry unit face down on the map, in one of three places (the other two hold the
    Unknowns; which of the 64 Infantry it is, the U.S. cannot tell): 3 deals.  Each deal 1/3:
    3,000 samples, 1,000 expected in each place; Pearson's statistic with 2 degrees of freedom
    (seed 5: the counts, statistic and p printed in the report)."""
    core = make_core("campaign")
    known = [u for u in UNKNOWNS if u not in ("Unknown 136", "Unknown 134")]
    place = {"jp_20mm 142": "1812", "Inf 62": "1216"}[odd]

    def edit(pos):
        for name in known:
            pos.set("us_knows", True, item=name)
        if odd.startswith("jp_"):
            pos.set("us_knows", False, item=odd)
        else:
            pos.set("unit_loc", "map", item=odd).set("unit_hex", place, item=odd).set("face_down", True, item=odd)

    real = settled(core, edit)
    places = [core.scenario.grid.index(int(h)) for h in ("2717", "2915", place)]
    who = anonymous_units(core, real, US)[0]
    assert sorted(np.flatnonzero(who & (real.unit_loc[0] == LOC_MAP)).tolist()) == \
        sorted(units(core, "Unknown 134", "Unknown 136", odd))

    samples = core.sample_hidden(real, US, 5, 3000)
    assert_like_the_position(core, real, samples)
    kinds = unit_kinds(core)
    want = GUN if odd.startswith("jp_") else INF
    anon = anonymous_units(core, samples, US)
    counts = []
    for h in places:
        at = (samples.unit_loc == LOC_MAP) & (samples.unit_hex == h) & anon
        assert (at.sum(axis=1) == 1).all()                  # one anonymous counter in each place
        counts.append(int((at & (kinds == want)[None, :]).sum()))
    odd_kind = (anon & (samples.unit_loc == LOC_MAP) & (kinds == want)[None, :]).sum(axis=1)
    assert (odd_kind == 1).all() and sum(counts) == 3000   # exactly one in every sample
    x, p = chisquare(counts)  # against equal thirds
    print(f"{odd}: counts {counts} over 2717, 2915, {place}; chi-square {x:.3f}, p {p:.3f}")
    assert p > 0.01, (counts, x, p)


def test_attu_12_3_the_guns_are_known_from_the_set_up_and_the_unknowns_dealt_among_themselves():
    """12.3 names every gun's hex, so the U.S. knows the guns (README); a face-down counter it
    cannot tell apart is an Unknown (every Infantry unit is in the cup, 12.3); off the map, the cup
    holds the 64 Infantry.  In every sample the guns stand where they stand, the sixteen Unknown
    hexes hold one Unknown each (a uniform permutation of the 16: each Unknown in each hex with
    probability 1/16) and the Infantry are in the cup with one step."""
    core = make_core("campaign")
    real = core.init(1, 0)
    sc = core.scenario
    guns = np.flatnonzero((sc.unit_side == JAPAN) & (sc.unit_type == ARTILLERY))
    unknowns = units(core, *UNKNOWNS)
    assert real.us_knows[0, guns].all() and not real.us_knows[0, unknowns].any()
    samples = core.sample_hidden(real, US, 1, 400)
    assert_like_the_position(core, real, samples)
    assert (samples.unit_hex[:, guns] == real.unit_hex[0, guns]).all()
    assert (np.sort(samples.unit_hex[:, unknowns], axis=1) == np.sort(real.unit_hex[0, unknowns])).all()
    infantry = (sc.unit_side == JAPAN) & (sc.unit_type == INFANTRY)
    assert (samples.unit_loc[:, infantry] == LOC_RESERVE).all() and (samples.unit_steps[:, infantry] == 1).all()
    on_2717 = samples.unit_hex[:, unknowns] == sc.grid.index(2717)
    assert 0 < on_2717[:, unknowns.index(units(core, "Unknown 136")[0])].sum() < 400   # not kept: anonymous


# ------------------------------------------------------------------------- 2.5: the memory
def test_attu_2_5_a_counter_seen_face_up_then_hidden_keeps_its_identity():
    """Infantry 62 laid face up on 1610, where no U.S. unit sees it (the U.S. is still staging):
    the rules note it (the U.S. sees it face up) and 2.5 flips it face down at once.  It stays
    known: the U.S. view names it there, and every sample keeps Infantry 62 face down on 1610.
    Infantry 63, laid face down on 1612 and never seen, is a counter the U.S. cannot tell apart:
    17 such places on the map (the sixteen Unknown hexes and 1612) for 16 Unknowns and 64 Infantry
    (63 places in the cup), so the deal with the fewest Infantry face down on the map has one, in
    any of the 17 places alike: 1612 holds an Infantry unit in 1/17 of the samples (100 of 1,700
    expected; between 50 and 150 checked), an Unknown in the others."""
    core = make_core("campaign")
    seen, unseen = units(core, "Inf 62", "Inf 63")
    sc = core.scenario

    def edit(pos):
        pos.set("unit_loc", "map", item="Inf 62").set("unit_hex", "1610", item="Inf 62").set("face_down", False,
                                                                                            item="Inf 62")
        pos.set("unit_loc", "map", item="Inf 63").set("unit_hex", "1612", item="Inf 63").set("face_down", True,
                                                                                            item="Inf 63")

    real = settled(core, edit)
    assert real.face_down[0, seen] and real.us_knows[0, seen]          # 2.5: hidden again, remembered
    assert real.face_down[0, unseen] and not real.us_knows[0, unseen]
    view = core.view(real, US)
    assert view.unit_hex[0, seen] == sc.grid.index(1610) and view.unit_loc[0, seen] == LOC_MAP
    samples = core.sample_hidden(real, US, 2, 1700)
    assert_like_the_position(core, real, samples)
    assert (samples.unit_hex[:, seen] == sc.grid.index(1610)).all()
    assert (samples.unit_loc[:, seen] == LOC_MAP).all() and samples.face_down[:, seen].all()
    kinds = unit_kinds(core)
    at = (samples.unit_loc == LOC_MAP) & (samples.unit_hex == sc.grid.index(1612))
    infantry_there = (at & (kinds == INF)[None, :]).sum()
    assert 50 < infantry_there < 150                                     # 1700 / 17 = 100
    assert (at.sum(axis=1) == 1).all()


def test_attu_8_5_infantry_eliminated_in_plain_view_stays_known_in_the_eliminated_pile():
    """The U.S. company 2/17 E below Engineer Hill (2618) fires at Infantry 62 and 63, face up on
    2717 beside it (README "Set up a position"): the dice '0' and 4 give one hit (the '0', 8.1).
    Japan puts it on Infantry 62 (8.0), which is eliminated (8.5: not the last Infantry there).
    The U.S. saw it: it is known in the eliminated pile, shown there (0 steps) in its view, and in
    every sample; Infantry 63 stays known on 2717, face up."""
    core = make_core("campaign", every_decision=True)
    a, b = units(core, "Inf 62", "Inf 63")

    def edit(pos):
        pos.set("unit_loc", "map", item="2/17 E").set("unit_hex", "2618", item="2/17 E")
        for name in ("Inf 62", "Inf 63"):
            pos.set("unit_loc", "map", item=name).set("unit_hex", "2717", item=name).set("face_down", False, item=name)
        pos.set("unit_loc", "off map", item="Unknown 136").set("unit_hex", -1, item="Unknown 136")
        pos.set("turn", 5).set("weather", "cloudy").set("night", False)
        pos.set("acting", 0).set("first", 0).set("phase", "actions: select")

    state = settled(core, edit)

    def act(state, words):
        for x in np.flatnonzero(state.legal_action_mask[0]):
            if core.describe_action(int(x), state).startswith(words):
                return np.array([x])
        raise AssertionError(f"no legal action {words!r}: " + ", ".join(
            core.describe_action(int(x), state) for x in np.flatnonzero(state.legal_action_mask[0])))

    state = core.step(state, act(state, "actions: select: hex 2618"))
    state = core.force(state, [10, 4])
    state = core.step(state, act(state, "actions: order: hex 2717"))
    while core.phase_names[int(state.phase[0])] != "allocate losses":
        state = core.step(state, act(state, core.phase_names[int(state.phase[0])]))
    slots = [core.describe_action(int(x), state) for x in np.flatnonzero(state.legal_action_mask[0])]
    state = core.step(state, act(state, "unit slot 0"))
    assert slots == ["unit slot 0", "unit slot 1"]
    assert state.unit_loc[0, a] == LOC_ELIM and state.us_knows[0, a]
    assert state.unit_loc[0, b] == LOC_MAP and state.us_knows[0, b]
    view = core.view(state, US)
    assert view.unit_loc[0, a] == LOC_ELIM and view.unit_steps[0, a] == 0
    samples = core.sample_hidden(state, US, 3, 200)
    assert_like_the_position(core, state, samples)
    assert (samples.unit_loc[:, a] == LOC_ELIM).all() and (samples.unit_steps[:, a] == 0).all()
    assert (samples.unit_hex[:, b] == state.unit_hex[0, b]).all()


@pytest.mark.parametrize("scenario,where", [("campaign", LOC_RESERVE), ("hogs_back", LOC_ELIM)])
def test_attu_2_5_15_1_an_unknown_revealed_is_remembered_only_in_the_eliminated_pile(scenario, where):
    """An Unknown on 2717 revealed (2.5, a '0' on its table) is flipped to its table side in the
    U.S.'s sight: in the campaign it goes back into the cup, where the U.S. cannot follow it
    (forgotten); in 15.1 it is eliminated (single use), and known there.  The Infantry it gives
    are placed face up: known."""
    core = make_core(scenario)
    b = Board(core)
    unk = b.japanese("unknown")
    b.place(unk, 2717, face_down=True)
    b.force([10])
    n = reveal_unknowns(b.tables, b.arrays, 0, b.hex(2717), False)
    assert n == core.scenario.unit_table[unk][9] > 0
    assert b.state.unit_loc[0, unk] == where
    assert bool(b.state.us_knows[0, unk]) == (where == LOC_ELIM)
    here = np.flatnonzero((b.state.unit_loc[0] == LOC_MAP) & (b.state.unit_hex[0] == b.hex(2717)))
    assert len(here) == n and b.state.us_knows[0, here].all()


def test_attu_9_6_a_counter_put_back_in_the_cup_is_forgotten():
    """A known Infantry unit (seen face up on 1610, then hidden) taken off the map into the cup, as
    9.6's swap does, is forgotten: the rules clear the memory (fog.note_seen), and the invariants
    refuse a counter known in the cup."""
    core = make_core("campaign")

    state = settled(core, inf_62_face_up_on_1610)
    u = units(core, "Inf 62")[0]
    assert state.us_knows[0, u]
    pos = Position(core, state)
    pos.set("unit_loc", "off map", item="Inf 62").set("unit_hex", -1, item="Inf 62")
    assert not pos.settle().us_knows[0, u]
    assert any("us_knows" in e for e in core.check_state(pos.state))


# ------------------------------------------------------------------------- 12.1, 14.0: pools
def test_attu_14_0_12_1_chits_dealt_from_their_mixes():
    """14.0: five value chits (1, 1, 2, 2, 3: charts.yaml) for the five Victory Hexes other than
    Attu Village, six cancel chits (five 0, one cancelled) for the six; 12.1: one Effect chit of
    24, 27, 30 and one Delay chit of 1-4.  Hidden from the U.S. until the end (the Komandorski
    chits until their reveals), every sample deals each mix without replacement: the hexes' chits
    are the mix itself (a sub-multiset of it, all of it here); over 600 samples each value chit
    lands on each hex (1/5 or 2/5 of the time) and each Effect and Delay chit comes."""
    core = make_core("campaign", vp_chits=True)
    sc = core.scenario
    real = core.init(1, 0)
    samples = core.sample_hidden(real, US, 4, 600)
    assert_like_the_position(core, real, samples)
    has_value = real.vp_value[0] != NO_CHIT
    assert has_value.sum() == 5
    for r in range(samples.batch_size):
        assert sorted(samples.vp_value[r, has_value].tolist()) == sorted(sc.vp_value_chits.tolist())
        assert sorted(samples.vp_cancel[r].tolist()) == sorted(sc.vp_cancel_chits.tolist())
    assert (samples.vp_value[:, ~has_value] == NO_CHIT).all()
    for z in np.flatnonzero(has_value):
        assert set(samples.vp_value[:, z].tolist()) == set(sc.vp_value_chits.tolist())
    assert set(samples.ke_effect.tolist()) == set(sc.effect_chits.tolist())
    assert set(samples.ke_delay.tolist()) == set(sc.delay_chits.tolist())


# ------------------------------------------------------------- every sample a position of the game
@pytest.mark.parametrize("scenario,options,positions,each", [
    ("campaign", {}, 50, 20),
    ("campaign_free", {}, 10, 10),
    ("hogs_back", {"vp_chits": True}, 10, 10),
    ("linkup", {"decisions": "major"}, 10, 10),
    ("campaign", {"solitaire": True}, 10, 10),
])
def test_attu_determinizations_keep_the_us_view_and_the_invariants_and_play_on(scenario, options, positions, each):
    """Mid-game positions of random play (wargym.contract.mid_game_states, seed 7): every sample
    (1,000 in the campaign) has the position's U.S. view, passes the invariants, and plays on: a
    random legal action from each keeps the invariants.  Where the memory explains the position (a
    game played from its start), the deal is the position's kind by kind: as many Unknowns,
    Infantry and guns the U.S. cannot tell apart on the map, in the cup and in the eliminated pile
    as in the real game (an Unknown eliminated face down, 8.2, aside: README)."""
    from wargym.agents.random_agent import sample_legal
    core = make_core(scenario, **options)
    kinds = unit_kinds(core)
    rng = np.random.default_rng(7)
    for real in mid_game_states(core, 7, positions):
        samples = core.sample_hidden(real, US, rng, each)
        assert_like_the_position(core, real, samples)
        who = anonymous_units(core, real, US)[0]
        if not (who & (real.unit_loc[0] == LOC_ELIM)).any():
            want = sorted(zip(kinds[who].tolist(), real.unit_loc[0, who].tolist()))
            for r in range(each):
                got = anonymous_units(core, samples.take([r]), US)[0]
                assert sorted(zip(kinds[got].tolist(), samples.unit_loc[r, got].tolist())) == want
        live = samples.take(np.flatnonzero(~(samples.terminated | samples.truncated)))
        if live.batch_size:
            after = core.step(live, sample_legal(rng, live.legal_action_mask))
            assert invariants(core, after, live) == []


# ------------------------------------------------------------------------------------ records
def test_attu_a_record_without_the_memory_is_refused_and_a_wrong_memory_named():
    """A record without ``us_knows`` (written before the U.S. memory) is refused like any record
    with a field missing, naming it; a counter known in the cup breaks the field's rule (a
    Japanese counter may be known only on the map or in the eliminated pile)."""
    core = make_core("campaign")
    state = settled(core, inf_62_face_up_on_1610)
    record = core.to_dict(state, 0)
    old = {**record, "fields": {k: v for k, v in record["fields"].items() if k != "us_knows"}}
    with pytest.raises(RecordError, match="us_knows"):
        core.from_dict(old)
    bad = core.to_dict(state, 0)
    bad["fields"]["us_knows"]["value"][units(core, "Inf 63")[0]] = True     # in the cup
    with pytest.raises(RecordError, match="us_knows"):
        core.from_dict(bad)
