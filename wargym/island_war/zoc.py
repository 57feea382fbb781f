"""Zones of Control (6.0) and occupancy, computed per game from unit positions.

6.11: every unit exerts a ZOC into the six surrounding hexes at all times; 6.15: into all terrain
and across all hexsides (prohibited ones included); 6.21-6.22: friendly and enemy zones coexist,
extra units add nothing.  Nothing here is stored: positions are the truth, these are views.
"""

import numpy as np

from wargym.island_war.state import ON_MAP
from wargym.jit import njit


@njit(cache=True)
def occupancy(T, S, g):
    """int16[H]: the unit in each hex, -1 when vacant (stacking is prohibited, 5.31)."""
    occ = np.full(T.nbr.shape[0], -1, dtype=np.int16)
    for u in range(T.u_side.shape[0]):
        if S.unit_status[g, u] == ON_MAP:
            occ[S.unit_hex[g, u]] = u
    return occ


@njit(cache=True)
def enemy_zoc(T, S, g, side):
    """bool[H]: hexes controlled by the enemies of ``side`` (6.11, 6.15)."""
    zoc = np.zeros(T.nbr.shape[0], dtype=np.bool_)
    for u in range(T.u_side.shape[0]):
        if S.unit_status[g, u] == ON_MAP and T.u_side[u] != side:
            h = S.unit_hex[g, u]
            for d in range(6):
                n = T.nbr[h, d]
                if n >= 0:
                    zoc[n] = True
    return zoc


@njit(cache=True)
def adjacent(T, a, b):
    """Hexes a and b share a hexside."""
    return T.dist[a, b] == 1


@njit(cache=True)
def has_adjacent_enemy(T, S, g, u, occ):
    """Unit u stands in an enemy controlled hex (6.23: then so does that enemy)."""
    h = S.unit_hex[g, u]
    for d in range(6):
        n = T.nbr[h, d]
        if n >= 0 and occ[n] >= 0 and T.u_side[occ[n]] != T.u_side[u]:
            return True
    return False
