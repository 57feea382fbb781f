"""The World at War, "4. Battle" and "5. Resolve battle" played through the core with forced dice:
casualties and saving throws, the defence die, forced and voluntary retreats, rallying, blocked
retreats, retreat off the battlefield, breakthrough and a tank's second battle, hitting commanders,
commanders in battle, terrain dice, firing at buildings, indirect artillery scatter, line of sight.

Dice: ``roll`` gives 1-6 (D8: 1-8); a battle die shows face ``value - 1`` of configs/world_at_war/
dice.yaml: white 1 soldier, 2 soldier, 3 jeep, 4 HIT!, 5 flag, 6 blank; yellow 1 soldier, 2 jeep,
3 Sherman, 4 STRIKE, 5 flag, 6 blank; green 1 soldier, 2 soldier, 3 jeep, 4 HIT!, 5 flag, 6 flag.
Saving throws use the white die.  The order of the dice in a battle: the attacker's throw, the saving
throws for the hits, the 2 D6 for a building, the defence die, the saving throws for the flags.
"""

from __future__ import annotations

import numpy as np
import pytest

from waw_board import at, attack, card_named, duel, hx, label, legal_hexes, make_core, piece, special, step
from wargym.world_at_war import actions as act
from wargym.world_at_war.state import (
    P_ADJUST, P_BATTLE_SELECT, P_BATTLE_TARGET, P_BREAKTHROUGH, P_HIT_PART, P_MOVE_DEST, P_RETREAT, P_SECOND, P_STAND,
)

US, DE = 0, 1
YES, NO = act.YES, act.NO


def test_waw_close_combat_automatic_kill_saving_throw_and_defence_die(tmp_path):
    core, state = duel(tmp_path)
    # the US squad casts 3 white dice at 1 hex: soldier, soldier, blank -> 2 hits with an identical
    # symbol: the first an automatic kill, the second saved only by HIT!/STRIKE/BLOW in close combat
    # (blank: killed); the Germans stand and their defence die (white, their main colour at 1 hex)
    # shows a soldier: "A hit scored with the defence die automatically results in a kill"
    state = attack(core, state, "0604", 1, 2, 6, 6, 1)
    assert state.phase[0] == P_STAND and state.current_player[0] == DE
    state = step(core, state, special(core, NO))
    assert state.p_figures[0].tolist()[:2] == [7, 6]
    assert state.last_kills[0] == 2 and state.last_flags[0] == 0


def test_waw_two_flags_first_automatic_then_retreat_and_breakthrough(tmp_path):
    # 5 figures: below the card's flag (6), so the flags count.  Flag, flag, blank: no hit; the first
    # flag is an automatic retreat, the second's saving die is a blank -> 2 hexes toward the north
    core, state = duel(tmp_path, de_figures=5)
    state = attack(core, state, "0604", 5, 5, 6, 6, 6)
    state = step(core, state, special(core, NO))          # the Germans stand: defence die blank
    assert state.phase[0] == P_RETREAT and state.current_player[0] == DE
    assert legal_hexes(core, state) == ["0504", "0603", "0704"]   # N, NE, NW of 0604
    state = step(core, state, hx(core, "0603"))
    assert legal_hexes(core, state) == ["0503", "0602", "0703"]
    state = step(core, state, hx(core, "0602"))
    # the hex is empty after close combat: the US unit may force a breakthrough
    assert state.phase[0] == P_BREAKTHROUGH and state.current_player[0] == US
    state = step(core, state, special(core, YES))
    assert label(core, state.p_hex[0, 0]) == "0604" and label(core, state.p_hex[0, 1]) == "0602"


def test_waw_forcing_a_breakthrough_the_rule_enters_and_hold_keeps_its_hex(tmp_path):
    # the position above at "Forcing a breakthrough" ("the unit can force a breakthrough by entering
    # the now free hex"): the baseline "rule" always enters, "hold" never does; elsewhere they agree
    from wargym.agents import baselines

    core, state = duel(tmp_path, de_figures=5)
    state = attack(core, state, "0604", 5, 5, 6, 6, 6)
    state = step(core, state, special(core, NO))
    state = step(core, state, hx(core, "0603"))
    state = step(core, state, hx(core, "0602"))
    assert state.phase[0] == P_BREAKTHROUGH and state.current_player[0] == US
    rule, hold = baselines.get("world_at_war", "us"), baselines.get("world_at_war", "us", "hold")
    assert (rule.hold, hold.hold) == (False, True)
    assert rule.act(core, state, US)[0] == special(core, YES)
    assert hold.act(core, state, US)[0] == special(core, NO)
    before = core.init(1, 0)
    assert rule.act(core, before, 0)[0] == hold.act(core, before, 0)[0]


