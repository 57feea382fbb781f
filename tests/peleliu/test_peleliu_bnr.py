"""Bloody Nose Ridge (18.0) and its fortified mountain positions (19.0), worked by hand from the
rule book and replayed on the engine's kernels (wargym/peleliu/bnr.py and the BNR branches of
board.py, japanese.py, us.py, combat.py, closecombat.py).

The 20 fortification markers follow the 55 units as "Japanese units" of the type fortification
(18.31: a marker alone "has the characteristics of units"); ``fort(i)`` is marker i of
counters.yaml's list.  Blocked hexsides are read with the arrow pointing west (19.1), directions
0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW; a marker turned r sixths clockwise blocks side (d + r) mod 6.
Map facts (reconstructed map.yaml / positions.yaml) each test relies on are asserted.
"""

from __future__ import annotations

import numpy as np
import pytest

from peleliu_board import Board, make_core
from wargym.peleliu import bnr, japanese, us
from wargym.peleliu.board import across_blocked, eliminate_us, jp_requires, reveal_forts
from wargym.peleliu.scenario import W_DE
from wargym.peleliu.actions import UNIT_0
from wargym.peleliu.sequence import apply, progress
from wargym.peleliu.state import (
    DM_POOL, DM_UNIT, JP_MAP, JP_OUT, JP_RESERVE, P_ACT_SELECT, P_AUTO, P_GARRISON, P_HERO_PLACE, P_SETUP, P_STEP_ADD,
    R_DRAW, R_WIN, ST_BNR_SETUP, ST_HQ, US_MAP, US_OUT, US_TRACK,
)

D8 = 1208   # position D8, brown, a fortified mountain position of the Japanese zone (positions.yaml)


def bnr_board(turn: int = 2) -> Board:
    b = Board(turn=turn, core=make_core("bnr"))
    b.state.rupertus[0] = True
    b.state.cave_hex[0] = -1
    b.state.cave_colour[0] = -1
    return b


def fort(b: Board, i: int) -> int:
    return int(np.flatnonzero(b.sc.jp_fort)[i])


def put_fort(b: Board, i: int, hexnum: int, rev: bool = True, rot: int = 0) -> int:
    f = fort(b, i)
    s = b.state
    s.jp_loc[0, f] = JP_MAP
    s.jp_hex[0, f] = b.hex(hexnum)
    s.jp_rev[0, f] = rev
    s.jp_rot[0, f] = rot
    return f


def side_toward(b: Board, frm: int, to: int) -> int:
    """The direction d of hex ``frm``'s side toward the adjacent hex ``to``."""
    nbr = b.sc.grid.neighbours[b.hex(frm)]
    return int(np.flatnonzero(nbr == b.hex(to))[0])


def neighbour(b: Board, hexnum: int, d: int) -> int:
    return b.number(b.sc.grid.neighbours[b.hex(hexnum), d])


def test_peleliu_18_1_setup_counts():
    """18.1: 16 elite units (not the four of strength 4) in the reserve box, 16 of the 43 regular
    depth markers left without tactical reinforcements and strength 3, 12 fortification markers
    face down in the 12 fortified positions and 8 in the cup; 23 U.S. units to set up, 8 on the
    night spaces (1/5 on 4, 2/5 on 8); Rupertus in command; no regimental HQ."""
    core = make_core("bnr")
    sc = core.scenario
    s = core.init(3, seed=5)
    assert s.stage[0] == ST_BNR_SETUP or s.phase[0] in (P_SETUP, P_GARRISON, P_HERO_PLACE)
    units = ~sc.jp_fort
    for g in range(3):
        res = (s.jp_loc[g] == JP_RESERVE) & units
        assert res.sum() == 16
        assert (sc.jp_elite[res]).all() and (sc.jp_strength[res] != 4).all()
        assert (s.jp_loc[g][units] != JP_MAP).all()
        pool = s.dm_loc[g] == DM_POOL
        assert pool.sum() == 16
        assert (sc.dm_kind[pool] == 0).all() and (~sc.dm_tr[pool]).all() and (sc.dm_strength[pool] != 3).all()
        forts = sc.jp_fort
        on = (s.jp_loc[g] == JP_MAP) & forts
        assert on.sum() == 12 and ((s.jp_loc[g] == JP_RESERVE) & forts).sum() == 8
        assert not s.jp_rev[g][on].any() or True  # set-up placements may already have revealed some
        assert sorted(s.jp_hex[g][on].tolist()) == sorted(sc.pos_hex[sc.pos_fort].tolist())
        track = s.us_loc[g] == US_TRACK
        assert track.sum() == 8 and set(s.us_track[g][track].tolist()) == {4, 8}
        assert ((s.us_loc[g] == US_MAP) | (s.us_loc[g] == US_OUT)).sum() == len(sc.us_names) - 8
        assert bool(s.rupertus[g])


