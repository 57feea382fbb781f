"""The observation's pointer from each unit's actions to the map (observe.UNIT_PLANE): a unit's
block ends with the hex it stands on, as (plane position + 1) / planes (hex XXYY is plane row YY-1,
column XX-1), 0 off the map; PeleliuCore.special_hex_inputs names that entry for the unit's action
UNIT_0 + u, so that a hex-pointer policy scores the action where the unit is (agents/policy.py)."""

from __future__ import annotations

import numpy as np

from peleliu_board import Board, make_core
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


def test_peleliu_observation_objective_planes_measure_hexes_to_the_positions_not_held():
    """Planes 64-66 (observe.py): hexes to the nearest position held by a Japanese counter or by
    nobody (a U.S. unit or a garrison holds it, 14.4), the same over the beach-firing positions
    (15.2 goal 1), and the live fire on a hex (6.3: intense 3, steady 1; a disrupted unit's
    position does not fire, 6.2), all from what the U.S. player sees."""
    b = Board(turn=3)
    sc, s = b.sc, b.state
    s.garrison[0] = True
    s.garrison[0, b.pos("A7")] = False           # A7, 0513: not a beach-firing position, held by nobody

    def plane(k, hexnum):
        h = b.hex(hexnum)
        return float(b.core.observe(s, 0)["spatial"][0, k, sc.grid.plane_row[h], sc.grid.plane_col[h]])

    assert plane(64, 513) == 0.0
    assert plane(64, 514) == np.float32(1 / 20)   # 0514 is 0513's neighbour
    assert plane(65, 513) == 1.0                  # no beach-firing position is an objective
    j = b.jp(314)                                 # a face-down unit on A5 (0314): held by the Japanese
    assert plane(65, 314) == 0.0 and plane(65, 315) == np.float32(1 / 20) and plane(64, 314) == 0.0
    assert plane(66, 214) == np.float32(0.3)      # 0214: A5's intense dot alone (positions.yaml)
    b.us(sc.us_names[0], 513)                     # A7 held by a U.S. unit: no longer an objective
    assert plane(64, 513) == np.float32(b.dist(513, 314) / 20)
    s.jp_dis[0, j] = True                         # 6.2: a disrupted unit's position does not fire
    assert plane(66, 214) == 0.0


def test_peleliu_observation_advice_is_the_rule_baselines_choice():
    """The core's ``advice`` option (not a rule: observe.py) marks, at every decision, what the U.S.
    rule baseline would choose: its hex on plane 67, its unit in the unit's block, or its other
    special (END, YES, NO, an order, RESOLVE, a marker, a landing box) in the global vector; without
    the option those entries stay zero and the rest of the observation is the same."""
    from wargym.agents.peleliu_rule import PeleliuRuleAgent
    from wargym.peleliu.observe import ADVICE_AT, ADVICE_PLANE, ADVICE_UNIT

    advised, plain = make_core(advice=True), make_core()
    rule = PeleliuRuleAgent()
    state = advised.init(batch_size=4, seed=3)
    H, NU = advised.scenario.num_hexes, len(advised.scenario.us_names)
    kinds = set()
    for _ in range(150):
        with_advice, without = advised.observe(state, 0), plain.observe(state, 0)
        chosen = rule.act(advised, state, 0)
        for g in range(4):
            spatial, glob = with_advice["spatial"][g], with_advice["global"][g]
            units = glob[N_SCALARS:].reshape(NU, N_UNIT)[:, ADVICE_UNIT]
            specials = glob[ADVICE_AT:N_SCALARS]
            a = int(chosen[g])
            if a < H:
                kinds.add("hex")
                h = a
                assert spatial[ADVICE_PLANE, advised.scenario.grid.plane_row[h], advised.scenario.grid.plane_col[h]] == 1
            elif a - H < act.END:
                kinds.add("unit")
                assert units[a - H - act.UNIT_0] == 1
            else:
                kinds.add("special")
                assert specials[a - H - act.END] == 1
            assert spatial[ADVICE_PLANE].sum() + units.sum() + specials.sum() == 1
        assert not without["spatial"][:, ADVICE_PLANE].any() and not without["global"][:, ADVICE_AT:N_SCALARS].any()
        plain_units = without["global"][:, N_SCALARS:].reshape(4, NU, N_UNIT)
        assert not plain_units[:, :, ADVICE_UNIT].any()
        keep = np.ones(with_advice["global"].shape[1], np.bool_)
        keep[ADVICE_AT:N_SCALARS] = False
        keep[N_SCALARS + ADVICE_UNIT::N_UNIT] = False
        assert np.array_equal(with_advice["global"][:, keep], without["global"][:, keep])
        assert np.array_equal(np.delete(with_advice["spatial"], ADVICE_PLANE, 1),
                              np.delete(without["spatial"], ADVICE_PLANE, 1))
        state = advised.step(state, chosen)
    assert kinds == {"hex", "unit", "special"}


def test_peleliu_observation_bnr_numbers_end_where_the_advice_begins():
    """The global vector's layout (observe.py module docstring): Bloody Nose Ridge's eight numbers
    (Rupertus, the flamethrower, the two bonuses, the turn kind one-hot of four) lie just before
    ADVICE_AT, so the turn kind's one-hot is the last four entries before it and, without the
    advice option, nothing from ADVICE_AT to the unit blocks is set."""
    from wargym.peleliu.observe import ADVICE_AT

    core = make_core("bnr")
    glob = core.observe(core.init(batch_size=3, seed=1), 0)["global"]
    assert np.array_equal(glob[:, ADVICE_AT - 4:ADVICE_AT].sum(axis=1), [1, 1, 1])
    assert not glob[:, ADVICE_AT:N_SCALARS].any()
