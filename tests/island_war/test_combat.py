"""Combat (7.0-7.6) hand-worked with the fixture CRT (fixtures/crt.yaml) and forced dice.

Fixture CRT, clear line, by column (die 1..6), read from crt.yaml:
    "-7 or less" A3 A3 Ae Ae Ae Ae      "0,1"  A1 A1 A2 A2 A3 A3      "8,9"   D3 D3 D2 D2 D1 D1
    "2,3"        D1 D1 A1 A1 A2 A2      "4,5"  D2 D2 D1 D1 A1 A1      "10,11" De De D3 D3 D2 D2
Line ranks (7.44): clear 0 < town 1 < river 2 < jungle = swamp 3 < rough 4 < mountain 5.
"""

import pytest

from conftest import (
    attack, column_label, crt_cell, distance, jp, legal, legal_hexes, line_name, make_core, phase, play, result,
    us, where,
)


def combat_start(core):
    """US Movement Phase ended at once: the US Combat Phase."""
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert phase(s) == "combat: select target"
    return s


def finish_retreat(core, s, choose=min):
    """Take the retreat decisions (``choose`` picks among the legal hexes)."""
    while phase(s) == "retreat":
        s = play(core, s, [choose(legal_hexes(core, s))])
    return s


# ------------------------------------------------------------------------ 7.0 the procedure
def test_7_0_differential_attack_minus_defense_on_the_defenders_terrain_line(tmp_path):
    # the book's example: 13 attacking 4 in a jungle hex, differential +9, column "8,9", jungle line
    core = make_core(tmp_path, [us("A", "0807", attack=13), jp("X", "0907", defense=4)])
    s = attack(core, combat_start(core), ["0907"], ["0807"], die=1)
    assert int(s.last_differential[0]) == 9
    assert column_label(core, s) == "8,9" and line_name(core, s) == "jungle"
    assert result(s) == crt_cell("jungle", 8, 1) == "D1"     # the fixture's cell (the book's CRT says D3)


@pytest.mark.parametrize("attack_sp, defense_sp, label", [
    (1, 8, "-7 or less"), (1, 20, "-7 or less"), (1, 7, "-6,-5"), (2, 3, "-2,-1"), (3, 3, "0,1"),
    (4, 3, "0,1"), (5, 3, "2,3"), (13, 3, "10,11"), (15, 3, "12,13"), (17, 3, "14 or more"), (40, 3, "14 or more"),
])
def test_7_61_column_is_the_one_holding_the_differential(tmp_path, attack_sp, defense_sp, label):
    # 7.52: there is no way to shift left of the column the differential gives
    core = make_core(tmp_path, [us("A", "0305", attack=attack_sp), jp("X", "0405", defense=defense_sp)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6)
    assert int(s.last_differential[0]) == attack_sp - defense_sp
    assert column_label(core, s) == label


# ------------------------------------------------------------------------ 7.1 which units attack
def test_7_11_adjacent_enemy_must_be_attacked(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=1), jp("X", "0405", defense=30)])
    s = combat_start(core)
    assert not legal(core, s, "END_PHASE")
    assert legal_hexes(core, s) == {"0405"}


def test_7_11_no_adjacency_no_obligation(tmp_path):
    # nothing adjacent: the Combat Phase passes by itself to the Japanese Player-Turn
    core = make_core(tmp_path, [us("A", "0205"), jp("X", "0405")])
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert s.current_player[0] == 1 and phase(s) == "move: select unit"


def test_7_12_every_phasing_unit_in_enemy_zoc_must_attack(tmp_path):
    # A (0305) and B (0505) are both next to X (0405) only: A may not attack X without B,
    # since X may be attacked only once (7.14) and B could then never attack
    core = make_core(tmp_path, [us("A", "0305"), us("B", "0505"), jp("X", "0405", defense=20)])
    s = play(core, combat_start(core), ["0405", "0305"])
    assert not legal(core, s, "CONFIRM")
    s = play(core, s, ["0505"])
    assert legal(core, s, "CONFIRM")


