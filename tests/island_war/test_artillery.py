"""Artillery (8.0-8.6): barrage, combined and adjacent attacks, Final Protective Fire.

Artillery from conftest.unit: barrage 4, FPF 4, range 3 unless given.  US A (0305) attacks the
Japanese X (0405) in most cases; fixture clear line as in test_combat.py.
"""

from conftest import (
    attack, distance, eliminated, jp, legal, legal_hexes, line_name, make_core, phase, play, result, uid, us,
    where,
)


def combat_start(core):
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert phase(s) == "combat: select target"
    return s


# ------------------------------------------------------------------------------ 8.1 barrage
def test_8_11_artillery_never_forced_to_barrage(tmp_path):
    core = make_core(tmp_path, [us("G", "0205", type="artillery"), jp("X", "0405")])
    s = combat_start(core)
    assert legal(core, s, "0405") and legal(core, s, "END_PHASE")


def test_8_12_range_counts_target_hex_not_own_hex(tmp_path):
    # 0205 -> 0305 -> 0405: range 2 reaches X; from 0105 it is 3 hexes
    assert distance(make_core(tmp_path, [us("G", "0205"), jp("X", "0405")]), "0105", "0405") == 3
    core = make_core(tmp_path, [us("G", "0205", type="artillery", range=2), jp("X", "0405")])
    s = play(core, combat_start(core), ["0405"])
    assert legal(core, s, "0205")
    core2 = make_core(tmp_path, [us("G", "0105", type="artillery", range=2), us("B", "0101"), jp("X", "0405")])
    s2 = play(core2, core2.init(1, 0), ["END_PHASE"])
    assert s2.current_player[0] == 1        # nothing in range: the Combat Phase passed by itself


def test_8_13_barrage_attacks_a_single_hex(tmp_path):
    core = make_core(tmp_path, [us("G", "0205", type="artillery"), jp("X", "0405"), jp("Y", "0505")])
    s = play(core, combat_start(core), ["0405", "0205"])
    assert not legal(core, s, "0505")
    assert legal(core, s, "CONFIRM")


def test_8_14_barraging_artillery_suffers_no_result(tmp_path):
    # A (1) + G (barrage 1) against X (9): -7, die 3: Ae. A is eliminated, G is not
    core = make_core(tmp_path, [us("A", "0305", attack=1), us("G", "0205", type="artillery", barrage=1),
                                jp("X", "0405", defense=9)])
    s = attack(core, combat_start(core), ["0405"], ["0305", "0205"], die=3)
    assert result(s) == "Ae"
    assert eliminated(core, s, "A") and where(core, s, "G") == "0205"


