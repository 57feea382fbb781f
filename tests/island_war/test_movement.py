"""Movement (5.0-5.3), hand-worked on the fixture map (see conftest.py for its picture).

Fixture Terrain Key: clear 1 MP, town 1, rough 2, jungle 2, swamp 3, mountain 3, river hexside +1.
"""

import pytest

from wargym.core import IllegalActionError

from conftest import jp, legal, legal_hexes, make_core, phase, play, reach, step, us, where


def far_enemy():
    return jp("Z", "0808")


# ------------------------------------------------------------------------------------ 5.2 terrain
def test_5_21_clear_hex_costs_one_mp(tmp_path):
    # 0206 (even column): N 0205, S 0207, NE 0306, SE 0307, NW 0106, SW 0107, all clear.
    core = make_core(tmp_path, [us("A", "0206", move=1), far_enemy()])
    assert reach(core, core.init(1, 0), "A") == {"0205", "0207", "0306", "0307", "0106", "0107"}


def test_5_21_clear_two_mp_reach_two_hexes_away(tmp_path):
    core = make_core(tmp_path, [us("A", "0206", move=2), far_enemy()])
    r = reach(core, core.init(1, 0), "A")
    assert {"0204", "0208", "0405", "0407", "0105"} <= r      # 1 + 1 MP through clear hexes
    assert "0209" not in r and "0406" not in r                 # off the map / swamp costs 3


def test_5_21_rough_costs_two_mp(tmp_path):
    # 0203 (even): NE neighbour 0303 is rough (2 MP)
    core1 = make_core(tmp_path, [us("A", "0203", move=1), far_enemy()])
    assert "0303" not in reach(core1, core1.init(1, 0), "A")
    core2 = make_core(tmp_path, [us("A", "0203", move=2), far_enemy()])
    assert "0303" in reach(core2, core2.init(1, 0), "A")


def test_5_21_jungle_costs_two_mp(tmp_path):
    # 0401 (even): NE neighbour 0501 is jungle (2 MP)
    core1 = make_core(tmp_path, [us("A", "0401", move=1), far_enemy()])
    assert "0501" not in reach(core1, core1.init(1, 0), "A")
    core2 = make_core(tmp_path, [us("A", "0401", move=2), far_enemy()])
    assert "0501" in reach(core2, core2.init(1, 0), "A")


def test_5_21_costs_are_cumulative(tmp_path):
    # 0103 -> 0203 (clear, 1) -> 0303 (rough, 2) = 3 MP: a 2-MP unit cannot, a 3-MP unit can
    core1 = make_core(tmp_path, [us("A", "0103", move=2), far_enemy()])
    assert "0303" not in reach(core1, core1.init(1, 0), "A")
    core2 = make_core(tmp_path, [us("A", "0103", move=3), far_enemy()])
    assert "0303" in reach(core2, core2.init(1, 0), "A")


def test_5_21_river_hexside_adds_one_mp(tmp_path):
    # 0702 (odd): SE neighbour 0802 across the river hexside 0702|0802: 1 (clear) + 1 (river) = 2
    core1 = make_core(tmp_path, [us("A", "0702", move=1), far_enemy()])
    r = reach(core1, core1.init(1, 0), "A")
    assert "0802" not in r
    assert r == {"0701", "0703", "0801"}      # clear neighbours (0601/0602 NW/SW are jungle, 2 MP)
    core2 = make_core(tmp_path, [us("A", "0703", move=2), far_enemy()])
    # 0703 (odd): SE 0803 across the river costs 2 -> reachable with exactly 2 MP
    assert "0803" in reach(core2, core2.init(1, 0), "A")


def test_5_22_road_to_road_costs_half_mp(tmp_path):
    # road 0104-0204-0304-0404-0504-0604-0704: six road hexsides at 1/2 MP = 3 MP
    core = make_core(tmp_path, [us("A", "0104", move=3), far_enemy()])
    r = reach(core, core.init(1, 0), "A")
    assert "0704" in r                 # 6 x 1/2 = 3 MP
    core2 = make_core(tmp_path, [us("A", "0104", move=2), far_enemy()])
    r2 = reach(core2, core2.init(1, 0), "A")
    assert "0504" in r2 and "0604" not in r2   # 4 x 1/2 = 2 MP; a fifth would be 2 1/2


def test_5_22_road_rate_regardless_of_other_terrain_in_the_hex(tmp_path):
    # a road through the rough hex 0303 (0203 -> 0303, NE): 1/2 MP instead of 2
    extra = {"roads": [["0203", "0303"]]}
    core = make_core(tmp_path, [us("A", "0203", move=1), far_enemy()], map_extra=extra)
    assert "0303" in reach(core, core.init(1, 0), "A")