def test_waw_flags_ignored_at_the_flag_figure(tmp_path):
    # "As long as a unit does not fall below the number indicated in the flag ..., all flags may be
    # ignored": 8 figures against a flag of 6
    core, state = duel(tmp_path)
    state = attack(core, state, "0604", 5, 5, 6, 6)
    state = step(core, state, special(core, NO))
    assert label(core, state.p_hex[0, 1]) == "0604" and state.last_retreat[0] == 0


def test_waw_voluntary_retreat_takes_the_casualties_then_retreats_without_defence(tmp_path):
    # "The attacker battles against the unit before it is allowed to retreat ... A unit making a
    # voluntary retreat is allowed to saving throws, but not a defence throw."
    core, state = duel(tmp_path)
    state = attack(core, state, "0604", 1, 6, 6, 6)        # 1 hit, its saving die blank
    state = step(core, state, special(core, YES))
    assert state.p_figures[0, 1] == 7 and state.p_figures[0, 0] == 8
    assert state.phase[0] == P_RETREAT
    state = step(core, state, hx(core, "0504"))
    assert state.phase[0] == P_BREAKTHROUGH
    state = step(core, state, special(core, NO))
    assert label(core, state.p_hex[0, 0]) == "0605"


def test_waw_retreat_off_the_battlefield_eliminates_and_scores(tmp_path):
    # 0501 is on the north edge: its N, NE and NW neighbours are off the map
    core, state = duel(tmp_path, us=("us_infantry", "0502"), de=("de_infantry", "0501"), de_figures=5)
    state = attack(core, state, "0501", 5, 6, 6, 6, 6)     # 1 flag: its saving die blank
    assert state.phase[0] == P_STAND or state.p_hex[0, 1] < 0
    if state.phase[0] == P_STAND:
        state = step(core, state, special(core, NO))
    assert state.p_hex[0, 1] == -1 and state.vp[0].tolist() == [1, 0]


def test_waw_blocked_retreat_costs_a_figure_each_hex(tmp_path):
    # German units on all three hexes toward the north edge: "1 figure ... must be eliminated for
    # each retreat move that cannot be completed"
    more = [("germany", "de_infantry", "blue", h) for h in ("0603", "0704", "0504")]
    core, state = duel(tmp_path, de_figures=5, more=more)
    state = attack(core, state, "0604", 5, 5, 6, 6, 6)    # two flags: 2 retreat hexes, both blocked
    assert state.phase[0] != P_STAND                      # nowhere to go: no voluntary retreat to offer
    assert state.p_figures[0, 1] == 3 and label(core, state.p_hex[0, 1]) == "0604"


def test_waw_retreat_onto_a_commander_rallies(tmp_path):
    # "If a unit retreats in a hex occupied by a friendly commander, it is rallied and all remaining
    # flags are ignored"
    core, state = duel(tmp_path, de_figures=5, commanders=[("germany", "0603")])
    state = attack(core, state, "0604", 5, 5, 6, 6, 6)
    state = step(core, state, special(core, NO), hx(core, "0603"))
    assert label(core, state.p_hex[0, 1]) == "0603" and state.phase[0] == P_BREAKTHROUGH


def test_waw_a_lone_commander_needs_hit_strike_or_blow(tmp_path):
    # "The attacking player must then roll a HIT!, STRIKE or BLOW to hit.  Unless the defender makes
    # a successful saving throw, the commander is eliminated and the attacker gains a victory point."
    core = make_core(tmp_path, [("us", "us_infantry", "red", "0605")], commanders=[("germany", "0604")])
    state = at(core, core.init(1, seed=1), P_BATTLE_SELECT, ordered=[0])
    miss = attack(core, state, "0604", 1, 2, 3, 6)
    assert miss.p_hex[0, 1] == hx(core, "0604")
    hit = attack(core, state, "0604", 4, 1, 1, 6)
    assert hit.p_hex[0, 1] == -1 and hit.vp[0, 0] == 1


def test_waw_artillery_cannot_battle_a_lone_commander(tmp_path):
    # "A commander can only be attacked by infantry or vehicles"
    core = make_core(tmp_path, [("us", "us_light_artillery", "red", "0606")], commanders=[("germany", "0604")])
    state = at(core, core.init(1, seed=1), P_BATTLE_SELECT, ordered=[0])
    assert not state.legal_action_mask[0, piece(core, 0)]


