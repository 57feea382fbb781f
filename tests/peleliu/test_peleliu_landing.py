"""U.S. amphibious operations (5.0-5.3): landing checks with forced Landing cards, replayed
through the sequence machine (sequence.progress at the landing-checks stage).

Cards (cards.yaml): 44 = landing blue triangle, drift left (the W1 card of the 5.1 example);
45 = purple circle, drift right (the W2 card); 22 = green circle, drift left.  Landing box dots
(map.yaml, reconstructed; the book fixes blue in W1 and no purple in W2): W1 red (A2), blue (A6),
green (A1); W2 orange (A5), blue (A8), red (A2); O1 red (A3), green (A4), blue (A8).
"""

from __future__ import annotations

import numpy as np
import pytest

from peleliu_board import Board, card
from wargym.peleliu.scenario import COLOURS, SYMBOLS
from wargym.peleliu.sequence import progress
from wargym.peleliu.state import P_AUTO, PILE_TRACK, ST_AOP_CHECK, ST_AOP_LAND, US_BOX
from wargym.peleliu.us import land_mask

W1, W2, O1, O2, O3 = range(5)


def landing_checks(b: Board) -> None:
    """Step 1 of the AOP: every occupied box north to south, until the landing stage."""
    s = b.state
    s.stage[0] = ST_AOP_CHECK
    s.sel[0] = -1
    s.phase[0] = P_AUTO
    for _ in range(20):
        if s.stage[0] != ST_AOP_CHECK or s.phase[0] != P_AUTO:
            break
        progress(b.T, b.S, 0)
    assert s.stage[0] == ST_AOP_LAND and s.phase[0] == P_AUTO


def box_of(b: Board, name: str):
    return (b.loc(name), int(b.state.us_hex[0, b.unit(name)]), b.steps(name))


def test_peleliu_5_1_landing_cards_and_dots_of_the_example():
    """The facts the 5.1 example rests on: card 44 is blue triangle drifting left, card 45 purple
    circle drifting right; a blue position (A6) projects a dot into W1, no purple one into W2;
    K/3/1 is a triangle, F/2/1 a circle, both landing on turn 2 (W1, W2)."""
    sc = Board().sc
    assert (COLOURS[sc.card_land_colour[card(44)]], SYMBOLS[sc.card_land_symbol[card(44)]], sc.card_drift[card(44)]) \
        == ("blue", "triangle", -1)
    assert (COLOURS[sc.card_land_colour[card(45)]], SYMBOLS[sc.card_land_symbol[card(45)]], sc.card_drift[card(45)]) \
        == ("purple", "circle", 1)
    box_colours = {b: {COLOURS[sc.grp_colour[f]] for f in np.nonzero(sc.grp_box[:, b])[0]} for b in range(5)}
    assert "blue" in box_colours[W1] and "purple" not in box_colours[W2] and "green" in box_colours[O1]
    f_a6 = sc.pos_group[sc.pos_id.index("A6")]
    assert sc.grp_box[f_a6, W1] and COLOURS[sc.grp_colour[f_a6]] == "blue"


def example_board() -> Board:
    """Turn 2: the turn-2 waves in W1 (3/1) and W2 (2/1) as the counters list them, the 1/5 wave
    in O1; A6 (blue, W1) and A4 (green, O1) occupied and undisrupted."""
    b = Board(turn=2)
    b.jp(b.pos_hexnum("A6"))
    b.jp(b.pos_hexnum("A4"))
    for name in ("I/3/1", "K/3/1", "L/3/1", "HQ/3/1"):
        b.box(name, "W1")
    for name in ("E/2/1", "F/2/1", "G/2/1", "HQ/2/1"):
        b.box(name, "W2")
    for name in ("A/1/5", "B/1/5", "C/1/5", "HQ/1/5"):
        b.box(name, "O1")
    b.force([44, 45, 22])
    return b


def test_peleliu_5_1_landing_check_white_1():
    """5.1 example, White 1 (card 44, blue triangle, drift left): the blue A6 projects a dot into
    W1 and is occupied by an undisrupted unit, so K/3/1 (the only triangle) loses a step (4 -> 3);
    there is no box to the left of W1, so it drifts the opposite way, to W2.  The other W1 units
    (circle, diamond, HQ) are untouched."""
    b = example_board()
    landing_checks(b)
    assert box_of(b, "K/3/1") == (US_BOX, W2, 3)
    for name, steps in (("I/3/1", 4), ("L/3/1", 4), ("HQ/3/1", 2)):
        assert box_of(b, name) == (US_BOX, W1, steps)