def test_8_15_pure_barrage_ignores_D1(tmp_path):
    core = make_core(tmp_path, [us("G", "0205", type="artillery", barrage=4), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0205"], die=1)   # +2: D1
    assert result(s) == "D1" and where(core, s, "X") == "0405"


def test_8_15_pure_barrage_ignores_attacker_results(tmp_path):
    core = make_core(tmp_path, [us("G", "0205", type="artillery", barrage=2), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0205"], die=5)   # 0: A3
    assert result(s) == "A3" and where(core, s, "G") == "0205"


def test_8_15_pure_barrage_D2_applies(tmp_path):
    core = make_core(tmp_path, [us("G", "0205", type="artillery", barrage=6), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0205"], die=1)   # +4: D2
    assert result(s) == "D2"
    while phase(s) == "retreat":
        s = play(core, s, [min(legal_hexes(core, s))])
    assert distance(core, "0405", where(core, s, "X")) == 2


def test_8_15_pure_barrage_De_applies(tmp_path):
    core = make_core(tmp_path, [us("G", "0205", type="artillery", barrage=12), jp("X", "0405", defense=2),
                                jp("Z", "0808")])
    s = attack(core, combat_start(core), ["0405"], ["0205"], die=1)   # +10: De
    assert result(s) == "De" and eliminated(core, s, "X")


# ------------------------------------------------------------------------------ 8.2 combined
def test_8_21_combined_attack_adds_barrage_strength(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=3), us("G", "0205", type="artillery", barrage=5),
                                jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305", "0205"], die=6)
    assert int(s.last_differential[0]) == 3 + 5 - 2


def test_8_22_barrage_needs_range_to_only_one_defender(tmp_path):
    # A (0305) attacks X (0405) and Y (0304); G (0103, range 2) reaches Y (2 hexes) but not X (4)
    core = make_core(tmp_path, [us("A", "0305"), us("G", "0103", type="artillery", range=2),
                                jp("X", "0405", defense=2), jp("Y", "0304", defense=2)])
    assert distance(core, "0103", "0304") == 2 and distance(core, "0103", "0405") == 4
    s = play(core, combat_start(core), ["0405", "0305"])
    assert not legal(core, s, "0103")
    s = play(core, s, ["0304"])
    assert legal(core, s, "0103")


# ------------------------------------------------------------------------------ 8.3 adjacent
def test_8_31_adjacent_artillery_must_attack_with_barrage_strength(tmp_path):
    core = make_core(tmp_path, [us("G", "0305", type="artillery", barrage=5, defense=1), jp("X", "0405", defense=2)])
    s = combat_start(core)
    assert not legal(core, s, "END_PHASE")
    s = attack(core, s, ["0405"], ["0305"], die=6)
    assert int(s.last_differential[0]) == 5 - 2


def test_8_32_adjacent_artillery_may_not_barrage_other_units(tmp_path):
    # G is next to X; Y (0105) is in range but G may only attack adjacent units
    core = make_core(tmp_path, [us("G", "0305", type="artillery"), jp("X", "0405", defense=2), jp("Y", "0105")])
    s = combat_start(core)
    assert legal_hexes(core, s) == {"0405"}


def test_8_33_adjacent_artillery_suffers_results(tmp_path):
    core = make_core(tmp_path, [us("G", "0305", type="artillery", barrage=2), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)   # 0: A1
    assert result(s) == "A1" and phase(s) == "retreat"
    s = play(core, s, ["0205"])
    assert where(core, s, "G") == "0205"


# ------------------------------------------------------------------------------ 8.4 FPF
def test_8_41_8_43_fpf_adds_to_defense(tmp_path):
    # J (Japanese artillery, FPF 4) in 0506, not adjacent to a US unit, 1 hex from X
    core = make_core(tmp_path, [us("A", "0305", attack=10), jp("X", "0405", defense=2),
                                jp("J", "0506", type="artillery", fpf=4)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6)
    assert phase(s) == "final protective fire" and s.current_player[0] == 1   # 4.1 c: the defender
    assert legal_hexes(core, s) == {"0506"}
    s = play(core, s, ["0506"])     # no other fire left: resolved at once
    assert int(s.last_differential[0]) == 10 - 2 - 4


def test_8_41_no_fpf_after_adverse_result_in_previous_combat_phase(tmp_path):
    # Japan moves first; J (0705) must attack B (0805) and gets A1 (0 differential, die 1): it retreats.
    # In the following US Combat Phase J, in range of X, may not give FPF.
    core = make_core(tmp_path, [us("A", "0205", attack=10), us("B", "0805", defense=2),
                                jp("X", "0405", defense=2), jp("J", "0705", type="artillery", barrage=2)],
                     first_player="japan")
    s = play(core, core.init(1, 0), ["END_PHASE"])
    s = attack(core, s, ["0805"], ["0705"], die=1)
    assert result(s) == "A1" and legal_hexes(core, s) == {"0604", "0605", "0704"}
    s = play(core, s, ["0604"])
    if phase(s).startswith("advance"):
        s = play(core, s, ["CONFIRM"])
    assert s.current_player[0] == 0 and phase(s) == "move: select unit"       # US Player-Turn
    s = play(core, s, ["0205", "0305"])          # A next to X; B stays
    s = play(core, s, ["END_PHASE"]) if phase(s) == "move: select unit" else s
    s = attack(core, s, ["0405"], ["0305"], die=6)
    assert phase(s) != "final protective fire"
    assert int(s.last_differential[0]) == 10 - 2    # no FPF


def test_8_41_fpf_without_previous_adverse_result(tmp_path):
    # control: the same play, J without an adverse result in Japan's Combat Phase gives FPF
    core = make_core(tmp_path, [us("A", "0205", attack=10), us("B", "0808", defense=2),
                                jp("X", "0405", defense=2), jp("J", "0604", type="artillery", barrage=2)],
                     first_player="japan")
    s = play(core, core.init(1, 0), ["END_PHASE"])
    s = play(core, s, ["0205", "0305"])
    s = play(core, s, ["END_PHASE"]) if phase(s) == "move: select unit" else s
    s = attack(core, s, ["0405"], ["0305"], die=6)
    assert phase(s) == "final protective fire" and legal(core, s, "0604")


def test_8_41_no_fpf_once_displaced(tmp_path):
    # X (0405) retreats into 0406 displacing J; then B attacks Y (0207), in J's range: no FPF
    core = make_core(tmp_path, [us("A", "0305"), us("C", "0605"), us("B", "0107", attack=3),
                                jp("X", "0405", defense=2), jp("J", "0406", type="artillery"),
                                jp("Y", "0207", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)
    assert phase(s) == "final protective fire"          # J eligible before it is displaced
    s = play(core, s, ["CONFIRM"])                       # no FPF given: D1
    assert phase(s) == "displacement"                    # Japan picks J's hex (7.81)
    s = play(core, s, ["0307"])
    assert where(core, s, "X") == "0406" and where(core, s, "J") == "0307"
    if phase(s).startswith("advance"):
        s = play(core, s, ["CONFIRM"])
    assert distance(core, where(core, s, "J"), "0207") <= 3
    s = attack(core, s, ["0207"], ["0107"], die=6)
    assert phase(s) != "final protective fire" and int(s.last_differential[0]) == 3 - 2


def test_8_41_no_fpf_when_adjacent_to_an_enemy_unit(tmp_path):
    # J (0505) is next to C (0604): it may not support X
    core = make_core(tmp_path, [us("A", "0305", attack=4), us("C", "0604"), jp("X", "0405", defense=2),
                                jp("J", "0505", type="artillery")])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6)
    assert phase(s) != "final protective fire" and int(s.last_differential[0]) == 2


def test_8_41_no_fpf_after_being_successfully_attacked_this_phase(tmp_path):
    # C attacks J first (D1, J retreats to 0504); then A attacks X, in J's range: no FPF
    core = make_core(tmp_path, [us("A", "0305", attack=4), us("C", "0704", attack=4), jp("X", "0405", defense=2),
                                jp("J", "0604", type="artillery", defense=2)])
    s = attack(core, combat_start(core), ["0604"], ["0704"], die=1)
    assert result(s) == "D1" and legal_hexes(core, s) == {"0605", "0504", "0505"}
    s = play(core, s, ["0504"])
    if phase(s).startswith("advance"):
        s = play(core, s, ["CONFIRM"])
    s = attack(core, s, ["0405"], ["0305"], die=6)
    assert phase(s) != "final protective fire" and int(s.last_differential[0]) == 2


def test_8_41_fpf_once_per_combat_phase(tmp_path):
    # interpretation (artillery.py): J supports X, then cannot support Y in the same phase
    core = make_core(tmp_path, [us("A", "0305", attack=10), us("B", "0707", attack=10),
                                jp("X", "0405", defense=2), jp("Y", "0706", defense=2),
                                jp("J", "0505", type="artillery")])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6)
    s = play(core, s, ["0505"])
    while phase(s) in ("retreat", "advance: select unit"):
        s = play(core, s, [min(legal_hexes(core, s))] if phase(s) == "retreat" else ["CONFIRM"])
    s = attack(core, s, ["0706"], ["0707"], die=6)
    assert phase(s) != "final protective fire"


def test_8_42_fpf_range_counted_to_the_defenders_hex(tmp_path):
    # J (range 2) in 0605: 2 hexes from X (0405), 3 from the attacker A (0305): eligible
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=2),
                                jp("J", "0605", type="artillery", range=2)])
    assert distance(core, "0605", "0405") == 2 and distance(core, "0605", "0305") == 3
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6)
    assert phase(s) == "final protective fire" and legal(core, s, "0605")


def test_8_42_not_to_the_attackers_hex(tmp_path):
    # J (range 2) in 0106: 2 hexes from the attacker A (0305), 3 from X (0405): not eligible
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=2),
                                jp("J", "0106", type="artillery", range=2)])
    assert distance(core, "0106", "0305") == 2 and distance(core, "0106", "0405") == 3
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6)
    assert phase(s) != "final protective fire"


