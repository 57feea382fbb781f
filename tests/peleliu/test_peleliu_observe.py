"""The observation's pointer from each unit's actions to the map (observe.UNIT_PLANE): a unit's
block ends with the hex it stands on, as (plane position + 1) / planes (hex XXYY is plane row YY-1,
column XX-1), 0 off the map; PeleliuCore.special_hex_inputs names that entry for the unit's action
UNIT_0 + u, so that a hex-pointer policy scores the action where the unit is (agents/policy.py)."""

from __future__ import annotations

import numpy as np

from peleliu_board import Board
from wargym.peleliu import actions as act
from wargym.peleliu.observe import N_SCALARS, N_UNIT, UNIT_PLANE


def test_peleliu_observation_points_each_unit_action_at_the_units_hex():
    b = Board(turn=3)
    first, second = b.sc.us_names[0], b.sc.us_names[1]
    b.us(first, 314)              # A5's hex, 0314: plane row 13, column 2
    b.box(second, "O1")           # in landing box O1: not on the map
    glob = b.core.observe(b.state, 0)["global"][0]
    rows, cols = b.sc.grid.rows, b.sc.grid.columns
    u, v = b.unit(first), b.unit(second)
    assert glob[N_SCALARS + u * N_UNIT + UNIT_PLANE] == np.float32((13 * cols + 2 + 1) / (rows * cols))
    assert glob[N_SCALARS + v * N_UNIT + UNIT_PLANE] == 0.0
    inputs = b.core.special_hex_inputs()
    assert inputs.shape == (act.NUM_SPECIALS,)
    assert inputs[act.UNIT_0 + u] == N_SCALARS + u * N_UNIT + UNIT_PLANE
    units = len(b.sc.us_names)
    assert (inputs[act.UNIT_0:act.UNIT_0 + units] >= 0).all()
    assert (np.delete(inputs, np.arange(act.UNIT_0, act.UNIT_0 + units)) == -1).all()  # END, NO, YES, boxes ...
