"""Movement and terrain (5.0-5.8), stacking (4.0) and Zones of Control (6.0, 6.1)."""

from __future__ import annotations

import numpy as np
import pytest

from attu_board import Board, core  # noqa: F401  (core: the session fixture)
from wargym.attu.board import us_stack_ok, jp_stack_ok, zoc_of
from wargym.attu.movement import allowance, move_destinations
from wargym.attu.scenario import IMPASSABLE, JAPAN, RAIN, US
from wargym.hexgrid import DIRECTION_NAMES


def cost(core, side, a, b):
    sc = core.scenario
    ha, hb = sc.grid.index(a), sc.grid.index(b)
    d = sc.grid.direction(ha, hb)
    return int(sc.move_cost[side, ha, d])


def test_attu_5_4_us_up_slope_into_higher_level_costs_4_japanese_2(core):
    # 5.4: "Moving across an up-slope into a higher elevation costs the U.S. 4 MP (2 for the new
    # Clear hex, +1 for the up slope and +1 for the higher elevation) ... the Japanese 2 MP"
    sc = core.scenario
    a, b = sc.grid.index(2718), sc.grid.index(2819)
    assert sc.slope[a, sc.grid.direction(a, b)] and sc.level[b] == sc.level[a] + 1
    assert cost(core, US, 2718, 2819) == 4
    assert cost(core, JAPAN, 2718, 2819) == 2


def test_attu_5_3_moving_both_up_and_down_1806_to_1807(core):
    # 5.3: 1806 -> 1807 crosses slope art in both hexes: U.S. +1 up +1 down, Japanese +1 up only
    assert cost(core, US, 1806, 1807) == 2 + 1 + 1
    assert cost(core, JAPAN, 1806, 1807) == 1 + 1


def test_attu_5_5_river_costs_one_along_the_hogback(core):
    # 5.4 example: "Each hex entered costs only a single movement point except at the point where
    # the unit moves up the slope, which costs three (river, slope, increase in level)"
    chain = [2721, 2621, 2620, 2619, 2618, 2617]
    costs = [cost(core, US, a, b) for a, b in zip(chain, chain[1:])]
    assert sorted(costs) == [1, 1, 1, 1, 3]
    assert [cost(core, JAPAN, a, b) for a, b in zip(chain, chain[1:])] == [c if c == 1 else 2 for c in costs]


def test_attu_5_6_lake_costs_three_us_two_japanese(core):
    sc = core.scenario
    checked = 0
    for h in np.nonzero(sc.lake)[0]:
        for d in range(6):
            n = sc.grid.neighbours[h, d]
            back = (d + 3) % 6
            if n >= 0 and sc.land[n] and not sc.river[n, back] and not sc.slope[n, back] and not sc.slope[h, d] \
                    and sc.level[n] == sc.level[h] and not sc.cliff[n, back]:
                assert sc.move_cost[US, n, back] == 3 and sc.move_cost[JAPAN, n, back] == 2
                checked += 1
    assert checked > 0


def test_attu_5_7_cliff_2717_2817_impassable_and_blocks_zoc(core):
    assert cost(core, US, 2717, 2817) == IMPASSABLE == cost(core, JAPAN, 2817, 2717)
    b = Board(core)
    b.place(b.japanese(), 2717)
    z = zoc_of(b.tables, b.arrays, 0, JAPAN)
    assert not z[b.hex(2817)]          # 6.0: no ZOC across a cliff
    assert z[b.hex(2818)] and z[b.hex(2716)] and z[b.hex(2617)]


@pytest.mark.parametrize("weather,night,rating,expect", [
    (0, False, 7, 7), (RAIN, False, 7, 6),   # 5.1: rain -1
    (0, True, 7, 4), (RAIN, True, 7, 3),     # 5.2: halve rounding up, then rain
    (0, True, 5, 3), (RAIN, True, 1, 0),
])
def test_attu_5_1_5_2_weather_and_night_reduce_movement(core, weather, night, rating, expect):
    b = Board(core)
    b.set(weather=weather, night=night)
    assert allowance(b.tables, b.arrays, 0, -1, rating) == expect


def test_attu_5_8_minimum_move_one_hex_whatever_the_cost(core):
    b = Board(core)
    u = b.place("1/17 A", 2718)
    b.set(night=True, weather=RAIN)     # 7 -> 4 -> 3 MP, and 2819 costs 4
    out = np.zeros(core.scenario.num_hexes, dtype=bool)
    move_destinations(b.tables, b.arrays, 0, u, out)
    assert out[b.hex(2819)]
    assert not out[b.hex(2718)]


def test_attu_6_1_stop_on_entering_zoc_and_may_not_leave_by_day(core):
    b = Board(core)
    u = b.place("1/17 A", 2620)
    b.place(b.japanese(), 2618)
    out = np.zeros(core.scenario.num_hexes, dtype=bool)
    move_destinations(b.tables, b.arrays, 0, u, out)
    z = zoc_of(b.tables, b.arrays, 0, JAPAN)
    assert out[b.hex(2619)] and z[b.hex(2619)]
    # nothing beyond a ZOC hex is reached through it: every reached hex in ZOC is a dead end
    b.place("1/17 A", 2619)
    out[:] = False
    move_destinations(b.tables, b.arrays, 0, u, out)
    assert not out.any()                 # 6.1: may not leave by day
    b.set(night=True)
    move_destinations(b.tables, b.arrays, 0, u, out)
    reached = np.nonzero(out)[0]
    assert len(reached) > 0 and all(not z[h] for h in reached)
    assert all(core.scenario.grid.distance[b.hex(2619), h] == 1 for h in reached)


def test_attu_4_1_us_stacking_12_same_battalion_8_mixed(core):
    b = Board(core)
    for name in ("1/17 A", "1/17 B"):
        b.place(name, 2619)
    T, S, h = b.tables, b.arrays, b.hex(2619)
    assert us_stack_ok(T, S, 0, h, b.unit("1/17 C"), 4)        # 12 steps of one battalion
    assert not us_stack_ok(T, S, 0, h, b.unit("2/17 E"), 4)     # 12 mixed > 8
    assert not us_stack_ok(T, S, 0, h, b.unit("1/17 C"), 5)
    assert us_stack_ok(T, S, 0, h, b.unit("Indep 1"), 1)        # independents join any battalion
    b.state.unit_steps[0, b.unit("1/17 B")] = 3
    assert us_stack_ok(T, S, 0, h, b.unit("2/17 E"), 1)         # 4 + 3 + 1 = 8 mixed


def test_attu_9_2_1_landing_zone_capacity_replaces_stacking(core):
    b = Board(core)
    sc = core.scenario
    f = sc.lz_hex[5]
    assert sc.lz_capacity[5] == 15    # 9.2 example: Zone F supports 15 steps
    for name in ("1/17 A", "2/17 E", "3/17 I"):
        b.place(name, sc.grid.number(f))
    assert us_stack_ok(b.tables, b.arrays, 0, f, b.unit("1/32 A"), 3)       # 12 mixed + 3 = 15
    assert not us_stack_ok(b.tables, b.arrays, 0, f, b.unit("1/32 A"), 4)


def test_attu_4_2_japanese_three_infantry_or_artillery_any_unknowns(core):
    b = Board(core)
    for k in range(3):
        b.place(b.japanese(skip=0), 2515)
    T, S, h = b.tables, b.arrays, b.hex(2515)
    assert not jp_stack_ok(T, S, 0, h, b.japanese())
    assert not jp_stack_ok(T, S, 0, h, b.japanese("artillery"))
    assert jp_stack_ok(T, S, 0, h, b.japanese("unknown"))
