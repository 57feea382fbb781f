"""The Attu event log (wargym.events, wargym/attu/events.py): what a step did, in order, with the
book's case, as each side may read it.  Boards laid out by hand (attu_board) are played through
the core (``Play``, every action checked against the mask) with ``core.step_logged`` and forced
dice; a forced 10 is the die's '0' (1.2).

The ratings used are the book's (configs/attu/counters.yaml): a full rifle company rolls six
melee dice and two ranged dice at range 2, a 105mm battery five ranged dice at two steps, a
Japanese platoon three melee dice; the platoon's one ranged die at range 2 and the Unknown
tables are reconstructed (the first six Unknowns' table gives 1, 1, 1, 1, 1, 2, 2, 2, 2, 3
Infantry for the dice 1 to 10).  The places are those of test_attu_combat (map facts asserted
in ``test_attu_8_0_map_facts_the_hand_computations_rest_on``): 2422 is Landing Zone D, level 0,
a supply source (7.1); 2521 and 2621 are level 0, 2521 next to 2422 with no slope between, 2621
two hexes off in its line of sight.  Around 2521 the company in 2422 holds its own hex and
reaches 2421 and 2522 with its ZOC, three of six: no surround bonus (6.2).
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

from attu_board import (  # noqa: F401  (core: the session fixture)
    Board, Play, ambush_board, core, engineer_hill, full_move, jp, make_core, play_ranged_example, step7,
)
from wargym import events as event_log
from wargym.attu import events as ev
from wargym.attu.actions import AIR, LZ_0, REINF_0, STRIKE, YAMASAKI
from wargym.attu.scenario import CLOUDY, FOG, JAPAN, RAIN, US, WILLIWAW
from wargym.attu.state import (
    ACT_SELECT, ADVANCE, INDEPENDENT, LOC_ELIM, LOC_MAP, LOC_RESERVE, LOSS, MARTINEZ, NIGHT_DECISION, PHASE_NAMES,
    REFIT_ALLOC, REFIT_DECISION, REINF_PICK, REINF_ZONE, RETREAT_OPTION, YAMA_MOVE, YAMA_SELECT,
)


@pytest.fixture(scope="module")
def plain():
    """The campaign with the heroes of 11.0 left out, so that Joe Martinez is not offered after
    every U.S. miss (their use is "at the discretion of each player", 11.0)."""
    return make_core("campaign", heroes=False)


def records(log):
    return [(e["kind"], e["args"]) for e in log]


def texts(p: Play, viewer: int | None) -> list[str]:
    """The texts of the last logged step as ``viewer`` reads them (None: the whole truth)."""
    return [e["text"] for e in p.core.events_for(p.log, p.state, 0, viewer)]


def dice(purpose: int, values) -> list:
    return [("die", {"for": purpose, "value": v}) for v in values]


def name(p: Play, u: int) -> str:
    return p.core.unit_label(u)


def logged(b: Board) -> Play:
    p = Play(b)
    p.logging = True
    return p


# ------------------------------------------------------------------------------- the log itself
def test_attu_the_log_is_off_unless_asked_and_a_logged_step_leaves_the_same_state(core):
    """The 8.1 example's 105mm fire (below), stepped plainly and with the log on: the same state
    after, field by field; the plain step hands the kernels the log's "off" arrays."""
    p, _ = engineer_hill(core)
    p.at(2617)
    p.declare(2617, 2717)
    p.at(2618)
    p.declare(2618, 2717)
    p.at(2721)
    state = core.force(p.state, [6, 6, 5, 2, 1])
    action = np.array([p.hex(2717)])
    plain_after = core.step(state, action)
    after, log = core.step_logged(state, action)
    assert not event_log.OFF["ev_on"][0] and event_log.OFF["ev_n"][0] == 0
    assert len(log[0]) == 10
    assert plain_after.arrays().keys() == after.arrays().keys()
    assert all(np.array_equal(a, b) for a, b in zip(plain_after.arrays().values(), after.arrays().values()))