def test_5_22_road_across_a_river_is_a_bridge(tmp_path):
    # interpretation (movement.py): the road rate replaces the river hexside cost too
    extra = {"roads": [["0702", "0802"]]}
    core = make_core(tmp_path, [us("A", "0702", move=1), far_enemy()], map_extra=extra)
    r = reach(core, core.init(1, 0), "A")
    assert "0802" in r           # 1/2 MP over the bridge, instead of 1 + 1
    assert "0803" not in r       # S of 0802 off the road: 1/2 + 1 = 1 1/2 > 1


def test_5_23_trail_to_trail_costs_one_mp_regardless_of_terrain(tmp_path):
    # a trail 0307 -> 0406 into the swamp (3 MP): along the trail it costs 1
    extra = {"trails": [["0307", "0406"]]}
    core = make_core(tmp_path, [us("A", "0307", move=1), far_enemy()], map_extra=extra)
    assert "0406" in reach(core, core.init(1, 0), "A")
    # without the trail hexside (from 0405, N of the swamp) it costs 3
    core2 = make_core(tmp_path, [us("A", "0405", move=2), far_enemy()], map_extra=extra)
    assert "0406" not in reach(core2, core2.init(1, 0), "A")


def test_5_23_fixture_trail_one_mp_per_hex(tmp_path):
    core = make_core(tmp_path, [us("A", "0107", move=2), far_enemy()])
    assert "0307" in reach(core, core.init(1, 0), "A")        # 0107 -> 0207 -> 0307: 1 + 1


def test_5_24_insufficient_mp_may_not_enter(tmp_path):
    # swamp 0406 costs 3: a 2-MP unit next to it (0405) may not enter, a 3-MP unit may
    core1 = make_core(tmp_path, [us("A", "0405", move=2), far_enemy()])
    assert "0406" not in reach(core1, core1.init(1, 0), "A")
    core2 = make_core(tmp_path, [us("A", "0405", move=3), far_enemy()])
    assert "0406" in reach(core2, core2.init(1, 0), "A")


def test_5_24_move_refused_by_step(tmp_path):
    core = make_core(tmp_path, [us("A", "0405", move=2), far_enemy()])
    s = step(core, core.init(1, 0), "0405")
    with pytest.raises(IllegalActionError):
        step(core, s, "0406")


def test_5_25_armor_enters_only_clear_and_town(tmp_path):
    # armor at 0203: the rough 0303 is closed to it whatever its MP; the town 0404 is open
    core = make_core(tmp_path, [us("T", "0203", type="armor", move=6), far_enemy()])
    r = reach(core, core.init(1, 0), "T")
    assert "0303" not in r
    assert "0404" in r
    core2 = make_core(tmp_path, [us("T", "0403", type="armor", move=1), far_enemy()])
    assert "0404" in reach(core2, core2.init(1, 0), "T")      # town off the road (0403 -> 0404 S)
    core3 = make_core(tmp_path, [us("T", "0401", type="armor", move=6), far_enemy()])
    r3 = reach(core3, core3.init(1, 0), "T")
    assert "0501" not in r3 and "0601" not in r3              # jungle: never off road/trail
    assert "0702" in r3                                        # the clear hexes around them, yes


def test_5_25_armor_enters_other_hexes_via_road_or_trail(tmp_path):
    extra = {"trails": [["0307", "0406"]], "roads": [["0203", "0303"]]}
    core = make_core(tmp_path, [us("T", "0307", type="armor", move=3), us("R", "0203", type="armor", move=3),
                                far_enemy()], map_extra=extra)
    s = core.init(1, 0)
    assert "0406" in reach(core, s, "T")           # swamp along the trail
    assert "0303" in reach(core, s, "R")           # rough along the road
    core2 = make_core(tmp_path, [us("T", "0405", type="armor", move=6), far_enemy()])
    assert "0406" not in reach(core2, core2.init(1, 0), "T")   # the swamp without that trail


# ------------------------------------------------------------------------ 5.1 restrictions
def test_5_12_may_never_enter_enemy_hex(tmp_path):
    core = make_core(tmp_path, [us("A", "0205", move=4), jp("X", "0405")])
    r = reach(core, core.init(1, 0), "A")
    assert "0405" not in r
    assert "0305" in r          # next to it, yes


def test_5_13_never_more_than_the_movement_allowance(tmp_path):
    core = make_core(tmp_path, [us("A", "0206", move=2), far_enemy()])
    r = reach(core, core.init(1, 0), "A")
    assert "0406" not in r and "0506" not in r and "0203" not in r   # 0203 is 3 clear hexes away


def test_5_13_unused_mp_not_accumulated(tmp_path):
    # A (2 MP) stands still in Game-Turn 1; in Game-Turn 2 it still reaches only 2 hexes away
    core = make_core(tmp_path, [us("A", "0206", move=2), jp("Z", "0808", move=1)])
    s = play(core, core.init(1, 0), ["END_PHASE", "END_PHASE"])   # US move (no combat), Japan move
    assert int(s.turn[0]) == 2 and s.current_player[0] == 0
    r = reach(core, s, "A")
    assert "0203" not in r and "0204" in r


