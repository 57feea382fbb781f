"""Combat, worked by hand with forced dice: the surround bonus (6.2), dice and hits (8.0), Ranged
Combat (8.1-8.1.5), Airpower (8.1.6), Melee (8.2-8.2.1.4), the die roll modifiers (8.3), Joe
Martinez and General Arnold (11.1, 11.2) and the Step 7 Melee (3.7).

Each test lays a campaign board out by hand (``attu_board.Board``) and plays it through the
decision machine (``core.step`` with the legal action mask), so the masks are checked with the
rules.  A die forced as 10 is the die's '0' (1.2).  Where an outcome rests on a reconstructed value
(configs/attu/*.yaml) the docstring names it.  The ratings the book gives (counters.yaml): a full
rifle company rolls six melee dice and one at 1 step, two ranged dice at range 2 (8.1, 8.2
examples); a 105mm battery five ranged dice at 2 steps; a Japanese platoon three melee dice.  The
map is reconstructed (map.yaml), built around the hexes the book names; every level, slope and
cliff a test relies on is asserted first.

Places used (map.yaml, reconstructed; checked in ``test_attu_8_0_map_facts_the_hand_computations_rest_on``):
2422 is Landing Zone D, level 0 (a U.S. unit there is on a supply source, 7.1); 2521, 2621 and 2622
are level 0 like it, 2520 is level 1; 2717 (Engineer Hill, level 2) borders 2617 and 2618 (level
1, no slope between) and has a cliff to 2817; 1408 and 1409 are level 2 with no slope between,
far from every Landing Zone (a U.S. unit there is out of supply); 1806 to 1807 crosses an up slope
at the same level 2.
"""

from __future__ import annotations

import numpy as np
import pytest

from attu_board import (  # noqa: F401  (core: the session fixture)
    Board, Play, core, engineer_hill, jp, make_core, play_ranged_example, step7,
)
from wargym.attu.actions import AIR, END, HOLD, MELEE_0, NO, STRIKE
from wargym.attu.movement import move_destinations
from wargym.attu.scenario import CLOUDY, FOG, INFANTRY, JAPAN, RAIN, US, WILLIWAW
from wargym.attu.state import (
    ACT_ORDER, ACT_SELECT, ADVANCE, AIR_TARGET, ARNOLD, HERO_ARNOLD, HERO_MARTINEZ, LOC_ASIDE, LOC_ELIM, LOC_RESERVE,
    LOSS, MARTINEZ, PHASE_NAMES, RANGED_TARGET, REFIT_DECISION, RETREAT, RETREAT_OPTION,
)

RIFLE, RIFLE_B, RIFLE_C = "1/17 A", "1/17 B", "1/17 C"


@pytest.fixture(scope="module")
def plain():
    """The campaign with the heroes of 11.0 left out (their use is "at the discretion of each
    player", 11.0), so Joe Martinez is not offered after every U.S. miss."""
    return make_core("campaign", heroes=False)


# ------------------------------------------------------------------------------ the map used
def test_attu_8_0_map_facts_the_hand_computations_rest_on(core):
    """The reconstructed map facts (map.yaml) the hand computations below rest on."""
    t, g = core.tables, core.scenario.grid
    h = g.index

    def side(a, b):
        return list(t.nbr[h(a)]).index(h(b))

    assert t.lz_of_hex[h(2422)] == 3 and t.level[h(2422)] == 0                      # Landing Zone D
    for n in (2521, 2621, 2622):
        assert t.level[h(n)] == 0
    assert t.level[h(2520)] == 1
    assert not t.slope[h(2422), side(2422, 2521)]
    assert t.level[h(2717)] == 2 and t.level[h(2617)] == t.level[h(2618)] == 1
    assert not t.slope[h(2617), side(2617, 2717)] and not t.slope[h(2618), side(2618, 2717)]
    assert t.cliff[h(2717), side(2717, 2817)]
    assert t.level[h(1408)] == t.level[h(1409)] == 2 and not t.slope[h(1408), side(1408, 1409)]
    assert t.level[h(1806)] == t.level[h(1807)] == 2 and t.slope[h(1806), side(1806, 1807)]
    assert t.sight[h(2422), h(2621)] and t.sight[h(2422), h(2520)] and not t.sight[h(2422), h(2222)]
    assert t.dist[h(2422), h(2621)] == 2 and t.dist[h(2422), h(2720)] == 3 and t.dist[h(2422), h(2222)] == 2


# ------------------------------------------------------------------- 8.1 and 8.2 book examples
def test_attu_8_1_ranged_combat_example(core):
    """8.1 example, as written.  The 105mm on Massacre Beach (2721) is 4 hexes from Engineer Hill,
    beyond the Spotting Distance of 3 (8.1.1), so a unit adjacent to the hill calls it in (8.1.4).
    It rolls five dice, 6, 6, 5, 2, 1, with no modifier (an artillery unit is not penalised for
    the higher target, 8.3 **): no hit; the 2 and the 1 each cost it a step (8.1.5) and its two
    steps are gone: "It has sunk into the soft ground!"  The two in-supply 2/32 companies fire
    (the book rolls their four dice together; the engine activates them one at a time, 3.5):
    0, 9 and 7, 3, at -1 for firing up hill (8.3): the 0 hits (8.0) and eliminates a platoon;
    9 - 1 = 8 hits but "ranged combat never eliminates the last Japanese step in a hex" (8.5);
    7 - 1 = 6 and 3 - 1 = 2 miss.  The 105mm's ranged 5 dice at 2 steps are the book's; its
    range 8 is reconstructed (counters.yaml)."""
    t = core.tables
    p, u = engineer_hill(core)
    assert t.dist[p.hex(2721), p.hex(2717)] == 4
    p, u = play_ranged_example(core)
    assert p.loc(u["gun"]) == LOC_ELIM                       # sunk into the soft ground
    assert p.loc(u["jp1"]) == LOC_ELIM and p.on_map(u["jp2"]) and p.where(u["jp2"]) == 2717
    assert p.dice_used == 2 and p.phase == PHASE_NAMES[ACT_SELECT]
    assert p.state.casualties[0] == 0                        # 8.4: artillery steps are not tracked
    assert all(p.state.acted[0, u[k]] for k in ("e", "f", "c1", "c2"))
    assert p.state.melee_target[0, u["e"]] == p.hex(2717) == p.state.melee_target[0, u["f"]]


def test_attu_8_2_melee_example(core):
    """8.2 example, round by round, carried on from the 8.1 example (position and supply:
    ``engineer_hill``; Cloudy day: the example names no weather modifier).  Surround (6.2): the
    attackers occupy 2617 and 2618 and put ZOCs into 2716 and 2718; the cliff 2717/2817 makes
    2817 count; 2818 does not: five hexes, +1.  The company in 2617 is out of supply (-2) and
    attacks a higher level (-2): net -3; the one in 2618 in supply: -2 + 1 = -1.
    Round 1: the platoon rolls 5, 5, 3 (no hits); 2617 rolls 9, 8, 8, 7, 4, 1 (best 9 - 3 = 6, no
    hit); 2618 rolls 7, 5, 5, 3, 2, 2 (7 - 1 = 6, no hit).  The U.S. does not retreat.  Round 2:
    the platoon rolls 0, 8, 7: three hits, all put on the 2617 company (4 -> 1 step, three boxes
    on the Casualty Track, 8.4).  2617, one die at 1 step, rolls 1; 2618 rolls 8, 5, 4, 4, 2, 1:
    8 - 1 = 7 eliminates the platoon.  Either company may now advance onto Engineer Hill.  Joe
    Martinez (11.1), offered after each U.S. miss, is declined: the example does not use him."""
    p, u = play_ranged_example(core)
    p.end()                                               # end of Step 5
    assert p.player == JAPAN and p.state.act_step[0] == 1
    p.force([5, 5, 3] + [9, 8, 8, 7, 4, 1] + [7, 5, 5, 3, 2, 2])
    p.end()                                               # end of Step 6; Step 7: U.S. picks 2717
    assert p.dice_used == 15
    assert p.phase == PHASE_NAMES[MARTINEZ]
    p.no()
    assert p.phase == PHASE_NAMES[RETREAT_OPTION]
    assert p.steps(u["e"]) == 4 and p.steps(u["f"]) == 4 and p.on_map(u["jp2"])
    p.force([10, 8, 7] + [1] + [8, 5, 4, 4, 2, 1])
    p.no()                                                # no retreat
    assert p.phase == PHASE_NAMES[LOSS] and p.player == US and p.state.loss_hits[0] == 3
    for _ in range(3):
        p.hit(u["e"])
    assert p.steps(u["e"]) == 1 and p.steps(u["f"]) == 4 and p.state.casualties[0] == 3
    assert p.phase == PHASE_NAMES[MARTINEZ]
    p.no()
    assert p.dice_used == 10
    assert p.loc(u["jp2"]) == LOC_ELIM
    assert p.phase == PHASE_NAMES[ADVANCE] and p.player == US
    assert p.legal(p.slot(0)) and p.legal(p.slot(1)) and not p.legal(p.slot(2))  # either company
    p.do(p.slot(1))
    assert p.where(u["f"]) == 2717 and p.where(u["e"]) == 2617