# --------------------------------------------------------------------------------- 8.1 and 8.2
def test_attu_8_1_ranged_combat_example_is_logged_die_by_die(core):
    """The 8.1 example (test_attu_combat replays it): the 105mm battery on 2721, called in on
    Engineer Hill (8.1.4), rolls 6, 6, 5, 2, 1 with no modifier (an artillery unit is not
    penalised for the higher target, 8.3 **): no hit; the 2 and the 1 each cost it a step after
    the hits (8.1.5), and its two steps are gone, off the Casualty Track (8.4: artillery).  The
    2/32 E company rolls 0 and 9 at -1 (8.3, higher level): two hits; Japan puts the first on a
    platoon, eliminated; the second can only fall on the other, the last Japanese Infantry in
    the hex, which "simply stays there" (8.5).  2/32 F rolls 7 and 3 at -1: no hit.  The U.S. saw
    the platoon face up: it reads which one left the map (README "What the U.S. remembers"), not
    how (8.5: an Unknown melts, an Infantry unit is eliminated)."""
    p, u = engineer_hill(core)
    p.logging = True
    p.at(2617)
    p.declare(2617, 2717)
    p.at(2618)
    p.declare(2618, 2717)
    assert p.log == []                                           # declaring Melee rolls nothing
    p.force([6, 6, 5, 2, 1])
    p.at(2721)
    p.at(2717)
    gun = u["gun"]
    assert records(p.log) == dice(ev.P_RANGED, [6, 6, 5, 2, 1]) + [
        ("ranged fire", {"unit": gun, "from": p.hex(2721), "at": p.hex(2717), "dice": 5, "modifier": 0, "hits": 0}),
        ("soft ground", {"unit": gun, "steps": 2}),
        ("step lost", {"unit": gun, "steps": 1, "left": 1}),
        ("step lost", {"unit": gun, "steps": 1, "left": 0}),
        ("eliminated", {"unit": gun, "hex": p.hex(2721)}),
    ]
    assert texts(p, US)[5:] == [
        "US 105mm A at 2721 fires 5 dice at 2717, modifier +0: 0 hit(s) (8.1)",
        "US 105mm A sinks into the soft ground: 2 step(s) to lose (8.1.5)",
        "US 105mm A loses 1 step(s), 1 left (8.0)",
        "US 105mm A loses 1 step(s), 0 left (8.0)",
        "US 105mm A is eliminated at 2721 (8.0)",
    ]
    assert texts(p, US)[0] == "Ranged Combat (8.1): a die, 6 (1.2)"
    p.force([10, 9])
    p.at(2619)
    p.at(2717)
    assert records(p.log) == dice(ev.P_RANGED, [10, 9]) + [
        ("ranged fire", {"unit": u["c1"], "from": p.hex(2619), "at": p.hex(2717), "dice": 2, "modifier": -1,
                         "hits": 2}),
    ]
    assert p.phase == PHASE_NAMES[LOSS] and p.player == JAPAN
    p.hit(u["jp1"])
    assert records(p.log) == [("off the map", {"unit": u["jp1"], "hex": p.hex(2717), "how": ev.R_ELIMINATED}),
                              ("no effect", {})]
    assert texts(p, JAPAN) == [f"{name(p, u['jp1'])} at 2717 is taken off the map: eliminated (8.5)",
                               "a hit has no effect (8.0, 8.5)"]
    assert texts(p, US) == [f"{name(p, u['jp1'])} at 2717 is taken off the map: ? (8.5)",
                            "a hit has no effect (8.0, 8.5)"]
    p.force([7, 3])
    p.at(2719)
    p.at(2717)
    assert texts(p, US) == ["Ranged Combat (8.1): a die, 7 (1.2)", "Ranged Combat (8.1): a die, 3 (1.2)",
                            "US 2/32 F at 2719 fires 2 dice at 2717, modifier -1: 0 hit(s) (8.1)"]
    assert p.phase == PHASE_NAMES[ACT_SELECT]


def test_attu_8_1_6_airpower_attacks_are_logged_one_die_each_misfire_hit_and_wasted(plain):
    """8.1.6: the U.S. announces its three Airpower factors, on 3610 (a face-down platoon) and
    twice on 3012 (a face-down gun), "before he makes them", then makes them in that order, one
    die each at -2 (8.3: "Target is face-down Japanese unit or units"; Cloudy day).  The 1 makes
    -1: "If a modified Airpower die roll is '2' or less, the hit is applied to the nearest
    friendly unit instead!": 1/17 A, the only U.S. unit, loses a step (8.4: the Casualty Track).
    The 0 hits (8.0) and eliminates the gun; the third attack finds 3012 empty: "wasted", no die.
    The U.S. does not read which counter it eliminated, nor how (2.5, 8.5)."""
    b = Board(plain)
    company = b.place("1/17 A", 2422)
    platoon, gun = jp(b, 3610, face_down=True), jp(b, 3012, "artillery", face_down=True)
    b.set(airpower=[3, 0])
    p = logged(b)
    for target in (3610, 3012, 3012):
        p.do(p.special(AIR))
        p.at(target)
        assert p.log == []
    p.force([1, 10])
    p.do(p.special(STRIKE))
    assert records(p.log) == [
        ("die", {"for": ev.P_AIR_ATTACK, "value": 1}),
        ("airpower attack", {"side": US, "at": p.hex(3610), "modifier": -2, "result": ev.R_FRIENDLY}),
        ("step lost", {"unit": company, "steps": 1, "left": 3}),
        ("casualty track", {"steps": 1, "track": 1}),
        ("die", {"for": ev.P_AIR_ATTACK, "value": 10}),
        ("airpower attack", {"side": US, "at": p.hex(3012), "modifier": -2, "result": ev.R_HIT}),
        ("off the map", {"unit": gun, "hex": p.hex(3012), "how": ev.R_ELIMINATED}),
        ("airpower wasted", {"side": US, "at": p.hex(3012)}),
    ]
    assert texts(p, US) == [
        "Airpower attack (8.1.6): a die, 1 (1.2)",
        "Airpower attack by us on 3610, modifier -2: a hit on the nearest friendly unit (8.1.6)",
        "US 1/17 A loses 1 step(s), 3 left (8.0)",
        "the Casualty Track rises by 1 to 1 (8.4)",
        "Airpower attack (8.1.6): a die, 10 (1.2)",
        "Airpower attack by us on 3012, modifier -2: a hit (8.1.6)",
        "a unit it cannot see at 3012 is taken off the map: ? (8.5)",
        "the Airpower attack by us on 3012 is wasted: no enemy unit is left there (8.1.6)",
    ]
    assert texts(p, JAPAN)[6] == f"{name(p, gun)} at 3012 is taken off the map: eliminated (8.5)"
    assert p.on_map(platoon) and p.phase == PHASE_NAMES[ACT_SELECT]


