"""The World at War, "5. Resolve battle": the four battle dice, their special symbols' ranges and
one-hit caps, saving throws, casualties capped by figures, defence throws, flags and retreats,
hitting commanders, firing at buildings, artillery scatter, and the air support & AA die.

Every case is a throw stated symbol by symbol and worked out by hand from the book's words, which
each test quotes.  Names: configs/world_at_war/dice.yaml for the faces (reconstructed: only the
blank sixth faces are a guess), wargym/world_at_war/dice.py for the interpretations.
"""

from __future__ import annotations

import numpy as np
import pytest

from wargym.world_at_war import dice
from wargym.world_at_war.scenario import (
    BLANK, BLOW, DICE, FLAG, HIT, JEEP, SHERMAN, SOLDIER, STRIKE, SYMBOLS, T_HEAVY, T_INFANTRY, T_MEDIUM, T_SOFT,
    TIGER, load_dice, load_rulebook_data, load_units)

D = load_dice()
U = load_units()


def throw(*symbols):
    return np.array(symbols, dtype=np.int8)


def score(symbols, target, distance):
    hits = np.zeros(len(SYMBOLS), dtype=np.int64)
    total, flags = dice.score_throw(D.scores, D.special_range, symbols, len(symbols), target, distance, hits)
    return int(total), int(flags), hits


def faces(die):
    return [SYMBOLS[s] for s in D.faces[DICE.index(die)]]


def scoring_faces(die, target):
    return [SYMBOLS[s] for s in D.faces[DICE.index(die)] if D.scores[target, s]]


# ------------------------------------------------------------------------------ the four dice
def test_waw_white_die_scores_soldier_soldier_jeep_on_infantry_and_jeep_on_soft_skins():
    # "against infantry & artillery crews (3 symbols: soldier-soldier-jeep); soft skin vehicles &
    # open topped armour (1 symbol: jeep)"
    assert scoring_faces("white", T_INFANTRY) == ["soldier", "soldier", "jeep"]
    assert scoring_faces("white", T_SOFT) == ["jeep"]
    assert scoring_faces("white", T_MEDIUM) == [] and scoring_faces("white", T_HEAVY) == []
    assert faces("white").count("hit") == 1 and faces("white").count("flag") == 1


def test_waw_yellow_die_scores_up_to_medium_tanks():
    # "infantry & artillery crews (3 symbols: soldier-jeep-Sherman); soft skin ... (2 symbols:
    # jeep-Sherman); medium tanks (1 symbol: Sherman)"
    assert scoring_faces("yellow", T_INFANTRY) == ["soldier", "jeep", "sherman"]
    assert scoring_faces("yellow", T_SOFT) == ["jeep", "sherman"]
    assert scoring_faces("yellow", T_MEDIUM) == ["sherman"]
    assert scoring_faces("yellow", T_HEAVY) == []
    assert faces("yellow").count("strike") == 1


def test_waw_red_die_scores_up_to_heavy_tanks():
    # "infantry & artillery crews (3 symbols: jeep-Sherman-Tiger); soft skin ... (3 symbols:
    # jeep-Sherman-Tiger); medium tanks (2 symbols: Sherman-Tiger); heavy tanks (1 symbol: Tiger)"
    assert scoring_faces("red", T_INFANTRY) == ["jeep", "sherman", "tiger"]
    assert scoring_faces("red", T_SOFT) == ["jeep", "sherman", "tiger"]
    assert scoring_faces("red", T_MEDIUM) == ["sherman", "tiger"]
    assert scoring_faces("red", T_HEAVY) == ["tiger"]
    assert faces("red").count("blow") == 1


def test_waw_green_die_shows_two_flags_and_is_no_saving_die():
    # "The fact that the die shows 2 flags"; saving throw "1 die, but not a suppression die"
    assert faces("green").count("flag") == 2
    assert scoring_faces("green", T_INFANTRY) == ["soldier", "soldier", "jeep"]
    assert D.suppression[DICE.index("green")] and not D.suppression[D.saving_die]


@pytest.mark.parametrize("symbol, reach", [(HIT, 1), (STRIKE, 2), (BLOW, 3)])
def test_waw_special_symbols_score_on_heavy_armour_within_their_range_only(symbol, reach):
    # HIT! "in the ZOC of the firing unit only", STRIKE "in a 2 hex range only", BLOW "in a 3 hex
    # range only", each "against all types (even heavy armour)"
    assert score(throw(symbol), T_HEAVY, reach)[0] == 1
    assert score(throw(symbol), T_HEAVY, reach + 1)[0] == 0