# -------------------------------------------------------------------------------- 6.2 surround
def surround_board(plain, independent: int | None, attackers=(1606, 1405, 1506), idle=()) -> tuple[Play, int, list]:
    """The 6.2 diagram replayed at 1505 (the book's 1406/1505 pair): the U.S. 1/17 company in
    1505, Japanese platoons in ``attackers`` declared against it, ``idle`` ones that did not
    declare, the U.S. Independent unit in ``independent``.  Around 1505 (map.yaml): 1504 across
    a cliff, 1605, 1606, 1506, 1406, 1405.  1606's ZOC reaches 1605; 1405's and 1506's reach
    1406.  No attacker crosses an up slope or attacks a higher level (1606 and 1405 are level 2
    like 1505, 1506 is level 3), so the surround bonus is the only modifier (Cloudy day)."""
    t = plain.tables
    b = Board(plain)
    g = plain.scenario.grid
    ring = [g.number(int(n)) for n in t.nbr[b.hex(1505)]]
    assert sorted(ring) == [1405, 1406, 1504, 1506, 1605, 1606]
    assert t.cliff[b.hex(1505), ring.index(1504)]
    us = b.place(RIFLE, 1505)
    if independent is not None:
        b.place("Indep 1", independent)
    js = [jp(b, h) for h in attackers]
    for h in idle:
        jp(b, h)
    p = step7(b, {j: 1505 for j in js}, JAPAN)
    return p, us, js


@pytest.mark.parametrize("case,independent,attackers,idle,hits", [
    # 1504 (cliff), 1605 (ZOC), 1606, 1506, 1405 count; 1406 is cancelled by the Independent: +1
    ("diagram", 1406, (1606, 1405, 1506), (), 1),
    # "If the Independent unit were not there, the Japanese would add +2"
    ("no_independent", None, (1606, 1405, 1506), (), 2),
    # the unit across the cliff (1504) changes nothing: the impassable hex counts regardless
    ("independent_across_cliff", 1504, (1606, 1405, 1506), (), 2),
    # a platoon in 1405 that did not declare: its hex counts for nothing (1406 still counts by
    # 1506's ZOC): five hexes, +1
    ("uninvolved_unit", None, (1606, 1506), (1405,), 1),
])
def test_attu_6_2_surround_bonus_from_the_zoc_in_combat_diagram(plain, case, independent, attackers, idle, hits):
    """6.2: +1 with five of the six hexes around the target held by the attackers, their ZOCs or
    impassable hexsides, +2 with six.  The 1/17 company's own ZOC covers every hex around it, so
    the +2 cases also show that "enemy ZOCs" do not nullify; its unit (the Independent in 1406)
    does.  Dice: the company's six defensive dice are 1s (misses); the Japanese roll 6, 5 and then
    1s: with +1 only 6 + 1 = 7 hits, with +2 also 5 + 2 = 7 (a 1 never reaches 7)."""
    p, us, js = surround_board(plain, independent, attackers, idle)
    n = 3 * len(js)
    p.force([1] * 6 + [6, 5] + [1] * (n - 2))
    p.at(1505)
    assert p.dice_used == 6 + n
    assert p.steps(us) == 4 - hits and p.state.casualties[0] == hits
    assert p.phase == PHASE_NAMES[RETREAT_OPTION]


def test_attu_6_2_surround_counted_before_each_offensive_fire_from_the_attackers_left(plain):
    """README "Melee": the 6.2 bonus is counted before each offensive fire, from the attackers
    still in the Melee.  The diagram position (Independent in 1406): five hexes, +1.  The company's
    defensive fire hits once (a 0, 8.0) and Japan puts the hit on the platoon in 1606: 1606 is
    still counted (1506's ZOC) but 1605 is no longer in an attacker's ZOC: four hexes, no bonus.
    The two platoons left roll 6 and five 1s: 6 + 0 misses (it would hit at +1)."""
    p, us, js = surround_board(plain, 1406)
    p.force([10] + [1] * 5 + [6] + [1] * 5)
    p.at(1505)
    assert p.phase == PHASE_NAMES[LOSS] and p.player == JAPAN
    p.hit(js[0])                                          # the platoon in 1606
    assert p.loc(js[0]) == LOC_ELIM
    assert p.dice_used == 12
    assert p.steps(us) == 4 and p.phase == PHASE_NAMES[RETREAT_OPTION]


def test_attu_6_2_sea_hexes_count_as_impassable(plain):
    """6.2: "All impassible hexes adjacent to the target unit are treated as friendly occupied
    or ZOC hexes."  The U.S. company on zone D (2422) borders the sea at 2423.  Three platoons
    attack from 2521, 2421 and 2322 (level 0 like 2422, no slopes): 2521, 2421, 2322, 2522 (ZOC of
    2521), 2321 (ZOC of 2421 and 2322) and the sea 2423: six, +2.  The company misses (1s); the
    platoons roll 5 and 1s: 5 + 2 = 7, one hit."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    js = [jp(b, h) for h in (2521, 2421, 2322)]
    assert not plain.tables.land[b.hex(2423)]
    p = step7(b, {j: 2422 for j in js}, JAPAN)
    p.force([1] * 6 + [5] + [1] * 8)
    p.at(2422)
    assert p.dice_used == 15 and p.steps(us) == 3


# ------------------------------------------------------------------------------ 8.0 dice, hits
def test_attu_8_0_dice_by_rating_and_a_modified_seven_hits(plain):
    """8.0: a unit rolls as many dice as its Melee rating; a modified 7 or more hits.  The full
    1/17 company (six dice, 8.2 example) on zone D attacks the platoon in 2521 (three dice):
    Cloudy day, in supply, same level, three surround hexes: no modifier.  The platoon rolls 6, 6,
    6: no hit.  The company rolls five 6s and a 7: one hit, the platoon is eliminated (8.5)."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    j = jp(b, 2521)
    p = step7(b, {us: 2521}, US)
    p.force([6, 6, 6] + [6, 6, 6, 6, 6, 7])
    p.at(2521)
    assert p.dice_used == 9
    assert p.steps(us) == 4 and p.loc(j) == LOC_ELIM
    assert p.phase == PHASE_NAMES[ADVANCE]


@pytest.mark.parametrize("die,hit", [(9, False), (10, True)])
def test_attu_8_0_a_natural_zero_always_hits(plain, die, hit):
    """8.0: "Regardless of modifiers, a natural die roll of '0' is always a hit."  A 1-step company
    (one die) attacks from zone D at night in a Williwaw: -2 - 1 = -3 (8.3).  9 - 3 = 6 misses; the
    0 (10 - 3 = 7 too, but it hits whatever the modifier) eliminates the platoon.  Checked again
    at -4 in the ranged table below and at -3 with Joe Martinez."""
    b = Board(plain)
    us = b.place(RIFLE, 2422, steps=1)
    j = jp(b, 2521)
    p = step7(b, {us: 2521}, US, weather=WILLIWAW, night=True)
    p.force([1, 1, 1, die])
    p.at(2521)
    assert p.dice_used == 4 and (p.loc(j) == LOC_ELIM) == hit


def test_attu_8_0_the_owner_spreads_the_hits(plain):
    """8.0: "Each hit eliminates one step from the hex, the step or steps to be eliminated at the
    owning player's choice."  Two full companies attack from zone D; the platoon's defensive fire
    0, 0, 1 scores two hits, and the U.S. (the owner, not the firer) is asked where each goes: both
    on 1/17 B (4 -> 2), 1/17 A untouched.  Their offensive fire misses: six 1s for 1/17 A and three
    for 1/17 B, which rolls by its rating at 2 steps (3 dice: reconstructed, counters.yaml)."""
    b = Board(plain)
    a, c = b.place(RIFLE, 2422), b.place(RIFLE_B, 2422)
    jp(b, 2521)
    p = step7(b, {a: 2521, c: 2521}, US)
    p.force([10, 10, 1] + [1] * 9)
    p.at(2521)
    assert p.phase == PHASE_NAMES[LOSS] and p.player == US
    assert p.legal(p.loss_slot(a)) and p.legal(p.loss_slot(c))
    p.hit(c)
    p.hit(c)
    assert p.steps(a) == 4 and p.steps(c) == 2 and p.state.casualties[0] == 2
    assert p.dice_used == 12 and p.phase == PHASE_NAMES[RETREAT_OPTION]


