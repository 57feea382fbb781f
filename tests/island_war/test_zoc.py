"""Zones of Control (6.0-6.2), hand-worked on the fixture map (conftest.py)."""

from conftest import (
    jp, legal, legal_hexes, make_core, phase, play, reach, result, step, us, where,
)


def test_6_0_units_stop_on_entering_enemy_controlled_hex(tmp_path):
    # 0101's neighbours are 0102 and 0201; the Japanese unit in 0302 controls 0201 and 0202.
    # 0301 is two clear hexes from 0101, but only through 0201: the move must stop in 0201.
    core = make_core(tmp_path, [us("A", "0101", move=2), jp("X", "0302")])
    assert reach(core, core.init(1, 0), "A") == {"0102", "0201", "0103", "0202"}
    # the same move without the enemy there reaches 0301
    core2 = make_core(tmp_path, [us("A", "0101", move=2), jp("X", "0808")])
    assert "0301" in reach(core2, core2.init(1, 0), "A")


def test_6_0_unit_that_entered_enemy_zoc_must_then_attack(tmp_path):
    # 7.12: having stopped in 0201 next to X, A fights in the ensuing Combat Phase
    core = make_core(tmp_path, [us("A", "0101", move=2), jp("X", "0302", attack=1, defense=20)])
    s = play(core, core.init(1, 0), ["0101", "0201"])   # nothing else to move: Combat Phase
    assert phase(s) == "combat: select target"
    assert not legal(core, s, "END_PHASE") and legal_hexes(core, s) == {"0302"}


def test_6_11_every_unit_exerts_zoc_even_artillery_and_non_phasing(tmp_path):
    core = make_core(tmp_path, [us("A", "0101", move=2), jp("G", "0302", type="artillery")])
    assert reach(core, core.init(1, 0), "A") == {"0102", "0201", "0103", "0202"}


def test_6_12_no_extra_mp_to_enter_enemy_controlled_hex(tmp_path):
    # 0305 is clear and controlled by X (0405): a 1-MP unit in 0205 enters it
    core = make_core(tmp_path, [us("A", "0205", move=1), jp("X", "0405")])
    assert "0305" in reach(core, core.init(1, 0), "A")


def test_6_13_us_unit_leaves_only_after_the_enemy_is_removed(tmp_path):
    # A (0305) next to X (0405). Turn 1 it may not move; X is eliminated (De, die 1 at +10);
    # next Movement Phase A moves freely.
    core = make_core(tmp_path, [us("A", "0305", attack=12), jp("X", "0405", defense=2), jp("Z", "0808")])
    s = core.init(1, 0)
    assert legal_hexes(core, step(core, s, "0305")) == {"0305"}
    s = play(core, s, ["END_PHASE", "0405", "0305"])
    s = core.force(s, [1])
    s = play(core, s, ["CONFIRM"])
    assert result(s) == "De"
    s = play(core, s, ["CONFIRM"])     # no advance; no attack left: the Japanese Movement Phase
    assert s.current_player[0] == 1 and phase(s) == "move: select unit"
    s = play(core, s, ["END_PHASE"])   # Japan moves nothing
    assert int(s.turn[0]) == 2
    assert len(reach(core, s, "A")) > 1


def test_6_13_japanese_armor_never_exits(tmp_path):
    core = make_core(tmp_path, [us("A", "0405"), jp("T", "0305", type="armor", move=8)],
                     first_player="japan")
    assert legal_hexes(core, step(core, core.init(1, 0), "0305")) == {"0305"}


def test_6_14_japanese_infantry_may_move_one_hex_out_of_us_zoc(tmp_path):
    # X in 0305 starts next to A (0405); with 4 MP it still moves one hex only
    core = make_core(tmp_path, [us("A", "0405"), jp("X", "0305", move=4)], first_player="japan")
    s = step(core, core.init(1, 0), "0305")
    # 0305's neighbours: 0304 0404 0405(A) 0306 0205 0204
    assert legal_hexes(core, s) == {"0305", "0304", "0404", "0306", "0205", "0204"}


def test_6_14_even_from_one_us_controlled_hex_to_another(tmp_path):
    # 0404 and 0306 are both controlled by A (0405): X may step into them
    core = make_core(tmp_path, [us("A", "0405"), jp("X", "0305", move=4)], first_player="japan")
    s = play(core, core.init(1, 0), ["0305", "0404"])
    assert where(core, s, "X") == "0404"


def test_6_14_engineers_too_and_terrain_still_costs(tmp_path):
    # E (engineer, 1 MP) in 0203 next to A (0204): may step to clear hexes, not into the rough 0303
    core = make_core(tmp_path, [us("A", "0204"), jp("E", "0203", type="engineer", move=1)],
                     first_player="japan")
    r = legal_hexes(core, step(core, core.init(1, 0), "0203"))
    assert r == {"0203", "0202", "0304", "0103", "0104"}     # 0203's neighbours less A and 0303


def test_6_15_zoc_extends_across_prohibited_hexside(tmp_path):
    # 0506|0606 is prohibited; X in 0506 still controls 0606: A there may not move
    core = make_core(tmp_path, [us("A", "0606", move=4), jp("X", "0506")])
    assert legal_hexes(core, step(core, core.init(1, 0), "0606")) == {"0606"}


def test_6_15_zoc_extends_into_all_terrain(tmp_path):
    # A in the swamp 0406 next to X (0405) may not leave
    core = make_core(tmp_path, [us("A", "0406", move=8), jp("X", "0405")])
    assert legal_hexes(core, step(core, core.init(1, 0), "0406")) == {"0406"}


def test_6_21_friendly_zoc_does_not_cancel_enemy_zoc(tmp_path):
    # 0201 is controlled by X (0302) and by friend B (0102): mutually controlled, A still stops there
    core = make_core(tmp_path, [us("A", "0101", move=2), us("B", "0102"), jp("X", "0302")])
    r = reach(core, core.init(1, 0), "A")
    assert "0201" in r and "0301" not in r


def test_6_22_several_enemy_zones_add_nothing(tmp_path):
    # 0305 is controlled by X (0405) and by Y (0304); a 1-MP unit in 0205 still enters it for 1 MP
    core = make_core(tmp_path, [us("A", "0205", move=1), jp("X", "0405"), jp("Y", "0304")])
    assert "0305" in reach(core, core.init(1, 0), "A")


def test_6_23_mutual_control(tmp_path):
    # A (US armor, 0405) and T (Japanese armor, 0305) control each other: neither may leave
    units = [us("A", "0405", type="armor", move=6), jp("T", "0305", type="armor", move=6)]
    core = make_core(tmp_path, units)
    assert legal_hexes(core, step(core, core.init(1, 0), "0405")) == {"0405"}
    core2 = make_core(tmp_path, units, first_player="japan")
    assert legal_hexes(core2, step(core2, core2.init(1, 0), "0305")) == {"0305"}