def test_attu_8_2_melee_example_is_logged_round_by_round(core):
    """The 8.2 example, carried on from 8.1 (modifiers worked out in test_attu_combat): Step 7,
    the U.S. attacks Engineer Hill from 2617 (out of supply, higher level, surround +1: -3) and
    2618 (-1).  Round 1: the platoon rolls 5, 5, 3, no hit; 2617 rolls 9, 8, 8, 7, 4, 1 and 2618
    7, 5, 5, 3, 2, 2, no hit.  No retreat.  Round 2: the platoon rolls 0, 8, 7: "three hits ... The
    US player opts to reduce his out of supply company by three steps ... he moves the American
    Casualty Track marker up three boxes" (8.4); "The reduced unit in 2617 ... rolls a 1"; 2618
    rolls 8, 5, 4, 4, 2, 1: "The 8 result eliminates the Japanese platoon", and Engineer Hill is
    empty; 2/17 F advances onto it and holds the Victory Hex (3.8.1).  Joe Martinez (11.1) is
    offered after each U.S. fire and declined, as the example does not use him."""
    p, u = play_ranged_example(core)
    p.logging = True
    e, f, platoon = u["e"], u["f"], u["jp2"]
    p.end()                                                      # end of Step 5
    assert p.log == []
    p.force([5, 5, 3] + [9, 8, 8, 7, 4, 1] + [7, 5, 5, 3, 2, 2])
    p.end()                                                      # end of Step 6; the U.S. picks 2717
    assert records(p.log) == [("melee", {"side": US, "hex": p.hex(2717), "kind": ev.R_STEP7})] + \
        dice(ev.P_DEFENSIVE, [5, 5, 3]) + [
        ("melee fire", {"round": 1, "fire": ev.P_DEFENSIVE, "unit": platoon, "dice": 3, "modifier": 0, "hits": 0}),
    ] + dice(ev.P_OFFENSIVE, [9, 8, 8, 7, 4, 1]) + [
        ("melee fire", {"round": 1, "fire": ev.P_OFFENSIVE, "unit": e, "dice": 6, "modifier": -3, "hits": 0}),
    ] + dice(ev.P_OFFENSIVE, [7, 5, 5, 3, 2, 2]) + [
        ("melee fire", {"round": 1, "fire": ev.P_OFFENSIVE, "unit": f, "dice": 6, "modifier": -1, "hits": 0}),
    ]
    assert [texts(p, US)[i] for i in (0, 4, 11, 18)] == [
        "us attacks 2717 in Melee: Step 7 (3.7) (8.2)",
        f"round 1, defensive fire (8.2.1.1): {name(p, platoon)} rolls 3 dice, modifier +0: 0 hit(s) (8.2.1)",
        "round 1, offensive fire (8.2.1.2): US 2/17 E rolls 6 dice, modifier -3: 0 hit(s) (8.2.1)",
        "round 1, offensive fire (8.2.1.2): US 2/17 F rolls 6 dice, modifier -1: 0 hit(s) (8.2.1)",
    ]
    assert p.phase == PHASE_NAMES[MARTINEZ]
    p.no()
    assert p.log == [] and p.phase == PHASE_NAMES[RETREAT_OPTION]
    p.force([10, 8, 7] + [1] + [8, 5, 4, 4, 2, 1])
    p.no()                                                       # no retreat: round 2
    assert records(p.log) == dice(ev.P_DEFENSIVE, [10, 8, 7]) + [
        ("melee fire", {"round": 2, "fire": ev.P_DEFENSIVE, "unit": platoon, "dice": 3, "modifier": 0, "hits": 3}),
    ]
    for left in (3, 2):
        p.hit(e)
        assert records(p.log) == [("step lost", {"unit": e, "steps": 1, "left": left}),
                                  ("casualty track", {"steps": 1, "track": 4 - left})]
    p.hit(e)                                                     # the third hit; then the offensive fire
    assert records(p.log) == [
        ("step lost", {"unit": e, "steps": 1, "left": 1}), ("casualty track", {"steps": 1, "track": 3}),
    ] + dice(ev.P_OFFENSIVE, [1]) + [
        ("melee fire", {"round": 2, "fire": ev.P_OFFENSIVE, "unit": e, "dice": 1, "modifier": -3, "hits": 0}),
    ] + dice(ev.P_OFFENSIVE, [8, 5, 4, 4, 2, 1]) + [
        ("melee fire", {"round": 2, "fire": ev.P_OFFENSIVE, "unit": f, "dice": 6, "modifier": -1, "hits": 1}),
    ]
    assert texts(p, US)[:2] == ["US 2/17 E loses 1 step(s), 1 left (8.0)", "the Casualty Track rises by 1 to 3 (8.4)"]
    p.no()                                                       # no Martinez: the hit goes on the platoon
    assert records(p.log) == [("off the map", {"unit": platoon, "hex": p.hex(2717), "how": ev.R_ELIMINATED}),
                              ("victory hex", {"hex": p.hex(2717), "side": -1})]
    assert texts(p, JAPAN) == [f"{name(p, platoon)} at 2717 is taken off the map: eliminated (8.5)",
                               "nobody holds the Victory Hex 2717 (3.8.1)"]
    assert p.phase == PHASE_NAMES[ADVANCE] and p.player == US
    p.do(p.slot(1))                                              # 2/17 F advances
    assert records(p.log) == [("advance", {"unit": f, "from": p.hex(2618), "to": p.hex(2717)}),
                              ("victory hex", {"hex": p.hex(2717), "side": US})]
    assert texts(p, US) == ["US 2/17 F advances from 2618 to 2717 (8.2.1.4)",
                            "us holds the Victory Hex 2717 (3.8.1)"]