def test_peleliu_5_1_landing_check_white_2():
    """5.1 example, White 2 (card 45, purple circle, drift right): no purple dot in W2 -> no step
    loss; F/2/1 (the only circle) drifts right to O1.  K/3/1 drifted in from W1 and is not
    affected by W2's check (it is a triangle anyway)."""
    b = example_board()
    landing_checks(b)
    assert box_of(b, "F/2/1") == (US_BOX, O1, 4)
    for name, steps in (("E/2/1", 4), ("G/2/1", 4), ("HQ/2/1", 2)):
        assert box_of(b, name) == (US_BOX, W2, steps)


def test_peleliu_5_1_drifted_unit_not_rechecked():
    """5.1: "A unit that drifts is not affected by subsequent landing checks in the box it drifts
    into."  O1 is checked third with card 22 (green circle, drift left) and A4 (green, O1's dot)
    live: the O1 circle B/1/5 loses a step (4 -> 3) and, the only circle that may drift, drifts
    left to W2; F/2/1, a circle that drifted into O1 from W2, keeps its 4 steps and stays in O1.
    Three landing cards were drawn (one per occupied box; O2 and O3 are empty)."""
    b = example_board()
    landing_checks(b)
    assert box_of(b, "B/1/5") == (US_BOX, W2, 3)
    assert box_of(b, "F/2/1") == (US_BOX, O1, 4)
    assert box_of(b, "A/1/5") == (US_BOX, O1, 4) and box_of(b, "C/1/5") == (US_BOX, O1, 4)
    assert b.forced_left == 0 and b.pile(PILE_TRACK) == 3


def test_peleliu_5_11_landing_checks_for_hqs():
    """5.11: HQs have no target symbol: neither step loss nor drift.  W1 holds HQ/3/1 (infantry/HQ)
    and RHQ/1 (regimental HQ) with K/3/1; card 44 (blue triangle, drift left, A6 live) costs K/3/1
    a step and drifts it to W2, the HQs stay in W1 with their steps."""
    b = Board(turn=2)
    b.jp(b.pos_hexnum("A6"))
    b.box("HQ/3/1", "W1")
    b.box("RHQ/1", "W1")
    b.box("K/3/1", "W1")
    b.force([44])
    landing_checks(b)
    assert box_of(b, "HQ/3/1") == (US_BOX, W1, 2) and box_of(b, "RHQ/1") == (US_BOX, W1, 1)
    assert box_of(b, "K/3/1") == (US_BOX, W2, 3)


def test_peleliu_5_1_disrupted_position_no_loss_but_drift():
    """5.1: the step loss needs the position projecting the dot to hold a non-disrupted unit; the
    drift does not.  A6 disrupted: K/3/1 keeps 4 steps but still drifts from W1 to W2."""
    b = Board(turn=2)
    b.jp(b.pos_hexnum("A6"), dis=True)
    b.box("K/3/1", "W1")
    b.force([44])
    landing_checks(b)
    assert box_of(b, "K/3/1") == (US_BOX, W2, 4)


def test_peleliu_5_2_landing_stacking():
    """5.2: no more than two units in a beach hex, counting units already there; regimental HQs do
    not count.  W1's beach hexes 0210, 0211, 0212: two units in 0210, one unit and RHQ/1 in 0211.
    I/3/1 waiting in W1 may land in 0211 or 0212 only; RHQ/5 in W1 may land in any of the three."""
    b = Board(turn=2)
    b.us("E/2/1", 210)
    b.us("F/2/1", 210)
    b.us("G/2/1", 211)
    b.us("RHQ/1", 211)
    u = b.box("I/3/1", "W1")
    q = b.box("RHQ/5", "W1")
    for unit, expected in ((u, {211, 212}), (q, {210, 211, 212})):
        m = np.zeros(b.sc.num_hexes, np.bool_)
        land_mask(b.T, b.S, 0, unit, m)
        assert {b.number(h) for h in np.nonzero(m)[0]} == expected


