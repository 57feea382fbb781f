"""Control and communication (11.0-11.31), and the secured positions they feed (15.2), checked on
the engine's tracers (board.us_control, board.jp_communication, board.us_communication,
victory.secured).

The book's communication examples (groups 1-5) sit on a map section the book does not print in
full; each test builds the same geometry on the reconstructed map (map.yaml, positions.yaml) and
asserts the map facts it rests on.  Walls are one-step U.S. infantry units: a one-step unit
controls only its own hex (11.1), so each blocks exactly one hex.
"""

from __future__ import annotations

import numpy as np
import pytest

from peleliu_board import Board
from wargym.peleliu.board import us_communication, us_control
from wargym.peleliu.victory import secured


def control(b: Board) -> set[int]:
    out = np.zeros(b.sc.num_hexes, np.bool_)
    us_control(b.T, b.S, 0, b.occ(), False, out)
    return {b.number(h) for h in np.nonzero(out)[0]}


def us_comm(b: Board) -> set[int]:
    out = np.zeros(b.sc.num_hexes, np.bool_)
    us_communication(b.T, b.S, 0, out)
    return {b.number(h) for h in np.nonzero(out)[0]}


# ------------------------------------------------------------------------------------------ 11.1
@pytest.mark.parametrize("name,steps,extra,wide", [
    ("B/1/5", 3, None, True),          # infantry with three or four steps
    ("B/1/5", 4, None, True),
    ("B/1/5", 1, None, False),         # infantry with one or two steps: its hex only
    ("B/1/5", 2, None, False),
    ("B/1/5", 2, ("C/1/5", 1), True),  # two infantry stacked with three or more steps
    ("B/1/5", 1, ("HQ/1/5", 2), True),  # infantry + infantry/HQ, 3 steps
    ("B/1/5", 1, ("HQ/1/5", 1), False),  # 2 steps stacked
    ("B/1/5", 2, ("RHQ/5", 1), False),  # a regimental HQ is not one of the stacking types
    ("Tk/A", 1, None, True),           # tanks of any step level
    ("Art/1/11", 1, None, False),      # artillery: its hex
    ("Eng/A", 2, None, False),         # engineers: their hex
])
def test_peleliu_11_1_control(name, steps, extra, wide):
    """11.1: the hexes a U.S. unit (or stack) in clear 0415 controls: its own hex, plus the six
    around it for 3-4 step infantry, tanks, or two infantry / infantry-HQ / engineer units stacked
    with three or more steps - even when disrupted."""
    b = Board()
    b.us(name, 415, steps=steps, dis=1)
    if extra:
        b.us(extra[0], 415, steps=extra[1])
    expected = {415} | (b.neighbours(415) if wide else set())
    assert control(b) == expected


def test_peleliu_11_11_units_in_close_combat_control_nothing():
    """11.11: a U.S. unit sharing its hex with a Japanese unit exerts no control."""
    b = Board()
    b.us("B/1/5", 216)
    b.jp(216, rev=True)
    assert control(b) == set()


# ------------------------------------------------------------------------------------------ 11.2
def test_peleliu_11_2_group_1_surrounded_unit_out_of_communication():
    """Group 1: every hex around the unit is occupied or controlled by U.S. units.  B5 (0616): B/1/5
    (4 steps) in 0615 and K/3/5 (4) in 0717 control every neighbour of 0616 but 0517, which L/3/7 (4)
    in 0518 controls.  B19, B15 and B1 are occupied and reach one another, so B5 has two other
    positions to reach - but no path.  Without L/3/7, B5 traces out through 0517."""
    b = Board()
    assert b.neighbours(616) <= {615, 717, 517} | b.neighbours(615) | b.neighbours(717)
    assert 517 in b.neighbours(518)
    for pid in ("B5", "B19", "B15", "B1"):
        b.jp(b.pos_hexnum(pid))
    b.us("B/1/5", 615)
    b.us("K/3/5", 717)
    u = b.us("L/3/7", 518)
    assert b.neighbours(616) <= control(b)
    comm = b.comm()
    assert not comm["B5"] and comm["B19"] and comm["B15"] and comm["B1"]
    b.state.us_loc[0, u] = 0
    assert b.comm()["B5"]


@pytest.mark.parametrize("steps,turn,in_comm", [(1, 10, True), (3, 10, False), (3, 13, True)])
def test_peleliu_11_2_group_2_one_step_unit_controls_only_its_hex(steps, turn, in_comm):
    """Group 2, on the book's own hexes: the U.S. infantry unit in 0411.  Japanese units in A2
    (0312), A7 (0513) and B12 (0613); A2's other land neighbours 0311 and 0313 hold one-step U.S.
    units (0211, 0212 are landing beach hexes), so A2 reaches the others only through 0412.  With a
    one-step unit in 0411 (it controls only 0411) all three trace to two other positions: in
    communication.  With three steps the unit controls 0412 and all three are cut off (A2 reaches
    nobody, A7 and B12 only each other) - except at night (turn 13), when U.S. units control only
    their own hexes for Japanese communication (16.0 III)."""
    b = Board(turn=turn)
    assert b.neighbours(312) == {311, 411, 412, 313, 212, 211} and 412 in b.neighbours(411)
    assert 513 in b.neighbours(412) and 613 in b.neighbours(513)
    for h in (312, 513, 613):
        b.jp(h)
    b.us("K/3/5", 311, steps=1)
    b.us("L/3/7", 313, steps=1)
    b.us("B/1/5", 411, steps=steps)
    assert (412 in control(b)) == (steps >= 3)
    comm = b.comm()
    assert [comm[p] for p in ("A2", "A7", "B12")] == [in_comm] * 3