@pytest.mark.parametrize("symbol", [HIT, STRIKE, BLOW])
def test_waw_special_symbols_never_score_more_than_one_hit(symbol):
    # "No matter how many dice one is eligible to cast, one can NEVER score more than one hit when
    # throwing one or more HIT!s" (STRIKEs, BLOWs)
    total, _, hits = score(throw(symbol, symbol, symbol, symbol), T_INFANTRY, 1)
    assert total == 1 and hits[symbol] == 1


def test_waw_each_special_symbol_is_capped_on_its_own():
    # a white, a yellow and a red die at 1 hex: HIT!, STRIKE, BLOW one hit each (interpretation)
    assert score(throw(HIT, HIT, STRIKE, BLOW, BLOW), T_HEAVY, 1)[0] == 3


def test_waw_ordinary_symbols_count_every_die_and_flags_are_counted_apart():
    # three white dice at an infantry unit: soldier, jeep, flag -> 2 hits, 1 flag
    total, flags, hits = score(throw(SOLDIER, JEEP, FLAG), T_INFANTRY, 2)
    assert (total, flags) == (2, 1) and hits[SOLDIER] == 1 and hits[JEEP] == 1
    # the same throw at a medium tank: nothing scores, the flag stays a flag
    assert score(throw(SOLDIER, JEEP, FLAG), T_MEDIUM, 2)[:2] == (0, 1)
    # green die: two flags thrown
    assert score(throw(FLAG, FLAG, BLANK), T_INFANTRY, 4)[:2] == (0, 2)


# ------------------------------------------------------------------------- how many dice
def card(name):
    return U.names.index(name)


def dice_of(name, distance):
    out = np.zeros(4, dtype=np.int64)
    total = dice.dice_at(U.dice, card(name), distance, out)
    return int(total), out.tolist()


def test_waw_unit_card_dice_by_range_band():
    # unit cards: "The type of battling unit, battlefield terrain and the distance to the enemy
    # target determine the number of dice rolled" (units.yaml, reconstructed bands)
    assert dice_of("us_infantry", 1) == (3, [3, 0, 0, 0])
    assert dice_of("us_infantry", 3) == (1, [1, 0, 0, 0])
    assert dice_of("us_infantry", 4) == (0, [0, 0, 0, 0])
    assert dice_of("de_infantry", 1) == (3, [2, 0, 0, 1])   # the stronger German MG concentration
    assert dice_of("de_heavy_tank", 5) == (1, [0, 0, 1, 0])


def test_waw_terrain_takes_white_dice_first_and_suppression_last():
    # wood: "Attacker: -1 infantry": German infantry at 1 hex keeps 1 white and its green die
    _, counts = dice_of("de_infantry", 1)
    counts = np.array(counts, dtype=np.int64)
    assert dice.deduct(counts, 1) == 2 and counts.tolist() == [1, 0, 0, 1]
    # town: "-2 vehicles & arty": medium artillery at 1 hex (2 yellow, 1 green) keeps its green die
    _, counts = dice_of("us_medium_artillery", 1)
    counts = np.array(counts, dtype=np.int64)
    assert dice.deduct(counts, 2) == 1 and counts.tolist() == [0, 0, 0, 1]
    # more dice off than it has: none left
    assert dice.deduct(np.array([1, 0, 0, 0], dtype=np.int64), 2) == 0


def test_waw_commander_adds_one_die_of_the_units_main_colour():
    # "A commander controlling units may always support one of these units by adding one die"
    counts = np.array([3, 0, 0, 0], dtype=np.int64)
    dice.add_commander_die(counts)
    assert counts.tolist() == [4, 0, 0, 0]
    counts = np.array([1, 2, 0, 0], dtype=np.int64)     # a Sherman platoon at 1 hex
    dice.add_commander_die(counts)
    assert counts.tolist() == [1, 3, 0, 0]


# ------------------------------------------------------------------------- saving throws
def saving(*symbols):
    return np.array(symbols, dtype=np.int8)


def test_waw_two_identical_symbols_make_the_first_hit_an_automatic_kill():
    # "in case the dice throw results in more than 1 hit with an identical symbol ... the first hit
    # is an automatic kill"; the second hit gets a saving throw: a blank does not save
    total, _, hits = score(throw(SOLDIER, SOLDIER), T_INFANTRY, 2)
    auto = dice.automatic_kills(hits)
    assert (total, auto) == (2, 1)
    assert dice.kills(total, auto, saving(BLANK), False, False) == (2, 1)
    assert dice.kills(total, auto, saving(HIT), False, False) == (1, 1)


