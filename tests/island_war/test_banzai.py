"""Japanese massed infantry ("Banzai") attacks (10.0-10.1), hand-worked.

The US unit U (0405) is attacked from its neighbours 0305, 0306, 0404, 0505 (Japan moves first).
"""

from conftest import attack, eliminated, jp, legal, make_core, phase, play, result, us, where


def japan_combat(core):
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert phase(s) == "combat: select target" and s.current_player[0] == 1
    return s


def test_10_0_only_the_japanese_player_declares_banzai(tmp_path):
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405")])
    s = play(core, core.init(1, 0), ["END_PHASE", "0405", "0305"])
    assert not legal(core, s, "BANZAI")
    core2 = make_core(tmp_path, [us("U", "0405"), jp("I", "0305")], first_player="japan")
    s2 = play(core2, japan_combat(core2), ["0405", "0305"])
    assert legal(core2, s2, "BANZAI")


def test_10_0_banzai_needs_infantry_or_engineers_in_the_attack(tmp_path):
    core = make_core(tmp_path, [us("U", "0405"), jp("T", "0305", type="armor")], first_player="japan")
    s = play(core, japan_combat(core), ["0405", "0305"])
    assert not legal(core, s, "BANZAI")


def test_10_11_doubles_only_infantry_and_engineers(tmp_path):
    # infantry 4 -> 8, engineer 2 -> 4, armor 3 stays 3, barraging artillery 2 stays 2; US defense 20
    core = make_core(tmp_path, [us("U", "0405", defense=20), jp("I", "0305", attack=4),
                                jp("E", "0306", type="engineer", attack=2), jp("T", "0404", type="armor", attack=3),
                                jp("G", "0205", type="artillery", barrage=2)], first_player="japan")
    s = attack(core, japan_combat(core), ["0405"], ["0305", "0306", "0404", "0205"], die=6, extras=["BANZAI"])
    assert int(s.last_differential[0]) == 8 + 4 + 3 + 2 - 20


def test_10_12_removes_the_least_number_of_units(tmp_path):
    # US defense 5; infantry of 2, 3 and 6 attack: the single 6 meets it (not the 2 + 3)
    core = make_core(tmp_path, [us("U", "0405", defense=5), us("B", "0101"), jp("I2", "0305", attack=2),
                                jp("I3", "0306", attack=3), jp("I6", "0404", attack=6)], first_player="japan")
    s = attack(core, japan_combat(core), ["0405"], ["0305", "0306", "0404"], die=1, extras=["BANZAI"])
    assert int(s.last_differential[0]) == 2 * (2 + 3 + 6) - 5      # +17: De
    assert result(s) == "De"
    assert eliminated(core, s, "I6")
    assert where(core, s, "I2") == "0305" and where(core, s, "I3") == "0306"


def test_10_12_infantry_first_then_armor(tmp_path):
    # US defense 5; infantry 2 + armor 4: the infantry is not enough, the armor goes too
    core = make_core(tmp_path, [us("U", "0405", defense=5), us("B", "0101"), jp("I", "0305", attack=2),
                                jp("T", "0404", type="armor", attack=4)], first_player="japan")
    s = attack(core, japan_combat(core), ["0405"], ["0305", "0404"], die=1, extras=["BANZAI"])
    assert eliminated(core, s, "I") and eliminated(core, s, "T")


def test_10_12_armor_before_adjacent_artillery(tmp_path):
    # US defense 4; infantry 1, armor 3, adjacent artillery (barrage 5): infantry + armor meet it
    core = make_core(tmp_path, [us("U", "0405", defense=4), us("B", "0101"), jp("I", "0305", attack=1),
                                jp("T", "0404", type="armor", attack=3), jp("G", "0306", type="artillery", barrage=5)],
                     first_player="japan")
    s = attack(core, japan_combat(core), ["0405"], ["0305", "0404", "0306"], die=1, extras=["BANZAI"])
    assert eliminated(core, s, "I") and eliminated(core, s, "T")
    assert not eliminated(core, s, "G")


def test_10_12_adjacent_artillery_last(tmp_path):
    core = make_core(tmp_path, [us("U", "0405", defense=4), us("B", "0101"), jp("I", "0305", attack=1),
                                jp("G", "0306", type="artillery", barrage=5)], first_player="japan")
    s = attack(core, japan_combat(core), ["0405"], ["0305", "0306"], die=1, extras=["BANZAI"])
    assert eliminated(core, s, "I") and eliminated(core, s, "G")


def test_10_13_barraging_artillery_never_removed(tmp_path):
    # US defense 6; infantry 1 adjacent, artillery G barraging from 0205: only the infantry goes,
    # although the requirement is not met
    core = make_core(tmp_path, [us("U", "0405", defense=6), us("B", "0101"), jp("I", "0305", attack=1),
                                jp("G", "0205", type="artillery", barrage=9)], first_player="japan")
    s = attack(core, japan_combat(core), ["0405"], ["0305", "0205"], die=1, extras=["BANZAI"])
    assert eliminated(core, s, "I")
    assert where(core, s, "G") == "0205"


def test_10_0_removed_units_do_not_retreat(tmp_path):
    # interpretation (banzai.py): removal comes as the result is applied, before any retreat.
    # Infantry 2 + 3 vs US defense 5 at +5 in Banzai, die 6: A1; both are removed, nobody retreats.
    core = make_core(tmp_path, [us("U", "0405", defense=5), us("B", "0101"), jp("I2", "0305", attack=2),
                                jp("I3", "0306", attack=3), jp("Z", "0808")], first_player="japan")
    s = attack(core, japan_combat(core), ["0405"], ["0305", "0306"], die=6, extras=["BANZAI"])
    assert int(s.last_differential[0]) == 5 and result(s) == "A1"
    assert eliminated(core, s, "I2") and eliminated(core, s, "I3")
    assert phase(s) != "retreat"