def test_7_2_cancelled_declarations_are_bounded_per_combat_phase(tmp_path):
    # interpretation (README): MAX_CANCELS declarations may be abandoned per Combat Phase; after
    # that CANCEL is offered only for a declaration that can neither grow nor be resolved
    from wargym.island_war.state import MAX_CANCELS
    core = make_core(tmp_path, [us("A", "0305"), us("B", "0505"), jp("X", "0405", defense=20)])
    s = combat_start(core)
    for _ in range(MAX_CANCELS):
        s = play(core, s, ["0405", "CANCEL"])
    s = play(core, s, ["0405"])
    assert int(s.cancels[0]) == MAX_CANCELS and not legal(core, s, "CANCEL")
    s = play(core, s, ["0305"])
    assert not legal(core, s, "CANCEL") and not legal(core, s, "CONFIRM")   # B can still join (7.12)
    s = play(core, s, ["0505"])
    assert legal(core, s, "CONFIRM") and not legal(core, s, "CANCEL")


def test_7_2_a_dead_end_declaration_is_cancelled_then_resolved_as_it_stands(tmp_path):
    # A (0305) attacks X (0405) and Z (0306); B (0505) is next to X but not to Z, so it cannot
    # join (7.23), and leaving it out strands it (7.12): nothing can be added, CONFIRM is illegal.
    # Interpretation (README): within MAX_CANCELS such a declaration is cancelled; after that it is
    # resolved as it stands and B's obligation lapses, so a Combat Phase always ends.
    from wargym.island_war.state import MAX_CANCELS
    core = make_core(tmp_path, [us("A", "0305"), us("B", "0505"), jp("X", "0405", defense=1),
                                jp("Z", "0306", defense=1), jp("W", "0808")])
    s = combat_start(core)
    s = play(core, s, ["0405", "0305", "0306"])
    assert legal_hexes(core, s) == set() and not legal(core, s, "CONFIRM") and legal(core, s, "CANCEL")
    s = play(core, s, ["CANCEL"])
    for _ in range(MAX_CANCELS - 1):
        s = play(core, s, ["0405", "CANCEL"])
    assert int(core.from_dict(core.to_dict(s, 0)).cancels[0]) == MAX_CANCELS   # saved with the game
    s = play(core, s, ["0405", "0305", "0306"])
    assert legal(core, s, "CONFIRM") and not legal(core, s, "CANCEL")
    s = play(core, core.force(s, [1]), ["CONFIRM"])
    while int(s.phasing[0]) == 0:   # the attack's retreats and advances; B never attacks
        s = play(core, s, ["CONFIRM"] if legal(core, s, "CONFIRM") else [min(legal_hexes(core, s))])
    assert int(s.cancels[0]) == 0   # the Combat Phase ended (B never attacked); the next starts from 0


def test_7_13_up_to_six_adjacent_attackers(tmp_path):
    ring = ["0404", "0505", "0506", "0406", "0306", "0305"]       # the six neighbours of 0405
    units = [us(f"A{i}", h, attack=2) for i, h in enumerate(ring)] + [jp("X", "0405", defense=2)]
    core = make_core(tmp_path, units)
    s = attack(core, combat_start(core), ["0405"], ring, die=1)
    assert int(s.last_differential[0]) == 6 * 2 - 2 and result(s) == "De"


def test_7_14_no_unit_attacks_twice_and_no_enemy_is_attacked_twice(tmp_path):
    # A (0305) is next to X (0405) and Y (0304); B (0203) next to Y only.
    core = make_core(tmp_path, [us("A", "0305", attack=4), us("B", "0203", attack=4),
                                jp("X", "0405", defense=2), jp("Y", "0304", defense=30)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)   # +2: D1
    assert result(s) == "D1"
    s = finish_retreat(core, s)
    if phase(s).startswith("advance"):
        s = play(core, s, ["CONFIRM"])
    assert "0405" not in legal_hexes(core, s) and where(core, s, "X") not in legal_hexes(core, s)
    s = play(core, s, ["0304"])
    assert not legal(core, s, "0305")          # A attacked already
    assert legal(core, s, "0203")


def test_7_15_non_artillery_attacks_only_from_adjacent_hex(tmp_path):
    core = make_core(tmp_path, [us("A", "0305"), us("C", "0205"), jp("X", "0405", defense=2)])
    s = play(core, combat_start(core), ["0405"])
    assert legal(core, s, "0305") and not legal(core, s, "0205")


# ------------------------------------------------------------------------ 7.2 multi-unit, multi-hex
def test_7_21_unit_next_to_two_enemies_must_attack_both_unless_engaged(tmp_path):
    # A (0305) next to X (0405) and Y (0304), no other US unit: attacking X alone is not allowed
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=20), jp("Y", "0304", defense=20)])
    s = play(core, combat_start(core), ["0405", "0305"])
    assert not legal(core, s, "CONFIRM")
    s = play(core, s, ["0304"])
    assert legal(core, s, "CONFIRM")


