"""Hand-worked cases of weather (3.3), airpower (3.4), fog of war (2.5), losses (8.4, 8.5),
refit and landing (9.1, 9.2) and victory (3.8), with dice fixed as the book's examples roll them."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from attu_board import Board, core  # noqa: F401  (core: the session fixture)
from wargym.attu.fog import reveal_unknowns
from wargym.attu.losses import hit_unit
from wargym.attu.refit import lose_steps, recovery_steps, resolve_landing
from wargym.attu.scenario import CLOUDY, FOG, JAPAN, RAIN, US, WILLIWAW
from wargym.attu.state import LOC_ELIM, LOC_MAP, LOC_RESERVE, LOC_STAGING, LOSS_MELEE_ON_DEFENDER, LOSS_RANGED
from wargym.attu.victory import check_immediate, step8
from wargym.attu.weather import roll_airpower, roll_weather


def dice(board: Board, values) -> None:
    board.force(values)


@pytest.mark.parametrize("previous,die,new", [
    (FOG, 3, RAIN), (FOG, 4, FOG), (FOG, 8, WILLIWAW), (FOG, 10, WILLIWAW),
    (CLOUDY, 3, CLOUDY), (CLOUDY, 4, RAIN), (CLOUDY, 9, FOG),
    (RAIN, 2, CLOUDY), (RAIN, 6, RAIN), (RAIN, 7, FOG),
    (WILLIWAW, 2, RAIN), (WILLIWAW, 9, FOG), (WILLIWAW, 10, WILLIWAW),
])
def test_attu_3_3_weather_chart(core, previous, die, new):
    b = Board(core)
    b.set(weather=previous)
    dice(b, [die])
    roll_weather(b.tables, b.arrays, 0)
    assert b.state.weather[0] == new


@pytest.mark.parametrize("weather,us_die,jp_die,us,jp", [
    (CLOUDY, 10, 10, 5, 3), (CLOUDY, 1, 4, 0, 0), (CLOUDY, 7, 8, 3, 2),
    (FOG, 10, 10, 3, 1),          # 10 - 3 = 7
    (RAIN, 5, 6, 1, 1),           # 4 and 5
    (WILLIWAW, 10, 9, 2, 0),      # 5 and 4 (3.4: -5)
])
def test_attu_3_4_airpower_table_with_weather(core, weather, us_die, jp_die, us, jp):
    b = Board(core)
    b.set(weather=weather)
    dice(b, [us_die, jp_die])
    roll_airpower(b.tables, b.arrays, 0)
    assert b.state.airpower[0].tolist() == [us, jp]


def test_attu_9_1_never_more_steps_than_the_track(core):
    b = Board(core)
    b.set(weather=CLOUDY, casualties=2)
    dice(b, [10, 10])
    assert recovery_steps(b.tables, b.arrays, 0) == 2


def test_attu_9_2_landing_example_zone_f_capacity_15(core):
    # 9.2 example: a 4-step company for Zone E in fog rolls 6 -> 5: scatters to F, which holds 14
    # of its 15 steps: three steps are eliminated, one lands, the Loss Track goes up three.
    b = Board(core)
    sc = core.scenario
    f = sc.grid.number(sc.lz_hex[5])
    for name in ("1/17 A", "1/17 B", "1/17 C"):
        b.place(name, f)
    b.place("1/17 D", f, steps=2)
    u = b.unit("3/17 I")
    b.state.unit_loc[0, u] = LOC_STAGING
    b.state.unit_hex[0, u] = 4
    b.set(weather=FOG)
    dice(b, [6])
    resolve_landing(b.tables, b.arrays, 0)
    assert b.state.unit_loc[0, u] == LOC_MAP and b.state.unit_hex[0, u] == sc.lz_hex[5]
    assert b.state.unit_steps[0, u] == 1
    assert b.state.casualties[0] == 3


def test_attu_9_2_2_scatter_into_japanese_zoc_eliminates(core):
    b = Board(core)
    sc = core.scenario
    e = sc.lz_hex[4]
    b.place(b.japanese(), sc.grid.number(sc.grid.neighbours[e][sc.grid.neighbours[e] >= 0][0]))
    u = b.unit("2/17 E")
    b.state.unit_loc[0, u] = LOC_STAGING
    b.state.unit_hex[0, u] = 4
    dice(b, [8])                                   # landed at E, which is in a Japanese ZOC
    resolve_landing(b.tables, b.arrays, 0)
    assert b.state.unit_loc[0, u] == LOC_ELIM and b.state.casualties[0] == 4


def test_attu_2_5_unknown_revealed_into_its_table_count_of_infantry(core):
    b = Board(core)
    unk = b.japanese("unknown")
    b.place(unk, 2515, face_down=True)
    table = core.scenario.unit_table[unk]
    dice(b, [10])
    n = reveal_unknowns(b.tables, b.arrays, 0, b.hex(2515), False)
    assert n == table[9]
    here = [u for u in range(core.scenario.num_units)
            if b.state.unit_loc[0, u] == LOC_MAP and b.state.unit_hex[0, u] == b.hex(2515)]
    assert len(here) == n and all(core.scenario.unit_type[u] == 0 for u in here)
    assert not b.state.face_down[0, here].any()    # placed face-up
    assert b.state.unit_loc[0, unk] == LOC_RESERVE  # the Unknown goes off-map (eligible for 9.6)


def test_attu_2_5_stacked_unknowns_roll_once_and_give_at_most_three(core):
    b = Board(core)
    for k in range(3):
        b.place(b.japanese("unknown"), 2515, face_down=True)
    dice(b, [10, 10, 10])
    n = reveal_unknowns(b.tables, b.arrays, 0, b.hex(2515), False)
    assert n <= 3
    assert b.dice_used == 1                       # one die for the lot


def test_attu_8_5_ranged_never_eliminates_last_japanese_infantry(core):
    b = Board(core)
    a, c = b.japanese(), b.japanese(skip=1)
    b.place(a, 2515)
    b.place(c, 2515)
    hit_unit(b.tables, b.arrays, 0, a, LOSS_RANGED)
    assert b.state.unit_loc[0, a] == LOC_ELIM
    hit_unit(b.tables, b.arrays, 0, c, LOSS_RANGED)
    assert b.state.unit_loc[0, c] == LOC_MAP      # "the unit simply stays there"
    hit_unit(b.tables, b.arrays, 0, c, LOSS_MELEE_ON_DEFENDER)
    assert b.state.unit_loc[0, c] == LOC_ELIM     # melee can


def test_attu_8_5_unknown_hit_by_ranged_melts_away(core):
    b = Board(core)
    unk = b.japanese("unknown")
    b.place(unk, 2515, face_down=True)
    hit_unit(b.tables, b.arrays, 0, unk, LOSS_RANGED)
    assert b.state.unit_loc[0, unk] == LOC_RESERVE


def test_attu_8_4_only_us_infantry_steps_go_on_the_casualty_track(core):
    b = Board(core)
    inf = b.place("1/17 A", 2619)
    eng = b.place("13 Eng A", 2620)
    hit_unit(b.tables, b.arrays, 0, inf, LOSS_RANGED)
    hit_unit(b.tables, b.arrays, 0, eng, LOSS_RANGED)
    assert b.state.casualties[0] == 1
    assert b.state.unit_steps[0, inf] == 3 and b.state.unit_steps[0, eng] == 1


def test_attu_3_8_2_casualty_track_30_japanese_win_at_once(core):
    b = Board(core)
    b.place(b.japanese(), 2515)
    b.set(casualties=30)
    check_immediate(b.tables, b.arrays, 0)
    assert b.state.terminated[0] and b.state.rewards[0].tolist() == [-1.0, 1.0]


def test_attu_8_4_the_casualty_track_stops_at_30_when_one_event_loses_more(core):
    """A 4-step infantry unit lost whole (9.2: landing in a closed zone) at 28 casualties moves the
    marker to the track's last box, 30, not 32; a further hit in the same event leaves it there."""
    b = Board(core)
    b.place(b.japanese(), 2515)
    inf = b.place("1/17 A", 2619)
    other = b.place("1/17 B", 2620)
    b.set(casualties=28)
    lose_steps(b.tables, b.arrays, 0, inf, 4)
    assert b.state.casualties[0] == 30 and b.state.unit_loc[0, inf] == LOC_ELIM
    hit_unit(b.tables, b.arrays, 0, other, LOSS_RANGED)
    assert b.state.casualties[0] == 30 and b.state.unit_steps[0, other] == 3
    check_immediate(b.tables, b.arrays, 0)
    assert b.state.terminated[0] and b.state.rewards[0].tolist() == [-1.0, 1.0]
    assert core.check_state(b.state) == []


