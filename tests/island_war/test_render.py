"""Rendering of an Island War board: the text board ("ansi") and the map image ("rgb_array")."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.agents import RandomAgent
from wargym.island_war.core import IslandWarCore
from wargym.island_war.render import render_ansi, render_rgb, unit_short, unit_values
from wargym.island_war.scenario import ARTILLERY, JAPAN


@pytest.fixture(scope="module")
def core():
    return IslandWarCore("saipan", decisions="major")


@pytest.fixture(scope="module")
def start(core):
    return core.init(1, seed=0)


@pytest.fixture(scope="module")
def in_combat(core, start):
    """A game in the middle of declaring an attack (random play until one is being built)."""
    agents = [RandomAgent(1), RandomAgent(2)]
    state = start
    for _ in range(3000):
        if state.cb_attacker[0].any() and state.cb_defender[0].any():
            return state
        p = int(state.current_player[0])
        state = core.step(state, agents[p].act(core, state, p))
    pytest.fail("no attack declared in 3000 random decisions")


def moved_unit(core, state):
    """A copy of ``state`` with one Japanese counter moved to an empty land hex."""
    sc = core.scenario
    u = int(np.nonzero((sc.unit_side == JAPAN) & (state.unit_status[0] == 1))[0][0])
    occupied = set(state.unit_hex[0][state.unit_status[0] == 1].tolist())
    free = next(h for h in range(sc.num_hexes) if sc.hex_move_cost[h] > 0 and h not in occupied)
    hexes = state.unit_hex.copy()
    hexes[0, u] = free
    return dataclasses.replace(state, unit_hex=hexes), u, free


def test_ansi_shows_hex_numbers_terrain_and_counters(core, start):
    text = core.render(start, 0, "ansi")
    sc = core.scenario
    assert text == render_ansi(core, start, 0, None)
    assert "0621C*" in text                     # Aslito Airfield: clear, an objective
    assert "1404M" in text                      # Mount Marpi
    for u in np.nonzero(start.unit_status[0] == 1)[0]:
        assert unit_short(sc, int(u)) in text   # e.g. J4-5 for the 4-5-3 infantry
    assert "J4-5" in text and "J4/3" in text    # infantry attack-defense, artillery barrage/FPF
    assert "Game-Turn 1 of 12" in text and "Ground Support Points left: US 12, Japan 2" in text
    assert "Terrain:" in text and "objectives:" in text
    assert max(len(line) for line in text.splitlines()) <= 160


def test_ansi_status_shows_the_attack_being_declared(core, in_combat):
    text = core.render(in_combat, 0, "ansi")
    assert "attacker " in text and "defender " in text and "differential" in text
    board = text.split("\n\n")[0]
    assert any(cell.endswith("A") for cell in board.split()), "attacking counters are marked A"
    assert any(cell.endswith("D") for cell in board.split()), "defending counters are marked D"


def test_counter_values_follow_the_unit_type(core):
    sc = core.scenario
    art = int(np.nonzero(sc.unit_type == ARTILLERY)[0][0])
    inf = 0
    assert unit_values(sc, inf) == f"{sc.unit_attack[inf]}-{sc.unit_defense[inf]}-{sc.unit_move[inf]}"
    assert unit_values(sc, art) == f"{sc.unit_barrage[art]}/{sc.unit_fpf[art]}/{sc.unit_range[art]}"


def test_rgb_is_an_image_and_deterministic(core, start):
    img = core.render(start, 0, "rgb_array")
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[0] > 600 and img.shape[1] > 600
    again = render_rgb(core, start.copy(), 0, None)
    assert img.tobytes() == again.tobytes()
    packed = (img[..., 0].astype(np.int32) << 16) | (img[..., 1].astype(np.int32) << 8) | img[..., 2]
    assert len(np.unique(packed)) > 50  # a map, not a blank sheet


def test_rgb_and_ansi_change_when_a_unit_moves(core, start):
    moved, u, free = moved_unit(core, start)
    assert not np.array_equal(core.render(start, 0, "rgb_array"), core.render(moved, 0, "rgb_array"))
    assert core.render(start, 0, "ansi") != core.render(moved, 0, "ansi")


def test_rgb_highlights_the_attack(core, in_combat):
    plain = dataclasses.replace(in_combat, cb_attacker=np.zeros_like(in_combat.cb_attacker),
                                cb_defender=np.zeros_like(in_combat.cb_defender))
    assert not np.array_equal(core.render(in_combat, 0, "rgb_array"), core.render(plain, 0, "rgb_array"))


def test_viewer_keeps_the_board(core, start):
    # no hidden units in Island War: a viewer changes the title only
    full, us_view = core.render(start, 0, "rgb_array"), core.render(start, 0, "rgb_array", viewer=0)
    assert full.shape == us_view.shape
    assert np.array_equal(full[100:], us_view[100:])
    assert "viewed by US" in core.render(start, 0, "ansi", viewer=0)


def test_render_picks_the_game_of_a_batch(core):
    batch = core.init(3, seed=5)
    moved, _, _ = moved_unit(core, batch.take([1]))
    state = dataclasses.replace(batch, unit_hex=np.concatenate([batch.unit_hex[:1], moved.unit_hex,
                                                                 batch.unit_hex[2:]]))
    assert np.array_equal(core.render(state, 0, "rgb_array"), core.render(state, 2, "rgb_array"))
    assert not np.array_equal(core.render(state, 0, "rgb_array"), core.render(state, 1, "rgb_array"))


def test_other_scenario_renders():
    core = IslandWarCore("bloody_ridge", decisions="major")
    state = core.init(1, seed=0)
    assert "0805C*" in core.render(state, 0, "ansi")  # Henderson Field
    img = core.render(state, 0, "rgb_array")
    assert img.dtype == np.uint8 and img.shape[2] == 3


def test_unknown_mode_is_refused(core, start):
    with pytest.raises(ValueError, match="render mode"):
        core.render(start, 0, "human")