def test_waw_two_special_symbols_are_no_automatic_kill():
    # "(but not including HIT!, STRIKE or BLOW)"; and different symbols: no automatic kill either
    assert dice.automatic_kills(score(throw(HIT, STRIKE), T_INFANTRY, 1)[2]) == 0
    assert dice.automatic_kills(score(throw(SOLDIER, JEEP), T_INFANTRY, 1)[2]) == 0


def test_waw_saving_throw_close_combat_saves_on_special_symbols_only():
    # "In close combat ... a saving throw of HIT!, STRIKE or BLOW means a miss"
    assert dice.saves(HIT, True) and dice.saves(STRIKE, True) and dice.saves(BLOW, True)
    assert not dice.saves(FLAG, True) and not dice.saves(SOLDIER, True)


def test_waw_saving_throw_at_range_saves_on_a_flag_too():
    # "When battling a unit that is not in an adjacent hex, a figure/vehicle is saved when either a
    # HIT!, STRIKE, BLOW or a flag are thrown"
    assert dice.saves(FLAG, False) and dice.saves(HIT, False)
    assert not dice.saves(JEEP, False) and not dice.saves(BLANK, False)
    # two hits at 3 hexes, saving dice flag and jeep: one saved, one killed
    assert dice.kills(2, 0, saving(FLAG, JEEP), False, False) == (1, 2)
    # the same in close combat: the flag saves nothing
    assert dice.kills(2, 0, saving(FLAG, JEEP), True, False) == (2, 2)


def test_waw_fastplay_has_no_saving_throws():
    # FASTPLAY VARIANT: "saving throws (and defence throws) can be omitted"
    assert dice.kills(3, 0, saving(), False, True) == (3, 0)
    assert dice.retreats(2, 0, saving(), False, True) == (2, 0)


def test_waw_casualties_never_exceed_the_figures_of_the_firing_unit():
    # "a unit can never inflict more casualties than the number of figures/models remaining in its
    # own ranks": one tank left of a platoon, three kills thrown -> one casualty
    assert dice.casualty_cap(3, 1, 1, 8) == 1
    # "Should the attacker score more hits than the number of figures in the defending unit,
    # these additional hits are wasted"
    assert dice.casualty_cap(4, 8, 8, 2) == 2
    # "the number of casualties inflicted can never be higher than the number of firearms"
    assert dice.casualty_cap(3, 6, 2, 8) == 2


# ------------------------------------------------------------------------- flags and retreat
def test_waw_flags_ignored_while_the_unit_has_its_flag_figures():
    # "As long as a unit does not fall below the number indicated in the flag figuring on its unit
    # card, all flags may be ignored"; "Units in the same hex as a commander may deduct 1 further
    # figure ... (except artillery)"
    assert dice.ignores_flags(6, 6, False, False) and not dice.ignores_flags(5, 6, False, False)
    assert dice.ignores_flags(5, 6, True, False)
    assert not dice.ignores_flags(3, 4, True, True)


def test_waw_two_flags_first_retreat_is_automatic_second_may_be_saved():
    # "If the attacker throws 2 flags, the first is an automatic retreat (no saving throw allowed)"
    assert dice.retreats(2, 0, saving(HIT), True, False) == (1, 1)
    assert dice.retreats(2, 0, saving(BLANK), True, False) == (2, 1)
    # one flag: a saving throw for it, at range a flag saves
    assert dice.retreats(1, 0, saving(FLAG), False, False) == (0, 1)
    assert dice.retreats(1, 0, saving(FLAG), True, False) == (1, 1)


def test_waw_terrain_lets_the_defender_ignore_its_first_flags():
    # sandbags, debris, anti-tank obstacles: "Defender may ignore first flag"; bunkers: "first 2
    # flags may be ignored"
    assert dice.retreats(1, 1, saving(), True, False) == (0, 0)
    assert dice.retreats(2, 2, saving(), True, False) == (0, 0)
    # three flags on a bunker: one left, and of two or more thrown the first left is automatic
    assert dice.retreats(3, 2, saving(), True, False) == (1, 0)


# ------------------------------------------------------------------------- defence, commanders
def test_waw_defence_die_kills_on_a_symbol_that_hits_the_attacker():
    # "A hit is scored when the defender throws a 'hit'-symbol for the enemy (see unit cards) ...
    # A hit scored with the defence die automatically results in a kill."
    assert dice.defence_kill(D.scores, D.special_range, SOLDIER, T_INFANTRY, 1) == 1
    assert dice.defence_kill(D.scores, D.special_range, SOLDIER, T_MEDIUM, 1) == 0
    assert dice.defence_kill(D.scores, D.special_range, HIT, T_MEDIUM, 1) == 1
    assert dice.defence_kill(D.scores, D.special_range, HIT, T_MEDIUM, 2) == 0
    assert dice.defence_kill(D.scores, D.special_range, FLAG, T_INFANTRY, 1) == 0
    assert dice.defence_kill(D.scores, D.special_range, TIGER, T_HEAVY, 3) == 1