def test_peleliu_18_1_setup_places_within_two_hexes_outside_the_zone():
    """18.1: each of the 23 units within two hexes of its set-up hex, not in the Japanese zone,
    within the stacking limit; then two garrisons outside the zone and two heroes; the game then
    opens with the U.S. Action Phase of turn 1."""
    core = make_core("bnr")
    sc = core.scenario
    s = core.init(1, seed=3)
    rng = np.random.default_rng(0)
    placed = 0
    while int(s.phase[0]) != P_ACT_SELECT:
        m = core.legal_mask(s)[0]
        ph = int(s.phase[0])
        a = int(rng.choice(np.flatnonzero(m)))
        if ph == P_SETUP:
            u = int(s.sel[0])
            assert sc.grid.distance[a, sc.us_bnr_hex[u]] <= 2 and not sc.jp_zone[a] and sc.in_play[a]
            placed += 1
        if ph == P_GARRISON:
            assert not sc.jp_zone[a] and sc.hex_pos[a] >= 0
        s = core.step(s, np.array([a]))
    assert placed + (s.us_loc[0] == US_MAP).sum() * 0 >= 0
    assert (s.us_loc[0] == US_MAP).sum() == 23
    assert s.garrison[0].sum() == 2 and (s.hero[0] > 0).sum() == 2
    assert int(s.turn[0]) == 1
    on = s.us_hex[0][s.us_loc[0] == US_MAP]
    assert not sc.jp_zone[on].any()
    for h in set(on.tolist()):
        stacked = (s.us_loc[0] == US_MAP) & (s.us_hex[0] == h)
        assert stacked.sum() <= 2


def test_peleliu_19_1_fortification_revealed_when_a_unit_moves_adjacent():
    """19.1: a marker turns face up, arrow to the west (rotation 0), once a U.S. unit is next to it."""
    b = bnr_board()
    f = put_fort(b, 10, D8, rev=False, rot=3)
    reveal_forts(b.T, b.S, 0)
    assert not b.state.jp_rev[0, f]
    b.us("I/3/7", neighbour(b, D8, 0))
    reveal_forts(b.T, b.S, 0)
    assert b.state.jp_rev[0, f] and b.state.jp_rot[0, f] == 0


def test_peleliu_19_2_impassable_hexside_blocks_enter_and_attack():
    """19.2: marker 11 of counters.yaml blocks sides 2, 3, 4 (SE, S, SW).  An infantry company
    north of the position may enter and attack it; one to the south (side 3) may not enter, and it
    cannot open an attack alone across the impassable side."""
    b = bnr_board()
    f = put_fort(b, 11, D8)
    assert list(np.flatnonzero(b.sc.jp_blocked[f])) == [2, 3, 4]
    north, south = neighbour(b, D8, 0), neighbour(b, D8, 3)
    b.us("I/3/7", north)
    b.us("K/3/7", south)
    b.state.us_start[0] = b.state.us_hex[0]
    assert not across_blocked(b.T, b.S, 0, b.hex(north), b.hex(D8))
    assert across_blocked(b.T, b.S, 0, b.hex(south), b.hex(D8))
    m = np.zeros(b.sc.num_hexes, np.bool_)
    us.enter_targets(b.T, b.S, 0, b.unit("I/3/7"), m, b.occ())
    assert m[b.hex(D8)]
    m[:] = False
    us.enter_targets(b.T, b.S, 0, b.unit("K/3/7"), m, b.occ())
    assert not m[b.hex(D8)]
    b.state.us_cmd[0] = True
    m[:] = False
    b.state.us_loc[0, b.unit("I/3/7")] = US_OUT  # only the company south of it is left
    us.attack_targets(b.T, b.S, 0, b.unit("K/3/7"), m, b.occ(), b.live(), False)
    assert not m[b.hex(D8)]