def test_attu_3_8_2_unknowns_do_not_count_for_elimination(core):
    b = Board(core)
    b.state.unit_loc[0, (core.scenario.unit_side == JAPAN)] = LOC_ELIM
    unknown = [u for u in range(core.scenario.num_units) if core.scenario.unit_type[u] == 4][0]
    b.place(unknown, 2515, face_down=True)
    check_immediate(b.tables, b.arrays, 0)
    assert b.state.terminated[0] and b.state.rewards[0].tolist() == [1.0, -1.0]


def test_attu_3_8_1_us_wins_holding_all_six_victory_hexes(core):
    b = Board(core)
    b.place(b.japanese(), 2515)
    names = ["1/17 A", "1/17 B", "1/17 C", "1/17 D", "2/17 E", "2/17 F"]
    for name, h in zip(names, (1425, 2011, 2117, 2717, 3409, 3622)):
        b.place(name, h)
    step8(b.tables, b.arrays, 0)
    assert b.state.terminated[0] and b.state.rewards[0, US] == 1.0


def test_attu_3_8_1_five_of_six_is_not_enough(core):
    b = Board(core)
    b.place(b.japanese(), 2515)
    for name, h in zip(["1/17 A", "1/17 B", "1/17 C", "1/17 D", "2/17 E"], (1425, 2011, 2117, 2717, 3409)):
        b.place(name, h)
    step8(b.tables, b.arrays, 0)
    assert not b.state.terminated[0]


