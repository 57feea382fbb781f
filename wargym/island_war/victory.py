"""Victory (3.0, 4.0: "at the conclusion of the last Game-Turn, the Victory Conditions are
consulted") and the control of objective hexes.

The Exclusive Rules of each game give its conditions; the scenario files express them as victory
points: an objective hex counts for the side that last entered it (its initial owner until then),
an eliminated unit gives its ``vp`` to the enemy.  margin = US points - Japanese points after the
last Game-Turn; the US wins at ``us_wins_at_margin`` or more, Japan at ``japan_wins_at_margin`` or
less, anything between is a draw.  Interpretation (README): a side with no unit left on the map and
none to arrive loses at once.
"""

import numpy as np

from wargym.events import emit
from wargym.island_war.events import ELIMINATED as EV_ELIMINATED, OBJECTIVE, REINFORCEMENT
from wargym.island_war.state import ELIMINATED, ON_MAP, OVER, WAITING
from wargym.jit import njit


@njit(cache=True)
def occupy(T, S, g, u, h):
    """Put unit u in hex h (movement, retreat, advance, displacement): an objective there is
    now controlled by u's side."""
    if S.unit_status[g, u] == WAITING:
        emit(S, g, REINFORCEMENT, u, h)
    S.unit_hex[g, u] = h
    S.unit_status[g, u] = ON_MAP
    for i in range(T.obj_hex.shape[0]):
        if T.obj_hex[i] == h:
            if S.objective_owner[g, i] != T.u_side[u]:
                emit(S, g, OBJECTIVE, h, T.u_side[u])
            S.objective_owner[g, i] = T.u_side[u]


@njit(cache=True)
def eliminate(T, S, g, u):
    emit(S, g, EV_ELIMINATED, u, S.unit_hex[g, u])
    S.unit_status[g, u] = ELIMINATED
    S.unit_hex[g, u] = -1


@njit(cache=True)
def margin(T, S, g):
    """US victory points minus Japanese victory points."""
    m = 0
    for i in range(T.obj_hex.shape[0]):
        if S.objective_owner[g, i] == 0:
            m += T.obj_vp[i]
        elif S.objective_owner[g, i] == 1:
            m -= T.obj_vp[i]
    for u in range(T.u_side.shape[0]):
        if S.unit_status[g, u] == ELIMINATED:
            m += T.u_vp[u] if T.u_side[u] == 1 else -T.u_vp[u]
    return m


@njit(cache=True)
def margins(T, S):
    """int64[B]: ``margin`` of every game."""
    out = np.empty(S.phase.shape[0], dtype=np.int64)
    for g in range(out.shape[0]):
        out[g] = margin(T, S, g)
    return out


@njit(cache=True)
def finish(S, g, winner):
    """End the game: +1 to the winner, -1 to the loser, 0 each on a draw (winner -1)."""
    S.phase[g] = OVER
    S.terminated[g] = True
    if winner >= 0:
        S.rewards[g, winner] = 1.0
        S.rewards[g, 1 - winner] = -1.0


@njit(cache=True)
def final_result(T, S, g):
    """The winner after the last Game-Turn (-1 draw)."""
    m = margin(T, S, g)
    if m >= T.us_win:
        return 0
    if m <= T.japan_win:
        return 1
    return -1


@njit(cache=True)
def side_wiped_out(T, S, g):
    """The side with no unit on the map and none to arrive (-1 when both still fight)."""
    alive0, alive1 = False, False
    for u in range(T.u_side.shape[0]):
        st = S.unit_status[g, u]
        if st == ON_MAP or st == WAITING:
            if T.u_side[u] == 0:
                alive0 = True
            else:
                alive1 = True
    if not alive0:
        return 0
    if not alive1:
        return 1
    return -1