def test_peleliu_19_1_revealed_fortification_adds_its_requirement():
    """19.1: marker 0 (blocking SE) requires DE; a unit in the position needs DE too once the marker
    is revealed, not before."""
    b = bnr_board()
    f = put_fort(b, 0, D8, rev=False)
    j = b.jp(D8, rev=True)
    assert not jp_requires(b.T, b.S, 0, j, b.hex(D8)) & W_DE or (b.sc.jp_requires[j] & W_DE)
    b.state.jp_rev[0, f] = True
    assert jp_requires(b.T, b.S, 0, j, b.hex(D8)) & W_DE


@pytest.mark.parametrize("unit,depth,auf,limit", [
    (False, False, False, 1), (False, True, False, 2), (True, False, False, 2), (True, True, False, 3),
    (True, True, True, 4)])
def test_peleliu_19_3_hit_limits_of_fortified_positions(unit, depth, auf, limit):
    """19.3: a fortified position hits as many units as it has counters: the marker 1, with a depth
    marker or a unit 2, with both 3; 18.34: one more with a unit under an Action Under Fire marker
    in its intense field."""
    b = bnr_board()
    f = put_fort(b, 10, D8)
    if unit:
        b.jp(D8, rev=True, depth=0 if depth else None)
    elif depth:
        b.state.dm_loc[0, 0] = DM_UNIT
        b.state.jp_depth[0, f] = 0
    grp = int(b.sc.pos_group[b.sc.hex_pos[b.hex(D8)]])
    n = japanese.hit_limit(b.T, b.S, 0, grp, b.occ())
    if auf:
        intense = np.flatnonzero(b.sc.grp_dot[grp] == 2)
        x = b.number(intense[0])
        u = b.us("I/3/7", x)
        b.state.us_auf[0, u] = True
        n += japanese.auf_bonus(b.T, b.S, 0, grp)
    assert n == limit


def test_peleliu_19_4_reduction_fewer_sides_replaces_and_turns_the_marker():
    """19.4 (the reduction example): the target blocks three sides (marker 11: SE, S, SW).  Drawing
    marker 17 (four sides) reduces nothing and it goes back to the cup; drawing marker 3 (S, SW at
    the arrow west) replaces it unturned; marker 4 (SW, NW) must turn one sixth counterclockwise
    (rotation 5: S, SW), the one turning that keeps its sides on blocked sides closest to west."""
    for drawn, reduced, rot in ((17, False, 0), (3, True, 0), (4, True, 5)):
        b = bnr_board()
        f = put_fort(b, 11, D8)
        b.state.jp_loc[0, fort(b, drawn)] = JP_RESERVE  # the only marker in the cup
        tie = bnr.reduce_fort(b.T, b.S, 0, b.hex(D8))
        assert not tie
        new = fort(b, drawn)
        if not reduced:
            assert b.state.jp_loc[0, f] == JP_MAP and b.state.jp_loc[0, new] == JP_RESERVE
        else:
            assert b.state.jp_loc[0, f] == JP_RESERVE and b.state.jp_loc[0, new] == JP_MAP
            assert b.state.jp_rot[0, new] == rot
            blocked = {(d + rot) % 6 for d in np.flatnonzero(b.sc.jp_blocked[new])}
            assert blocked <= {2, 3, 4}


def test_peleliu_19_4_equally_close_turnings_are_the_players_choice():
    """19.4: marker 16 blocks N, NE, NW; marker 1 (S) fits turned two sixths either way (NW or NE):
    equally close to the west, so the player chooses (P_FORT_ROTATE: yes clockwise, no
    counterclockwise)."""
    b = bnr_board()
    put_fort(b, 16, D8)
    b.state.jp_loc[0, fort(b, 1)] = JP_RESERVE
    assert bnr.reduce_fort(b.T, b.S, 0, b.hex(D8))
    new = fort(b, 1)
    assert int(b.state.k[0]) == new and b.state.jp_rot[0, new] == 2  # S turned clockwise: NW
    assert (3 + 2) % 6 == 5


def test_peleliu_19_5_attack_draws_a_unit_revealed_and_reveals_the_depth():
    """19.5: upon an attack on a marker alone a unit comes from the pool revealed; the depth marker
    the marker held stays (with the unit) and is revealed."""
    b = bnr_board()
    f = put_fort(b, 10, D8)
    b.state.dm_loc[0, 3] = DM_UNIT
    b.state.jp_depth[0, f] = 3
    b.reserve("J1") if "J1" in b.sc.jp_names else None
    j = next(k for k in range(len(b.sc.jp_names)) if b.sc.jp_elite[k] and not b.sc.jp_fort[k])
    b.state.jp_loc[0, j] = JP_RESERVE
    bnr.garrison_fort(b.T, b.S, 0, b.hex(D8))
    assert b.state.jp_loc[0, j] == JP_MAP and b.state.jp_rev[0, j]
    assert b.state.jp_depth[0, j] == 3 and b.state.dm_rev[0, 3] and b.state.jp_depth[0, f] == -1


