"""Ground Support (9.0): off-map artillery and air power as points per Game-Turn.

9.11: one point = one artillery strength point, barrage or FPF.  9.12/9.13: any split, any
target, unlimited range.  9.14: points not used in their Game-Turn are lost (the pool is reset
from the track at the start of every Game-Turn; both Player-Turns draw on the same pool, as the
example in 9.0 says).  9.15: points never attack or defend alone: they join an attack with at
least one attacking unit, or the defence of a unit under attack.
"""

from wargym.jit import njit


@njit(cache=True)
def may_add_barrage(T, S, g):
    """9.15: at least one unit is attacking, and points are left."""
    if S.gs_points[g, S.phasing[g]] <= 0:
        return False
    for u in range(T.u_side.shape[0]):
        if S.cb_attacker[g, u]:
            return True
    return False


@njit(cache=True)
def may_add_fpf(T, S, g):
    """9.0 as FPF for the non-phasing player; 8.45 applies to Ground Support FPF as well."""
    return S.gs_points[g, 1 - S.phasing[g]] > 0


@njit(cache=True)
def start_of_game_turn(T, S, g):
    """9.14: the new Game-Turn's allocation replaces whatever was left."""
    t = S.turn[g]
    S.gs_points[g, 0] = T.gs[t, 0]
    S.gs_points[g, 1] = T.gs[t, 1]