def test_8_44_fpf_artillery_unaffected_by_the_result(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=10), jp("X", "0405", defense=2),
                                jp("J", "0506", type="artillery", fpf=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)
    s = play(core, s, ["0506"])                         # 10 - 4 = +6: D2
    assert result(s) == "D2"
    while phase(s) == "retreat":
        s = play(core, s, [min(legal_hexes(core, s))])
    assert where(core, s, "J") == "0506"
    assert int(s.last_adverse[0, uid(core, "J")]) < 0


def test_8_45_no_fpf_against_artillery_only_attack(tmp_path):
    core = make_core(tmp_path, [us("G", "0205", type="artillery", barrage=4), jp("X", "0405", defense=2),
                                jp("J", "0506", type="artillery")])
    s = attack(core, combat_start(core), ["0405"], ["0205"], die=6)
    assert phase(s) != "final protective fire" and int(s.last_differential[0]) == 2


def test_8_45_no_fpf_against_adjacent_artillery_only(tmp_path):
    core = make_core(tmp_path, [us("G", "0305", type="artillery", barrage=4), jp("X", "0405", defense=2),
                                jp("J", "0506", type="artillery")])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6)
    assert phase(s) != "final protective fire" and int(s.last_differential[0]) == 2


# ------------------------------------------------------------------------------ 8.5, 8.6
def test_8_5_attacked_artillery_uses_its_defense_strength(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=6), jp("J", "0405", type="artillery", defense=1, fpf=9)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6)
    assert int(s.last_differential[0]) == 5