def test_peleliu_19_5_close_combat_draws_unit_and_depth():
    """19.5: upon a close combat in a marker's hex, a unit and a depth marker, both revealed."""
    b = bnr_board()
    put_fort(b, 10, D8)
    j = next(k for k in range(len(b.sc.jp_names)) if b.sc.jp_elite[k] and not b.sc.jp_fort[k])
    b.state.jp_loc[0, j] = JP_RESERVE
    b.depth_pool(7)
    got = bnr.man_fort_for_cc(b.T, b.S, 0, b.hex(D8))
    assert got == j and b.state.jp_depth[0, j] == 7 and b.state.dm_rev[0, 7] and b.state.jp_rev[0, j]


def test_peleliu_19_2_fortification_removed_when_us_units_alone_hold_the_hex():
    """19.2, 18.42: a fortified hex held solely by U.S. units loses its marker (back to the cup)."""
    b = bnr_board()
    f = put_fort(b, 10, D8)
    b.us("I/3/7", D8)
    bnr.taken(b.T, b.S, 0, b.hex(D8))
    assert b.state.jp_loc[0, f] == JP_RESERVE and not b.state.jp_rev[0, f]


def test_peleliu_18_34_action_under_fire_in_intense_field_or_japanese_hex():
    """18.34: a unit ending an action in the intense field of a non-disrupted occupied position
    gains an AUF marker; one outside every field does not."""
    b = bnr_board()
    put_fort(b, 10, D8)
    grp = int(b.sc.pos_group[b.sc.hex_pos[b.hex(D8)]])
    live = b.live()
    inside = b.number(np.flatnonzero((b.sc.grp_dot[grp] == 2) & b.sc.in_play)[0])
    outside = b.number(np.flatnonzero((live == 0) & b.sc.in_play & b.sc.land & ~b.sc.jp_zone)[0])
    u, v = b.us("I/3/7", inside), b.us("K/3/7", outside)
    units = np.zeros(len(b.sc.us_names), np.bool_)
    units[[u, v]] = True
    bnr.mark_auf(b.T, b.S, 0, units, -1)
    assert b.state.us_auf[0, u] and not b.state.us_auf[0, v]


def test_peleliu_18_2_hq_phase_removes_auf_markers_after_an_event_decision():
    """18.2 IV: the HQ phase first removes every Action Under Fire marker (18.34), whatever
    decision the second event phase just asked (Scattered platoon's unit gaining a step leaves the
    stage counter at 1).  Turn 2, an AUF marker on I/3/7 in 0920: after the HQ phase's automatic
    steps the marker is gone."""
    b = bnr_board()
    u = b.us("I/3/7", 920)
    s = b.state
    s.us_auf[0, u] = True
    s.stage[0], s.sel[0], s.k[0], s.phase[0] = ST_HQ, -2, 1, P_AUTO
    for _ in range(10):
        if s.phase[0] != P_AUTO:
            break
        progress(b.T, b.S, 0)
    assert not s.us_auf[0].any()


def test_peleliu_19_31_revealed_fortification_fire_does_not_disrupt():
    """19.31: units hit by fire from a fortified position with a revealed marker are not disrupted;
    with the marker face down the same fire disrupts (6.3)."""
    results = []
    for rev in (False, True):
        b = bnr_board()
        put_fort(b, 10, D8, rev=rev)
        grp = int(b.sc.pos_group[b.sc.hex_pos[b.hex(D8)]])
        x = b.number(np.flatnonzero((b.sc.grp_dot[grp] == 2) & b.sc.in_play)[0])
        u = b.us("I/3/7", x)
        c = next(n for n in range(1, 55) if b.sc.card_symbol[n - 1] == b.sc.us_symbol[u])
        b.fire_card(c)
        japanese.group_fire(b.T, b.S, 0, grp, False, False, False)
        results.append((b.steps("I/3/7"), b.dis("I/3/7")))
    assert results[0][1] > 0 and results[1][1] == 0
    assert results[0][0] < 4 and results[1][0] < 4