def test_waw_a_commander_is_hit_only_by_hit_strike_or_blow_and_may_be_saved():
    # "The attacking player must then roll a HIT!, STRIKE or BLOW to hit.  Unless the defender makes
    # a successful saving throw, the commander is eliminated"
    sp = D.special_range
    assert dice.commander_hit(sp, throw(SOLDIER, SOLDIER, JEEP), 3, 1, BLANK, True, False) == 0
    assert dice.commander_hit(sp, throw(SOLDIER, HIT), 2, 1, BLANK, True, False) == 1
    assert dice.commander_hit(sp, throw(SOLDIER, HIT), 2, 1, STRIKE, True, False) == 0
    assert dice.commander_hit(sp, throw(HIT), 1, 2, BLANK, False, False) == 0     # HIT! past the ZOC
    assert dice.commander_hit(sp, throw(STRIKE), 1, 2, FLAG, False, False) == 0   # saved at range
    assert dice.commander_hit(sp, throw(STRIKE), 1, 2, FLAG, False, True) == 1    # fastplay: no save


# ------------------------------------------------------------------------- buildings, scatter
def test_waw_buildings_collapse_on_5_or_6_bunkers_on_10():
    # "Cast 2 D6: a total of 5 or 6 (for bunkers: 10) makes the structure collapse"
    terrain = load_rulebook_data()[0]
    town = np.array(terrain.building_collapse, dtype=np.int64)
    bunker = np.array(terrain.features["bunker"].collapse, dtype=np.int64)
    assert [t for t in range(2, 13) if dice.collapses(t, town)] == [5, 6]
    assert [t for t in range(2, 13) if dice.collapses(t, bunker)] == [10]


def test_waw_blind_fire_d8_and_guided_fire_2d6_scatter():
    # "cast 1 D8.  7 or 8 means the target hex is hit, 1-6 means one of the adjacent hexes (1-6)";
    # guided: "2 D6: 7-12 means the target hex has been hit, 1-6 means one of the adjacent hexes"
    assert [dice.scatter_side(True, t) for t in range(1, 9)] == [1, 2, 3, 4, 5, 6, 0, 0]
    assert [dice.scatter_side(False, t) for t in range(2, 13)] == [2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0]


def test_waw_scatter_side_4_is_closest_to_the_gun():
    # "the sides of the target hex are numbered 1-6, '4' being closest to the gun firing": the gun
    # due south (direction 3): side 4 is south, side 1 north, side 5 south-west, side 3 south-east
    assert dice.side_direction(3, 4) == 3
    assert dice.side_direction(3, 1) == 0
    assert dice.side_direction(3, 5) == 4 and dice.side_direction(3, 3) == 2
    assert sorted(dice.side_direction(0, k) for k in range(1, 7)) == list(range(6))


# ------------------------------------------------------------------------- air support & AA
def test_waw_air_die_hits_planes_and_a_flag_saves_them():
    # "hit on fighter or fighter-bomber, with saving throw"; "hit on fighter-bomber, with saving
    # throw"; "Saving throw for aircraft = flag"
    assert dice.air_hits_plane(dice.AIR_HIT_ANY, False, dice.AIR_MISS) == 1
    assert dice.air_hits_plane(dice.AIR_HIT_FB, False, dice.AIR_MISS) == 0
    assert dice.air_hits_plane(dice.AIR_HIT_FB, True, dice.AIR_MISS) == 1
    assert dice.air_hits_plane(dice.AIR_HIT_ANY, True, dice.AIR_FLAG) == 0
    assert dice.air_hits_plane(dice.AIR_KILL_ANY, True, dice.AIR_MISS) == 0


def test_waw_ground_attack_three_dice_for_a_fighter_bomber():
    # a fighter-bomber casts 3 dice: "kill on infantry & artillery", "kill against all ground
    # targets", a flag ("No saving throws for targets of ground attack (must retreat)")
    f = np.array([dice.AIR_KILL_INFANTRY, dice.AIR_KILL_ANY, dice.AIR_FLAG], dtype=np.int8)
    assert dice.ground_attack(f, 3, False) == (1, 1)     # on a tank
    assert dice.ground_attack(f, 3, True) == (2, 1)      # on infantry
    assert dice.ground_attack(f, 1, True) == (1, 0)      # a fighter's one die