def test_waw_commander_adds_one_die(tmp_path):
    # "A commander controlling units may always support one of these units by adding one die"
    core, state = duel(tmp_path, commanders=[("us", "0605")])
    state = attack(core, state, "0604", 6, 6, 6, 6, 6)
    state = step(core, state, special(core, NO))
    assert state.bt_dice[0].tolist() == [4, 0, 0, 0]
    assert int((state.last_throw[0] >= 0).sum()) == 4


def test_waw_wood_takes_a_die_from_infantry(tmp_path):
    # wood: "Attacker: -1 infantry"
    core, state = duel(tmp_path, terrain={"0604": "W"})
    state = attack(core, state, "0604", 6, 6, 6)
    state = step(core, state, special(core, NO))
    assert state.bt_dice[0].tolist() == [2, 0, 0, 0]


def test_waw_tank_fire_collapses_a_town_building(tmp_path):
    # a Sherman platoon at 1 hex casts 1 white + 2 yellow; the town takes 2 from vehicles (white
    # first): one yellow die, a soldier: 1 hit, its save a blank; then "Cast 2 D6: a total of 5 or 6
    # makes the structure collapse with the occupying unit suffering an automatic kill": 2 + 3
    core, state = duel(tmp_path, us=("us_medium_tank", "0605"), terrain={"0604": "T"})
    state = attack(core, state, "0604", 1, 6, 2, 3, 6)
    state = step(core, state, special(core, NO))
    assert state.bt_dice[0].tolist() == [0, 1, 0, 0]
    assert state.p_figures[0, 1] == 6


def test_waw_blind_artillery_fire_scatters_to_side_3(tmp_path):
    # a wood at 0606 hides 0603 from the howitzer at 0609: blind fire, 1 D8 = 3: side 3 of the
    # target hex, side 4 being the one facing the gun (south): side 3 is the south-east, 0704
    more = [("germany", "de_infantry", "blue", "0704")]
    core, state = duel(tmp_path, us=("us_medium_artillery", "0609"), de=("de_infantry", "0603"),
                       terrain={"0606": "W"}, more=more)
    assert "0603" in legal_hexes(core, at(core, state, P_BATTLE_TARGET, ordered=[0], selected=0))
    # band 6 of the howitzer: 1 yellow + 1 green: soldier, soldier -> automatic kill + a blank save
    state = attack(core, state, "0603", 3, 1, 1, 6)
    assert state.p_figures[0, 1] == 8 and state.p_figures[0, 2] == 6


def test_waw_blind_artillery_fire_on_target_with_7_or_8(tmp_path):
    core, state = duel(tmp_path, us=("us_medium_artillery", "0609"), de=("de_infantry", "0603"),
                       terrain={"0606": "W"})
    state = attack(core, state, "0603", 7, 1, 1, 6)
    assert state.phase[0] == P_STAND        # on target: the defender may still retreat (README)
    state = step(core, state, special(core, NO))
    assert state.p_figures[0, 1] == 6


def test_waw_breakthrough_tank_may_battle_the_retreating_unit_again(tmp_path):
    # "When a tank or SP unit forces a breakthrough, it can engage the retreating unit in battle once
    # more (but not follow up again)."  The Sherman platoon: 1 white 2 yellow at 1 hex
    core, state = duel(tmp_path, us=("us_medium_tank", "0605"), de_figures=5)
    state = attack(core, state, "0604", 5, 5, 6, 6, 6, 6)   # flag, flag, blank; defence blank; save blank
    state = step(core, state, special(core, NO), hx(core, "0603"), hx(core, "0602"))
    state = step(core, state, special(core, YES))            # breakthrough into 0604
    assert state.phase[0] == P_SECOND
    state = step(core, state, special(core, YES))
    assert state.phase[0] == P_STAND                        # the retreating unit may retreat again
    state = core.force(state, [6, 6, 6])
    state = step(core, state, special(core, NO))            # 0602 is 2 hexes away: 2 yellow dice
    assert state.bt_dice[0].tolist() == [0, 2, 0, 0]
    assert state.phase[0] != P_SECOND                       # "but not follow up again"


