"""How to retreat (7.7), displacement (7.8), advance after combat (7.9), hand-worked.

Zones used below (6.0): a US unit in 0305 controls 0304 0404 0405 0306 0205 0204; in 0605 controls
0604 0705 0706 0606 0505 0506; in 0207 controls 0206 0307 0308 0208 0107 0108; in 0607 controls
0606 0707 0708 0608 0507 0508; in 0408 controls 0407 0508 0308.
"""

from conftest import (
    attack, distance, eliminated, jp, legal, legal_hexes, make_core, phase, play, result, us, where,
)


def combat_start(core):
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert phase(s) == "combat: select target"
    return s


def d1_on_x(core):
    """A (0305) attacks X (0405, defense 2) at +2 with die 1: D1 (fixture clear line, "2,3")."""
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)
    assert result(s) == "D1"
    return s


# ------------------------------------------------------------------------------ 7.7 retreat
def test_7_7_retreat_ends_the_indicated_number_of_hexes_away(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=6), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)   # +4: D2
    assert result(s) == "D2"
    s = play(core, s, ["0505"])
    # second hex: one farther from 0405 and outside A's zone: 0504, 0604, 0605 (not 0506, 1 away)
    assert legal_hexes(core, s) == {"0504", "0604", "0605"}
    s = play(core, s, ["0604"])
    assert where(core, s, "X") == "0604" and distance(core, "0405", "0604") == 2


def test_7_71_may_leave_enemy_zoc_but_not_enter_one(tmp_path):
    # C (0605) closes 0505/0506; the Japanese Y (0504) next to 0505 does not open it again
    core = make_core(tmp_path, [us("A", "0305"), us("C", "0605"), jp("X", "0405", defense=2)])
    s = d1_on_x(core)
    assert where(core, s, "X") == "0406"      # the only hex left: taken without a decision


def test_7_71_friendly_units_do_not_negate_enemy_zoc(tmp_path):
    # Y (Japanese) in 0504 is next to 0505, which C (0605) controls: 0505 stays closed
    core = make_core(tmp_path, [us("A", "0305"), us("C", "0605"), jp("X", "0405", defense=2), jp("Y", "0504"),
                                jp("W", "0407")])
    s = d1_on_x(core)
    assert where(core, s, "X") == "0406"


def test_7_72_no_retreat_across_prohibited_hexside(tmp_path):
    # X in 0506 attacked from 0405; 0506|0606 is prohibited; 0505/0406 are A's zone
    core = make_core(tmp_path, [us("A", "0405", attack=4), jp("X", "0506", defense=2)])
    s = attack(core, combat_start(core), ["0506"], ["0405"], die=1)
    assert result(s) == "D1"
    assert legal_hexes(core, s) == {"0605", "0507"}


def test_7_73_vacant_hexes_first(tmp_path):
    # 0505 and 0506 hold Japanese units, 0406 is vacant: X must retreat into 0406
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=2), jp("Y", "0505"), jp("W", "0506")])
    s = d1_on_x(core)
    assert where(core, s, "X") == "0406"
    assert (where(core, s, "Y"), where(core, s, "W")) == ("0505", "0506")


def test_7_73_through_friends_only_when_no_vacant_route(tmp_path):
    # all three retreat hexes hold Japanese units: each is offered, and a displacement follows
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=2), jp("Y", "0505"), jp("W", "0506"),
                                jp("V", "0406")])
    s = d1_on_x(core)
    assert phase(s) == "retreat" and legal_hexes(core, s) == {"0406", "0505", "0506"}
    s = play(core, s, ["0505"])
    # 7.81: the owning player moves Y one hex, as if retreating (vacant, outside US zones)
    assert phase(s) == "displacement" and s.current_player[0] == 1
    assert legal_hexes(core, s) == {"0504", "0604", "0605"}
    s = play(core, s, ["0604"])
    assert where(core, s, "X") == "0505" and where(core, s, "Y") == "0604"


def test_7_74_retreat_blocked_eliminates(tmp_path):
    # 0404/0306 (A), 0505/0506 (C) and 0406 (D in 0407) are all US controlled: X is eliminated
    core = make_core(tmp_path, [us("A", "0305"), us("C", "0605"), us("D", "0407"), jp("X", "0405", defense=2),
                                jp("Z", "0101")])
    s = d1_on_x(core)
    assert eliminated(core, s, "X")
    # 7.91: its combat position is a Path of Retreat
    assert phase(s) == "advance: select unit"
    s = play(core, s, ["0305"])
    assert legal_hexes(core, s) == {"0405"}