def test_peleliu_5_2_no_landing_in_a_beach_hex_a_japanese_unit_holds():
    """5.2 with 8.61: a unit in counterattack stance that wins a close combat in a beach hex stays
    there (8.61: "The survivors remain in the hex"); U.S. units enter a Japanese-occupied hex only
    by the 7.4 action, so a landing unit is placed in the box's other beach hexes.  J21 in
    counterattack stance (marker 59) holds 0211 (W1); I/3/1 waiting in W1 may land in 0210 or 0212;
    with 0210 and 0212 full (two units each), there is no room and I/3/1 stays in the box."""
    from wargym.peleliu.state import DM_UNIT
    from wargym.peleliu.us import may_wait
    b = Board(turn=2)
    j = b.jp(211, "J21", rev=True)
    s = b.state
    s.jp_ca[0, j], s.dm_loc[0, 59], s.dm_rev[0, 59] = 59, DM_UNIT, True
    u = b.box("I/3/1", "W1")
    m = np.zeros(b.sc.num_hexes, np.bool_)
    assert land_mask(b.T, b.S, 0, u, m) == 2 and {b.number(h) for h in np.nonzero(m)[0]} == {210, 212}
    for name, h in (("E/2/1", 210), ("F/2/1", 210), ("G/2/1", 212), ("K/3/1", 212)):
        b.us(name, h)
    m[:] = False
    assert land_mask(b.T, b.S, 0, u, m) == 0 and may_wait(b.T, b.S, 0, u)


@pytest.mark.parametrize("name,boxes", [("K/3/1", {"W1"}), ("A/1/1", {"W1", "W2"}), ("E/2/5", {"O1", "O2", "O3"}),
                                        ("Eng/C", {"W1", "W2", "O1", "O2", "O3"})])
def test_peleliu_5_3_placing_units_in_landing_boxes(name, boxes):
    """5.3: a unit goes to the box listed on it; "Or" (any Orange box) / "W" any box of that colour;
    no listing: any box (counters.yaml: K/3/1 W1, A/1/1 W, E/2/5 O, Eng/C none)."""
    from wargym.peleliu.us import box_mask
    from wargym.peleliu.actions import BOX_0
    b = Board(turn=1)
    H = b.sc.num_hexes
    m = np.zeros(b.core.num_actions, np.bool_)
    box_mask(b.T, b.S, 0, b.unit(name), m, H)
    names = ["W1", "W2", "O1", "O2", "O3"]
    assert {names[k] for k in range(5) if m[H + BOX_0 + k]} == boxes


@pytest.mark.parametrize("wait", [True, False])
def test_peleliu_5_2_excess_units_of_your_choice_remain_in_the_box(wait):
    """5.2: "If there is insufficient room in the available beach hexes to place all units, excess
    units of your choice remain in the Beach Landing Box".  W1's beach hexes: 0210 and 0211 full
    (two units each), 0212 empty: room for two; A/1/1, B/1/1, C/1/1 wait in W1.  A/1/1 comes first:
    with three units for two places it may stay (P_LAND offers 0212 and NO); staying, B/1/1 and
    C/1/1 land in 0212 by themselves (no choice left: room for both); landing, B/1/1 is asked the
    same, and once both places are taken C/1/1 waits."""
    from wargym.peleliu.actions import NO
    from wargym.peleliu.sequence import apply, fill_mask
    from wargym.peleliu.state import P_LAND
    b = Board(turn=2)
    for name, h in (("E/2/1", 210), ("F/2/1", 210), ("G/2/1", 211), ("I/3/1", 211)):
        b.us(name, h)
    units = [b.box(name, "W1") for name in ("A/1/1", "B/1/1", "C/1/1")]
    b.state.stage[0] = ST_AOP_LAND
    b.state.sel[0] = -1
    H = b.sc.num_hexes
    while progress(b.T, b.S, 0):
        pass
    assert int(b.state.phase[0]) == P_LAND and int(b.state.sel[0]) == units[0]
    m = np.zeros(b.core.num_actions, np.bool_)
    fill_mask(b.T, b.S, 0, m)
    assert set(np.flatnonzero(m).tolist()) == {b.hex(212), H + NO}
    apply(b.T, b.S, 0, H + NO if wait else b.hex(212))
    for _ in range(20):
        if not progress(b.T, b.S, 0):
            if int(b.state.phase[0]) != P_LAND:
                break
            assert int(b.state.sel[0]) == units[1] and not wait
            apply(b.T, b.S, 0, b.hex(212))
    where = {name: (b.loc(name), b.where(name)) for name in ("A/1/1", "B/1/1", "C/1/1")}
    from wargym.peleliu.state import US_MAP
    if wait:
        assert where["A/1/1"][0] == US_BOX and where["B/1/1"] == where["C/1/1"] == (US_MAP, 212)
    else:
        assert where["A/1/1"] == where["B/1/1"] == (US_MAP, 212) and where["C/1/1"][0] == US_BOX