def test_attu_3_8_1_japanese_gun_on_engineer_hill_reaching_d_to_g(core):
    b = Board(core)
    gun = [u for u in range(core.scenario.num_units) if core.scenario.unit_gun[u] == 2][0]
    b.place(gun, 2717)
    b.place("1/17 A", 2619)
    step8(b.tables, b.arrays, 0)
    assert b.state.terminated[0] and b.state.rewards[0, JAPAN] == 1.0


def test_attu_15_1_japanese_still_win_holding_d_to_g_in_the_hogs_back():
    """15.0: the short scenarios use all of the standard rules, so 3.8.1's beach win stands where
    Landing Zones D-G are in play (15.1)."""
    from attu_board import make_core
    core = make_core("hogs_back")
    b = Board(core)
    zones = [core.scenario.grid.number(core.tables.lz_hex[k]) for k in (3, 4, 5, 6)]
    for h in zones:
        b.place(b.japanese(), h)
    step8(b.tables, b.arrays, 0)
    assert b.state.terminated[0] and b.state.rewards[0, JAPAN] == 1.0


@pytest.mark.parametrize("scenario,zones", [("hogs_back", "DEFG"), ("holtz_bay_jarmin_pass", "AB")])
def test_attu_15_short_scenarios_set_up_the_us_freely_and_may_wait(scenario, zones):
    """15.1/15.2: "all U.S. ... units set up according to the free setup rules": each landing unit
    is staged in any zone of the scenario or kept back (12.6), and the landing may wait (12.6)."""
    from attu_board import make_core
    from wargym.attu.actions import LZ_0, NO, RESERVE
    from wargym.attu.state import US_STAGING, US_WAIT
    core = make_core(scenario)
    h = core.tables.nbr.shape[0]
    state = core.init(1, 0)
    while state.phase[0] != US_STAGING:  # the Japanese free set-up first
        state = core.step(state, np.array([int(np.argmax(state.legal_action_mask[0]))]))
    m = state.legal_action_mask[0]
    offered = "".join(letter for k, letter in enumerate("ABCDEFGHI") if m[h + LZ_0 + k])
    assert offered == zones and m[h + RESERVE]
    while state.phase[0] == US_STAGING:
        state = core.step(state, np.array([h + LZ_0 + "ABCDEFGHI".index(zones[0])]))
    assert state.phase[0] == US_WAIT and state.legal_action_mask[0, h + NO]