def test_attu_8_2_1_2_8_2_1_4_artillery_set_aside_then_captured_is_logged(plain):
    """8.2.1.2 / 8.2.1.4 (test_attu_combat plays the same Melee): two face-up platoons in 2521
    attack the 2-step 105mm battery A alone on zone D (2422) in Step 7; no modifier on either
    side (Cloudy day, same level, the battery in supply, four hexes of six for the surround:
    2521, its ZOC into 2421 and 2522, the sea hex 2423).  Round 1: the battery's die 1, the
    platoons' 0, 1, 1 and 1, 1, 1: one hit, its first step (artillery: not on the Casualty Track,
    8.4).  Round 2, the same dice: its last step; "Set aside any eliminated defending U.S.
    artillery units until the end of the melee".  No U.S. unit is left on the map to see the
    platoons, and they go face down (2.5); the U.S. saw them face up, so it still reads which
    fired (README "What the U.S. remembers").  The first advances into 2422 and "captures that
    unit"."""
    b = Board(plain)
    gun = b.place("105mm A", 2422)
    first, second = jp(b, 2521), jp(b, 2521)
    p = logged(step7(b, {first: 2422, second: 2422}, JAPAN))
    p.force([1] + [10, 1, 1, 1, 1, 1])
    p.at(2422)
    assert records(p.log)[0] == ("melee", {"side": JAPAN, "hex": p.hex(2422), "kind": ev.R_STEP7})
    assert records(p.log)[-2:] == [
        ("melee fire", {"round": 1, "fire": ev.P_OFFENSIVE, "unit": second, "dice": 3, "modifier": 0, "hits": 0}),
        ("step lost", {"unit": gun, "steps": 1, "left": 1}),
    ]
    assert p.phase == PHASE_NAMES[RETREAT_OPTION]
    p.force([1] + [10, 1, 1, 1, 1, 1])
    p.no()
    assert records(p.log)[-4:] == [
        ("step lost", {"unit": gun, "steps": 1, "left": 0}),
        ("set aside", {"unit": gun, "hex": p.hex(2422)}),
        ("face down", {"unit": first, "hex": p.hex(2521), "why": ev.R_UNSEEN}),
        ("face down", {"unit": second, "hex": p.hex(2521), "why": ev.R_UNSEEN}),
    ]
    assert texts(p, US)[5] == (f"round 2, offensive fire (8.2.1.2): {name(p, first)} rolls 3 dice, modifier +0: "
                               "1 hit(s) (8.2.1)")
    assert texts(p, US)[-3] == "US 105mm A loses its last step at 2422 and is set aside until the Melee ends (8.2.1.2)"
    assert p.phase == PHASE_NAMES[ADVANCE] and p.player == JAPAN
    p.do(p.slot(0))
    assert records(p.log) == [("advance", {"unit": first, "from": p.hex(2521), "to": p.hex(2422)}),
                              ("captured", {"unit": gun, "hex": p.hex(2422)})]
    assert texts(p, US) == [f"{name(p, first)} advances from 2521 to 2422 (8.2.1.4)",
                            "Japan captures US 105mm A at 2422 (8.2.1.4)"]


def test_attu_11_3_colonel_yamasakis_assault_is_logged(core):
    """11.3: two face-down Japanese Infantry steps on 2515 and one on 3409 are all Japan has left
    (the rest eliminated), so Colonel Yamasaki may "activate all units in any single hex": 2515,
    its platoons turned face up.  11.3.2: the group enters 2514, where 1/17 A stands with one
    step, and "immediately initiate[s] a Melee Combat, rolling attack dice before receiving the
    effects of defensive fire".  Modifier +1 (6.2): around 2514 the group's hex, its ZOC into
    2415 and 2615, and the cliffs to 2513 and 2614 make five (2514 and 2515 are both level 3).
    The dice 0, 1, 1 and 1, 1, 1: one hit, the company's last step (8.4: on the track).  No U.S.
    unit is left to see the platoons: they go face down again (2.5, checked between decisions,
    here the hit placed by itself), and the group goes in."""
    t, g = core.tables, core.scenario.grid
    y, x = g.index(2514), g.index(2515)
    assert t.level[y] == t.level[x] == 3
    assert sorted(g.number(int(n)) for d, n in enumerate(t.nbr[y]) if t.cliff[y, d]) == [2513, 2614]
    assert sorted(g.number(int(n)) for n in t.nbr[y] if t.dist[n, x] == 1) == [2415, 2615]
    b = Board(core)
    first, second = jp(b, 2515, face_down=True), jp(b, 2515, face_down=True)
    jp(b, 3409, face_down=True)
    left = (core.scenario.unit_side == JAPAN) & (core.scenario.unit_type == 0) & (b.state.unit_loc[0] != LOC_MAP)
    b.state.unit_loc[0, left] = LOC_ELIM
    b.state.unit_steps[0, left] = 0
    company = b.place("1/17 A", 2514, steps=1)
    b.set(acting=JAPAN, first=JAPAN)
    p = logged(b)
    p.do(p.special(YAMASAKI))
    assert p.log == [] and p.phase == PHASE_NAMES[YAMA_SELECT]
    p.at(2515)
    assert records(p.log) == [("Colonel Yamasaki", {"hex": x}),
                              ("revealed", {"unit": first, "hex": x}), ("revealed", {"unit": second, "hex": x})]
    assert texts(p, US)[0] == "Colonel Yamasaki activates the units at 2515 (11.3)"
    p.force([10, 1, 1] + [1, 1, 1])
    p.at(2514)
    assert records(p.log) == [("melee", {"side": JAPAN, "hex": y, "kind": ev.R_YAMASAKI})] + \
        dice(ev.P_OFFENSIVE, [10, 1, 1]) + [
        ("melee fire", {"round": 1, "fire": ev.P_OFFENSIVE, "unit": first, "dice": 3, "modifier": 1, "hits": 1}),
    ] + dice(ev.P_OFFENSIVE, [1, 1, 1]) + [
        ("melee fire", {"round": 1, "fire": ev.P_OFFENSIVE, "unit": second, "dice": 3, "modifier": 1, "hits": 0}),
        ("step lost", {"unit": company, "steps": 1, "left": 0}),
        ("casualty track", {"steps": 1, "track": 1}),
        ("eliminated", {"unit": company, "hex": y}),
        ("face down", {"unit": first, "hex": x, "why": ev.R_UNSEEN}),
        ("face down", {"unit": second, "hex": x, "why": ev.R_UNSEEN}),
        ("advance", {"unit": first, "from": x, "to": y}),
        ("advance", {"unit": second, "from": x, "to": y}),
    ]
    assert texts(p, US)[0] == "japan attacks 2514 in Melee: Colonel Yamasaki's assault (11.3.2) (8.2)"
    assert texts(p, US)[11] == "US 1/17 A is eliminated at 2514 (8.0)"
    assert p.phase == PHASE_NAMES[YAMA_MOVE]


