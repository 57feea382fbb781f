"""The standing used as the potential of the shaped reward (victory.standing, envs/single.py): not a
rule of the book, but it must not pay a policy for dying early.  Worked by hand on boards built like
the rule tests' (tests/peleliu/peleliu_board.py): no Japanese unit on the map (U.S. communication
everywhere), A5 (0314) and A6 (0209) held by garrisons (nothing projects intense fire into them).

A5 and A6 secured: 2 positions, both beach-firing (+2), both the goal-3 coral positions (+2 each):
8 points before losses.  With s the Infantry Loss Box (and the units over the stacking limit)
over the turn's catastrophic level (configs/peleliu/charts.yaml: 14 at turn 5, 18 at turn 6, 42 at
turn 12), capped at 1, the loss term is 5 s + 20 s^3, so a catastrophic loss (15.1, s = 1) costs 25.
"""

from __future__ import annotations

import pytest

from peleliu_board import Board
from wargym.peleliu.state import R_LOSS
from wargym.peleliu.victory import catastrophic_now, over_limit, standing, tallies


def a5_a6_board(turn: int, loss_box: int) -> Board:
    b = Board(turn=turn)
    for pid in ("A5", "A6"):
        b.state.garrison[0, b.pos(pid)] = True
    b.state.loss_box[0] = loss_box
    return b


def test_peleliu_standing_catastrophic_defeat_at_turn_6_below_surviving():
    """Turn 6, 18 counters in the Infantry Loss Box: the level of turn 6 is reached, 15.1 ends the
    game (a defeat): 8 - 5 - 20 = -17.  The same positions at the end of turn 12 with 30 counters
    (level 42, no catastrophic loss): 8 - 5 x 30/42 - 20 x (30/42)^3 = -2.86.  And still in play at
    turn 6 with 17 counters: 8 - 5 x 17/18 - 20 x (17/18)^3 = -13.57.  (An older standing, 8 - 0.5 x
    loss box, gave the early defeat -1 and the long fight -7: dying early paid.)"""
    dead = a5_a6_board(turn=6, loss_box=18)
    assert int(dead.T.catastrophic[6]) == 18 and int(dead.T.catastrophic[12]) == 42
    beach, zb, a56 = tallies(dead.T, dead.S, 0)[:3]
    assert (beach, zb, a56) == (2, 0, 2)
    assert catastrophic_now(dead.T, dead.S, 0)
    assert int(dead.state.result[0]) == R_LOSS and dead.state.terminated[0]
    assert standing(dead.T, dead.S, 0) == pytest.approx(8 - 5 - 20)

    survived = a5_a6_board(turn=12, loss_box=30)
    assert not catastrophic_now(survived.T, survived.S, 0)
    assert standing(survived.T, survived.S, 0) == pytest.approx(-2.860, abs=1e-3)

    alive = a5_a6_board(turn=6, loss_box=17)
    assert not catastrophic_now(alive.T, alive.S, 0)
    assert standing(alive.T, alive.S, 0) == pytest.approx(-13.571, abs=1e-3)

    assert standing(dead.T, dead.S, 0) < standing(alive.T, alive.S, 0) < standing(survived.T, survived.S, 0)


@pytest.mark.parametrize("turn,level", [(1, 14), (4, 14), (5, 14), (9, 30)])
def test_peleliu_standing_losses_measured_against_the_turns_level(turn, level):
    """Before turn 5 (no catastrophic loss yet, 15.1) the box is measured against turn 5's level; 7
    counters cost 5 s + 20 s^3 with s = 7 / level.  A box at the level before turn 5 costs the full 25:
    the box never empties and turn 5 measures it against the same level (15.1)."""
    b = a5_a6_board(turn=turn, loss_box=7)
    assert standing(b.T, b.S, 0) == pytest.approx(8 - 5 * 7 / level - 20 * (7 / level) ** 3)
    early = a5_a6_board(turn=min(turn, 4), loss_box=14)
    if turn < 5:
        assert standing(early.T, early.S, 0) == pytest.approx(8 - 25)
        assert not early.state.terminated[0]


def test_peleliu_7_5_standing_counts_units_over_the_stacking_limit_as_losses():
    """7.5: two units a hex at the end of the Action Phase; 7.51: a regimental HQ does not count, an
    infantry/HQ does; 7.53: the excess is eliminated then.  The standing charges each unit over the
    limit as a counter already in the Infantry Loss Box, when the hex is overstacked.  Turn 9
    (level 30), 6 counters in the box, A5 and A6 held (8 points).  Three infantry companies and
    RHQ/1 in hex 0416: one over, s = 7 / 30; with HQ/1/1 too, two over, s = 8 / 30; C/1/1 and
    HQ/1/1 moved to 0415 (two and two; neither hex a position): none over, s = 6 / 30."""
    b = a5_a6_board(turn=9, loss_box=6)
    assert int(b.T.catastrophic[9]) == 30
    here = b.hex(416)
    assert b.T.land[here] and b.T.hex_pos[here] < 0
    for name in ("A/1/1", "B/1/1", "C/1/1", "RHQ/1"):
        b.us(name, 416)

    def term(counters):
        return 8 - 5 * counters / 30 - 20 * (counters / 30) ** 3

    assert over_limit(b.T, b.S, 0) == 1
    assert standing(b.T, b.S, 0) == pytest.approx(term(7))
    b.us("HQ/1/1", 416)
    assert over_limit(b.T, b.S, 0) == 2
    assert standing(b.T, b.S, 0) == pytest.approx(term(8))
    b.us("C/1/1", 415)
    b.us("HQ/1/1", 415)
    assert b.T.hex_pos[b.hex(415)] < 0
    assert over_limit(b.T, b.S, 0) == 0
    assert standing(b.T, b.S, 0) == pytest.approx(term(6))