def test_7_74_eliminated_in_the_last_hex_it_can_reach(tmp_path):
    # D2: X can reach 0406 but no second hex (0507 F, 0407 D, 0307 E): eliminated in 0406;
    # the path of retreat 0405-0406 ends there and A may advance along all of it
    core = make_core(tmp_path, [us("A", "0305", attack=6), us("C", "0605"), us("D", "0408"), us("E", "0207"),
                                us("F", "0607"), jp("X", "0405", defense=2), jp("Z", "0101")])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)
    assert result(s) == "D2"
    assert eliminated(core, s, "X")
    s = play(core, s, ["0305"])
    assert legal_hexes(core, s) == {"0405", "0406"}


# ------------------------------------------------------------------------------ 7.8 displacement
def test_7_81_retreat_displaces_friend_on_the_only_route(tmp_path):
    # only 0406 is open to X, and Y (Japanese) stands there: Y moves one hex, X enters 0406
    core = make_core(tmp_path, [us("A", "0305"), us("C", "0605"), jp("X", "0405", defense=2), jp("Y", "0406")])
    s = d1_on_x(core)
    assert phase(s) == "displacement"
    assert legal_hexes(core, s) == {"0507", "0407", "0307"}          # 0406's neighbours outside US zones
    s = play(core, s, ["0307"])
    assert where(core, s, "X") == "0406" and where(core, s, "Y") == "0307"
    y = core.scenario.unit_names.index("Y")
    assert int(s.last_adverse[0, y]) == int(s.combat_phase[0])       # marked displaced (8.41)


def test_7_82_displacement_that_would_eliminate_the_friend_eliminates_the_retreating_unit(tmp_path):
    # Y in 0406 has nowhere to go (0507 F, 0407 D, 0307 E, 0506 C, 0306 A): X is eliminated instead
    core = make_core(tmp_path, [us("A", "0305"), us("C", "0605"), us("D", "0408"), us("E", "0207"),
                                us("F", "0607"), jp("X", "0405", defense=2), jp("Y", "0406")])
    s = d1_on_x(core)
    assert eliminated(core, s, "X")
    assert where(core, s, "Y") == "0406"


def test_7_82_chain_of_displacement(tmp_path):
    # Y (0406) can only go to 0407, held by W; W can go to 0408: W -> 0408, Y -> 0407, X -> 0406
    core = make_core(tmp_path, [us("A", "0305"), us("C", "0605"), us("E", "0207"), us("F", "0607"),
                                jp("X", "0405", defense=2), jp("Y", "0406"), jp("W", "0407")])
    s = d1_on_x(core)
    assert (where(core, s, "X"), where(core, s, "Y"), where(core, s, "W")) == ("0406", "0407", "0408")


def test_7_81_major_decisions_displace_by_the_default_rule(tmp_path):
    # decisions="major": Y goes by the default rule, the vacant hex farthest from the US units
    core = make_core(tmp_path, [us("A", "0305"), us("C", "0605"), jp("X", "0405", defense=2), jp("Y", "0406")],
                     decisions="major")
    s = d1_on_x(core)
    assert where(core, s, "X") == "0406"
    assert where(core, s, "Y") in {"0507", "0407", "0307"}


def test_7_82_no_displacement_when_another_path_is_open(tmp_path):
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=2), jp("Y", "0406"), jp("W", "0505")])
    s = d1_on_x(core)
    assert where(core, s, "X") == "0506"
    assert (where(core, s, "Y"), where(core, s, "W")) == ("0406", "0505")


# ------------------------------------------------------------------------------ 7.9 advance
def test_7_91_7_92_7_95_advance_along_the_path_of_retreat(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=6), jp("X", "0405", defense=2)])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)   # D2
    s = play(core, s, ["0505", "0604"])
    assert phase(s) == "advance: select unit" and s.current_player[0] == 0
    s = play(core, s, ["0305"])
    assert legal_hexes(core, s) == {"0405", "0505"}   # the vacated hexes only (7.95); X is in 0604
    assert not legal(core, s, "CANCEL")                # a unit chosen to advance advances (README)
    s = play(core, s, ["0405"])                          # may stop anywhere on it (7.92)
    assert where(core, s, "A") == "0405"