def test_5_14_us_unit_never_exits_japanese_controlled_hex(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", move=6), jp("X", "0405")])
    s = step(core, core.init(1, 0), "0305")
    assert legal_hexes(core, s) == {"0305"}        # only "stay"


def test_5_15_japanese_armor_and_artillery_never_exit_us_controlled_hex(tmp_path):
    core = make_core(tmp_path, [us("A", "0405"), jp("T", "0305", type="armor", move=6),
                                jp("G", "0505", type="artillery", move=6)], first_player="japan")
    s = core.init(1, 0)
    assert legal_hexes(core, step(core, s, "0305")) == {"0305"}
    assert legal_hexes(core, step(core, s, "0505")) == {"0505"}


def test_5_15_japanese_infantry_and_engineers_may_exit(tmp_path):
    core = make_core(tmp_path, [us("A", "0405"), jp("I", "0305", move=3),
                                jp("E", "0505", type="engineer", move=3)], first_player="japan")
    s = core.init(1, 0)
    assert len(legal_hexes(core, step(core, s, "0305"))) > 1
    assert len(legal_hexes(core, step(core, s, "0505"))) > 1


def test_5_16_moved_unit_may_not_move_again(tmp_path):
    core = make_core(tmp_path, [us("A", "0206"), us("B", "0208"), far_enemy()])
    s = play(core, core.init(1, 0), ["0206", "0205"])
    assert phase(s) == "move: select unit"
    assert legal_hexes(core, s) == {"0208"}        # A (now 0205) is done for this Player-Turn
    s = play(core, s, ["0208", "0308"])
    assert where(core, s, "A") == "0205"
    # its movement is over: the Movement Phase passes to combat/Japan on its own
    assert s.current_player[0] == 1


def test_5_16_a_selected_unit_moves_or_stays_without_cancel(tmp_path):
    # interpretation (README): once selected, a unit moves or stays in its own hex; no CANCEL,
    # which only let a player select and deselect forever
    core = make_core(tmp_path, [us("A", "0206"), us("B", "0208"), far_enemy()])
    s = play(core, core.init(1, 0), ["0206"])
    assert not legal(core, s, "CANCEL") and "0206" in legal_hexes(core, s)
    s = play(core, s, ["0206"])                     # stays: its move is over (5.16)
    assert phase(s) == "move: select unit" and legal_hexes(core, s) == {"0208"}


def test_5_11_non_phasing_units_may_not_move(tmp_path):
    core = make_core(tmp_path, [us("A", "0206"), jp("X", "0606")])
    s = core.init(1, 0)
    assert legal_hexes(core, s) == {"0206"}        # the Japanese unit cannot be selected
    with pytest.raises(IllegalActionError):
        step(core, s, "0606")


# ------------------------------------------------------------------------ 5.3 friendly units
def test_5_31_pass_through_friends_but_never_end_stacked(tmp_path):
    # 0206 -> 0207 (friend) -> 0208: 2 MP, no extra cost for the friend's hex
    core = make_core(tmp_path, [us("A", "0206", move=2), us("B", "0207"), far_enemy()])
    r = reach(core, core.init(1, 0), "A")
    assert "0208" in r
    assert "0207" not in r


def test_5_32_any_number_of_units_pass_through_one_hex(tmp_path):
    # B sits in 0207; A, C and D (2 MP) cross it on straight lines whose only middle hex is 0207
    core = make_core(tmp_path, [us("A", "0206", move=2), us("B", "0207"), us("C", "0107", move=2),
                                us("D", "0307", move=2), far_enemy()])
    s = play(core, core.init(1, 0), ["0206", "0208", "0107", "0308", "0307", "0108"])
    assert (where(core, s, "A"), where(core, s, "C"), where(core, s, "D")) == ("0208", "0308", "0108")


def test_5_33_friendly_controlled_hexes_never_interfere(tmp_path):
    # A walks 0202 -> 0203 -> 0204 -> 0205 past friends B (0102) and C (0304): 3 MP, no stop
    core = make_core(tmp_path, [us("A", "0202", move=3), us("B", "0103"), us("C", "0304"), far_enemy()])
    assert "0205" in reach(core, core.init(1, 0), "A")


def test_4_1_reinforcement_enters_through_its_entry_area(tmp_path):
    # interpretation (movement.py): a reinforcement pays the terrain cost of its entry hex
    core = make_core(tmp_path, [us("A", "0206"), us("R", arrives=2, entry="west", move=2), far_enemy()],
                     entry_areas={"west": ["0101", "0103"]})
    s = core.init(1, 0)
    assert not s.legal_action_mask[0, core.scenario.num_hexes + 5]   # REINF_0 not before Game-Turn 2
    s = play(core, s, ["END_PHASE", "END_PHASE"])
    assert int(s.turn[0]) == 2
    s = step(core, s, "REINF_0")
    r = legal_hexes(core, s)
    assert {"0101", "0103", "0102", "0201", "0202", "0104"} <= r   # entry (1) + one more clear hex
    assert "0301" not in r and "0203" in r