def test_attu_8_0_excess_hits_are_lost(plain):
    """8.0: "excess hits are lost".  The full company rolls 0, 0, 0 and three 1s on the lone
    platoon in 2521: three hits, one platoon (one step, 2.4).  It is eliminated; the two other hits
    go nowhere: the platoon next door in 2520, not attacked, is untouched."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    j, k = jp(b, 2521), jp(b, 2520)
    p = step7(b, {us: 2521}, US)
    p.force([1, 1, 1] + [10, 10, 10, 1, 1, 1])
    p.at(2521)
    assert p.loc(j) == LOC_ELIM and p.on_map(k) and p.where(k) == 2520
    assert p.state.jp_removed[0] == 1 and p.phase == PHASE_NAMES[ADVANCE]


def ranged_board(core, firer: str, firer_hex: int, steps=None, **fields) -> tuple[Board, int]:
    b = Board(core)
    u = b.place(firer, firer_hex, steps=steps)
    b.set(weather=CLOUDY, night=False, acting=US, first=US, act_step=0, phase=ACT_SELECT, airpower=[0, 0])
    b.set(**fields)
    return b, u


def orders(b: Board, u: int) -> Play:
    """The ACT_ORDER decision of unit u (3.5), laid out directly: a unit with nothing to do but
    HOLD would otherwise hold by itself (a decision with one legal action takes itself)."""
    b.set(phase=ACT_ORDER, selected=u)
    return Play(b)


def test_attu_8_0_us_ranged_fire_on_a_mixed_hex_names_one_target_excess_lost(plain):
    """8.0: U.S. Ranged Combat on a hex of face-up and face-down units: "the U.S. player must first
    choose a target unit, to which all hits are applied; excess hits are lost."  The full company
    on zone D (two ranged dice, range 2) fires at 2621 (2 hexes, in sight, level 0, Cloudy, in
    supply): a face-up platoon and a face-down one.  It names the face-up platoon (no face-down
    modifier): 0 and 8 are two hits; the first eliminates it (the face-down platoon is Infantry
    too, so it is not the last one, 8.5); the second is lost, not passed to the face-down unit."""
    b, us = ranged_board(plain, RIFLE, 2422)
    up, down = jp(b, 2621), jp(b, 2621, face_down=True)
    p = Play(b)
    p.at(2422)
    p.force([10, 8])
    p.at(2621)
    assert p.phase == PHASE_NAMES[RANGED_TARGET] and p.player == US
    assert p.legal(p.slot(0)) and p.legal(p.slot(1)) and not p.legal(p.slot(2))  # the platoon, "a face-down unit"
    p.do(p.slot(0))
    assert p.dice_used == 2
    assert p.loc(up) == LOC_ELIM and p.on_map(down)
    assert p.phase == PHASE_NAMES[ACT_SELECT]


def test_attu_8_0_a_named_face_down_target_is_one_of_them_at_random(plain):
    """8.0 with README "Line of sight and ranged combat": naming "a face-down unit" picks one of
    the face-down units at random; the face-down modifier applies (-2, 8.3).  Same shot as above at
    a face-up platoon and two face-down ones: 9 - 2 = 7 hits, 8 - 2 = 6 misses: exactly one of the
    two face-down platoons is eliminated, the face-up one is untouched."""
    b, us = ranged_board(plain, RIFLE, 2422)
    up, d1, d2 = jp(b, 2621), jp(b, 2621, face_down=True), jp(b, 2621, face_down=True)
    p = Play(b)
    p.at(2422)
    p.force([9, 8])
    p.at(2621)
    p.do(p.slot(1))                                        # "a face-down unit"
    assert p.on_map(up)
    assert [p.loc(d1), p.loc(d2)].count(LOC_ELIM) == 1


# ------------------------------------------------------------------------------ 8.1 Ranged
def test_attu_8_1_ranged_fire_needs_los_range_and_spotting_distance(plain):
    """8.1: a unit may fire at a hex only with a LOS to it, within its range and within Spotting
    Distance.  The full company on zone D (range 2, book) in Cloudy weather (Spotting Distance 3):
    2621 (2 hexes, LOS) may be fired at; 2222 (2 hexes, no LOS on the reconstructed map) may not;
    2720 (3 hexes, LOS, spotted) is out of its range."""
    b, us = ranged_board(plain, RIFLE, 2422)
    for h in (2621, 2222, 2720):
        jp(b, h)
    p = orders(b, us)
    assert p.legal(p.hex(2621)) and not p.legal(p.hex(2222)) and not p.legal(p.hex(2720))


def test_attu_8_1_ranged_combat_is_the_units_action(plain):
    """8.1 / 3.5: Ranged Combat is an action "in lieu of Move or Declare Melee": once the company
    has fired it may do nothing else this step (its hex is no longer offered)."""
    b, us = ranged_board(plain, RIFLE, 2422)
    jp(b, 2621)
    p = Play(b)
    p.at(2422)
    p.force([1, 1])
    p.at(2621)
    assert p.phase == PHASE_NAMES[ACT_SELECT] and p.state.acted[0, us]
    assert not p.legal(p.hex(2422))


@pytest.mark.parametrize("weather,target,may", [
    (CLOUDY, 2621, True), (RAIN, 2621, True),      # 3 hexes in Cloudy and Rain
    (FOG, 2621, False), (FOG, 2521, True),         # 1 hex in Fog (8.1.3)
    (WILLIWAW, 2521, False),                        # none in Williwaw (8.1.3)
])
def test_attu_8_1_1_spotting_distance_for_a_company(plain, weather, target, may):
    """8.1.1: Spotting Distance 3 hexes in Cloudy and Rain, 1 in Fog, 0 in Williwaw.  The company
    on zone D (range 2) and a platoon 2 hexes off (2621) or adjacent (2521), both in sight."""
    b, us = ranged_board(plain, RIFLE, 2422, weather=weather)
    jp(b, target)
    p = orders(b, us)
    assert p.legal(p.hex(target)) == may


@pytest.mark.parametrize("weather,target,may", [
    (CLOUDY, 2720, True), (RAIN, 2720, True), (FOG, 2720, False),  # 3 hexes off, in sight
    (CLOUDY, 2820, False),                                           # 4 hexes off
])
def test_attu_8_1_1_spotting_distance_three_for_a_gun_alone(plain, weather, target, may):
    """8.1.1: the 105mm battery on zone D with no other U.S. unit to call it in (8.1.4) fires only
    within its own Spotting Distance: 3 hexes in Cloudy and Rain (2720, in sight), not in Fog, and
    never 4 hexes off (2820), though within its range of 8 (reconstructed, counters.yaml)."""
    b, gun = ranged_board(plain, "105mm A", 2422, weather=weather)
    assert plain.tables.dist[b.hex(2422), b.hex(2820)] == 4 and plain.tables.land[b.hex(2820)]
    jp(b, target, "artillery")
    p = orders(b, gun)
    assert p.legal(p.hex(target)) == may


def test_attu_8_1_3_no_ranged_combat_in_williwaw_but_airpower_flies(plain):
    """8.1.3: "Ranged Combat is not allowed under Williwaw conditions (exception: see 8.1.6)".  The
    company on zone D has a Japanese gun (2521) and a platoon (2421) adjacent.  The U.S. Airpower
    factor is announced against the gun's hex and struck: 0 (10 - 3 = 7, and a natural 0 anyway,
    8.0): the gun is eliminated.  The company is then offered no fire at the platoon."""
    b, us = ranged_board(plain, RIFLE, 2422, weather=WILLIWAW, airpower=[1, 0])
    gun, j = jp(b, 2521, "artillery"), jp(b, 2421)
    p = Play(b)
    p.do(p.special(AIR))
    assert p.mask_hexes() == [2421, 2521]
    p.at(2521)
    p.force([10])
    p.do(p.special(STRIKE))
    assert p.dice_used == 1 and p.loc(gun) == LOC_ELIM
    p.at(2422)
    assert p.phase == PHASE_NAMES[ACT_ORDER]
    assert not p.legal(p.hex(2421))


# --------------------------------------------------------------------------- 8.1.5 soft ground
def test_attu_8_1_5_soft_ground_costs_a_step_after_the_hits(plain):
    """8.1.5: each natural 1 or 2 a 105mm battery rolls costs it a step, "after any successful
    hits are applied".  The battery on zone D (five dice at 2 steps, book) fires at two Japanese
    guns in 2621 (2 hexes, in sight, no modifier): 0, 7, 2, 5, 6: two hits (0 and 7), one natural
    2.  While Japan places the hits the battery still has its two steps; then it loses one."""
    b, gun = ranged_board(plain, "105mm A", 2422)
    g1, g2 = jp(b, 2621, "artillery"), jp(b, 2621, "artillery")
    p = Play(b)
    p.at(2422)
    p.force([10, 7, 2, 5, 6])
    p.at(2621)
    assert p.phase == PHASE_NAMES[LOSS] and p.player == JAPAN and p.state.loss_hits[0] == 2
    assert p.steps(gun) == 2
    p.hit(g1)
    assert p.loc(g1) == LOC_ELIM and p.loc(g2) == LOC_ELIM
    assert p.steps(gun) == 1 and p.on_map(gun)
    assert p.state.casualties[0] == 0


def test_attu_8_1_5_only_the_105mm_batteries_sink(plain):
    """8.1.5 names the "U.S. fixed Artillery positions (all 105mm units)": the 75mm pack howitzer
    rolling 1, 2, 1 (three ranged dice, range 6: reconstructed, counters.yaml) keeps its step."""
    b, gun = ranged_board(plain, "75mm Sec", 2422)
    jp(b, 2621, "artillery")
    p = Play(b)
    p.at(2422)
    p.force([1, 2, 1])
    p.at(2621)
    assert p.dice_used == 3 and p.steps(gun) == 1 and p.on_map(gun)


# ---------------------------------------------------------------------------- 8.1.6 Airpower
def test_attu_8_1_6_airpower_announced_by_hex_needs_no_los_wasted_on_an_empty_hex(plain):
    """8.1.6: Airpower attacks are announced against hexes before any is made, need no LOS, hit on
    a modified 7, and an attack "scheduled for a hex in which there are no more units is therefore
    wasted".  The U.S. has two factors and one company on zone D; a lone Japanese gun in 3012, far
    out of any U.S. sight.  Both attacks are announced on 3012 (no die yet), then made: the first
    die, 0, eliminates the gun; the second attack finds the hex empty and rolls no die."""
    b, us = ranged_board(plain, RIFLE, 2422, airpower=[2, 0])
    gun, far = jp(b, 3012, "artillery"), jp(b, 3610)
    assert plain.tables.dist[b.hex(2422), b.hex(3012)] > 3
    p = Play(b)
    p.force([10, 10])
    for _ in range(2):
        p.do(p.special(AIR))
        assert p.phase == PHASE_NAMES[AIR_TARGET] and p.mask_hexes() == [3012, 3610]
        p.at(3012)
    assert p.dice_used == 0 and p.state.airpower[0, US] == 0
    assert not p.legal(p.special(END)) and p.legal(p.special(STRIKE))
    p.do(p.special(STRIKE))
    assert p.loc(gun) == LOC_ELIM and p.on_map(far)
    assert p.dice_used == 1 and p.phase == PHASE_NAMES[ACT_SELECT]


def air_strike_on_3012(b: Board, die: int) -> Play:
    """The U.S. announces its one Airpower factor on 3012 (8.1.6) and strikes with ``die``."""
    p = Play(b)
    p.do(p.special(AIR))
    p.at(3012)
    p.force([die])
    p.do(p.special(STRIKE))
    assert p.dice_used == 1
    return p


@pytest.mark.parametrize("case,weather,night,face_down,die,hit", [
    ("none", CLOUDY, False, False, 7, True), ("none", CLOUDY, False, False, 6, False),
    ("rain", RAIN, False, False, 8, True), ("rain", RAIN, False, False, 7, False),
    ("fog", FOG, False, False, 9, True), ("fog", FOG, False, False, 8, False),
    ("williwaw", WILLIWAW, False, False, 10, True), ("williwaw", WILLIWAW, False, False, 9, False),
    ("night", CLOUDY, True, False, 8, True), ("night", CLOUDY, True, False, 7, False),
    ("face_down", CLOUDY, False, True, 9, True), ("face_down", CLOUDY, False, True, 8, False),
])
def test_attu_8_1_6_8_3_airpower_modifiers(plain, case, weather, night, face_down, die, hit):
    """8.3, Airpower column: Williwaw -3, Fog -2, Rain -1, Night -1, face-down target -2; a hit on
    a modified 7 (8.1.6).  One U.S. factor on a lone Japanese gun in 3012: the die that just
    reaches 7 eliminates it, the one below does not (a modified 3-6 is neither hit nor misfire).
    A platoon in 3610 gives the announcement a second hex to choose from.  The U.S. company in
    3011, next to the gun, sees it: a face-up gun no U.S. unit sees would go face down at once
    (2.5, README)."""
    b, us = ranged_board(plain, RIFLE, 2422, airpower=[1, 0], weather=weather, night=night)
    b.place(RIFLE_B, 3011)
    gun = jp(b, 3012, "artillery", face_down=face_down)
    jp(b, 3610)
    p = air_strike_on_3012(b, die)
    assert (p.loc(gun) == LOC_ELIM) == hit
    assert p.steps(us) == 4 and p.phase == PHASE_NAMES[ACT_SELECT]


@pytest.mark.parametrize("die,misfire", [(8, False), (7, True)])
def test_attu_8_1_6_williwaw_minus_three_pins_the_misfire(plain, die, misfire):
    """8.1.6 / 8.3: in a Williwaw an Airpower die is -3, and -2 more on the face-down gun (no U.S.
    unit sees it: 2.5): an 8 is a modified 3 (nothing), a 7 a modified 2, which "is applied to the
    nearest friendly unit instead": the lone U.S. company on zone D loses a step (one box on the
    Casualty Track, 8.4)."""
    b, us = ranged_board(plain, RIFLE, 2422, airpower=[1, 0], weather=WILLIWAW)
    gun = jp(b, 3012, "artillery", face_down=True)
    jp(b, 3610)
    p = air_strike_on_3012(b, die)
    assert p.on_map(gun)
    assert p.steps(us) == (3 if misfire else 4) and p.state.casualties[0] == int(misfire)


# ----------------------------------------------------------------------- 8.2 declaring Melee
def test_attu_8_2_declare_only_into_adjacent_hexes_it_could_move_into(plain):
    """8.2 / 5.7: Melee may be declared against an adjacent enemy hex, not "against a hex into
    which the declaring units could not move": the company in 2716 may declare against 2717 but
    not against 2817 across the cliff (map.yaml: 2716/SE), nor against 2615, two hexes off."""
    b = Board(plain)
    us = b.place(RIFLE, 2716)
    assert plain.tables.dist[b.hex(2716), b.hex(2615)] == 2
    for h in (2717, 2817, 2615):
        jp(b, h)
    b.set(phase=ACT_SELECT, acting=US, first=US, airpower=[0, 0])
    p = Play(b)
    t = plain.tables
    assert t.cliff[p.hex(2716), p.direction(2716, 2817)]
    p.at(2716)
    offered = [d for d in range(6) if p.legal(p.H + MELEE_0 + d)]
    assert offered == [p.direction(2716, 2717)]


@pytest.mark.parametrize("kind,may", [("unknown", False), ("infantry", True)])
def test_attu_8_2_10_0_no_melee_declared_into_a_zone_the_unit_may_not_enter(plain, kind, may):
    """8.2: "Melee may not be declared against a hex into which the declaring units could not
    move"; 10.0: "The Japanese player may not place or move Unknown units in a cleared Victory
    Zone".  Temnac Bay's zone is cleared; 1/17 A stands in 713, inside it, next to 712 (Holtz Bay's
    zone; map.yaml, reconstructed).  In Japan's step an Unknown in 712 is offered no Melee against
    713; a Japanese Infantry platoon there is (10.0 keeps out Unknowns only)."""
    b = Board(plain)
    t, zone = plain.tables, plain.tables.zone
    assert zone[b.hex(713)] == zone[b.hex(1425)] != zone[b.hex(712)]
    b.place(RIFLE, 713)
    jp(b, 712, kind, face_down=True)
    b.state.zone_cleared[0, zone[b.hex(1425)]] = True
    b.set(phase=ACT_SELECT, acting=JAPAN, first=US, act_step=1, airpower=[0, 0])
    p = Play(b)
    p.at(712)
    assert p.phase == PHASE_NAMES[ACT_ORDER]
    assert p.legal(p.H + MELEE_0 + p.direction(712, 713)) == may


def test_attu_8_2_artillery_may_not_declare_melee(plain):
    """8.2: "Declare Melee with any of his Infantry (not Artillery) units" (8.3 *: "Artillery units
    may not declare Melee").  A 75mm pack howitzer next to a platoon is offered no Melee."""
    b = Board(plain)
    b.place("75mm Sec", 2422)
    jp(b, 2521)
    b.set(phase=ACT_SELECT, acting=US, first=US, airpower=[0, 0])
    p = Play(b)
    p.at(2422)
    assert not any(p.legal(p.H + MELEE_0 + d) for d in range(6))


def test_attu_8_2_all_declaring_units_of_a_hex_name_the_same_hex(plain):
    """8.2: "All units in a hex that Declare Melee must do so against the same hex."  Two companies
    in 2618, platoons in 2717 and 2718 (both adjacent): once 1/17 A has declared against 2717,
    1/17 B may declare against 2717 only."""
    b = Board(plain)
    a, c = b.place(RIFLE, 2618), b.place(RIFLE_B, 2618)
    jp(b, 2717)
    jp(b, 2718)
    b.set(phase=ACT_SELECT, acting=US, first=US, airpower=[0, 0])
    p = Play(b)
    p.at(2618)
    p.do(p.slot(0))                                         # 1/17 A
    assert p.legal(p.H + MELEE_0 + p.direction(2618, 2718))
    p.declare(2618, 2717)
    p.at(2618)                                              # 1/17 B, the only one left
    offered = [d for d in range(6) if p.legal(p.H + MELEE_0 + d)]
    assert offered == [p.direction(2618, 2717)]


def test_attu_8_2_declared_melee_must_be_fought_by_every_unit_in_the_target(plain):
    """8.2: a unit that declares "must attack if at all possible", and "all units in a target hex
    must be attacked (including units that moved into the target hex after the declaration)".
    Step 5: the 1-step company on zone D declares against the platoon in 2521.  Step 6: Japan moves
    a second platoon from 2520 into 2521.  Step 7: the U.S. is offered that Melee only, with no way
    to pass; both platoons defend (six dice, all 1s), the company rolls its one die (1)."""
    b = Board(plain)
    us = b.place(RIFLE, 2422, steps=1)
    j1, j2 = jp(b, 2521), jp(b, 2520)
    b.set(phase=ACT_SELECT, acting=US, first=US, act_step=0, airpower=[0, 0])
    p = Play(b)
    p.at(2422)
    p.declare(2422, 2521)                                   # the U.S. has nothing left: Step 5 ends
    assert p.player == JAPAN and p.state.act_step[0] == 1
    p.at(2520)                                              # Japan's Step 6: the platoon moves in
    p.at(2521)
    assert p.where(j2) == 2521
    p.force([1] * 6 + [1])
    p.end()
    assert p.dice_used == 7
    assert p.state.fought[0, j1] and p.state.fought[0, j2] and p.state.fought[0, us]
    assert p.phase == PHASE_NAMES[RETREAT_OPTION]


def test_attu_8_2_melee_pick_offers_no_pass(plain):
    """8.2 ("must attack") / 3.7: at the Melee pick the U.S. is offered its declared target hexes
    and nothing else, no END or NO."""
    b = Board(plain)
    a = b.place(RIFLE, 2422)
    c = b.place(RIFLE_B, 2618)
    jp(b, 2521)
    jp(b, 2717)
    p = step7(b, {a: 2521, c: 2717}, US)
    assert p.mask_hexes() == [2521, 2717]
    assert not p.state.legal_action_mask[0, p.H:].any()


@pytest.mark.parametrize("hits", [1, 2])
def test_attu_8_2_japanese_left_alone_in_the_attackers_hex_are_eliminated(plain, hits):
    """8.2: units that did not declare but share the attackers' hex take the excess hits once the
    attackers are gone (8.2.1.1), and "If they are the only units left in a hex after a Melee
    Combat round, they must retreat (if U.S.) or are eliminated (if Japanese)."  Platoon J1 in
    2521 attacks the U.S. company on zone D; platoon J2 in 2521 did not declare.  The company's
    defensive fire (six dice) scores ``hits`` (0s): the first eliminates J1; with two hits the
    second falls on J2; with one hit J2 is left alone in 2521 after the round and is eliminated."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    j1, j2 = jp(b, 2521), jp(b, 2521)
    p = step7(b, {j1: 2422}, JAPAN)
    p.force([10] * hits + [1] * (6 - hits))
    p.at(2422)
    assert p.dice_used == 6                                 # J1 is gone before it fires
    assert p.loc(j1) == LOC_ELIM
    assert p.loc(j2) == LOC_ELIM
    assert p.steps(us) == 4


def test_attu_8_2_us_units_left_alone_in_the_attackers_hex_must_retreat(plain):
    """8.2: the U.S. company 1/17 A (1 step) on zone D attacks the platoon in 2521; 1/17 B in the
    same hex did not declare.  The platoon's defensive fire (0, 1, 1) eliminates 1/17 A; 1/17 B is
    then the only unit left in the hex after the round and "must retreat (if U.S.)": the U.S. is
    asked where, among the hexes it could move into out of Japanese ZOCs (8.2.1.3): 2322 or 2321
    (2421 and 2522 are in 2521's ZOC, 2423 is sea)."""
    b = Board(plain)
    a, c = b.place(RIFLE, 2422, steps=1), b.place(RIFLE_B, 2422)
    jp(b, 2521)
    p = step7(b, {a: 2521}, US)
    p.force([10, 1, 1])
    p.at(2521)
    assert p.loc(a) == LOC_ELIM and p.steps(c) == 4
    assert p.phase == PHASE_NAMES[RETREAT] and p.player == US
    assert p.mask_hexes() == [2321, 2322]
    p.at(2321)
    assert p.where(c) == 2321


def test_attu_8_2_japanese_left_alone_while_other_attackers_fight_on_are_eliminated(plain):
    """8.2, attackers from two hexes: J1 (2521, with J2 that did not declare) and J3 (2421) attack
    the company on zone D.  Its defensive fire (0 and five 1s) scores one hit, which Japan puts on
    J1; J3 fires 1, 1, 1.  After the round J2 is the only unit left in 2521: eliminated."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    j1, j2, j3 = jp(b, 2521), jp(b, 2521), jp(b, 2421)
    p = step7(b, {j1: 2422, j3: 2422}, JAPAN)
    p.force([10] + [1] * 5 + [1, 1, 1])
    p.at(2422)
    assert p.phase == PHASE_NAMES[LOSS] and p.player == JAPAN
    p.hit(j1)
    assert p.dice_used == 9
    assert p.loc(j1) == LOC_ELIM and p.loc(j2) == LOC_ELIM and p.on_map(j3)
    assert p.phase == PHASE_NAMES[RETREAT_OPTION]


def test_attu_8_2_us_left_alone_while_other_attackers_fight_on_must_retreat(plain):
    """8.2, attackers from two hexes: 1/17 A (1 step, on zone D with 1/17 B, which did not
    declare) and 1/17 C (2622) attack the platoon in 2521.  Its defensive fire 0, 1, 1 is put on
    1/17 A; 1/17 C rolls six 1s.  After the round 1/17 B is alone in zone D and must retreat:
    2321 or 2322 (out of 2521's ZOC)."""
    b = Board(plain)
    a, c, d = b.place(RIFLE, 2422, steps=1), b.place(RIFLE_B, 2422), b.place(RIFLE_C, 2622)
    jp(b, 2521)
    p = step7(b, {a: 2521, d: 2521}, US)
    p.force([10, 1, 1] + [1] * 6)
    p.at(2521)
    p.hit(a)
    assert p.dice_used == 9 and p.loc(a) == LOC_ELIM
    assert p.phase == PHASE_NAMES[RETREAT] and p.player == US and p.mask_hexes() == [2321, 2322]
    p.at(2322)
    assert p.where(c) == 2322 and p.steps(c) == 4


def test_attu_8_2_units_fight_once_a_melee_step(plain):
    """8.2: "Units that participate in melee (attacking or defending) may not subsequently attack
    or be attacked ... attacking a unit that has declared melee eliminates the opportunity for the
    latter to initiate melee itself."  The platoon in 2521 declared against 1/17 B in 2622; the
    1-step 1/17 A on zone D declared against 2521.  By day the U.S. picks first: the platoon's
    defensive fire (0, 1, 1) eliminates 1/17 A.  The platoon has fought, so Japan has no Melee left:
    the step ends (the next turn begins), 1/17 B untouched, three dice rolled in all."""
    b = Board(plain)
    a, c = b.place(RIFLE, 2422, steps=1), b.place(RIFLE_B, 2622)
    j = jp(b, 2521)
    p = step7(b, {a: 2521, j: 2622}, US)
    p.force([10, 1, 1, 10, 10, 10])
    p.at(2521)
    assert p.loc(a) == LOC_ELIM and p.on_map(j)
    assert p.dice_used == 3
    assert p.steps(c) == 4 and p.phase == PHASE_NAMES[REFIT_DECISION]


def two_unknowns_in_2521(b: Board) -> tuple[list[int], list[int]]:
    """Two Unknowns in 2521 whose tables give 2 Infantry on a 6 (1, 1, 1, 1, 1, 2, ...; counters.yaml,
    reconstructed), and a cup cut down to two three-dice, one-ranged-die platoons (the rest of
    the Japanese Infantry eliminated): a 6 brings exactly those two (2.5).  Japan's Step 6 by day."""
    unknowns = [jp(b, 2521, "unknown", face_down=True) for _ in range(2)]
    assert all(list(b.tables.u_table[u, :6]) == [1, 1, 1, 1, 1, 2] for u in unknowns)
    infantry = [u for u in range(b.sc.num_units) if b.sc.unit_side[u] == JAPAN and b.sc.unit_type[u] == INFANTRY
                and b.state.unit_loc[0, u] == LOC_RESERVE]
    cup, rest = infantry[:2], infantry[2:]
    assert all(b.tables.u_melee[v, 0] == 3 and b.tables.u_ranged[v, 0] == 1 for v in cup)
    b.state.unit_loc[0, rest] = LOC_ELIM
    b.state.unit_steps[0, rest] = 0
    b.set(phase=ACT_SELECT, acting=JAPAN, first=US, act_step=1, airpower=[0, 0])
    return unknowns, cup


@pytest.mark.parametrize("declarer", [0, 1], ids=["first", "second"])
def test_attu_8_2_melee_declared_by_one_of_two_unknowns_is_fought(plain, declarer):
    """8.2: "A unit that declares Melee must attack if at all possible"; 2.5: Unknowns stacked in a
    hex that engage in melee "are all removed and only one die roll is made for the lot".  Two
    Unknowns in 2521: one of them (the first in counter order, or the second) declares Melee
    against 1/17 A (4 steps) on zone D, the other holds.  Step 7: the U.S. has no Melee, so Japan's
    is picked for it (one choice).  The lot is revealed: die 6, two platoons, and they attack, which
    ever counter declared: the company's defensive fire, six 1s, misses; their offensive fire, six
    0s, hits six times: the company's four steps go (excess hits are lost, 8.0), four boxes on the
    Casualty Track (8.4), and Japan is offered the advance (8.2.1.4).  1 + 6 + 6 dice."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    unknowns, cup = two_unknowns_in_2521(b)
    p = Play(b)
    p.at(2521)
    p.do(p.slot(declarer))                                  # SLOTs in counter order
    p.declare(2521, 2422)
    p.at(2521)                                              # the other one, the only one left
    p.force([6] + [1] * 6 + [10] * 6)
    p.do(p.special(HOLD))                                   # Japan's step is over: Step 7
    assert p.dice_used == 13
    assert all(p.loc(u) == LOC_RESERVE for u in unknowns)  # 2.5: off the map, for 9.6
    assert [p.where(v) for v in cup] == [2521, 2521] and p.state.fought[0, cup].all()
    assert p.loc(us) == LOC_ELIM and p.state.casualties[0] == 4
    assert p.phase == PHASE_NAMES[ADVANCE] and p.player == JAPAN


def test_attu_8_2_2_5_unknowns_revealed_by_fire_keep_the_melee_one_of_them_declared(plain):
    """2.5 with 8.2: the first Unknown in 2521 declares Melee against 1/17 A on zone D; then the
    second fires at zone D (an Unknown fires as its Infantry, range 2: README).  Firing reveals the
    lot (2.5): die 6, two platoons, which fire a die each: 1, 1, misses.  The lot's declaration
    stands ("must attack if at all possible"): Japan has nothing left to do, and in Step 7 the two
    platoons attack zone D: defensive fire six 1s, offensive fire six 0s, the company is
    eliminated.  1 + 2 + 6 + 6 dice."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    _, cup = two_unknowns_in_2521(b)
    p = Play(b)
    p.at(2521)
    p.do(p.slot(0))
    p.declare(2521, 2422)
    p.at(2521)
    p.force([6, 1, 1] + [1] * 6 + [10] * 6)
    p.at(2422)                                              # the second Unknown fires
    assert p.dice_used == 15
    assert p.state.fought[0, cup].all() and p.loc(us) == LOC_ELIM and p.state.casualties[0] == 4
    assert p.phase == PHASE_NAMES[ADVANCE] and p.player == JAPAN


def test_attu_8_5_an_unknown_beside_the_attackers_takes_no_melee_hit(plain):
    """8.5: "Japanese Unknown units can never take a hit from Melee Combat".  Platoon J1 in 2521
    attacks 1/17 A on zone D; an Unknown and platoon J2 share 2521 without declaring.  The
    company's defensive fire, 0, 0, 1, 1, 1, 1, hits twice: the first on J1, the only attacker;
    the second is excess for the other units of the hex (8.2.1.1), and of those only J2 may take
    it, so Japan is asked nothing: J2 is eliminated.  The Unknown is then the only unit left in
    2521 and is eliminated (8.2).  Six dice and no offensive fire: the company keeps its four
    steps, and with no Melee left the turn ends."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    j1, unknown, j2 = jp(b, 2521), jp(b, 2521, "unknown", face_down=True), jp(b, 2521)
    p = step7(b, {j1: 2422}, JAPAN)
    p.force([10, 10] + [1] * 4)
    p.at(2422)
    assert p.dice_used == 6
    assert p.loc(j1) == LOC_ELIM and p.loc(j2) == LOC_ELIM and p.loc(unknown) == LOC_ELIM
    assert p.steps(us) == 4 and p.phase == PHASE_NAMES[REFIT_DECISION]


# ------------------------------------------------------------------------- 8.2.1 resolution
def test_attu_8_2_1_rounds_go_on_until_a_hex_is_empty(plain):
    """8.2.1: rounds of defensive fire, offensive fire and the retreat option "are repeated until
    either the attacker's hex or the defender's hex is empty".  The 1-step company on zone D
    attacks the platoon in 2521; rounds 1 and 2: the platoon rolls 1, 1, 1 and the company 1; the
    U.S. stays.  Round 3: the company rolls 0 and the platoon is gone: the advance is offered."""
    b = Board(plain)
    us = b.place(RIFLE, 2422, steps=1)
    j = jp(b, 2521)
    p = step7(b, {us: 2521}, US)
    p.force([1, 1, 1, 1] * 2 + [1, 1, 1, 10])
    p.at(2521)
    for _ in range(2):
        assert p.phase == PHASE_NAMES[RETREAT_OPTION]
        p.no()
    assert p.dice_used == 12 and p.loc(j) == LOC_ELIM and p.on_map(us)
    assert p.phase == PHASE_NAMES[ADVANCE]


def test_attu_8_2_1_1_defensive_fire_first_excess_on_the_other_units_of_the_attackers_hex(plain):
    """8.2.1.1: the defenders fire first; the owner of the attackers places the hits; "Should all
    attacking units be eliminated, excess hits are applied to any non-attacking units in the hex."
    1/17 A (1 step) attacks from zone D, 1/17 B (4 steps) stays with it without declaring.  The
    platoon rolls 0, 0, 0: one hit eliminates 1/17 A, the two others fall on 1/17 B (4 -> 2); three
    boxes on the Casualty Track (8.4).  No offensive fire follows (no attacker is left)."""
    b = Board(plain)
    a, c = b.place(RIFLE, 2422, steps=1), b.place(RIFLE_B, 2422)
    j = jp(b, 2521)
    p = step7(b, {a: 2521}, US)
    p.force([10, 10, 10])
    p.at(2521)
    assert p.loc(a) == LOC_ELIM and p.steps(c) == 2 and p.state.casualties[0] == 3
    assert p.dice_used == 3 and p.on_map(j)


def japanese_assault_on_a_gun(plain) -> tuple[Play, int, list]:
    """Two platoons in 2521 attack the 2-step 105mm battery A alone on zone D (Step 7, Japan
    picks)."""
    b = Board(plain)
    gun = b.place("105mm A", 2422)
    js = [jp(b, 2521), jp(b, 2521)]
    return step7(b, {j: 2422 for j in js}, JAPAN), gun, js


def test_attu_8_2_1_2_eliminated_us_artillery_set_aside_and_captured_on_advance(plain):
    """8.2.1.2 / 8.2.1.4: "Set aside any eliminated defending U.S. artillery units until the end
    of the melee"; a Japanese unit advancing into that hex captures it "set to the same number of
    steps that the U.S. unit had prior to melee".  The 2-step battery's one defensive die (melee
    rating 1: reconstructed, counters.yaml) is a 1; the platoons roll 0, 1, 1 and 1, 1, 1: one hit
    (2 -> 1).  The U.S. does not retreat.  Round 2: the battery's 1, the platoons' 0, 1, 1 and 1, 1,
    1: its second step goes; it is set aside, not eliminated.  Japan advances a platoon into zone
    D: the battery is back on the map, Japanese, with its 2 steps."""
    p, gun, js = japanese_assault_on_a_gun(plain)
    p.force([1] + [10, 1, 1, 1, 1, 1])
    p.at(2422)
    assert p.phase == PHASE_NAMES[RETREAT_OPTION] and p.steps(gun) == 1
    p.force([1] + [10, 1, 1, 1, 1, 1])
    p.no()
    assert p.loc(gun) == LOC_ASIDE
    assert p.phase == PHASE_NAMES[ADVANCE] and p.player == JAPAN
    p.do(p.slot(0))
    assert p.where(js[0]) == 2422
    assert p.on_map(gun) and p.where(gun) == 2422 and p.steps(gun) == 2
    assert p.state.captured[0, gun]
    assert p.state.casualties[0] == 0


def test_attu_8_2_1_2_set_aside_artillery_is_eliminated_without_an_advance(plain):
    """8.2.1.2 / 8.2.1.4: the advance is an option; if Japan declines it the set-aside battery is
    not captured: at the end of the Melee it is eliminated.  The platoons roll 0, 0, 1 and 1, 1, 1
    after the battery's missed die: both its steps go at once."""
    p, gun, js = japanese_assault_on_a_gun(plain)
    p.force([1] + [10, 10, 1, 1, 1, 1])
    p.at(2422)
    assert p.loc(gun) == LOC_ASIDE and p.phase == PHASE_NAMES[ADVANCE]
    p.end()
    assert p.loc(gun) == LOC_ELIM and not p.state.captured[0, gun]
    assert p.where(js[0]) == 2521


def test_attu_8_2_1_3_defending_us_may_retreat_not_into_a_japanese_zoc(plain):
    """8.2.1.3: after both sides have fired the U.S. (defending here) may retreat "to any adjacent
    hex to which they could legally move, but may not retreat into a Japanese ZOC".  A platoon in
    2521 attacks the company on zone D; all dice miss (six 1s, then 1, 1, 1).  The U.S. takes the
    option: 2322 and 2321 are offered; 2421 and 2522 (in 2521's ZOC), 2521 and the sea 2423 are
    not.  The company goes to 2322; the defender's hex is empty, so Japan may advance (8.2.1.4)."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    j = jp(b, 2521)
    p = step7(b, {j: 2422}, JAPAN)
    p.force([1] * 6 + [1, 1, 1])
    p.at(2422)
    assert p.phase == PHASE_NAMES[RETREAT_OPTION] and p.player == US
    p.yes()
    assert p.phase == PHASE_NAMES[RETREAT] and p.mask_hexes() == [2321, 2322]
    p.at(2322)
    assert p.where(us) == 2322
    assert p.phase == PHASE_NAMES[ADVANCE] and p.player == JAPAN
    p.do(p.slot(0))
    assert p.where(j) == 2422


def test_attu_8_2_1_3_attacking_us_may_retreat_too(plain):
    """8.2.1.3: the option is the U.S.'s "whether he is attacking or defending".  The company on
    zone D attacks 2521, every die misses; it retreats to 2321.  The Melee is over: the platoon
    stays, and a defender never advances (8.2.1.4)."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    j = jp(b, 2521)
    p = step7(b, {us: 2521}, US)
    p.force([1, 1, 1] + [1] * 6)
    p.at(2521)
    p.yes()
    assert p.mask_hexes() == [2321, 2322]
    p.at(2321)
    assert p.where(us) == 2321 and p.where(j) == 2521
    assert p.phase != PHASE_NAMES[ADVANCE]


def test_attu_8_2_1_3_a_gun_that_cannot_move_cannot_retreat(plain):
    """8.2.1.3: units retreat "to any adjacent hex to which they could legally move".  A 105mm
    battery is rated 0 MP and never moves (README "Movement, ZOC and supply": the 5.8 minimum move
    is not for units rated 0), so when the U.S. takes the retreat option it has no hex to go to and
    is eliminated (README "Melee": a U.S. unit that must retreat with no hex to go to is
    eliminated).  Round 1: battery 1, platoons all 1s; the U.S. retreats."""
    p, gun, js = japanese_assault_on_a_gun(plain)
    p.force([1] + [1] * 6)
    p.at(2422)
    p.yes()
    assert p.phase != PHASE_NAMES[RETREAT], f"the battery is offered {p.mask_hexes()}"
    assert p.loc(gun) == LOC_ELIM


@pytest.mark.parametrize("secured", [False, True])
def test_attu_8_2_1_3_15_3_no_retreat_into_the_other_forces_area(secured):
    """8.2.1.3: units retreat "to any adjacent hex to which they could legally move"; 15.3: the
    Northern Force may go into the Engineer Hill area only "once Jarmin Pass is secured".  The
    Linkup: 1/17 A (Northern Force) in 2313, in the Jarmin Pass zone, is attacked by a platoon in
    2312; round 1, all dice 1, the U.S. retreats.  2314 and 2214 are out of the platoon's ZOC, and
    so is 2414, in the Engineer Hill zone (map.yaml, reconstructed): offered only once Jarmin Pass
    is secured."""
    core = make_core("linkup")
    b = Board(core)
    zone = core.tables.zone
    assert zone[b.hex(2313)] == zone[b.hex(2117)] and zone[b.hex(2414)] == zone[b.hex(2717)]
    us = b.place(RIFLE, 2313)
    assert core.scenario.unit_force[us] == 0                # the Northern Force
    j = jp(b, 2312)
    b.state.secured[0, 0] = secured
    p = step7(b, {j: 2313}, JAPAN)
    p.force([1] * 6 + [1] * 3)
    p.at(2313)
    p.yes()
    assert p.phase == PHASE_NAMES[RETREAT]
    assert p.mask_hexes() == ([2214, 2314, 2414] if secured else [2214, 2314])


def test_attu_8_2_1_4_the_defender_may_not_advance(plain):
    """8.2.1.4: "The defender may not advance into a vacated attacker's hex."  The platoon in 2521
    attacks the company on zone D, whose defensive fire (0 and five 1s) eliminates it: the Melee
    ends with no advance offered, the company stays on zone D."""
    b = Board(plain)
    us = b.place(RIFLE, 2422)
    j = jp(b, 2521)
    p = step7(b, {j: 2422}, JAPAN)
    p.force([10] + [1] * 5)
    p.at(2422)
    assert p.loc(j) == LOC_ELIM and p.where(us) == 2422
    assert p.phase != PHASE_NAMES[ADVANCE] and p.dice_used == 6


def test_attu_8_2_1_4_advance_whatever_the_movement_cost(plain):
    """8.2.1.4: the attacker may advance into the vacated hex "regardless of the movement point
    cost".  At night in Rain a company has (7 + 1) // 2 - 1 = 3 MP (5.1, 5.2); from 2718 up the
    slope into 2819 (one level up) costs it 4 (5.4 example).  It attacks the platoon in 2819: the
    platoon rolls 1, 1, 1 (misses whatever the modifiers), the company a 0 (a hit whatever the
    modifiers, 8.0) and five 1s: the platoon is eliminated and the company advances into 2819."""
    t = plain.tables
    b = Board(plain)
    us = b.place(RIFLE, 2718)
    j = jp(b, 2819)
    p = step7(b, {us: 2819}, US, weather=RAIN, night=True)
    d = p.direction(2718, 2819)
    assert t.slope[p.hex(2718), d] and t.level[p.hex(2819)] == t.level[p.hex(2718)] + 1
    assert t.cost[US, p.hex(2718), d] == 4
    p.force([1, 1, 1] + [10] + [1] * 5)
    p.at(2819)
    assert p.loc(j) == LOC_ELIM and p.phase == PHASE_NAMES[ADVANCE] and p.player == US
    p.do(p.slot(0))
    assert p.where(us) == 2819


def test_attu_8_2_1_4_advance_out_of_an_enemy_zoc(plain):
    """8.2.1.4 read as the engine does (the book speaks of the MP cost only, not of ZOCs): the
    advance is not a move under 6.1.  The company in 2618, in the ZOC of another platoon in
    2718, could not move into 2717 (6.1: no leaving an enemy ZOC by day), but after eliminating
    the platoon on 2717 it advances there.  Dice: platoon 1, 1, 1; company 0 and five 1s (a natural
    1 misses and a natural 0 hits whatever the modifiers, 8.0)."""
    b = Board(plain)
    us = b.place(RIFLE, 2618)
    j, other = jp(b, 2717), jp(b, 2718)
    p = step7(b, {us: 2717}, US)
    p.force([1, 1, 1] + [10] + [1] * 5)
    p.at(2717)
    assert p.loc(j) == LOC_ELIM and p.phase == PHASE_NAMES[ADVANCE]
    out = np.zeros(plain.tables.nbr.shape[0], dtype=bool)
    move_destinations(plain.tables, plain.kernel_state(p.state), 0, us, out)
    assert not out[p.hex(2717)]
    p.do(p.slot(0))
    assert p.where(us) == 2717 and p.where(other) == 2718


# ------------------------------------------------------------------------ 8.3 modifiers
@pytest.mark.parametrize("case,us_hex,jp_hex,weather,night,hit_die", [
    ("none", 2422, 2521, CLOUDY, False, 7),
    ("higher_level", 2618, 2717, CLOUDY, False, 9),   # -2 (2618 in supply, four surround hexes)
    ("out_of_supply", 1408, 1409, CLOUDY, False, 9),  # -2
    ("williwaw", 2422, 2521, WILLIWAW, False, 9),     # -2
    ("fog", 2422, 2521, FOG, False, 8),               # -1
    ("rain", 2422, 2521, RAIN, False, 8),             # -1
    ("night", 2422, 2521, CLOUDY, True, 8),           # -1
])
@pytest.mark.parametrize("hit", [True, False])
def test_attu_8_3_melee_modifiers_on_us_offensive_fire(plain, case, us_hex, jp_hex, weather, night, hit_die, hit):
    """8.3, Melee column (+1/+2 surround: the 6.2 tests).  A 1-step company (one die) attacks a
    platoon; the platoon's three dice are 1s.  The company's die ``hit_die`` is the least that
    reaches a modified 7 and eliminates the platoon; one less misses."""
    b = Board(plain)
    us = b.place(RIFLE, us_hex, steps=1)
    j = jp(b, jp_hex)
    p = step7(b, {us: jp_hex}, US, weather=weather, night=night)
    p.force([1, 1, 1, hit_die if hit else hit_die - 1])
    p.at(jp_hex)
    assert p.dice_used == 4
    assert (p.loc(j) == LOC_ELIM) == hit


@pytest.mark.parametrize("hit", [True, False])
def test_attu_8_3_melee_attacking_across_an_up_slope(plain, hit):
    """8.3: "Attacking across Up Slope" -1.  A Japanese platoon in 1806 attacks the 1-step company in
    1807 (same level 2; the slope art is in 1806, 5.3): the company's die is a 1; the platoon
    rolls 8 (8 - 1 = 7, a hit) or 7, then 1, 1.  Surround: 1806, 1906 (its ZOC) and the cliffs to
    1706 and 1707: four, no bonus.  The company is eliminated on the hit (Japan may advance)."""
    b = Board(plain)
    us = b.place(RIFLE, 1807, steps=1)
    j = jp(b, 1806)
    p = step7(b, {j: 1807}, JAPAN)
    p.force([1] + [8 if hit else 7, 1, 1])
    p.at(1807)
    assert p.dice_used == 4
    assert (p.loc(us) == LOC_ELIM) == hit


@pytest.mark.parametrize("case,unit,us_hex,jp_hex,night,hit_die", [
    ("artillery_at_night", "105mm A", 2422, 2521, True, 7),       # ** non-artillery only
    ("infantry_at_night", RIFLE, 2422, 2521, True, 8),            # -1
    ("defending_uphill", RIFLE, 2618, 2717, False, 7),            # README: level is offensive only
    ("defender_out_of_supply", RIFLE, 1409, 1408, False, 9),      # -2
])
@pytest.mark.parametrize("hit", [True, False])
def test_attu_8_3_melee_modifiers_on_us_defensive_fire(plain, case, unit, us_hex, jp_hex, night, hit_die, hit):
    """8.3 on defensive fire: a platoon attacks a 1-step U.S. unit (one melee die; the 105mm's 1
    at 2 steps is reconstructed, counters.yaml), whose die ``hit_die`` is the least that reaches a
    modified 7 and eliminates the attacker (the Melee then ends), one less misses (the platoon
    then rolls 1, 1, 1).  Night is -1 except for artillery (8.3 **); out of supply -2; the level
    modifier is for offensive fire only (README "Melee"), so the company in 2618 firing up at
    the platoon attacking from 2717 has none."""
    b = Board(plain)
    us = b.place(unit, us_hex, steps=None if unit.startswith("105") else 1)
    j = jp(b, jp_hex)
    p = step7(b, {j: us_hex}, JAPAN, night=night)
    p.force([hit_die if hit else hit_die - 1, 1, 1, 1])
    p.at(us_hex)
    assert p.dice_used == (1 if hit else 4)
    assert (p.loc(j) == LOC_ELIM) == hit


@pytest.mark.parametrize("case,firer,firer_hex,target,weather,night,face_down,hit_die", [
    ("none", RIFLE, 2422, 2621, CLOUDY, False, False, 7),
    ("higher_level", RIFLE, 2422, 2520, CLOUDY, False, False, 8),        # -1
    ("artillery_not_up_hill", "105mm A", 2422, 2520, CLOUDY, False, False, 7),  # ** not artillery
    ("out_of_supply", RIFLE, 1408, 1409, CLOUDY, False, False, 9),       # -2
    ("fog", RIFLE, 2422, 2521, FOG, False, False, 8),                    # -1
    ("rain", RIFLE, 2422, 2621, RAIN, False, False, 7),                  # none
    ("night", RIFLE, 2422, 2621, CLOUDY, True, False, 7),                # none
    ("face_down", RIFLE, 2422, 2621, CLOUDY, False, True, 9),            # -2
])
@pytest.mark.parametrize("hit", [True, False])
def test_attu_8_3_ranged_modifiers(plain, case, firer, firer_hex, target, weather, night, face_down, hit_die, hit):
    """8.3, Ranged column: higher level -1 (not for artillery), out of supply -2, Fog -1, face-down
    target -2; Rain and Night nothing (Williwaw: no Ranged Combat, 8.1.3).  The firer (full
    company, two ranged dice; or the 105mm, five) fires at a lone Japanese gun: the first die is
    ``hit_die`` (the least reaching a modified 7) or one less, the others never hit (a company's
    1; the battery's 3s, which are no Soft Ground die either)."""
    b, u = ranged_board(plain, firer, firer_hex, weather=weather, night=night)
    gun = jp(b, target, "artillery", face_down=face_down)
    p = Play(b)
    p.at(firer_hex)
    rest = [3, 3, 3, 3] if firer.startswith("105") else [1]
    p.force([hit_die if hit else hit_die - 1] + rest)
    p.at(target)
    assert p.dice_used == 1 + len(rest)
    assert (p.loc(gun) == LOC_ELIM) == hit


@pytest.mark.parametrize("die,hit", [(9, False), (10, True)])
def test_attu_8_0_natural_zero_hits_in_ranged_combat_at_minus_four(plain, die, hit):
    """8.0 with 8.3: the company in 1408 is out of supply (-2) and fires at a face-down gun in 1409
    (-2): -4.  9 - 4 = 5 misses; the '0' hits."""
    b, u = ranged_board(plain, RIFLE, 1408)
    gun = jp(b, 1409, "artillery", face_down=True)
    p = Play(b)
    p.at(1408)
    p.force([die, 1])
    p.at(1409)
    assert (p.loc(gun) == LOC_ELIM) == hit


# ------------------------------------------------------------------------------ 11.1, 11.2
def test_attu_11_1_joe_martinez_turns_a_us_melee_die_to_zero(core):
    """11.1: "the U.S. player may convert any single die roll to a '0' after all U.S. melee dice
    have been rolled."  The 1-step company in 2618 attacks the platoon on 2717 in Fog: -2 (higher
    level) -1 (Fog) = -3.  The platoon rolls 1, 1, 1; the company 1, a miss.  Martinez turns it into
    a '0', which hits whatever the modifier (8.0): the platoon is eliminated.  Once a game (11.0):
    the hero is marked used."""
    b = Board(core)
    us = b.place(RIFLE, 2618, steps=1)
    j = jp(b, 2717)
    p = step7(b, {us: 2717}, US, weather=FOG)
    p.force([1, 1, 1, 1])
    p.at(2717)
    assert p.phase == PHASE_NAMES[MARTINEZ] and p.player == US
    p.yes()
    assert p.loc(j) == LOC_ELIM and p.state.heroes_used[0, HERO_MARTINEZ]
    assert p.phase == PHASE_NAMES[ADVANCE]


def test_attu_11_1_joe_martinez_needs_us_infantry_in_the_melee(core):
    """11.1: "In any melee involving a U.S. Infantry unit".  A 13th Engineer company (two melee
    dice at 2 steps: reconstructed, counters.yaml) attacks alone from zone D and misses: Martinez
    is not offered, the retreat option comes next."""
    b = Board(core)
    eng = b.place("13 Eng A", 2422)
    jp(b, 2521)
    p = step7(b, {eng: 2521}, US)
    p.force([1, 1, 1, 1, 1])
    p.at(2521)
    assert p.dice_used == 5 and p.phase == PHASE_NAMES[RETREAT_OPTION]


@pytest.mark.parametrize("unit", ["13 Eng A", "Depot 13 Eng A"])
def test_attu_11_2_general_arnold_defending_engineer_or_depot_fights_at_six(core, unit):
    """11.2: "The combat value of any one Engineer unit or Supply Depot defending in any one Melee
    Combat is increased to '6'."  Three platoons in 2521 attack the unit alone on zone D.  Arnold is
    taken: the unit rolls six dice (instead of 2 or 1, reconstructed ratings): 0, 0, 0, 1, 1, 1, three
    hits, one per platoon: the attack is wiped out before it fires."""
    b = Board(core)
    u = b.place(unit, 2422)
    js = [jp(b, 2521) for _ in range(3)]
    p = step7(b, {j: 2422 for j in js}, JAPAN)
    p.force([10, 10, 10, 1, 1, 1])
    p.at(2422)
    assert p.phase == PHASE_NAMES[ARNOLD] and p.player == US
    p.yes()
    p.hits_in_order()                                     # Japan places its three hits
    assert p.dice_used == 6 and p.state.heroes_used[0, HERO_ARNOLD]
    assert all(p.loc(j) == LOC_ELIM for j in js) and p.on_map(u)


def test_attu_11_2_without_arnold_the_engineer_rolls_its_rating(core):
    """11.2 declined: the 2-step Engineer company rolls its own two dice (reconstructed rating):
    0, 0 eliminates two platoons; the third fires 1, 1, 1."""
    b = Board(core)
    u = b.place("13 Eng A", 2422)
    js = [jp(b, 2521) for _ in range(3)]
    p = step7(b, {j: 2422 for j in js}, JAPAN)
    p.force([10, 10, 1, 1, 1])
    p.at(2422)
    assert p.phase == PHASE_NAMES[ARNOLD]
    p.no()
    p.hits_in_order()
    assert p.dice_used == 5 and p.steps(u) == 2 and p.phase == PHASE_NAMES[RETREAT_OPTION]
    assert sum(p.loc(j) == LOC_ELIM for j in js) == 2


# ------------------------------------------------------------------------- 3.7 Step 7 Melee
@pytest.mark.parametrize("night", [False, True])
def test_attu_3_7_step_7_melees_declared_in_steps_5_and_6(plain, night):
    """3.7: the Melees declared in Steps 5 and 6 are fought in Step 7, the U.S. picking first (the
    Japanese at night), each fought to its end.  The 1-step 1/17 A on zone D declares against the
    platoon J1 in 2521; platoon J2 in 1806 declares against the 1-step 1/17 B in 1807 (out of
    supply, -2 on its die; the platoon's up-slope -1).  By day the dice 1, 1, 1, 0, 0 go: J1's
    defensive fire misses, 1/17 A's 0 eliminates J1 (the advance is declined); then 1/17 B's
    defensive 0 eliminates J2.  At night the order is the reverse, so the dice are 0, 1, 1, 1, 0.
    Both Melees fought, five dice, the step over: the next turn begins."""
    b = Board(plain)
    a, c = b.place(RIFLE, 2422, steps=1), b.place(RIFLE_B, 1807, steps=1)
    j1, j2 = jp(b, 2521), jp(b, 1806)
    first = JAPAN if night else US
    b.set(phase=ACT_SELECT, acting=first, first=first, act_step=0, night=night, airpower=[0, 0])
    p = Play(b)
    for side in (first, 1 - first):
        assert p.player == side
        if side == US:
            p.at(2422)
            p.declare(2422, 2521)
        else:
            p.at(1806)
            p.declare(1806, 1807)
        if side != first:
            p.force([10, 1, 1, 1, 10] if night else [1, 1, 1, 10, 10])
        p.end()
        if not night and side != first:
            assert p.phase == PHASE_NAMES[ADVANCE] and p.player == US
            p.end()                                     # 1/17 A stays on zone D
    assert p.loc(j1) == LOC_ELIM and p.loc(j2) == LOC_ELIM
    assert p.on_map(a) and p.on_map(c) and p.where(a) == 2422
    if night:
        assert p.phase == PHASE_NAMES[ADVANCE] and p.player == US
        p.end()
    assert p.dice_used == 5
    assert p.phase == PHASE_NAMES[REFIT_DECISION] and p.state.turn[0] == 4