def test_7_93_advance_ignores_enemy_zoc(tmp_path):
    # Z (0406) controls 0405: A still advances through it to 0505
    core = make_core(tmp_path, [us("A", "0305", attack=6), jp("X", "0405", defense=2), jp("Z", "0406")])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)   # D2
    s = play(core, s, ["0505", "0604"])
    s = play(core, s, ["0305", "0505"])
    assert where(core, s, "A") == "0505"


def test_7_94_only_adjacent_participants_advance(tmp_path):
    # A and barraging artillery G attack X; B (0404), next to X, attacks Y (0504) instead
    core = make_core(tmp_path, [us("A", "0305", attack=2), us("G", "0205", type="artillery", barrage=2),
                                us("B", "0404", attack=9), jp("X", "0405", defense=2), jp("Y", "0504", defense=1)])
    s = attack(core, combat_start(core), ["0405"], ["0305", "0205"], die=1)   # 2 + 2 - 2 = +2: D1
    assert result(s) == "D1"
    s = play(core, s, [min(legal_hexes(core, s))])
    assert phase(s) == "advance: select unit"
    assert legal_hexes(core, s) == {"0305"}      # not G (barraging), not B (not in this combat)


def test_7_96_units_are_never_forced_to_advance(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=12), jp("X", "0405", defense=2), jp("Z", "0808")])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)   # De
    assert legal(core, s, "CONFIRM")
    s = play(core, s, ["CONFIRM"])
    assert where(core, s, "A") == "0305"


def test_7_96_advanced_unit_next_to_an_unattacked_enemy(tmp_path):
    # X (0405) eliminated; Z sits in 0506, next to 0405 but not to A's start 0305
    core = make_core(tmp_path, [us("A", "0305", attack=12), jp("X", "0405", defense=2), jp("Z", "0506")])
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)   # De
    s = play(core, s, ["0305", "0405"])
    # A may not attack Z, nor must it: the Combat Phase ends by itself and Japan moves
    assert s.current_player[0] == 1 and phase(s) == "move: select unit"


def test_7_97_D3_retreat_followed_by_up_to_three_units(tmp_path):
    # A (0305), B (0306), C (0404) attack X (0405) at +8: D3.  X retreats 0506 (forced), 0507, then
    # a third hex; A, B and C follow it: A to 0507, B to 0506, C to 0405.
    core = make_core(tmp_path, [us("A", "0305"), us("B", "0306"), us("C", "0404"), jp("X", "0405", defense=4)])
    s = attack(core, combat_start(core), ["0405"], ["0305", "0306", "0404"], die=1)
    assert result(s) == "D3"
    assert where(core, s, "X") == "0506" and legal_hexes(core, s) == {"0605", "0507"}
    s = play(core, s, ["0507"])
    s = play(core, s, [min(legal_hexes(core, s))])
    x3 = where(core, s, "X")
    assert distance(core, "0405", x3) == 3
    s = play(core, s, ["0305"])
    assert legal_hexes(core, s) == {"0405", "0506", "0507"}
    s = play(core, s, ["0507", "0306", "0506", "0404", "0405"])
    assert (where(core, s, "A"), where(core, s, "B"), where(core, s, "C")) == ("0507", "0506", "0405")


def test_7_82_displaced_artillery_that_has_not_fought_may_not_fire(tmp_path):
    # A (0305) attacks X (0405): A1.  A's only hex out is 0205 (0304/0204 are Y's zone, 0404/0306 X's),
    # where the US artillery G stands: G is displaced and may no longer barrage Y (0203)
    core = make_core(tmp_path, [us("A", "0305", attack=2), us("G", "0205", type="artillery"),
                                jp("X", "0405", defense=2), jp("Y", "0203")])
    s = combat_start(core)
    assert legal_hexes(core, s) == {"0405", "0203"}       # G could barrage Y before
    s = attack(core, s, ["0405"], ["0305"], die=1)
    assert result(s) == "A1"
    if phase(s) == "displacement":  # the US player picks G's hex (7.81)
        s = play(core, s, [sorted(legal_hexes(core, s))[0]])
    assert where(core, s, "A") == "0205" and where(core, s, "G") not in (None, "0205")
    if phase(s).startswith("advance"):
        s = play(core, s, ["CONFIRM"])
    assert s.current_player[0] == 1 and phase(s) == "move: select unit"   # nothing left to attack Y
