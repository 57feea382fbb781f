"""Ground Support (9.0-9.1): points per Game-Turn used as barrage or FPF."""

from conftest import attack, jp, legal, make_core, phase, play, us


def combat_start(core):
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert phase(s) == "combat: select target"
    return s


def test_9_0_9_11_one_point_is_one_barrage_strength_point(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=4), jp("X", "0405", defense=2)],
                     ground_support={"us": [3, 0, 0]})
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6, extras=["GS_ADD", "GS_ADD"])
    assert int(s.last_differential[0]) == 4 + 2 - 2
    assert int(s.gs_points[0, 0]) == 1


def test_9_0_9_11_one_point_is_one_fpf_point_for_the_non_phasing_player(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=10), jp("X", "0405", defense=2)],
                     ground_support={"japan": [2, 0, 0]})
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=6)
    assert phase(s) == "final protective fire" and s.current_player[0] == 1
    s = play(core, s, ["GS_ADD"])      # one point; a second (the last) resolves at once
    s = play(core, s, ["GS_ADD"])
    assert int(s.last_differential[0]) == 10 - 2 - 2
    assert int(s.gs_points[0, 1]) == 0


def test_9_12_points_split_between_targets(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=12), us("B", "0707", attack=12), jp("X", "0405", defense=2),
                                jp("Y", "0706", defense=2), jp("Z", "0101")],
                     ground_support={"us": [2, 0, 0]})
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1, extras=["GS_ADD"])   # +11: De
    assert int(s.last_differential[0]) == 11 and int(s.gs_points[0, 0]) == 1
    s = play(core, s, ["CONFIRM"])      # no advance
    s = attack(core, s, ["0706"], ["0707"], die=1, extras=["GS_ADD"])
    assert int(s.last_differential[0]) == 11 and int(s.gs_points[0, 0]) == 0


def test_9_13_unlimited_range(tmp_path):
    # no artillery anywhere; the points reach X at the far edge of the map
    core = make_core(tmp_path, [us("A", "0807", attack=2), jp("X", "0808", defense=2)],
                     ground_support={"us": [5, 0, 0]})
    s = play(core, combat_start(core), ["0808", "0807"])
    assert legal(core, s, "GS_ADD")


def test_9_14_points_not_accumulated_reset_each_game_turn(tmp_path):
    core = make_core(tmp_path, [us("A", "0206"), jp("X", "0808")], ground_support={"us": [3, 1, 0], "japan": [0, 2, 2]})
    s = core.init(1, 0)
    assert s.gs_points[0].tolist() == [3, 0]
    s = play(core, s, ["END_PHASE", "END_PHASE"])       # Game-Turn 1 passes, nothing used
    assert int(s.turn[0]) == 2 and s.gs_points[0].tolist() == [1, 2]   # not 3 + 1
    s = play(core, s, ["END_PHASE", "END_PHASE"])
    assert int(s.turn[0]) == 3 and s.gs_points[0].tolist() == [0, 2]   # not 2 + 2


def test_9_14_both_player_turns_draw_on_one_pool(tmp_path):
    # interpretation (ground_support.py, 9.0 example): Japan's FPF in the US Player-Turn uses
    # the same Game-Turn's points it could barrage with in its own Player-Turn
    core = make_core(tmp_path, [us("A", "0305", attack=10), jp("X", "0405", defense=2), jp("Z", "0808")],
                     ground_support={"japan": [3, 0, 0]})
    s = attack(core, combat_start(core), ["0405"], ["0305"], die=1)
    s = play(core, s, ["GS_ADD", "CONFIRM"])
    assert int(s.gs_points[0, 1]) == 2


def test_9_15_no_ground_support_alone(tmp_path):
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=2)], ground_support={"us": [3, 0, 0]})
    s = play(core, combat_start(core), ["0405"])
    assert not legal(core, s, "GS_ADD") and not legal(core, s, "CONFIRM")
    s = play(core, s, ["0305"])
    assert legal(core, s, "GS_ADD")


def test_9_15_no_ground_support_against_a_unit_nobody_attacks(tmp_path):
    # X is out of every unit's reach: it cannot be chosen as a target for points alone
    core = make_core(tmp_path, [us("A", "0101"), jp("X", "0808")], ground_support={"us": [3, 0, 0]})
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert s.current_player[0] == 1        # the US Combat Phase had nothing to do


def test_9_15_ground_support_fpf_not_against_artillery_only(tmp_path):
    # 8.45 holds for points as FPF too
    core = make_core(tmp_path, [us("G", "0205", type="artillery", barrage=4), jp("X", "0405", defense=2)],
                     ground_support={"japan": [3, 0, 0]})
    s = attack(core, combat_start(core), ["0405"], ["0205"], die=6)
    assert phase(s) != "final protective fire" and int(s.gs_points[0, 1]) == 3


def test_9_0_cancelled_attack_returns_points(tmp_path):
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=2)], ground_support={"us": [3, 0, 0]})
    s = play(core, combat_start(core), ["0405", "0305", "GS_ADD", "GS_ADD"])
    assert int(s.gs_points[0, 0]) == 1
    s = play(core, s, ["CANCEL"])
    assert int(s.gs_points[0, 0]) == 3