def test_7_21_unless_another_unit_engages_the_second(tmp_path):
    core = make_core(tmp_path, [us("A", "0305"), us("B", "0203"), jp("X", "0405", defense=20),
                                jp("Y", "0304", defense=20)])
    s = play(core, combat_start(core), ["0405", "0305"])
    assert legal(core, s, "CONFIRM")


def test_7_22_units_in_several_hexes_combine_on_one_hex(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=4), us("B", "0505", attack=3), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305", "0505"], die=1)
    assert int(s.last_differential[0]) == 4 + 3 - 2
    assert column_label(core, s) == "4,5" and result(s) == "D2"


def test_7_23_every_attacker_adjacent_to_every_defender(tmp_path):
    # A (0305) is next to X (0405) and Y (0304); B (0505) only to X
    core = make_core(tmp_path, [us("A", "0305"), us("B", "0505"), us("C", "0204"),
                                jp("X", "0405", defense=20), jp("Y", "0304", defense=20)])
    s = play(core, combat_start(core), ["0405", "0505"])
    assert not legal(core, s, "0304")          # Y: B is not adjacent to it
    s = play(core, combat_start(core), ["0405", "0305", "0304"])
    assert not legal(core, s, "0505")          # B is not adjacent to Y
    assert not legal(core, s, "0305")          # already in


def test_7_23_multi_hex_combat_totals_both_defenders(tmp_path):
    # A (0305, 10) attacks X (0405, 2) and Y (0304, 3) together: 10 - 5 = +5
    core = make_core(tmp_path, [us("A", "0305", attack=10), jp("X", "0405", defense=2), jp("Y", "0304", defense=3)])
    s = attack(core, combat_start(core), ["0405", "0304"], ["0305"], die=1)
    assert int(s.last_differential[0]) == 5 and result(s) == "D2"
    # both defenders retreat (7.62: the result applies to all units of the combat)
    s = finish_retreat(core, s)
    assert where(core, s, "X") != "0405" and where(core, s, "Y") != "0304"


# ------------------------------------------------------------------------ 7.4 terrain
def test_7_41_attackers_terrain_has_no_effect(tmp_path):
    # A stands in the jungle 0907, X in the clear 0807: clear line
    core = make_core(tmp_path, [us("A", "0907"), jp("X", "0807", defense=2)])
    s = attack(core, combat_start(core), ["0807"], ["0907"], die=6)
    assert line_name(core, s) == "clear"


def test_7_42_river_line_when_the_only_attacker_crosses_the_river(tmp_path):
    # X in the clear 0802; A attacks from 0702 across the river hexside 0702|0802
    core = make_core(tmp_path, [us("A", "0702"), jp("X", "0802", defense=2)])
    s = attack(core, combat_start(core), ["0802"], ["0702"], die=6)
    assert line_name(core, s) == "river"


def test_7_42_no_river_benefit_unless_all_attack_across(tmp_path):
    # B (0801, N of 0802) attacks without crossing the river: clear line
    core = make_core(tmp_path, [us("A", "0702"), us("B", "0801"), jp("X", "0802", defense=2)])
    s = attack(core, combat_start(core), ["0802"], ["0702", "0801"], die=6)
    assert line_name(core, s) == "clear"


def test_7_42_river_when_all_of_several_attack_across(tmp_path):
    extra = {"rivers": [["0801", "0802"]]}
    core = make_core(tmp_path, [us("A", "0702"), us("B", "0801"), jp("X", "0802", defense=2)], map_extra=extra)
    s = attack(core, combat_start(core), ["0802"], ["0702", "0801"], die=6)
    assert line_name(core, s) == "river"


def test_7_44_rough_behind_a_river_benefits_from_rough_only(tmp_path):
    # the book's example: river hexside 0303|0403 added; X in the rough 0303, A attacks across it
    extra = {"rivers": [["0303", "0403"]]}
    core = make_core(tmp_path, [us("A", "0403"), jp("X", "0303", defense=2)], map_extra=extra)
    s = attack(core, combat_start(core), ["0303"], ["0403"], die=6)
    assert line_name(core, s) == "rough"


def test_7_44_town_behind_a_river_benefits_from_the_river(tmp_path):
    # town ranks below river on the fixture CRT: the more advantageous river line counts
    extra = {"rivers": [["0404", "0504"]]}
    core = make_core(tmp_path, [us("A", "0504"), jp("X", "0404", defense=2)], map_extra=extra)
    s = attack(core, combat_start(core), ["0404"], ["0504"], die=6)
    assert line_name(core, s) == "river"