def test_attu_15_3_hidden_japanese_keep_to_their_area_until_it_is_secured():
    """15.3: hidden units defending against one force may go to the other area only once their
    own area is secured."""
    from attu_board import make_core
    from wargym.attu.movement import area_of, move_destinations
    from wargym.attu.scenario import IMPASSABLE
    core = make_core("linkup")
    t = core.tables
    area = np.array([area_of(t, z) for z in t.zone])
    border = [(h, int(n)) for h in range(t.nbr.shape[0]) if t.land[h] and area[h] >= 0
              for d, n in enumerate(t.nbr[h]) if n >= 0 and t.land[n] and area[n] >= 0 and area[n] != area[h]
              and t.cost[JAPAN, h, d] < IMPASSABLE]
    assert border, "the two areas of 15.3 touch"
    h, n = border[0]
    b = Board(core)
    u = b.place(b.japanese(), core.scenario.grid.number(h), face_down=True)
    out = np.zeros(t.nbr.shape[0], dtype=bool)
    move_destinations(b.tables, b.arrays, 0, u, out)
    assert not out[area != area[h]].any()
    b.state.secured[0, area[h]] = True
    move_destinations(b.tables, b.arrays, 0, u, out)
    assert out[n]


def test_attu_bad_scenario_file_names_file_key_value_and_rule(tmp_path, monkeypatch):
    """Bad input: a target hex off the map is refused with the file, the key, the value and the
    rule (15.0), before any state exists."""
    import shutil
    from pathlib import Path

    import wargym.attu.scenario as scenario
    from wargym.data import DataError, config_path

    here = tmp_path / "attu"
    shutil.copytree(Path(config_path("attu", "scenarios.yaml")).parent, here)
    text = (here / "scenarios.yaml").read_text()
    (here / "scenarios.yaml").write_text(text.replace("target_hexes: [2717]", "target_hexes: [9999]", 1))
    monkeypatch.setattr(scenario, "config_path", lambda ruleset, *parts: here.joinpath(*parts))
    with pytest.raises(DataError, match=r"scenarios\.yaml.*hogs_back\.target_hexes.*9999.*15\.0"):
        scenario.load_scenario.__wrapped__("hogs_back")


def test_attu_9_6_unknowns_go_to_land_away_from_us_units_landing_zones_and_cleared_zones(core):
    from wargym.attu.refit import near_us, unknown_spots

    b = Board(core)
    sc = core.scenario
    b.place("1/17 A", 2515)
    unknown = b.japanese("unknown")
    b.place(unknown, 3409, face_down=True)
    b.state.zone_cleared[0, sc.zone[b.hex(1425)]] = True
    spots = unknown_spots(b.tables, b.arrays, 0, unknown, near_us(b.tables, b.arrays, 0))
    beside = [int(n) for n in sc.grid.neighbours[b.hex(2515)] if n >= 0]
    assert not spots[b.hex(2515)] and not any(spots[n] for n in beside)      # not next to a U.S. unit
    assert not spots[sc.near_lz.astype(bool)].any()                          # nor by a landing zone
    assert not spots[sc.zone == sc.zone[b.hex(1425)]].any()                  # nor in a cleared zone
    assert not spots[~sc.land.astype(bool)].any()
    assert spots[b.hex(3409)] and spots.sum() > 100                          # the rest of the island