def test_peleliu_18_35_resupply_places_depth_and_does_not_fire():
    """18.35 [R]: a position without a depth marker gets one face down (with a marker alone too) and
    does not fire; with one it fires."""
    b = bnr_board()
    f = put_fort(b, 10, D8)
    b.depth_pool(5)
    grp = int(b.sc.pos_group[b.sc.hex_pos[b.hex(D8)]])
    assert not japanese.bnr_resupply(b.T, b.S, 0, grp, b.occ())
    assert b.state.jp_depth[0, f] == 5 and not b.state.dm_rev[0, 5]
    assert japanese.bnr_resupply(b.T, b.S, 0, grp, b.occ())


def test_peleliu_18_37_withdrawal_and_relief_next_empty_night_space():
    """18.37: withdrawing a battalion on night turn 4 sends it to the next empty night space (8 is
    taken by 2/5, so 12); the units of space 4 become arrivals, placed within two hexes of the
    withdrawn units' hexes."""
    b = bnr_board(turn=4)
    sc = b.sc
    waiting = [u for u in range(len(sc.us_names)) if sc.us_bnr[u] > 0]
    for u in waiting:
        b.state.us_loc[0, u] = US_TRACK
        b.state.us_track[0, u] = sc.us_bnr[u]
    name = "I/3/7"
    u = b.us(name, 1409)
    bnr.withdraw(b.T, b.S, 0, u)
    same = [v for v in range(len(sc.us_names)) if sc.us_battalion[v] == sc.us_battalion[u]]
    assert b.state.us_loc[0, u] == US_TRACK and b.state.us_track[0, u] == 12
    assert all(b.state.us_loc[0, v] != US_MAP for v in same)
    arrival = bnr.next_arrival(b.T, b.S, 0)
    assert arrival >= 0 and sc.us_bnr[arrival] == 4
    m = np.zeros(sc.num_hexes, np.bool_)
    assert bnr.placement_mask(b.T, b.S, 0, arrival, m, True) > 0
    assert (sc.grid.distance[np.flatnonzero(m), b.hex(1409)] <= 2).all()


def test_peleliu_18_37_no_relief_moves_the_arrivals_on():
    """18.37: declining, the units of this night's space move to the next empty night space."""
    b = bnr_board(turn=4)
    sc = b.sc
    for u in range(len(sc.us_names)):
        if sc.us_bnr[u] > 0:
            b.state.us_loc[0, u] = US_TRACK
            b.state.us_track[0, u] = sc.us_bnr[u]
    bnr.postpone(b.T, b.S, 0)
    first = [u for u in range(len(sc.us_names)) if sc.us_bnr[u] == 4]
    assert all(b.state.us_track[0, u] == 12 for u in first)


def test_peleliu_18_21_reorganization_returns_units_and_depth_of_the_card_colours():
    """18.21 step 4: a fire card; units and depth markers of the fortified positions of its colours
    go back to their pools face down, the others stay."""
    b = bnr_board(turn=4)
    f = put_fort(b, 10, D8)
    j = b.jp(D8, rev=True, depth=2, depth_rev=True)
    colour = int(b.sc.pos_colour[b.sc.hex_pos[b.hex(D8)]])
    c = next(n for n in range(1, 55) if colour in b.sc.card_colour[n - 1])
    b.force([c])
    bnr.reorganize(b.T, b.S, 0)
    assert b.state.jp_loc[0, j] == JP_RESERVE and not b.state.jp_rev[0, j]
    assert b.state.dm_loc[0, 2] == DM_POOL and b.state.jp_loc[0, f] == JP_MAP


def test_peleliu_18_41_catastrophic_loss_at_ten_infantry_units_eliminated():
    """18.41: only eliminations count, one per infantry unit; the tenth is catastrophic."""
    b = bnr_board()
    inf = [u for u in range(len(b.sc.us_names)) if b.sc.us_type[u] in (0, 1) and b.sc.us_bnr[u] >= 0]
    for u in inf[:9]:
        b.us(b.sc.us_names[u], 1405)
        eliminate_us(b.T, b.S, 0, u)
    assert b.state.loss_box[0] == 9 and not bnr.catastrophic(b.T, b.S, 0)
    b.us(b.sc.us_names[inf[9]], 1405)
    eliminate_us(b.T, b.S, 0, inf[9])
    assert bnr.catastrophic(b.T, b.S, 0)