def test_7_45_several_defenders_all_benefit_from_the_best_terrain(tmp_path):
    # X in the rough 0303, Y in the clear 0304, both attacked by A (0203): rough line
    core = make_core(tmp_path, [us("A", "0203", attack=20), jp("X", "0303", defense=2), jp("Y", "0304", defense=2)])
    s = attack(core, combat_start(core), ["0304", "0303"], ["0203"], die=1)
    assert line_name(core, s) == "rough"
    assert int(s.last_differential[0]) == 16 and result(s) == crt_cell("rough", 11, 1) == "D3"


def test_7_51_diversionary_attacks_split_the_force(tmp_path):
    # A+B on X at a good differential, C alone on Y at a poor one: both may be declared
    core = make_core(tmp_path, [us("A", "0305", attack=6), us("B", "0505", attack=6), us("C", "0203", attack=1),
                                jp("X", "0405", defense=2), jp("Y", "0303", defense=6)])
    s = attack(core, combat_start(core), ["0303"], ["0203"], die=6)
    assert int(s.last_differential[0]) == -5
    s = finish_retreat(core, s)
    if phase(s).startswith("advance"):
        s = play(core, s, ["CONFIRM"])
    s = attack(core, s, ["0405"], ["0305", "0505"], die=1)
    assert int(s.last_differential[0]) == 10


# ------------------------------------------------------------------------ 7.6 every result
def test_7_62_D1_defender_retreats_one_hex(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=4), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)       # +2, "2,3", die 1
    assert result(s) == crt_cell("clear", 5, 1) == "D1"
    assert phase(s) == "retreat" and s.current_player[0] == 1             # the owner retreats
    assert legal_hexes(core, s) == {"0406", "0505", "0506"}   # 0404/0306 are controlled by A (7.71)
    s = play(core, s, ["0505"])
    assert where(core, s, "X") == "0505" and where(core, s, "A") == "0305"


def test_7_62_D2_defender_retreats_two_hexes(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=6), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)       # +4, "4,5", die 1
    assert result(s) == crt_cell("clear", 6, 1) == "D2"
    s = finish_retreat(core, s)
    assert distance(core, "0405", where(core, s, "X")) == 2


def test_7_62_D3_defender_retreats_three_hexes(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=10), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)       # +8, "8,9", die 1
    assert result(s) == crt_cell("clear", 8, 1) == "D3"
    s = finish_retreat(core, s)
    assert distance(core, "0405", where(core, s, "X")) == 3


def test_7_62_De_defender_eliminated(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=12), jp("X", "0405", defense=2), jp("Z", "0808")])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)       # +10, "10,11", die 1
    assert result(s) == crt_cell("clear", 9, 1) == "De"
    assert where(core, s, "X") is None and where(core, s, "A") == "0305"
    assert phase(s) == "advance: select unit" and s.current_player[0] == 0   # attacker may advance
    s = play(core, s, ["0305", "0405"])
    assert where(core, s, "A") == "0405"


def test_7_62_A1_attacker_retreats_one_hex(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=2), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)       # 0, "0,1", die 1
    assert result(s) == crt_cell("clear", 4, 1) == "A1"
    assert phase(s) == "retreat" and s.current_player[0] == 0
    assert legal_hexes(core, s) == {"0304", "0205", "0204"}   # not 0404/0306 (X's zone)
    s = play(core, s, ["0205"])
    assert where(core, s, "A") == "0205" and where(core, s, "X") == "0405"


def test_7_62_A2_attacker_retreats_two_hexes(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=2), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=3)
    assert result(s) == crt_cell("clear", 4, 3) == "A2"
    s = finish_retreat(core, s)
    assert distance(core, "0305", where(core, s, "A")) == 2 and where(core, s, "X") == "0405"


def test_7_62_A3_attacker_retreats_three_hexes(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=2), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=5)
    assert result(s) == crt_cell("clear", 4, 5) == "A3"
    s = finish_retreat(core, s)
    assert distance(core, "0305", where(core, s, "A")) == 3


def test_7_62_Ae_attacker_eliminated_defender_may_advance(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=1), us("B", "0108"), jp("X", "0405", defense=8)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=3)       # -7, "-7 or less", die 3
    assert result(s) == crt_cell("clear", 0, 3) == "Ae"
    assert where(core, s, "A") is None
    assert phase(s) == "advance: select unit" and s.current_player[0] == 1
    s = play(core, s, ["0405", "0305"])
    assert where(core, s, "X") == "0305"