def test_waw_line_of_sight_blocked_by_wood_and_units_not_by_a_lone_commander(tmp_path):
    # "Obstructions include a unit, woods, hills, fields or buildings, but not a single commander or
    # sniper.  The terrain in the target hex does not block line of sight."  A Sherman platoon at
    # 0609, the Germans 2 hexes north at 0607 (2 yellow dice there)
    units = [("us", "us_medium_tank", "red", "0609"), ("germany", "de_infantry", "red", "0607")]
    core = make_core(tmp_path, units, commanders=[("germany", "0608")])
    state = at(core, core.init(1, seed=1), P_BATTLE_TARGET, ordered=[0], selected=0)
    assert "0607" in legal_hexes(core, state)            # over the lone commander at 0608
    core = make_core(tmp_path, units, terrain={"0608": "W"})
    state = at(core, core.init(1, seed=1), P_BATTLE_TARGET, ordered=[0], selected=0)
    assert "0607" not in legal_hexes(core, state)        # the wood at 0608 blocks
    core = make_core(tmp_path, units + [("us", "us_infantry", "blue", "0608")])
    state = at(core, core.init(1, seed=1), P_BATTLE_TARGET, ordered=[0], selected=0)
    assert "0607" not in legal_hexes(core, state)        # so does a unit, a friendly one too
    core = make_core(tmp_path, units, terrain={"0607": "H"})
    state = at(core, core.init(1, seed=1), P_BATTLE_TARGET, ordered=[0], selected=0)
    assert "0607" in legal_hexes(core, state)            # the hill in the target hex does not


def edge_pair(core):
    """Two hexes 2 apart whose line runs along a hexside: the two nudged lines differ."""
    sc = core.scenario
    for a in range(sc.num_hexes):
        for b in range(sc.num_hexes):
            if sc.grid.distance[a, b] == 2 and sc.sight_a[a, b, 0] != sc.sight_b[a, b, 0]:
                return a, b, int(sc.sight_a[a, b, 0]), int(sc.sight_b[a, b, 0])
    raise AssertionError("no line along a hexside")


def test_waw_line_of_sight_along_a_hexside_needs_obstructions_on_both_sides(tmp_path):
    # "If the imaginary line runs along the edge of one or more hexes that contain obstructions, line
    # of sight is not blocked unless the obstructions are on both sides of the line."
    probe = make_core(tmp_path, [("us", "us_infantry", "red", "0101"), ("germany", "de_infantry", "red", "1309")])
    a, b, left, right = edge_pair(probe)
    A, B, L, R = (label(probe, h) for h in (a, b, left, right))
    units = [("us", "us_medium_tank", "red", A), ("germany", "de_infantry", "red", B)]
    one = make_core(tmp_path, units, terrain={L: "W"})
    state = at(one, one.init(1, seed=1), P_BATTLE_TARGET, ordered=[0], selected=0)
    assert B in legal_hexes(one, state)
    both = make_core(tmp_path, units, terrain={L: "W", R: "W"})
    state = at(both, both.init(1, seed=1), P_BATTLE_TARGET, ordered=[0], selected=0)
    assert B not in legal_hexes(both, state)


def test_waw_victory_at_the_quota(tmp_path):
    # "The first player to gain his quota is the victor": 1 point for the German unit destroyed
    core, state = duel(tmp_path, de_figures=1, vp=(1, 6))
    state = attack(core, state, "0604", 1, 6, 6, 6)
    if not state.terminated[0]:
        state = step(core, state, special(core, NO))
    assert state.terminated[0] and state.winner[0] == US and state.rewards[0].tolist() == [1.0, -1.0]


def test_waw_close_combat_units_are_not_fired_on_from_a_distance(tmp_path):
    # "Units having been engaged in close combat due to an order of the current command card cannot
    # be fired upon from a distance."
    more = [("us", "us_infantry", "blue", "0606"), ("germany", "de_infantry", "blue", "0609")]
    core, state = duel(tmp_path, more=more)
    state = at(core, state, P_BATTLE_SELECT, ordered=[0, 2])
    state = attack(core, state, "0604", 6, 6, 6, 6)
    state = step(core, state, special(core, NO))
    assert state.p_close[0, 1]
    state = step(core, state, piece(core, 2))
    assert legal_hexes(core, state) == ["0609"]          # 0604 is 2 hexes away: not after its close combat


def test_waw_artillery_fires_over_an_adjacent_friendly_unit_on_lower_ground(tmp_path):
    # "Only artillery may fire over a friendly unit or commander in an adjacent hex on lower ground.
    # Units situated 2 hexes or further away block artillery line of fire"
    def targets(terrain, friend):
        units = [("us", "us_anti_tank", "red", "0609"), ("germany", "de_infantry", "red", "0606"),
                 ("us", "us_infantry", "blue", friend)]
        core = make_core(tmp_path, units, terrain=terrain)
        return legal_hexes(core, at(core, core.init(1, seed=1), P_BATTLE_TARGET, ordered=[0], selected=0))
    assert targets({"0609": "H"}, "0608") == ["0606"]     # the gun on a hill, the friend below next to it
    assert targets({}, "0608") == []                      # on the same level: blocked
    assert targets({"0609": "H"}, "0607") == []           # 2 hexes away: blocked