def test_attu_9_6_japan_chooses_which_of_its_stacked_unknowns_to_move(core):
    """9.6 step 1: "The Japanese player may first move any of his on-map Unknown units".  Two
    Unknowns with different tables share 3409: the first of the sixteen counters (1, 1, 1, 1, 1, 2,
    2, 2, 2, 3) and the last (1, 1, 2, 2, 2, 2, 3, 3, 3, 3; counters.yaml, reconstructed).  Picking
    the hex asks Japan which of them moves (a unit slot, in counter order); the last goes to 3311,
    the first stays, and only it is left to move."""
    from wargym.attu.actions import END, SLOT_0
    from wargym.attu.scenario import UNKNOWN
    from wargym.attu.state import SLOT, UNKNOWN_DEST, UNKNOWN_PICK

    b = Board(core)
    sc = core.scenario
    unknowns = np.flatnonzero((sc.unit_type == UNKNOWN) & sc.unit_in_play)
    first, last = int(unknowns[0]), int(unknowns[-1])
    assert list(sc.unit_table[first]) == [1, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    assert list(sc.unit_table[last]) == [1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    b.place("1/17 A", 2515)
    for u in (first, last):
        b.place(u, 3409, face_down=True)
    b.set(phase=UNKNOWN_PICK, refit=True)
    H = core.tables.nbr.shape[0]

    def step(state, a):
        assert state.legal_action_mask[0, a]
        return core.step(state, np.array([a]))

    state = step(core.refresh(b.state), b.hex(3409))
    assert state.phase[0] == SLOT and state.current_player[0] == JAPAN
    assert np.flatnonzero(state.legal_action_mask[0, H:]).tolist() == [SLOT_0, SLOT_0 + 1]
    state = step(state, H + SLOT_0 + 1)
    assert state.phase[0] == UNKNOWN_DEST and state.selected[0] == last
    state = step(state, b.hex(3311))
    assert state.unit_hex[0, last] == b.hex(3311) and state.unit_hex[0, first] == b.hex(3409)
    assert state.phase[0] == UNKNOWN_PICK
    assert np.flatnonzero(state.legal_action_mask[0, :H]).tolist() == [b.hex(3409)]
    assert state.legal_action_mask[0, H + END]


# ---------------------------------------------------------------------------------- 8.1.4
def artillery_order_mask(core, spotter_hex: int | None, weather: int = 0, spotter_acted: bool = False):
    """U.S. 105mm A in 1510 ordered; a Japanese Infantry in 1515, five hexes off (within its range
    of 8, beyond any Spotting Distance, no LOS from 1510); a U.S. company in ``spotter_hex``."""
    from wargym.attu.sequence import fill_mask
    from wargym.attu.state import ACT_ORDER

    b = Board(core)
    gun = b.place("105mm A", 1510)
    b.place(b.japanese(), 1515)
    if spotter_hex is not None:
        spotter = b.place("1/17 A", spotter_hex)
        b.state.acted[0, spotter] = spotter_acted
    b.set(phase=ACT_ORDER, selected=gun, weather=weather, current_player=US)
    m = np.zeros(b.state.legal_action_mask.shape[1], dtype=bool)
    fill_mask(b.tables, b.arrays, 0, m)
    return b, m[b.hex(1515)]


def test_attu_8_1_4_artillery_fires_without_los_when_a_friendly_unit_calls_it_in(core):
    b, alone = artillery_order_mask(core, None)
    assert core.tables.dist[b.hex(1510), b.hex(1515)] == 5 and not core.tables.sight[b.hex(1510), b.hex(1515)]
    assert not alone                                              # 8.1.1: nothing sees 1515
    assert artillery_order_mask(core, 1514)[1]                    # adjacent: LOS always (8.1.2)
    assert artillery_order_mask(core, 1514, spotter_acted=True)[1]  # "regardless of activation status"


def test_attu_8_1_4_the_caller_needs_spotting_distance_fog_cuts_it_to_one_hex(core):
    b, clear = artillery_order_mask(core, 1513)                   # two hexes off, with LOS
    assert core.tables.dist[b.hex(1513), b.hex(1515)] == 2 and core.tables.sight[b.hex(1513), b.hex(1515)]
    assert clear
    assert not artillery_order_mask(core, 1513, weather=FOG)[1]   # 8.1.3: Fog, Spotting Distance 1
    assert artillery_order_mask(core, 1514, weather=FOG)[1]


# ------------------------------------------------------------------ 8.1.6 friendly fire, 11.3 Yamasaki
def misfiring_japanese_air(core, second_unit: str | None = "infantry") -> Board:
    """Day turn, Japan acting: one Airpower attack on the U.S. unit in 1514, whose die (forced 1,
    no modifier in Cloudy weather by day on a face-up target) is a modified 1: 8.1.6 friendly fire.
    Two face-down Japanese counters in each of 1513 and 1515, both one hex from the target; the
    second in 1515 is an Infantry or an Unknown (a hidden difference); ``None``: no Japanese unit
    on the map."""
    from wargym.attu.state import ACT_SELECT

    b = Board(core)
    b.place("1/17 A", 1514)
    if second_unit is not None:
        b.place(b.japanese(), 1513, face_down=True)
        b.place(b.japanese(skip=1), 1513, face_down=True)
        b.place(b.japanese(skip=2), 1515, face_down=True)
        b.place(b.japanese(second_unit, skip=3 if second_unit == "infantry" else 0), 1515, face_down=True)
    b.set(weather=CLOUDY, night=False, acting=JAPAN, phase=ACT_SELECT, air_n=1, air_i=0)
    b.state.air_target[0, 0] = b.hex(1514)
    b.force([1])
    return b


def test_attu_8_1_6_by_day_the_us_picks_the_friendly_fire_hex_and_japan_allocates_the_hit(core):
    from wargym.attu.ranged import air_run
    from wargym.attu.state import FRIENDLY_FIRE, LOSS

    b = misfiring_japanese_air(core)
    air_run(b.tables, b.arrays, 0)
    assert b.dice_used == 1 and b.state.phase[0] == FRIENDLY_FIRE
    state = core.refresh(b.state)
    assert state.current_player[0] == US                     # 8.1.6: "the U.S. player selects"
    hexes = np.flatnonzero(state.legal_action_mask[0])
    assert hexes.tolist() == sorted([b.hex(1513), b.hex(1515)])  # the nearest friendly units' hexes
    state = core.step(state, np.array([b.hex(1515)]))
    assert state.phase[0] == LOSS and state.loss_side[0] == JAPAN  # the owner allocates (README)
    assert state.current_player[0] == JAPAN


def test_attu_8_1_6_the_us_choice_does_not_depend_on_hidden_types(core):
    """Two positions that differ only in what a face-down counter is (2.5): the U.S. gets the same
    friendly-fire choices and the U.S. rule gives the same answer."""
    from wargym.agents.baselines import get
    from wargym.attu.ranged import air_run

    answers, masks = [], []
    for kind in ("infantry", "unknown"):
        b = misfiring_japanese_air(core, kind)
        air_run(b.tables, b.arrays, 0)
        state = core.refresh(b.state)
        masks.append(state.legal_action_mask[0].copy())
        answers.append(int(get("attu", "us").act(core, state, US)[0]))
    assert np.array_equal(masks[0], masks[1]) and answers[0] == answers[1]


def test_attu_8_1_6_a_misfire_with_no_friendly_unit_on_the_map_is_lost(core):
    """8.1.6 names the nearest friendly unit as the target; with none on the map the hit falls
    nowhere (README), and the game goes on instead of stopping with no legal action."""
    from wargym.attu.ranged import air_run
    from wargym.attu.state import FRIENDLY_FIRE

    b = misfiring_japanese_air(core, None)
    air_run(b.tables, b.arrays, 0)
    assert b.dice_used == 1 and b.state.phase[0] != FRIENDLY_FIRE
    assert b.state.unit_steps[0, b.unit("1/17 A")] == core.scenario.unit_steps[b.unit("1/17 A")]
    assert core.refresh(b.state).legal_action_mask[0].any()


def test_attu_11_3_yamasaki_waits_until_the_japanese_infantry_is_down_to_four_steps(core):
    """11.3: "reduced to four or less steps of Infantry units" counts the Infantry still in the
    cup: with the historical cup full, two Infantry on the map do not make Yamasaki available; with
    every other Infantry eliminated they do."""
    from wargym.attu.scenario import INFANTRY
    from wargym.attu.yamasaki import available, infantry_steps

    b = Board(core)
    a = b.place(b.japanese(), 1513, steps=1)
    c = b.place(b.japanese(skip=1), 1513, steps=1)
    b.set(acting=JAPAN, night=False)
    assert infantry_steps(b.tables, b.arrays, 0) > 4 and not available(b.tables, b.arrays, 0)
    sc = core.scenario
    others = (sc.unit_side == JAPAN) & (sc.unit_type == INFANTRY)
    others[[a, c]] = False
    b.state.unit_loc[0, others] = LOC_ELIM
    b.state.unit_steps[0, others] = 0
    assert infantry_steps(b.tables, b.arrays, 0) == 2 and available(b.tables, b.arrays, 0)


def test_attu_8_5_to_the_us_a_melted_unknown_and_an_eliminated_infantry_look_alike(core):
    """2.5/8.5: two face-down counters in 1513, one taken off by a hit. Whether it was an Unknown
    melting back into the cup or an Infantry eliminated, the U.S. sees one counter gone: its
    observation, board and summary are the same (README)."""
    from wargym.attu.state import LOSS_MELEE_ON_DEFENDER

    infantry, unknown = None, None
    seen = []
    for hit in ("unknown", "infantry"):
        b = Board(core)
        b.place("1/17 A", 1514)
        infantry = b.place(b.japanese(), 1513, face_down=True)
        unknown = b.place(b.japanese("unknown"), 1513, face_down=True)
        hit_unit(b.tables, b.arrays, 0, unknown if hit == "unknown" else infantry, LOSS_MELEE_ON_DEFENDER)
        gone = unknown if hit == "unknown" else infantry
        assert b.state.unit_loc[0, gone] == (LOC_RESERVE if hit == "unknown" else LOC_ELIM)
        assert b.state.jp_removed[0] == 1
        state = core.refresh(b.state)
        obs = core.observe(state, US)
        seen.append((obs, core.render(state, mode="ansi", viewer=US), core.summary(state, 0, viewer=US),
                     core.view(state, US), float(core.score(state)[0, US])))
    (o1, r1, s1, v1, score1), (o2, r2, s2, v2, score2) = seen
    assert all(np.array_equal(o1[k], o2[k]) for k in o1)
    assert "1 counters removed" in r1 and r1 == r2
    assert s1 == s2
    # the U.S. view (what the bot protocol's sessions and player replays send) and the U.S.
    # standing for shaped rewards: one counter off the map, nothing more (0.1 a counter)
    assert all(np.array_equal(a, getattr(v2, k)) for k, a in v1.arrays().items())
    assert score1 == score2 == pytest.approx(0.1)


# ------------------------------------------------------------------ 2.5 who sees a Japanese counter
def japanese_gun_fires(core, gun_hex: int, caller_hex: int | None) -> Board:
    """Day, Cloudy (Spotting Distance 3), Japan acting: a face-down Japanese 75mm gun (range 8,
    reconstructed) in ``gun_hex`` fires at the U.S. unit in 1515 (a Japanese unit in ``caller_hex``
    calling it in, 8.1.4); the dice miss (forced 1s, no modifier reaches 7).  A Japanese unit in
    3311 has yet to act, so the game waits in Japan's actions (Step 9's hiding, 3.9, is not
    reached)."""
    from wargym.attu.state import ACT_ORDER

    b = Board(core)
    b.place("1/17 A", 1515)
    gun = b.place(b.japanese("artillery", skip=4), gun_hex, face_down=True)
    assert core.scenario.unit_names[gun].startswith("jp_75mm")
    b.place(b.japanese(), 3311, face_down=True)
    if caller_hex is not None:
        b.place(b.japanese(skip=1), caller_hex, face_down=True)
    b.set(phase=ACT_ORDER, selected=gun, acting=JAPAN, current_player=JAPAN, weather=CLOUDY)
    b.force([1] * 8)
    b.state = core.step(core.refresh(b.state), np.array([b.hex(1515)]))
    assert b.state.acting[0] == JAPAN and b.state.acted[0, gun]
    return b


def test_attu_2_5_japanese_artillery_firing_in_us_line_of_sight_is_revealed(core):
    """2.5: "Japanese artillery units that engage in Ranged Combat and are not in the line of sight
    of a U.S. unit remain face down": a gun two hexes from the U.S. unit it fires at (1513 to
    1515, in sight and within Spotting Distance 3) is seen firing, and turns face up."""
    assert core.tables.sight[core.scenario.grid.index(1513), core.scenario.grid.index(1515)]
    b = japanese_gun_fires(core, 1513, None)
    gun = np.flatnonzero((core.scenario.unit_type == 5) & (b.state.unit_hex[0] == b.hex(1513)))[0]
    assert b.dice_used == 4 and not b.state.face_down[0, gun]            # the 75mm's four dice


def test_attu_2_5_japanese_artillery_firing_out_of_us_sight_stays_face_down(core):
    """2.5: the gun in 1510 has no line of sight to 1515 (8.1.2) and is five hexes off: a unit in
    1514 calls it in (8.1.4); it fires and stays face down."""
    b = japanese_gun_fires(core, 1510, 1514)
    gun = np.flatnonzero((core.scenario.unit_type == 5) & (b.state.unit_hex[0] == b.hex(1510)))[0]
    assert b.dice_used == 4 and b.state.face_down[0, gun]


def test_attu_2_5_revealed_unit_out_of_us_sight_goes_face_down_at_once(core):
    """2.5: "as soon as a revealed unit is no longer in the Line of Sight of a U.S. unit" it goes
    back face down (always taken, README): two face-up Infantry, one two hexes from the U.S. unit
    (1513, in sight, Cloudy) and one five hexes off out of sight (1510); after the next decision
    only the first is still face up.  In Fog (Spotting Distance 1) the first hides too, and a
    neighbour (1514) stays face up even in a Williwaw (Spotting Distance 0)."""
    from wargym.attu.state import ACT_SELECT

    for weather, expect in ((CLOUDY, {1513: False, 1510: True, 1514: False}),
                            (FOG, {1513: True, 1510: True, 1514: False}),
                            (WILLIWAW, {1513: True, 1510: True, 1514: False})):
        b = Board(core)
        us = b.place("1/17 A", 1515)
        units = {h: b.place(b.japanese(skip=i), h) for i, h in enumerate(expect)}
        b.set(phase=ACT_SELECT, acting=US, current_player=US, weather=weather)
        state = core.step(core.refresh(b.state), np.array([b.hex(1515)]))  # select the U.S. unit
        assert state.selected[0] == us
        assert {h: bool(state.face_down[0, u]) for h, u in units.items()} == expect, weather