def test_peleliu_11_2_group_4_landing_beach_hex_blocks_the_trace():
    """Group 4: communication may not pass through a U.S. landing beach hex (the book: 0214).  On
    this map the same situation stands at A6 (0209): its land neighbours are 0309, 0310 and 0210, a
    landing beach hex.  One-step U.S. units in 0309 and 0310 hold those two (controlling nothing
    else), so A6 could reach A1, A2 and A13 only through 0210 - neither occupied nor controlled by
    a U.S. unit, but a landing beach hex: A6 is out of communication while A1, A2, A13 are in.
    Without the unit in 0310 A6 traces out through it."""
    b = Board()
    assert b.terrain(210) == "beach" and b.sc.beach_box[b.hex(210)] == 0
    assert {h for h in b.neighbours(209) if b.sc.land[b.hex(h)]} == {309, 310, 210}
    for pid in ("A6", "A1", "A2", "A13"):
        b.jp(b.pos_hexnum(pid))
    b.us("K/3/5", 309, steps=1)
    u = b.us("L/3/7", 310, steps=1)
    assert 210 not in control(b)
    comm = b.comm()
    assert [comm[p] for p in ("A6", "A1", "A2", "A13")] == [False, True, True, True]
    b.state.us_loc[0, u] = 0
    assert b.comm()["A6"]


@pytest.mark.parametrize("others,in_comm", [(("B19",), False), (("B19", "B15"), True)])
def test_peleliu_11_2_group_5_position_group_counts_once(others, in_comm):
    """Group 5: both hexes of the orange group B13/B14 (0716, 0816) are occupied; the group counts as
    one position.  With only B19 occupied besides, each of B13 and B14 reaches one other position
    (out of communication), and so does B19 (the group counts once); with B15 occupied too, each
    reaches two (in communication)."""
    b = Board()
    assert b.group("B13") == b.group("B14")
    b.jp(716)
    b.jp(816)
    for pid in others:
        b.jp(b.pos_hexnum(pid))
    comm = b.comm()
    assert [comm[p] for p in ("B13", "B14", "B19")] == [in_comm] * 3


def test_peleliu_11_21_unoccupied_position_may_be_us_controlled():
    """11.21 / 9.32: the hex of an empty position may be in U.S. control and still be in
    communication: C9 (1112) empty with B/1/5 (4 steps) in 1012, next to it (so 1112 is U.S.
    controlled); C10 and C11 occupied and reachable -> C9 in communication."""
    b = Board()
    b.jp(1110)
    b.jp(1210)
    b.us("B/1/5", 1012, steps=4)
    assert 1112 in control(b)
    assert b.comm()["C9"]


# ------------------------------------------------------------------------------------------ 11.3
@pytest.mark.parametrize("state,in_comm", [("empty", True), ("occupied", False), ("disrupted", False)])
def test_peleliu_11_3_us_communication_blocked_by_fields_of_fire(state, in_comm):
    """11.3 / 11.31: every neighbour of airstrip 0917 is B19's hex (1016) or in B19's field of fire
    (0916, 1017 intense; 0918, 0816, 0817 steady).  F/2/1 in 0917 traces to a landing beach hex only
    when B19 is empty ("an empty position has no field of fire"); a disrupted unit's field still
    blocks."""
    b = Board()
    assert b.neighbours(917) == {916, 1016, 1017, 918, 817, 816}
    assert all(b.dot("B19", h) for h in (916, 1017, 918, 817, 816))
    if state != "empty":
        b.jp(1016, dis=state == "disrupted")
    b.us("F/2/1", 917)
    assert (917 in us_comm(b)) == in_comm


# ------------------------------------------------------------------------------------------ 15.2
def secure(b: Board) -> dict[str, bool]:
    out = np.zeros(len(b.sc.pos_id), np.bool_)
    secured(b.T, b.S, 0, out)
    return {pid: bool(out[p]) for p, pid in enumerate(b.sc.pos_id) if pid}


@pytest.mark.parametrize("d7", ["empty", "us", "garrison"])
def test_peleliu_15_2_secured_needs_the_intense_positions_held(d7):
    """15.2: a position is secure when a U.S. unit or garrison holds it, every position hex
    projecting intense fire into it is held too, and U.S. communication can be traced from it.
    C9 (1112) holds B/1/5; D7 (1011) projects intense fire into 1112: C9 is secure only with D7 held
    (by a unit or a garrison, 14.41); no Japanese unit is on the map (communication is clear)."""
    b = Board()
    assert b.dot("D7", 1112) == "intense"
    assert [pid for pid in b.dots_in(1112) if b.dots_in(1112)[pid] == "intense"] == ["D7"]
    b.us("B/1/5", 1112)
    if d7 == "us":
        b.us("K/3/5", 1011)
    elif d7 == "garrison":
        b.state.garrison[0, b.pos("D7")] = True
    assert secure(b)["C9"] == (d7 != "empty")


def test_peleliu_15_2_secured_needs_us_communication():
    """15.2: B13 (0716) held by B/1/5 and B5 (0616, the only position projecting intense fire into
    0716) held by K/3/5: secure.  A Japanese unit in B14 (0816) makes the B13/B14 group project its
    field: every neighbour of 0716 is then B14's hex or in that field (0615, 0616, 0715, 0717
    intense, 0815 steady): 0716 loses U.S. communication and B13 is no longer secure."""
    b = Board()
    assert [pid for pid, d in b.dots_in(716).items() if d == "intense"] == ["B5"]
    b.us("B/1/5", 716)
    b.us("K/3/5", 616)
    assert secure(b)["B13"]
    b.jp(816)
    assert all(b.dot("B13", h) for h in b.neighbours(716) - {816})
    assert 716 not in us_comm(b)
    assert not secure(b)["B13"]