# --------------------------------------------------------------------------- what the U.S. reads
@pytest.mark.parametrize("hit", ["infantry", "unknown"])
def test_attu_2_5_8_5_the_us_reads_no_difference_between_eliminated_and_melted_back(core, hit):
    """2.5 / 8.5: a Japanese Infantry unit hit is eliminated; an Unknown hit by Ranged Combat "is
    secretly removed from the map" back to the cup.  1/17 A (2422, in supply on Landing Zone D)
    fires at two face-down counters in 2621: a face-down Infantry and, on the other board, a
    second Infantry or an Unknown.  Its two dice, 0 and 1, at -2 (8.3, a face-down target):
    the 0 hits (8.0).  Japan puts the hit on the second counter.  To the U.S. the two boards
    look the same after the step (a counter gone from 2621, face down, fog.py), and so do its
    events; Japan, and the whole truth, read which it was."""
    b = Board(core)
    company = b.place("1/17 A", 2422)
    jp(b, 2621, face_down=True)
    other = b.place(b.japanese(hit), 2621, face_down=True)
    p = logged(b)
    p.force([10, 1])
    p.at(2422)
    p.at(2621)
    assert records(p.log) == dice(ev.P_RANGED, [10, 1]) + [
        ("ranged fire", {"unit": company, "from": p.hex(2422), "at": p.hex(2621), "dice": 2, "modifier": -2,
                         "hits": 1}),
    ]
    assert p.phase == PHASE_NAMES[LOSS] and p.player == JAPAN
    p.hit(other)
    how = {"infantry": ev.R_ELIMINATED, "unknown": ev.R_MELTED}[hit]
    assert records(p.log) == [("off the map", {"unit": other, "hex": p.hex(2621), "how": how})]
    assert p.loc(other) == {"infantry": LOC_ELIM, "unknown": LOC_RESERVE}[hit]
    assert texts(p, US) == ["a unit it cannot see at 2621 is taken off the map: ? (8.5)"]
    assert core.events_for(p.log, p.state, 0, US)[0]["args"] == {"unit": None, "hex": p.hex(2621), "how": None}
    truth = {"infantry": "eliminated", "unknown": "melted back into the cup"}[hit]
    assert texts(p, JAPAN) == texts(p, None) == [f"{name(p, other)} at 2621 is taken off the map: {truth} (8.5)"]


