"""Rendering of a Peleliu board: the text board ("ansi"), the map image ("rgb_array") and the U.S.
player's fog of war (a face-down Japanese unit is only '?').

The first ``init`` of a process loads (or compiles) the numba kernels, so the core and the games are
made once per module.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from wargym.hidden import perturb
from wargym.peleliu.core import PeleliuCore
from wargym.peleliu.render import render_ansi, render_rgb
from wargym.peleliu.state import JP_MAP, US_BOX, US_MAP

US = 0


@pytest.fixture(scope="module")
def game():
    """(core, the fresh sept15 game, the same game a few decisions on: units landed on the beach)."""
    core = PeleliuCore("sept15", decisions="major")
    state = core.init(1, seed=0)
    later = state
    for _ in range(4):
        later = core.step(later, np.array([int(np.flatnonzero(later.legal_action_mask[0])[0])]))
    return core, state, later


def landed(state) -> np.ndarray:
    return np.flatnonzero((state.us_loc[0] == US_MAP) | (state.us_loc[0] == US_BOX))


def hidden_on_map(state) -> np.ndarray:
    return np.flatnonzero((state.jp_loc[0] == JP_MAP) & ~state.jp_rev[0])


def test_ansi_of_a_fresh_game_names_the_scenario_turn_and_landed_units(game):
    core, state, later = game
    sc = core.scenario
    text = render_ansi(core, state, 0, None)
    assert text == core.render(state, 0, "ansi")
    assert "sept15" in text and "Turn 2 " in text
    assert len(landed(state)) > 0
    for u in landed(state):
        assert sc.us_names[u] in text
    for line in ("Landing boxes:", "Turn track:", "Fire card", "Infantry Loss Box"):
        assert line in text
    assert max(len(line) for line in text.splitlines()) < 120
    on_map = np.flatnonzero(later.us_loc[0] == US_MAP)
    assert len(on_map) > 0
    text = render_ansi(core, later, 0, US)
    for u in on_map:  # a landed unit is listed under its hex
        assert f"  {sc.grid.label(int(later.us_hex[0, u]))} " in text and sc.us_names[u] in text


def test_rgb_is_an_image_of_reasonable_size(game):
    core, state, later = game
    image = render_rgb(core, state, 0, None)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    h, w, _ = image.shape
    assert h > 200 and w > 200
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 1
    assert np.array_equal(image, core.render(state, 0, "rgb_array"))
    viewed = render_rgb(core, later, 0, US)
    assert viewed.shape == image.shape  # the same size whatever the state and the viewer
    assert not np.array_equal(viewed, render_rgb(core, state, 0, US))


def test_us_view_never_names_a_face_down_japanese_unit(game):
    core, state, later = game
    sc = core.scenario
    for s in (state, later):
        hidden = hidden_on_map(s)
        assert len(hidden) > 0
        full, us = render_ansi(core, s, 0, None), render_ansi(core, s, 0, US)
        for j in hidden:
            assert sc.jp_names[j] in full  # the whole truth names it ...
            assert sc.jp_names[j] not in us  # ... the U.S. sees only '?'
            label = sc.grid.label(int(s.jp_hex[0, j]))
            line = next(x for x in us.splitlines() if x.startswith(f"  {label} "))
            assert "?" in line and " str " not in line
    # revealing a unit shows its name and strength to the U.S.
    j = int(hidden_on_map(state)[0])
    rev = state.jp_rev.copy()
    rev[0, j] = True
    shown = render_ansi(core, dataclasses.replace(state, jp_rev=rev), 0, US)
    assert f"{sc.jp_names[j]} str {int(sc.jp_strength[j])}" in shown


def test_us_view_is_the_same_whatever_is_hidden(game):
    """Shuffling the face-down units, the hidden markers and the deck changes nothing the U.S. is shown."""
    core, state, later = game
    rng = np.random.default_rng(0)
    other = perturb(core, later, US, rng)
    assert not np.array_equal(other.jp_hex, later.jp_hex) or not np.array_equal(other.card_pos, later.card_pos)
    assert render_ansi(core, other, 0, US) == render_ansi(core, later, 0, US)
    assert render_rgb(core, other, 0, US).tobytes() == render_rgb(core, later, 0, US).tobytes()