def test_waw_motorized_hits_the_attacker_chooses_mechanized_mounted_only_the_vehicle(tmp_path):
    # appendix 1 (basic): "a mechanized unit ... with the infantry inside the vehicle, the attacker can
    # only score a hit on the vehicle": a jeep scores on the half-track (open-topped armour)
    core, state = duel(tmp_path, de=("de_mechanized_infantry", "0604"))
    state.p_mounted[0, 1] = True
    state = core.refresh(state)
    state = attack(core, state, "0604", 3, 6, 6, 6, 6)
    state = step(core, state, special(core, NO))
    assert state.p_vehicles[0, 1] == 0 and not state.p_mounted[0, 1] and state.p_figures[0, 1] == 8
    # "In case of a motorized unit ... the attacker has the option during battle to either hit the
    # vehicle or personnel": the Germans battle a US motorized unit and choose
    units = [("us", "us_motorized_infantry", "red", "0605"), ("germany", "de_infantry", "red", "0604")]
    core = make_core(tmp_path, units)
    state = at(core, core.init(1, seed=1), P_BATTLE_SELECT, active=DE, ordered=[1])
    state = step(core, state, piece(core, 1))
    # German white 2 + green 1 at 1 hex: jeep, soldier, flag; the jeep scores on the vehicle and the
    # personnel alike ("should he cast the appropriate symbol"), so the choice is the attacker's
    state = core.force(state, [3, 1, 6, 6, 6])
    state = step(core, state, hx(core, "0605"), special(core, NO))   # the US stands
    assert state.current_player[0] == DE                    # the attacker chooses vehicle or personnel
    state = step(core, state, special(core, NO))            # the personnel: both hits, the saves blank
    assert state.p_figures[0, 0] == 6 and state.p_vehicles[0, 0] == 1


def test_waw_the_defender_chooses_unit_or_attached_sniper(tmp_path):
    # "If a target hex contains 2 different types of units (e.g. infantry & sniper ...), the defender
    # has the option of choosing which unit will take hits"
    core, state = duel(tmp_path, snipers=[("germany", "0604")])
    state = attack(core, state, "0604", 1, 6, 6, 6)
    state = step(core, state, special(core, NO))
    assert state.current_player[0] == DE and state.legal_action_mask[0, piece(core, 2)]
    state = step(core, state, piece(core, 2))               # the sniper takes it: eliminated
    assert state.p_hex[0, 2] == -1 and state.p_figures[0, 1] == 8 and state.vp[0, 0] == 1


def test_waw_flamethrower_ignores_cover(tmp_path):
    # terrain sheet, flame thrower: "No dice are deducted for cover."  The engineers cast the same
    # dice at a unit in a wood as in the open (2: 3 white, one less for the unarmed figures)
    dice = []
    for terrain in ({"0604": "W"}, {}):
        core, state = duel(tmp_path, us=("us_engineers", "0605"), terrain=terrain)
        state = attack(core, state, "0604", 6, 6, 6)
        state = step(core, state, special(core, NO))
        dice.append(state.bt_dice[0].tolist())
    assert dice == [[2, 0, 0, 0], [2, 0, 0, 0]]


def test_waw_partly_armed_unit_casts_a_die_less_and_kills_no_more_than_its_firearms(tmp_path):
    # 3. Move: "In case only part of a unit is equipped with firearms, the number of casualties
    # inflicted can never be higher than the number of firearms in the unit and 1 die less then
    # indicated on the order sheet is cast": engineers, 6 figures, 4 armed (units.yaml)
    core, state = duel(tmp_path, us=("us_engineers", "0605"), de_figures=8)
    state = attack(core, state, "0604", 1, 2, 6)         # 2 dice: soldier, soldier; the save blank
    state = step(core, state, special(core, NO))
    assert state.bt_dice[0].tolist() == [2, 0, 0, 0] and state.p_figures[0, 1] == 6
    state2 = duel(tmp_path, us=("us_engineers", "0605", ), de_figures=8)[1]
    state2.p_figures[0, 0] = 1                             # one figure left: one casualty at most
    state2 = core.refresh(state2)
    state2 = attack(core, state2, "0604", 1, 2, 6)
    state2 = step(core, state2, special(core, NO))
    assert state2.p_figures[0, 1] == 7


def test_waw_blocked_retreat_may_take_the_commander_with_the_last_figure(tmp_path):
    # "If a unit cannot retreat, 1 figure/vehicle ... must be eliminated for each retreat move that
    # cannot be completed.  Such losses may include the commander if this is the last remaining
    # figure/model in the given hex."  One figure and its commander, two retreats, all blocked
    more = [("germany", "de_infantry", "blue", h) for h in ("0603", "0704", "0504")]
    core, state = duel(tmp_path, de_figures=1, more=more, commanders=[("germany", "0604")], vp=(6, 6))
    state = attack(core, state, "0604", 5, 5, 6, 6, 6)
    assert state.p_hex[0, 1] == -1 and state.p_hex[0, 5] == -1 and state.vp[0, 0] == 2