def test_8_61_range_regardless_of_intervening_units(tmp_path):
    # G (0105) barrages X (0405) three hexes away over the US unit B (0205) and empty 0305
    core = make_core(tmp_path, [us("G", "0105", type="artillery"), us("B", "0205"), jp("X", "0405")])
    s = play(core, combat_start(core), ["0405"])
    assert legal(core, s, "0105")


def test_8_62_barrage_defender_benefits_from_its_hex(tmp_path):
    core = make_core(tmp_path, [us("G", "0103", type="artillery"), jp("X", "0303", defense=2)])
    s = attack(core, combat_start(core), ["0303"], ["0103"], die=6)
    assert line_name(core, s) == "rough"


def test_8_62_no_hexside_benefit_against_artillery_only(tmp_path):
    # G adjacent across the river 0702|0802: the river does not help X
    core = make_core(tmp_path, [us("G", "0702", type="artillery"), jp("X", "0802", defense=2)])
    s = attack(core, combat_start(core), ["0802"], ["0702"], die=6)
    assert line_name(core, s) == "clear"


def test_8_62_hexside_benefit_in_combined_attack_when_all_non_artillery_cross(tmp_path):
    # A crosses the river; G attacks from 0801 (adjacent, not across) and 0703 is empty
    core = make_core(tmp_path, [us("A", "0702"), us("G", "0801", type="artillery"), jp("X", "0802", defense=2)])
    s = attack(core, combat_start(core), ["0802"], ["0702", "0801"], die=6)
    assert line_name(core, s) == "river"
