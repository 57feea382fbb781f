"""Rendering of an Attu board: the text board ("ansi"), the map image ("rgb_array") and 2.5 fog of war.

The first ``init`` of a process loads (or compiles) the numba kernels, so every scenario's core and
start state are made once per module (``started``).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.attu.core import AttuCore
from wargym.attu.render import board_lines, pieces, render_ansi, render_rgb, text_cell
from wargym.attu.scenario import INFANTRY, JAPAN, UNKNOWN, US, list_scenarios
from wargym.attu.state import LOC_MAP, LOC_OUT, LOC_RESERVE, PHASE_NAMES

_STARTED: dict[tuple[str, bool], tuple[AttuCore, object]] = {}


def started(name: str = "campaign", vp_chits: bool = False):
    """(core, state at init) of a scenario, made once per module."""
    key = (name, vp_chits)
    if key not in _STARTED:
        core = AttuCore(name, vp_chits=vp_chits)
        _STARTED[key] = (core, core.init(1, seed=0))
    return _STARTED[key]


def both(core, state, viewer):
    return render_ansi(core, state, 0, viewer), render_rgb(core, state, 0, viewer)


def assert_same_for_us_but_not_for_all(core, state, changed):
    """2.5: the U.S. view is byte-identical, the full board shows the change."""
    us_a, us_b = both(core, state, US), both(core, changed, US)
    assert us_a[0] == us_b[0]
    assert us_a[1].tobytes() == us_b[1].tobytes()
    full_a, full_b = both(core, state, None), both(core, changed, None)
    assert full_a[0] != full_b[0] or full_a[1].tobytes() != full_b[1].tobytes()


def face_down_on_map(core, state):
    sc = core.scenario
    return [int(u) for u in np.nonzero((state.unit_loc[0] == LOC_MAP) & state.face_down[0]
                                       & (sc.unit_side == JAPAN))[0]]


def replace(state, **arrays):
    return dataclasses.replace(state, **arrays)


# ----------------------------------------------------------------------------------- text board
def test_ansi_shows_date_phase_legend_and_status():
    core, state = started()
    text = render_ansi(core, state, 0, None)
    assert text == core.render(state, 0, "ansi")
    assert f"Turn {int(state.turn[0])}: May {10 + int(state.turn[0])}" in text
    assert f"phase: {PHASE_NAMES[int(state.phase[0])]}" in text
    for words in ("Casualty Track:", "Airpower: US", "Victory Hexes:", "Zones cleared:", "heroes used:",
                  "to decide:", "Map: 0-4 terrain level", "Counters: U US / J Japan"):
        assert words in text
    assert max(len(line) for line in text.splitlines()) <= 200


def us_unit_beside_face_down(core, state):
    """A copy of ``state`` with the first U.S. company on an empty land hex next to a face-down stack
    (at the campaign's start the U.S. is still staging): (state, unit, its hex, the Japanese hex)."""
    sc = core.scenario
    occupied = set(state.unit_hex[0][state.unit_loc[0] == LOC_MAP].tolist())
    for j in face_down_on_map(core, state):
        h = int(state.unit_hex[0, j])
        free = [int(n) for n in sc.grid.neighbours[h] if n >= 0 and sc.land[n] and int(n) not in occupied]
        if free:
            break
    u = int(np.nonzero(sc.unit_side == US)[0][0])
    loc, hexes = state.unit_loc.copy(), state.unit_hex.copy()
    loc[0, u], hexes[0, u] = LOC_MAP, free[0]
    return replace(state, unit_loc=loc, unit_hex=hexes), u, free[0], h


def test_ansi_board_offsets_odd_columns_and_marks_victory_hexes_and_landing_zones():
    core, state = started()
    sc = core.scenario
    grid = sc.grid
    state, u, h_us, h_jp = us_unit_beside_face_down(core, state)
    board = board_lines(core, state, 0, US)[1:]
    text = render_ansi(core, state, 0, US)
    assert all(line in text for line in board if line[3:].replace("~", "").strip())

    def cell(h, line=0):
        y, x = text_cell(sc, h)
        return board[y + line][x:x + 4]

    h2717, h2617, h2618 = grid.index(2717), grid.index(2617), grid.index(2618)
    # 8.2: 2717 (an odd column) sits half a hex lower, between 2617 and 2618
    assert text_cell(sc, h2617)[0] < text_cell(sc, h2717)[0] < text_cell(sc, h2618)[0]
    for h in sc.victory_hex:
        assert cell(int(h)).startswith(f"{int(sc.level[h])}*")
    for k, h in enumerate(sc.lz_hex):
        if h >= 0:
            assert cell(int(h))[2] == "ABCDEFGHI"[k]
    sea = next(h for h in range(grid.size) if grid.plane_row[h] == 12 and not sc.land[h])
    assert cell(sea).startswith("~~~")
    stacks = pieces(core, state, 0, US)
    assert cell(h_jp, 1).startswith(f"J{len(stacks[h_jp])}?")
    assert cell(h_us, 1).startswith("U1i")


def test_ansi_and_rgb_mark_the_selected_unit_and_the_melee_target():
    core, state = started()
    sc = core.scenario
    state, u, h_us, h_jp = us_unit_beside_face_down(core, state)
    sel, target = state.selected.copy(), state.melee_target.copy()
    sel[0], target[0, u] = u, h_jp
    changed = replace(state, selected=sel, melee_target=target)
    text = render_ansi(core, changed, 0, US)
    assert f"selected: US {sc.unit_names[u]} in {sc.grid.label(h_us)}" in text
    board = board_lines(core, changed, 0, US)[1:]
    for h, mark in ((h_us, "@"), (h_jp, "!")):
        y, x = text_cell(sc, h)
        assert board[y + 1][x + 3] == mark
    assert render_rgb(core, changed, 0, US).tobytes() != render_rgb(core, state, 0, US).tobytes()


# ----------------------------------------------------------------------------------------- image
def test_rgb_is_an_image_of_reasonable_size_and_deterministic():
    core, state = started()
    image = render_rgb(core, state, 0, None)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert 600 <= image.shape[0] <= 2000 and 800 <= image.shape[1] <= 2000
    assert image.std() > 20
    assert render_rgb(core, state, 0, None).tobytes() == image.tobytes()
    assert core.render(state, 0, "rgb_array").tobytes() == image.tobytes()
    assert render_rgb(core, state, 0, US).shape == image.shape


# ------------------------------------------------------------------------------- 2.5 fog of war
def test_2_5_swapping_face_down_units_is_invisible_to_the_us():
    core, state = started()
    sc = core.scenario
    hidden = face_down_on_map(core, state)
    assert len(hidden) >= 2
    a = next(u for u in hidden if sc.unit_type[u] == UNKNOWN)
    b = next(u for u in hidden if sc.unit_type[u] != UNKNOWN and state.unit_hex[0, u] != state.unit_hex[0, a])
    hexes = state.unit_hex.copy()
    hexes[0, a], hexes[0, b] = hexes[0, b], hexes[0, a]
    assert_same_for_us_but_not_for_all(core, state, replace(state, unit_hex=hexes))


def test_2_5_face_down_unknown_looks_like_face_down_infantry():
    core, state = started()
    sc = core.scenario
    unknown = next(u for u in face_down_on_map(core, state) if sc.unit_type[u] == UNKNOWN)
    inf = int(np.nonzero((state.unit_loc[0] == LOC_RESERVE) & (sc.unit_type == INFANTRY)
                         & (sc.unit_side == JAPAN))[0][0])
    loc, hexes, down, steps = (state.unit_loc.copy(), state.unit_hex.copy(), state.face_down.copy(),
                               state.unit_steps.copy())
    loc[0, inf], hexes[0, inf], down[0, inf], steps[0, inf] = LOC_MAP, hexes[0, unknown], True, 1
    loc[0, unknown], hexes[0, unknown], down[0, unknown] = LOC_RESERVE, -1, False
    changed = replace(state, unit_loc=loc, unit_hex=hexes, face_down=down, unit_steps=steps)
    assert_same_for_us_but_not_for_all(core, state, changed)


def test_2_5_japanese_pool_is_invisible_to_the_us():
    core, state = started()
    sc = core.scenario
    inf = int(np.nonzero((state.unit_loc[0] == LOC_RESERVE) & (sc.unit_side == JAPAN))[0][0])
    loc = state.unit_loc.copy()
    loc[0, inf] = LOC_OUT
    assert_same_for_us_but_not_for_all(core, state, replace(state, unit_loc=loc))


def test_12_1_komandorski_chits_hidden_from_the_us_until_revealed():
    core, state = started()
    assert state.ke_revealed[0] == 0
    effect, delay = state.ke_effect.copy(), state.ke_delay.copy()
    effect[0] = 30 if effect[0] != 30 else 24
    delay[0] = 1 if delay[0] != 1 else 4
    assert_same_for_us_but_not_for_all(core, state, replace(state, ke_effect=effect, ke_delay=delay))
    assert f"Komandorski Effect: May {int(state.ke_effect[0])}" in render_ansi(core, state, 0, JAPAN)
    revealed = replace(state, ke_revealed=np.ones_like(state.ke_revealed))
    assert f"Komandorski Effect: May {int(state.ke_effect[0])}; delay chit hidden" in \
        render_ansi(core, revealed, 0, US)


def test_14_victory_point_chits_hidden_from_the_us():
    core, state = started(vp_chits=True)
    value, cancel = state.vp_value.copy(), state.vp_cancel.copy()
    value[0] = np.where(value[0] >= 0, 4 - np.maximum(value[0], 1), value[0])
    cancel[0] = np.where(cancel[0] == -1, 0, -1)
    changed = replace(state, vp_value=value, vp_cancel=cancel)
    assert_same_for_us_but_not_for_all(core, state, changed)
    assert "Victory point chits" in render_ansi(core, state, 0, JAPAN)
    assert "Victory point chits" not in render_ansi(core, state, 0, US)


def test_2_5_selected_face_down_unit_is_not_named_to_the_us():
    core, state = started()
    sc = core.scenario
    u = face_down_on_map(core, state)[0]
    sel = state.selected.copy()
    sel[0] = u
    text = render_ansi(core, replace(state, selected=sel), 0, US)
    assert f"selected: a face-down Japanese unit in {sc.grid.label(int(state.unit_hex[0, u]))}" in text
    assert sc.unit_names[u] not in text
    assert sc.unit_names[u] in render_ansi(core, replace(state, selected=sel), 0, JAPAN)


# ------------------------------------------------------------------------------ every scenario
@pytest.mark.parametrize("name", list_scenarios())
def test_every_scenario_renders_at_init(name):
    core, state = started(name)
    for viewer in (None, US, JAPAN):
        text = render_ansi(core, state, 0, viewer)
        assert "May 11" in text and PHASE_NAMES[int(state.phase[0])] in text
        assert max(len(line) for line in text.splitlines()) <= 200
        image = render_rgb(core, state, 0, viewer)
        assert image.dtype == np.uint8 and image.shape[2] == 3 and image.shape[1] <= 2000