def test_waw_a_blind_salvo_at_the_same_hex_hits_where_the_last_did_unless_adjusted(tmp_path):
    # "Subsequent salvos will hit the same hex, unless the fire is adjusted in which case 1 D8 is cast
    # again": the first salvo scattered to 0704 (side 3); the next, not adjusted, hits 0704 again
    more = [("germany", "de_infantry", "blue", "0704")]
    core, state = duel(tmp_path, us=("us_medium_artillery", "0609"), de=("de_infantry", "0603"),
                       terrain={"0606": "W"}, more=more)
    state = attack(core, state, "0603", 3, 6, 6)
    assert state.p_aim[0, 0] == hx(core, "0603") and state.p_land[0, 0] == hx(core, "0704")
    again = at(core, state, P_BATTLE_SELECT, ordered=[0])
    again.p_battled[0, 0] = False
    again = core.refresh(again)
    again = step(core, again, piece(core, 0), hx(core, "0603"))
    assert again.phase[0] == P_ADJUST and again.current_player[0] == US
    same = step(core, core.force(again, [1, 1, 6]), special(core, NO))
    assert same.p_figures[0, 2] == 6 and same.p_figures[0, 1] == 8
    adjusted = step(core, core.force(again, [8]), special(core, YES))   # D8 = 8: on the target
    assert adjusted.phase[0] == P_STAND and adjusted.target_hex[0] == hx(core, "0603")


def test_waw_guided_fire_stays_on_target_while_the_spotter_sees_it(tmp_path):
    # guided: "2 D6: 7-12 means the target hex has been hit ... Subsequent salvos will be on the
    # target hex, for as long as the target hex is in the line of sight of the spotter."
    core, state = duel(tmp_path, us=("us_medium_artillery", "0609"), de=("de_infantry", "0603"),
                       terrain={"0606": "W"}, commanders=[("us", "0504")])
    state = attack(core, state, "0603", 3, 4)               # 2 D6 = 7: on target (guided)
    assert state.phase[0] == P_STAND and state.p_guided[0, 0]
    state = step(core, core.force(state, [6, 6]), special(core, NO))
    again = at(core, state, P_BATTLE_SELECT, ordered=[0])
    again.p_battled[0, 0] = False
    again = core.refresh(again)
    again = step(core, again, piece(core, 0), hx(core, "0603"))
    assert again.phase[0] == P_STAND                       # no dice for where it lands: on target


def test_waw_a_spotter_guides_one_artillery_unit_at_a_time(tmp_path):
    # "Spotters may only interact with one artillery unit at a time": the second howitzer's fire is
    # blind (a D8 of 8 is on target; as 2 D6 it would be 8 and 1 more die)
    more = [("us", "us_medium_artillery", "blue", "0709")]
    core, state = duel(tmp_path, us=("us_medium_artillery", "0609"), de=("de_infantry", "0603"),
                       terrain={"0606": "W", "0706": "W"}, commanders=[("us", "0504")], more=more)
    state = at(core, state, P_BATTLE_SELECT, ordered=[0, 2])
    state = attack(core, state, "0603", 3, 4)
    state = step(core, core.force(state, [6, 6]), special(core, NO))
    assert state.p_spots[0, 3] == 0
    state = step(core, state, piece(core, 2))
    state = step(core, core.force(state, [8]), hx(core, "0603"))
    assert state.phase[0] == P_STAND and not state.p_guided[0, 2]


def test_waw_night_flare_lights_the_hex_and_its_zoc(tmp_path):
    # "Flairs (night games).  Are fired as normal rounds and illuminate the target hex and its ZOC.
    # No need to cast the battle dice here, but the indirect artillery fire rules are applicable."
    # At night the squad at 0606 cannot see the Germans 2 hexes away at 0604; the howitzer's flare
    # (blind: D8 = 7, on target) lights 0604 and its neighbours, and then it can
    more = [("us", "us_medium_artillery", "blue", "0609")]
    core, state = duel(tmp_path, us=("us_infantry", "0606"), more=more, night=True)
    state = at(core, state, P_BATTLE_SELECT, ordered=[0, 2])
    assert not state.legal_action_mask[0, piece(core, 0)]
    state = step(core, state, piece(core, 2), special(core, act.FLARE))
    state = step(core, core.force(state, [7]), hx(core, "0604"))
    lit = sorted(label(core, h) for h in np.flatnonzero(state.lit[0]))
    assert lit == sorted(["0604", "0603", "0704", "0705", "0605", "0505", "0504"])
    assert state.legal_action_mask[0, piece(core, 0)] and state.p_figures[0, 1] == 8


