"""What the core adds for learning agents, not rules of the book: the shaping score (3.8's paths
in numbers) and the observation's goal-distance plane (5.0's movement costs to the 3.8.1 hexes)."""

from __future__ import annotations

import numpy as np

from attu_board import Board, core  # noqa: F401  (core: the session fixture)
from wargym.attu.observe import GOAL_SCALE, P_GOAL, P_STAGING
from wargym.attu.scenario import JAPAN, LANDING_ZONES, US
from wargym.attu.losses import hit_unit
from wargym.attu.state import LOC_ELIM, LOC_STAGING, LOSS_RANGED
from wargym.attu.victory import eliminate

VICTORY_HEXES = (1425, 2011, 2117, 2717, 3409, 3622)


def goal_plane(board: Board, viewer: int) -> np.ndarray:
    return board.core.observe(board.state, viewer)["spatial"][0, P_GOAL]


def at(board: Board, plane: np.ndarray, hexnum: int) -> float:
    h = board.hex(hexnum)
    return float(plane[board.sc.grid.plane_row[h], board.sc.grid.plane_col[h]])


def test_attu_score_counts_victory_hexes_held_japanese_counters_removed_and_the_casualty_track(core):
    """2 Victory Hexes held + 0.1 x 2 Japanese counters taken off the map (an Infantry eliminated
    and an Unknown melted away look alike to the U.S., 8.5: the score counts what it sees)
    - 0.1 x 5 casualties = 1.7."""
    b = Board(core)
    b.place("1/17 A", 1425)
    b.place("1/17 B", 2011)
    eliminate(b.tables, b.arrays, 0, b.place(b.japanese(), 3311))
    hit_unit(b.tables, b.arrays, 0, b.place(b.japanese("unknown"), 3409, face_down=True), LOSS_RANGED)
    assert b.state.jp_removed[0] == 2
    b.set(casualties=5)
    assert np.allclose(core.score(b.state)[0], [1.7, -1.7])


def test_attu_score_ignores_japanese_held_hexes_and_counters_still_in_play(core):
    b = Board(core)
    b.place(b.japanese(), 1425)
    b.state.unit_loc[0, b.japanese("unknown")] = LOC_ELIM  # no counter taken off the map in play
    assert np.allclose(core.score(b.state)[0], [0.0, 0.0])


def test_attu_goal_plane_is_zero_on_a_victory_hex_the_viewer_does_not_hold(core):
    b = Board(core)
    for viewer in (US, JAPAN):
        plane = goal_plane(b, viewer)
        assert all(at(b, plane, h) == 0.0 for h in VICTORY_HEXES)


def test_attu_goal_plane_next_to_engineer_hill_costs_at_most_the_step_in(core):
    # 5.4's example hexes: 2819 -> 2718 is down-slope; the plane is the cheapest way to any open
    # Victory Hex, so at most the step 2818 -> 2717 and at least one Movement Point
    b = Board(core)
    sc = core.scenario
    plane = goal_plane(b, US)
    for n in (2818, 2716):
        a, t = sc.grid.index(n), sc.grid.index(2717)
        step = sc.move_cost[US, a, sc.grid.direction(a, t)]
        assert 1 / GOAL_SCALE - 1e-6 <= at(b, plane, n) <= step / GOAL_SCALE + 1e-6  # float32 plane


def test_attu_goal_plane_leads_away_from_a_victory_hex_once_held(core):
    b = Board(core)
    b.place("1/17 A", 2717)
    us, japan = goal_plane(b, US), goal_plane(b, JAPAN)
    assert at(b, us, 2717) > 0.0          # held: the U.S. looks to the other five
    assert at(b, japan, 2717) == 0.0      # Japan does not hold it: still a goal
    assert at(b, us, 3409) == 0.0


def test_attu_staging_plane_shows_the_steps_in_each_landing_zone_box(core):
    # 9.2, 12.5: units wait in a landing zone's staging box; the plane puts their steps on its hex
    b = Board(core)
    sc = core.scenario
    for name in ("1/17 A", "1/17 B"):
        u = b.unit(name)
        b.state.unit_loc[0, u] = LOC_STAGING
        b.state.unit_hex[0, u] = 5                           # zone F
        b.state.unit_steps[0, u] = 3
    plane = core.observe(b.state, US)["spatial"][0, P_STAGING]
    h = sc.lz_hex[5]
    assert plane[sc.grid.plane_row[h], sc.grid.plane_col[h]] == np.float32(6 / 20)
    assert plane.sum() == np.float32(6 / 20)


def test_attu_landing_zone_actions_stand_for_their_hexes(core):
    from wargym.attu.actions import LZ_0

    hexes = core.special_hexes()
    assert hexes[LZ_0 + 5] == core.scenario.lz_hex[5] >= 0      # zone F
    assert (hexes[:LZ_0] == -1).all() and (hexes[LZ_0 + LANDING_ZONES:] == -1).all()