def test_attu_8_2_2_5_a_melee_reveals_the_unknowns_but_not_their_table_to_the_us(plain):
    """8.2 x 2.5: 1/17 A (2422) attacks in Step 7 the face-down Unknown in 2521.  The Unknown is
    revealed "at the moment of Melee": Japan rolls on its table, a 6 (the table gives 2 Infantry,
    reconstructed), and two Infantry are drawn from the cup (the first two, picks forced) and
    placed face up (2.5).  They fire first (8.2.1.1), 1, 1, 1 each: no hit; the company's six
    dice (0, 1, 1, 1, 1, 1, no modifier: same level, no slope, in supply, three hexes of six
    for surround, 6.2) score the 0; Japan is to place the hit.  The U.S. sees the Infantry
    appear and fight, named, but not the table nor its die (the Unknown is off the map at once,
    where fog.py keeps a counter's identity from it, and the die with the Infantry that came would
    tell which table it was); Japan reads both.  Placing the hit eliminates the Infantry that takes it (8.5)."""
    b = Board(plain)
    company = b.place("1/17 A", 2422)
    unknown = b.place(b.japanese("unknown"), 2521, face_down=True)
    assert list(plain.scenario.unit_table[unknown]) == [1, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    first, second = (b.unit(n) for n in ("Inf 62", "Inf 63"))     # the cup's first two, in unit order
    assert b.state.unit_loc[0, first] == b.state.unit_loc[0, second] == LOC_RESERVE
    p = logged(step7(b, {company: 2521}, US))
    p.state = plain.force(p.state, [6] + [1] * 6 + [10] + [1] * 5, picks=[0, 0])
    p.at(2521)
    hexnum = p.hex(2521)
    assert records(p.log) == [
        ("melee", {"side": US, "hex": hexnum, "kind": ev.R_STEP7}),
        ("unknowns revealed", {"hex": hexnum, "counters": 1, "table": unknown}),
        ("secret die", {"for": ev.P_UNKNOWN_TABLE, "value": 6}),
        ("infantry appears", {"unit": first, "hex": hexnum}),
        ("infantry appears", {"unit": second, "hex": hexnum}),
    ] + dice(ev.P_DEFENSIVE, [1, 1, 1]) + [
        ("melee fire", {"round": 1, "fire": ev.P_DEFENSIVE, "unit": first, "dice": 3, "modifier": 0, "hits": 0}),
    ] + dice(ev.P_DEFENSIVE, [1, 1, 1]) + [
        ("melee fire", {"round": 1, "fire": ev.P_DEFENSIVE, "unit": second, "dice": 3, "modifier": 0, "hits": 0}),
    ] + dice(ev.P_OFFENSIVE, [10, 1, 1, 1, 1, 1]) + [
        ("melee fire", {"round": 1, "fire": ev.P_OFFENSIVE, "unit": company, "dice": 6, "modifier": 0, "hits": 1}),
    ]
    assert texts(p, US)[:5] == [
        "us attacks 2521 in Melee: Step 7 (3.7) (8.2)",
        "1 Unknown(s) at 2521 are revealed: one die for the lot, on the table of a unit it cannot see (2.5)",
        "an Unknown's table (2.5): a die, ? (1.2)",
        "JAPAN Inf 62 comes from the cup to 2521 (2.5)",
        "JAPAN Inf 63 comes from the cup to 2521 (2.5)",
    ]
    assert texts(p, JAPAN)[1:3] == [
        f"1 Unknown(s) at 2521 are revealed: one die for the lot, on the table of {name(p, unknown)} (2.5)",
        "an Unknown's table (2.5): a die, 6 (1.2)",
    ]
    assert texts(p, US)[5:] == texts(p, JAPAN)[5:]                # the fight itself is in plain view
    assert p.phase == PHASE_NAMES[LOSS] and p.player == JAPAN
    p.hit(first)
    assert records(p.log) == [("off the map", {"unit": first, "hex": hexnum, "how": ev.R_ELIMINATED})]
    assert p.phase == PHASE_NAMES[RETREAT_OPTION]


@pytest.mark.parametrize("case", ["empty container", "roll too low", "ambush"])
def test_attu_13_3_the_ambush_die_is_logged_only_when_an_ambush_comes_of_it(case):
    """13.3 (solitaire play): "If a U.S. unit ... uses its full movement allowance, draw an
    Unknown unit and roll a die against its table. Subtract two from the result. No ambush occurs
    on a modified result of less than one."  1/17 A moves its whole allowance (``ambush_board``).
    With the container empty no die is thrown; with the first Unknown's table in it, the die 1
    gives 1 - 2, no ambush; the 0 gives 3 - 2 = 1 Infantry (reconstructed table), drawn from the
    cup (the first, pick forced).  Whether a die is thrown at all depends on the container, which
    the U.S. may not see (fog.py), so the die is logged only with the ambush it brings, secret
    from the U.S. like any Unknown's table die (2.5): with no ambush the two boards log nothing."""
    solo = make_core("campaign", solitaire=True)
    b, company, container = ambush_board(solo)
    assert list(solo.scenario.unit_table[container]) == [1, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    if case == "empty container":
        b.place(container, 3409, face_down=True)
    dest, _ = full_move(b, company)
    p = logged(b)
    forced = {"empty container": [1], "roll too low": [1], "ambush": [10]}[case]
    p.state, p.forced = solo.force(p.state, forced, picks=[0, 0]), len(forced)
    p.do(dest)
    if case != "ambush":
        assert p.log == [] and p.state.unit_hex[0, company] == dest
        assert p.dice_used == {"empty container": 0, "roll too low": 1}[case]   # thrown, or not, unlogged
        return
    infantry = b.unit("Inf 62")                                    # the cup's first
    assert records(p.log)[:4] == [
        ("secret die", {"for": ev.P_AMBUSH, "value": 10}),
        ("ambush", {"unit": company, "hex": dest}),
        ("infantry appears", {"unit": infantry, "hex": dest}),
        ("melee", {"side": US, "hex": dest, "kind": ev.R_AMBUSH}),
    ]
    place = solo.grid.label(dest)
    assert texts(p, US)[:4] == [
        "an ambush: an Unknown's table (13.3): a die, ? (1.2)",
        f"Japanese Infantry ambush US 1/17 A at {place} (13.3)",
        f"JAPAN Inf 62 comes from the cup to {place} (2.5)",
        f"us attacks {place} in Melee: an ambush (13.3) (8.2)",
    ]
    assert texts(p, JAPAN)[0] == "an ambush: an Unknown's table (13.3): a die, 10 (1.2)"
    assert p.state.unit_loc[0, infantry] == LOC_MAP


# ----------------------------------------------------------------------------- the turn sequence
def test_attu_3_3_3_4_the_weather_and_airpower_dice_and_what_they_give(core):
    """No Night Turn (3.2), then 3.3: last turn Cloudy, the die 5: "Cloudy ... 4-8: Rain"; 3.4:
    "Reduce the die rolls by -1 if Rain": the U.S. rolls 8 -> 7, "7: 3 1", three factors; Japan
    rolls 6 -> 5, "5: 2 1", one factor."""
    b = Board(core)
    b.place("1/17 A", 2422)
    b.set(weather=CLOUDY, phase=NIGHT_DECISION)
    p = logged(b)
    p.force([5, 8, 6])
    p.no()
    assert records(p.log) == [
        ("die", {"for": ev.P_WEATHER, "value": 5}), ("weather", {"weather": RAIN}),
        ("die", {"for": ev.P_AIRPOWER, "value": 8}), ("airpower", {"side": US, "factors": 3}),
        ("die", {"for": ev.P_AIRPOWER, "value": 6}), ("airpower", {"side": JAPAN, "factors": 1}),
    ]
    assert texts(p, US) == texts(p, JAPAN) == [
        "weather (3.3): a die, 5 (1.2)", "the weather is rain (3.3)",
        "Airpower Determination (3.4): a die, 8 (1.2)", "us has 3 Airpower factor(s) (3.4)",
        "Airpower Determination (3.4): a die, 6 (1.2)", "japan has 1 Airpower factor(s) (3.4)",
    ]
    assert p.phase == PHASE_NAMES[ACT_SELECT] and p.player == US


def test_attu_2_5_3_9_12_1_3_the_turns_end_hides_counters_advances_the_marker_and_reveals_komandorski(core):
    """Japan ends its Player Actions step on May 23 (turn 13), no Melee declared.  First 2.5: the
    face-up platoon in 1216, which no U.S. unit sees, goes face down.  Step 7 has no Melee, Step
    8 no winner; Step 9 (3.9): "flip any Japanese units that are not within an enemy zone of
    control": the platoon in 2621 (seen from 2422, two hexes off, but outside 1/17 A's ZOC) goes
    face down, the one in 2521 (next to it) stays up.  The Turn marker enters May 24 (turn 14),
    the Komandorski box (12.1.3): the Effect chit, May 24, is revealed, "If it is the May 24
    marker, the Delay marker is also revealed": 2 more turns, the last on May 25 (the delay
    counts the turn of the reveal, README).  Then the U.S. decides on a Refit Turn (3.1).  The
    U.S. saw both platoons face up: it reads which goes face down (README "What the U.S.
    remembers"); one it never saw face up is not named (test_attu_8_1_6_airpower_...)."""
    b = Board(core)
    b.place("1/17 A", 2422)
    far, watched, near = jp(b, 1216), jp(b, 2621), jp(b, 2521)
    b.set(turn=13, acting=JAPAN, act_step=1, ke_effect=24, ke_delay=2, ke_revealed=0)
    p = logged(b)
    p.end()
    assert records(p.log) == [
        ("face down", {"unit": far, "hex": p.hex(1216), "why": ev.R_UNSEEN}),
        ("face down", {"unit": watched, "hex": p.hex(2621), "why": ev.R_NO_ZOC}),
        ("turn", {"date": 24}),
        ("Komandorski Effect", {"date": 24}),
        ("Komandorski Delay", {"turns": 2, "last": 25}),
    ]
    assert texts(p, US) == [
        f"{name(p, far)} at 1216 is flipped face down: no U.S. unit sees it (2.5)",
        f"{name(p, watched)} at 2621 is flipped face down: not in a U.S. ZOC at the end of the turn (3.9) (2.5)",
        "the Turn marker advances to May 24 (3.9)",
        "the Komandorski Effect chit is revealed: May 24 (12.1.3)",
        "the Komandorski Delay chit is revealed: 2 more turn(s), the last on May 25 (12.1.3)",
    ]
    assert texts(p, JAPAN)[:2] == [f"{name(p, far)} at 1216 is flipped face down: no U.S. unit sees it (2.5)",
                                   f"{name(p, watched)} at 2621 is flipped face down: not in a U.S. ZOC at the end "
                                   "of the turn (3.9) (2.5)"]
    assert not p.state.face_down[0, near]
    assert p.phase == PHASE_NAMES[REFIT_DECISION] and p.player == US


# ---------------------------------------------------------------------------- refit and landing
def test_attu_9_0_refit_example_is_logged(core):
    """The 9.0 example: 16 casualties, a Refit Turn; "Weather is checked and ... a Williwaw blows
    up" (the previous Fog, the die 8: "Fog ... 8-0: Williwaw", 3.3); "A 14 is rolled, which is
    reduced to 12 ... resulting in 4 recovered steps" (7 + 7 - 2; the 4 is the book's, the rest of
    the Loss Recovery Table reconstructed) and the track goes back to 0.  "The US player restores
    four steps to in-supply infantry units": three to 1/17 A (2620), one to 1/17 B (2621)."""
    b = Board(core)
    a = b.place("1/17 A", 2620, steps=1)
    c = b.place("1/17 B", 2621, steps=2)
    b.place("2/17 E", 2516, steps=1)                              # out of supply: never offered
    b.set(casualties=16, weather=FOG, phase=REFIT_DECISION)
    p = logged(b)
    p.force([8, 7, 7])
    p.yes()
    assert records(p.log) == [
        ("die", {"for": ev.P_WEATHER, "value": 8}), ("weather", {"weather": WILLIWAW}),
        ("die", {"for": ev.P_RECOVERY, "value": 7}), ("die", {"for": ev.P_RECOVERY, "value": 7}),
        ("loss recovery", {"roll": 12, "casualties": 16, "steps": 4}),
    ]
    assert texts(p, US)[1:] == [
        "the weather is williwaw (3.3)", "Loss Recovery (9.1): a die, 7 (1.2)", "Loss Recovery (9.1): a die, 7 (1.2)",
        "Loss Recovery Table: modified roll 12 against 16 casualties gives 4 refit step(s); the Casualty Track "
        "goes back to 0 (9.1)",
    ]
    for steps in (2, 3, 4):
        assert p.phase == PHASE_NAMES[REFIT_ALLOC]
        p.at(2620)
        assert records(p.log) == [("refit", {"unit": a, "steps": steps})]
    p.at(2621)
    assert records(p.log)[0] == ("refit", {"unit": c, "steps": 3})
    assert texts(p, US)[0] == "US 1/17 B is refit to 3 step(s) (9.1)"


def test_attu_9_2_landing_example_scatters_and_loses_three_steps_to_the_zone_capacity(core):
    """The 9.2 example: "He's attempting to land a 4-step company into Zone E in foggy
    conditions. He rolls a 6 ... the foggy weather reduces the roll to a 5, resulting in the
    landing unit scattering to Zone F. Zone F is already stacked with 14 steps of units and can
    only support 15 steps total. This means that three of the landing company's four steps are
    eliminated ... The US player adjusts the American Loss Track up three spaces."  Through a
    Refit Turn: the weather stays Fog (the die 5 on the Fog line, 3.3), no step to recover (two
    1s, 9.1, an empty track); 3/17 I, the only reinforcement, is staged for Zone E, which leaves
    nothing to choose but the landing itself (it takes itself); the landing die is the book's 6."""
    sc = core.scenario
    f = sc.grid.number(sc.lz_hex[5])
    b = Board(core)
    for company in ("1/17 A", "1/17 B", "1/17 C"):
        b.place(company, f)
    b.place("1/17 D", f, steps=2)                                 # 4 + 4 + 4 + 2 = 14 steps in Zone F
    company = b.unit("3/17 I")
    b.state.unit_loc[0, company] = LOC_RESERVE
    b.set(weather=FOG, phase=REFIT_DECISION)
    p = logged(b)
    p.force([5, 1, 1, 6])
    p.yes()
    assert records(p.log) == [
        ("die", {"for": ev.P_WEATHER, "value": 5}), ("weather", {"weather": FOG}),
        ("die", {"for": ev.P_RECOVERY, "value": 1}), ("die", {"for": ev.P_RECOVERY, "value": 1}),
        ("loss recovery", {"roll": 1, "casualties": 0, "steps": 0}),
    ]
    assert p.phase == PHASE_NAMES[REINF_PICK]
    p.do(p.special(REINF_0 + sc.battalion_names.index("3/17")))
    assert p.phase == PHASE_NAMES[REINF_ZONE] and p.log == []
    p.do(p.special(LZ_0 + 4))                     # Zone E; nobody else to stage: the landing follows
    zone_f = sc.lz_hex[5]
    assert records(p.log) == [
        ("die", {"for": ev.P_SCATTER, "value": 6}),
        ("landing", {"unit": company, "zone": 4, "result": ev.R_SCATTERS, "to": zone_f}),
        ("over capacity", {"hex": zone_f, "steps": 3}),
        ("step lost", {"unit": company, "steps": 3, "left": 1}),
        ("casualty track", {"steps": 3, "track": 3}),
    ]
    assert texts(p, US) == [
        "Scatter Chart (9.2.2): a die, 6 (1.2)",
        f"US 3/17 I (staging box E) scatters to {f} (9.2.2)",
        f"the Landing Zone at {f} holds 3 step(s) over its capacity (9.2.1)",
        "US 3/17 I loses 3 step(s), 1 left (8.0)",
        "the Casualty Track rises by 3 to 3 (8.4)",
    ]
    assert p.phase == PHASE_NAMES[INDEPENDENT]


# -------------------------------------------------------------------------------------- victory
@pytest.mark.parametrize("vp_chits", [False, True])
def test_attu_3_8_2_the_casualty_track_reaching_30_ends_the_game_at_once(vp_chits):
    """3.8.2: "The Japanese player wins immediately if the U.S. Casualty Track ever reaches 30."
    The track at 29, a face-up platoon in 2621 fires its one die at 1/17 A in 2422 (Japan's
    Player Actions, Cloudy day, same level: no modifier): a 0, a hit, the company's only choice
    for the U.S.: a step, the 30th box.  With the victory point chits (14.0) the game still ends
    there and the chits are scored: no Victory Hex held by the U.S., and +1 "if the game ends
    before May 27" (May 13): 1 point, a Japanese win.  The game's end is the last event."""
    core = make_core("campaign", vp_chits=True) if vp_chits else make_core("campaign")
    b = Board(core)
    company = b.place("1/17 A", 2422)
    platoon = jp(b, 2621)
    b.set(casualties=29, acting=JAPAN, act_step=1)
    p = logged(b)
    p.at(2621)
    p.force([10])
    p.at(2422)
    end = ([("victory points", {"points": 1}), ("game over", {"winner": JAPAN, "how": ev.R_VICTORY_POINTS})]
           if vp_chits else [("game over", {"winner": JAPAN, "how": ev.R_CASUALTIES})])
    assert records(p.log) == dice(ev.P_RANGED, [10]) + [
        ("ranged fire", {"unit": platoon, "from": p.hex(2621), "at": p.hex(2422), "dice": 1, "modifier": 0, "hits": 1}),
        ("step lost", {"unit": company, "steps": 1, "left": 3}),
        ("casualty track", {"steps": 1, "track": 30}),
    ] + end
    assert texts(p, US)[-1] == ("the game ends, japan wins: the Victory Level Table (14.0) (3.8)" if vp_chits else
                                "the game ends, japan wins: the Casualty Track at 30 (3.8.2) (3.8)")
    assert p.state.terminated[0] and p.state.rewards[0, JAPAN] == 1.0


# ------------------------------------------------------------------------------------- the README
def test_attu_readme_set_up_a_position_prints_what_the_readme_says():
    """wargym/attu/README.md "Set up a position": its example, run, prints the block after it (a
    ranged fire at a face-down Unknown, then the hit as the U.S. and as Japan read it)."""
    readme = Path(__file__).resolve().parents[2] / "wargym" / "attu" / "README.md"
    text = readme.read_text()
    section = text[text.index("## Set up a position"):text.index("## What the engine does by itself")]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    printed = re.search(r"prints\n\n```\n(.*?)```", section, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(readme), "exec"), {"__name__": "readme"})
    assert out.getvalue() == printed


def test_attu_2_5_a_roll_on_an_unknowns_table_stays_out_of_the_dice_every_side_sees(core):
    """2.5: the die rolled on an Unknown's table is the Japanese player's secret: logged as a
    secret die, and not kept in ``last_dice``, the record of the last roll that every side's view
    (and the page's dice) shows; a public die (here weather, 4.0) is kept there."""
    from wargym.attu import board
    from wargym.attu.state import as_arrays

    state = core.init(1, 4)
    S = as_arrays(state)
    S.last_n[0] = 0
    board.roll.py_func(S, 0, ev.P_UNKNOWN_TABLE)
    board.roll.py_func(S, 0, ev.P_AMBUSH)
    assert S.last_n[0] == 0
    d = board.roll.py_func(S, 0, ev.P_WEATHER)
    assert S.last_n[0] == 1 and S.last_dice[0, 0] == d
    view = core.view(state, US)
    assert view.last_n[0] == 1 and int(view.last_dice[0, 0]) == d