def thrown(core, state, target, forced, stand=True):
    """The dice cast at ``target`` (forced: all blanks), the defender standing."""
    state = attack(core, state, target, *forced)
    if stand and state.phase[0] == P_STAND:
        state = step(core, state, special(core, NO))
    return state


def test_waw_terrain_rows_take_the_attackers_dice(tmp_path):
    # the sheet's "Attacker" column: hill -1; bocage -1 infantry, -2 vehicles; marsh -1
    for letter, us, dice in (("H", "us_infantry", [2, 0, 0, 0]), ("B", "us_infantry", [2, 0, 0, 0]),
                             ("B", "us_medium_tank", [0, 1, 0, 0]), ("M", "us_infantry", [2, 0, 0, 0])):
        core, state = duel(tmp_path, us=(us, "0605"), terrain={"0604": letter})
        state = thrown(core, state, "0604", [6] * 8)
        assert state.bt_dice[0].tolist() == dice, (letter, us)


def test_waw_sandbags_take_dice_and_are_destroyed_when_overrun(tmp_path):
    # sandbags: "Attacker: -1 infantry, -2 vehicles.  Defender: first flag may be ignored.
    # Destroyed when overrun."  Three flags on a unit of 5: one ignored, one automatic, one saved or
    # not (blank: not): 2 hexes back; the US squad breaks through and the sandbags are gone
    core, state = duel(tmp_path, features=[("0604", "sandbags")], de_figures=5,
                       more=[("us", "us_infantry", "blue", "0606")])
    state = at(core, state, P_BATTLE_SELECT, ordered=[0])
    state = attack(core, state, "0604", 5, 5, 6, 6, 6)    # 2 dice (3 less 1): flag, flag
    state = step(core, state, special(core, NO))
    assert state.bt_dice[0].tolist() == [2, 0, 0, 0] and state.last_retreat[0] == 1   # one flag ignored
    state = step(core, state, hx(core, "0603"), special(core, YES))
    assert state.features[0, hx(core, "0604")] == 0 and label(core, state.p_hex[0, 0]) == "0604"


def test_waw_barbed_wire_costs_the_defender_a_die(tmp_path):
    # barbed wire: "Defender: -1": the unit in the wire battles with a die less
    core, state = duel(tmp_path, us=("us_infantry", "0605"), features=[("0605", "barbed_wire")])
    state = thrown(core, state, "0604", [6] * 8)
    assert state.bt_dice[0].tolist() == [2, 0, 0, 0]


def test_waw_a_land_unit_in_the_sea_cannot_battle(tmp_path):
    # sea: "Land unit cannot battle."
    core, state = duel(tmp_path, terrain={"0606": "S"})
    assert state.legal_action_mask[0, piece(core, 0)]
    state.p_hex[0, 0] = hx(core, "0606")                    # waded into the sea (2 hexes from the Germans)
    state = at(core, state, P_BATTLE_SELECT, ordered=[0])
    assert not state.legal_action_mask[0, piece(core, 0)]


def test_waw_anti_tank_obstacles_and_marsh_on_the_move(tmp_path):
    # anti tank obstacles: "Infantry only."  marshes: "Stop."
    units = [("us", "us_medium_tank", "red", "0609"), ("us", "us_infantry", "blue", "0809"),
             ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, features=[("0608", "anti_tank")], terrain={"0709": "M"})
    tank = legal_hexes(core, at(core, core.init(1, seed=1), P_MOVE_DEST, ordered=[0], selected=0))
    assert "0608" not in tank and "0709" in tank
    assert "0808" not in tank                               # only through the marsh, where it stops
    squad = legal_hexes(core, at(core, core.init(1, seed=1), P_MOVE_DEST, ordered=[1], selected=1))
    assert "0709" in squad


def test_waw_a_unit_that_declines_its_battle_is_not_offered_it_again(tmp_path):
    # "4. Battle": each ordered unit may battle once.  README interpretation: a unit picked to
    # battle whose player then names no target (NO) forgoes its battle this turn (else select, NO,
    # select... would never end); with no other unit left, the battle step ends
    core, state = duel(tmp_path, more=[("us", "us_infantry", "red", "0705")])
    state = at(core, state, P_BATTLE_SELECT, ordered=[0, 2])
    state = step(core, state, piece(core, 0), special(core, NO))
    assert state.phase[0] == P_BATTLE_SELECT and state.p_battled[0, 0]
    assert not state.legal_action_mask[0, piece(core, 0)] and state.legal_action_mask[0, piece(core, 2)]
    assert state.p_figures[0, 1] == 8                                  # nothing thrown at the Germans


