"""Default rules for the minor decisions (``decisions="major"``), where the book has "the system
AI" decide (4.1 c, 7.62):

* FPF (4.1 c, 8.4): every eligible artillery unit fires; Ground Support Points are added one at a
  time while the attacker's differential is positive and the points left reach the next lower
  column.
* Retreat route (7.62, 7.7): each hex the legal one farthest from the nearest enemy unit (lowest
  hex index on ties).
* Advance (7.62: "will usually only advance to take an objective"): a victorious unit advances
  only onto an objective hex its side does not control, the strongest unit first.
"""

from wargym.island_war.actions import CONFIRM, GS_ADD
from wargym.island_war.combat import attack_strength, crt_column, defense_strength
from wargym.island_war.retreat import advance_choices, enemy_distance
from wargym.island_war.state import ADVANCE_DEST, ADVANCE_SELECT, FPF, ON_MAP, RETREAT
from wargym.jit import njit
from wargym.kernel import first_legal

import numpy as np


@njit(cache=True)
def objective_to_take(T, S, g, out):
    """First hex marked in ``out`` holding an objective the advancing side does not control."""
    for i in range(T.obj_hex.shape[0]):
        h = T.obj_hex[i]
        if out[h] and S.objective_owner[g, i] != S.adv_side[g]:
            return h
    return -1


@njit(cache=True)
def minor_decision(T, S, g, m):
    H = T.nbr.shape[0]
    phase = S.phase[g]
    if phase == FPF:
        for h in range(H):
            if m[h]:
                return h
        if m[H + GS_ADD]:
            diff = attack_strength(T, S, g) - defense_strength(T, S, g)
            col = crt_column(T, diff)
            if diff > 0 and col > 0 and diff - T.col_min[col] + 1 <= S.gs_points[g, 1 - S.phasing[g]]:
                return H + GS_ADD
        return H + CONFIRM
    if phase == RETREAT:
        side = T.u_side[S.rt_queue[g, S.rt_head[g]]]
        best, best_score = -1, -1
        for h in range(H):
            if m[h]:
                score = enemy_distance(T, S, g, side, h)
                if score > best_score:
                    best, best_score = h, score
        return best
    if phase == ADVANCE_SELECT:
        best, best_attack = -1, -1
        out = np.zeros(H, dtype=np.bool_)
        for u in range(T.u_side.shape[0]):
            if S.unit_status[g, u] != ON_MAP or not m[S.unit_hex[g, u]]:
                continue
            out[:] = False
            advance_choices(T, S, g, u, out)
            if objective_to_take(T, S, g, out) >= 0 and T.u_attack[u] > best_attack:
                best, best_attack = S.unit_hex[g, u], T.u_attack[u]
        return best if best >= 0 else H + CONFIRM
    if phase == ADVANCE_DEST:
        h = objective_to_take(T, S, g, m[:H])  # the unit was selected for it (ADVANCE_SELECT)
        return h if h >= 0 else first_legal(m)
    return H + CONFIRM