def test_peleliu_18_41_black_angels_take_no_counter_out_of_the_box():
    """18.41 counts eliminated units only ("full strength infantry counters do not count"), so the
    step Black Angels volunteer give a reduced four-step unit takes no counter out of the Infantry
    Loss Box: 15.1's full-strength counter never went in.  (It took out the counter of an
    eliminated unit, as 15.1 would.)"""
    b = bnr_board()
    four = [u for u in range(len(b.sc.us_names))
            if b.sc.us_type[u] in (0, 1) and b.sc.us_bnr[u] >= 0 and b.sc.us_steps[u] == 4]
    reduced, lost = four[0], four[1]
    b.us(b.sc.us_names[reduced], 1405, steps=2)
    b.us(b.sc.us_names[lost], 1405)
    eliminate_us(b.T, b.S, 0, lost)
    assert b.state.loss_box[0] == 1
    b.state.phase[0] = P_STEP_ADD
    apply(b.T, b.S, 0, b.sc.num_hexes + UNIT_0 + reduced)
    assert b.state.us_steps[0, reduced] == 3 and b.state.loss_box[0] == 1


def test_peleliu_18_42_victory_checks():
    """18.42: a night check wins with the reserve box empty; at the end of turn 19 a win needs the
    box empty and at most one unit on the map (markers not counted), else a draw."""
    b = bnr_board(turn=19)
    put_fort(b, 10, D8)
    assert bnr.night_check(b.T, b.S, 0)
    b.jp(1306, rev=True)
    assert bnr.final_result(b.T, b.S, 0) == R_WIN
    b.jp(1007, rev=True)
    assert bnr.final_result(b.T, b.S, 0) == R_DRAW
    j = next(k for k in range(len(b.sc.jp_names)) if b.state.jp_loc[0, k] == JP_OUT and not b.sc.jp_fort[k])
    b.state.jp_loc[0, j] = JP_RESERVE
    assert not bnr.night_check(b.T, b.S, 0)


def test_peleliu_18_21_night_moves_one_hex_and_not_from_next_to_positions_under_rupertus():
    """18.21 step 2: one hex; a unit next to an occupied position stays put under Rupertus, and
    after the command change moves only to a hex next to none."""
    b = bnr_board(turn=4)
    put_fort(b, 10, D8)
    a = neighbour(b, D8, 0)
    u = b.us("I/3/7", a)
    buf = np.zeros(b.sc.num_hexes, np.int8)
    assert us.move_targets_on(b.T, b.S, 0, u, buf, False, b.occ(), b.live()) == 0
    b.state.rupertus[0] = False
    n = us.move_targets_on(b.T, b.S, 0, u, buf, False, b.occ(), b.live())
    dests = np.flatnonzero(buf)
    assert n == len(dests) and n > 0
    assert (b.sc.grid.distance[dests, b.hex(a)] == 1).all()
    assert (b.sc.grid.distance[dests, b.hex(D8)] > 1).all()


def test_peleliu_18_2_random_play_reaches_the_end():
    """18.2-18.4: seeded random play of BNR ends every game by the book (catastrophic loss, a
    victory check or turn 19), the invariants hold after every decision."""
    core = make_core("bnr", decisions="major")
    s = core.init(4, seed=11)
    rng = np.random.default_rng(11)
    for _ in range(6000):
        if (s.terminated | s.truncated).all():
            break
        m = core.legal_mask(s)
        a = np.array([rng.choice(np.flatnonzero(m[g])) if m[g].any() else 0 for g in range(4)])
        s = core.step(s, a)
        assert not core.check_state(s)
    assert s.terminated.all(), [core.summary(s, g)["phase"] for g in range(4)]
    assert set(int(r) for r in s.result) <= {1, 2, 4}
    _ = progress


def test_peleliu_18_4_score_counts_japanese_eliminated_against_losses():
    """18.4 for shaped rewards: at the start no unit is eliminated and no loss taken (score 0); with
    4 of the 16 units eliminated and 5 of the 10 infantry units lost the score is 4 - 16 * 5 / 10 = -4."""
    core = make_core("bnr")
    sc = core.scenario
    s = core.init(1, seed=2)
    assert float(core.score(s)[0, 0]) == 0.0
    reserve = np.flatnonzero((s.jp_loc[0] == JP_RESERVE) & ~sc.jp_fort)
    s.jp_loc[0, reserve[:4]] = JP_OUT
    s.loss_box[0] = 5
    assert float(core.score(s)[0, 0]) == pytest.approx(-4.0)