def test_waw_breakthrough_tank_does_not_follow_up_again_after_its_second_battle(tmp_path):
    # "When a tank or SP unit forces a breakthrough, it can engage the retreating unit in battle once
    # more (but not follow up again)."  The Sherman platoon (1 white, 2 yellow at 1 hex) throws one
    # flag, unsaved: the Germans retreat 1 hex to 0603; the tank breaks through into 0604, adjacent
    # to them, and battles again: one more unsaved flag sends them to 0602.  0603 is empty after close
    # combat, but the tank may not follow up again: the battle is over, the tank stays at 0604.
    core, state = duel(tmp_path, us=("us_medium_tank", "0605"), de_figures=5)
    state = attack(core, state, "0604", 5, 6, 6, 6, 6)       # flag, blank, blank; defence blank; save blank
    state = step(core, state, special(core, NO), hx(core, "0603"))
    assert state.phase[0] == P_BREAKTHROUGH
    state = step(core, state, special(core, YES))             # into 0604
    assert state.phase[0] == P_SECOND and label(core, state.p_hex[0, 0]) == "0604"
    state = step(core, state, special(core, YES))
    state = core.force(state, [5, 6, 6, 6, 6])
    state = step(core, state, special(core, NO), hx(core, "0602"))
    assert label(core, state.p_hex[0, 1]) == "0602" and label(core, state.p_hex[0, 0]) == "0604"
    assert state.phase[0] != P_BREAKTHROUGH and state.active[0] == DE   # nobody else battles: the turn ended


def test_waw_mechanized_defender_is_asked_only_when_the_throw_could_hit_the_carrier(tmp_path):
    # appendix 1 (basic): "In case of a mechanized unit (armoured vehicle) with its infantry deployed,
    # the defender has the option during battle to either accept a hit on the vehicle or personnel
    # (should the attacker cast the appropriate symbol)".  A soldier scores on infantry but not on
    # the half-track (open-topped armour: the jeep alone): the hit goes on the personnel, nobody is
    # asked.  A jeep scores on both: the defender chooses.
    core, state = duel(tmp_path, de=("de_mechanized_infantry", "0604"))
    assert not state.p_mounted[0, 1]
    soldier = attack(core, state, "0604", 1, 6, 6, 6, 6)      # soldier, blank, blank; save blank; defence blank
    soldier = step(core, soldier, special(core, NO))          # the Germans stand
    assert soldier.phase[0] != P_HIT_PART                     # not asked
    assert soldier.p_figures[0, 1] == 7 and soldier.p_vehicles[0, 1] == 1
    jeep = attack(core, state, "0604", 3, 6, 6, 6, 6)
    jeep = step(core, jeep, special(core, NO))
    assert jeep.current_player[0] == DE and jeep.legal_action_mask[0, special(core, YES)]   # vehicle or not
    on_vehicle = step(core, jeep, special(core, YES))
    assert on_vehicle.p_vehicles[0, 1] == 0 and on_vehicle.p_figures[0, 1] == 8


def test_waw_a_unit_and_its_attached_sniper_battle_with_one_or_the_other(tmp_path):
    # appendix 1: "In case a sniper is in the same hex as another unit (="attached to"), the player
    # has the option to battle either with one or the other."  The US squad (0) and the US sniper
    # attached to it (3) at 0605 are both ordered, with another squad (2) at 0705; once one of the
    # pair has battled, the other may not (the other squad still may).
    core, state = duel(tmp_path, snipers=[("us", "0605")], more=[("us", "us_infantry", "blue", "0705")])
    state = at(core, state, P_BATTLE_SELECT, ordered=[0, 2, 3])
    assert all(state.legal_action_mask[0, piece(core, p)] for p in (0, 2, 3))
    squad = attack(core, state, "0604", 6, 6, 6, 6)           # blanks; the defence die blank
    squad = step(core, squad, special(core, NO))
    assert squad.phase[0] == P_BATTLE_SELECT and squad.p_battled[0, 0]
    assert not squad.legal_action_mask[0, piece(core, 3)] and squad.legal_action_mask[0, piece(core, 2)]
    sniper = step(core, state, piece(core, 3))
    sniper = step(core, core.force(sniper, [6, 6, 6, 6]), hx(core, "0604"), special(core, NO))
    assert sniper.phase[0] == P_BATTLE_SELECT and sniper.p_battled[0, 3]
    assert not sniper.legal_action_mask[0, piece(core, 0)] and sniper.legal_action_mask[0, piece(core, 2)]
